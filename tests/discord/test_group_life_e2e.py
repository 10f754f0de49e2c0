"""Life around the games in a channel, through the real discord.py and the fake Discord: a lobby
left alone expires (its message says so, with no buttons) and a new table opens; /leave mid-game
hands the seat to the computer and the game finishes with the leaver rated as a loss; /kick is
refused to a member who is neither the creator nor an admin, and an admin kicks from the list;
/leaderboard period:season."""

from __future__ import annotations

import random

from bot.service.seasons import season_of
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    Backend,
    Watch,
    assert_all_answered,
    backend,
    find_id,
    ids_on,
    make_bot,
    my_hand,
    open_table,
    play_out,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import FakeDiscord

__all__ = ["backend"]  # the fixture, imported for this module's tests

NOT_ALLOWED = "Solo chi ha aperto il tavolo o un amministratore può farlo."


async def test_a_lobby_left_alone_expires_and_a_new_table_opens(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa")
        table_id = table_id_of(lobby)
        backend.now += 601  # ten minutes (the default) and a second, nobody joined
        fired = await handler.service.fire_due_timers()
        assert [r.table.id for r in fired if r.table is not None] == [table_id]
        for result in fired:
            await handler.deliver(result)
        closed = fake.messages[lobby.id]
        # The lobby's message says why it closed (Discord edits in the closing words).
        assert "nessuno ha iniziato la partita" in closed.content.lower(), closed.content
        assert not ids_on(closed)
        assert any("per 10 minuti" in text for text in fake.public_texts())
        assert await handler.service.fire_due_timers() == []
        again = await open_table(fake, bob, "scopa")
        assert table_id_of(again) != table_id
    assert_all_answered(fake)


async def _two_player_game(fake: FakeDiscord, handler: object, alice: object, bob: object) -> int:
    lobby = await open_table(fake, alice, "scopa", players=2)  # type: ignore[arg-type]
    joined = await fake.click(bob, lobby, find_id(lobby, "@join"))  # type: ignore[arg-type]
    await joined.wait_answer()
    await settle(handler, fake, joined)  # type: ignore[arg-type]
    lobby = fake.messages[lobby.id]
    started = await fake.click(alice, lobby, find_id(lobby, "@start"))  # type: ignore[arg-type]
    await started.wait_answer()
    await settle(handler, fake, started)  # type: ignore[arg-type]
    return table_id_of(lobby)


async def test_leave_mid_game_and_the_leaver_loses(fake: FakeDiscord, backend: Backend) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table_id = await _two_player_game(fake, handler, alice, bob)
        table = next(m for m in fake.channel_messages() if table_id_of_safe(m) == table_id)
        bob_hand = await my_hand(fake, handler, bob, table)
        left = await fake.slash(bob, "leave")
        await left.wait_answer()
        await settle(handler, fake, left)
        assert any("bob ha lasciato la partita" in t for t in fake.public_texts())
        # His hand keeps no buttons: nothing to press into a game he left; it says he left
        # (not "Waiting for alice").
        assert not ids_on(fake.messages[bob_hand.id])
        assert "Hai lasciato questa partita" in fake.messages[bob_hand.id].content
        assert "Si aspetta" not in fake.messages[bob_hand.id].content
        table = fake.messages[table.id]
        await play_out(
            fake,
            handler,
            alice,
            table,
            rng=random.Random(5),
            table_id=table_id,
            watch=Watch(fake),
        )
        ratings = {
            r.scope: r
            for r in await handler.service.store.player_ratings(
                platform="discord", user_id=str(bob.id)
            )
        }
        assert (ratings["global"].games, ratings["global"].wins) == (1, 0)
        board = await fake.slash(alice, "leaderboard", game="scopa", scope="chat", period="season")
        (reply,) = await board.wait_messages(1)
        await settle(handler, fake, board)
        assert f"Stagione {season_of(backend.now)}" in reply.content, reply.content
        assert "bob" in reply.content and "1 partita" in reply.content
    assert_all_answered(fake)


def table_id_of_safe(message: object) -> int | None:
    try:
        return table_id_of(message)  # type: ignore[arg-type]
    except (IndexError, ValueError):
        return None


async def test_kick_refused_to_members_and_done_by_an_admin(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob, carol, admin = (fake.add_user(n) for n in ("alice", "bob", "carol", "admin"))
    fake.admins.add(admin.id)
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table_id = await _two_player_game(fake, handler, alice, bob)
        refused = await fake.slash(carol, "kick", player=bob.id)
        (no,) = await refused.wait_messages(1)
        await settle(handler, fake, refused)
        assert no.ephemeral and no.content == NOT_ALLOWED
        listed = await fake.slash(admin, "kick")
        (menu,) = await listed.wait_messages(1)
        await settle(handler, fake, listed)
        assert menu.ephemeral
        kicks = [cid for cid in ids_on(menu) if ":@kick." in cid]
        assert len(kicks) == 2, ids_on(menu)
        bob_seat = next(cid for cid in kicks if "bob" in _label(menu, cid))
        pressed = await fake.click(admin, menu, bob_seat)
        await pressed.wait_answer()
        await settle(handler, fake, pressed)
        assert any("admin ha allontanato bob" in t for t in fake.public_texts())
        live = await handler.service.live(table_id)
        assert any(s and s.left and s.user_id == str(bob.id) for s in live.row.seats)
    assert_all_answered(fake)


def _label(message: object, custom_id: str) -> str:
    for row in getattr(message, "components", []):
        for item in row.get("components", []):
            if item.get("custom_id") == custom_id:
                return str(item.get("label", ""))
    return ""


async def test_a_table_opened_with_rejoin_lets_the_leaver_back(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", players=2, rejoin=True)
        joined = await fake.click(bob, lobby, find_id(lobby, "@join"))
        await joined.wait_answer()
        await settle(handler, fake, joined)
        lobby = fake.messages[lobby.id]
        started = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await started.wait_answer()
        await settle(handler, fake, started)
        left = await fake.slash(bob, "leave")
        await left.wait_answer()
        await settle(handler, fake, left)
        said = next(m for m in fake.channel_messages() if "bob ha lasciato" in m.content)
        back = await fake.click(bob, said, find_id(said, "@back"))
        await back.wait_answer()
        await settle(handler, fake, back)
        live = await handler.service.live(table_id_of(lobby))
        bob_seat = next(s for s in live.row.seats if s and s.user_id == str(bob.id))
        assert not bob_seat.left and not bob_seat.away
    assert_all_answered(fake)


async def test_leaving_from_the_hand_asks_first_and_clears_it(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table_id = await _two_player_game(fake, handler, alice, bob)
        table = next(m for m in fake.channel_messages() if table_id_of_safe(m) == table_id)
        hand = await my_hand(fake, handler, bob, table)
        asked = await fake.click(bob, hand, find_id(hand, "@quit"))
        await asked.wait_answer()
        await settle(handler, fake, asked)
        question = fake.messages[hand.id]
        assert "Lasci la partita?" in question.content, question.content
        left = await fake.click(bob, question, find_id(question, "@leave"))
        await left.wait_answer()
        await settle(handler, fake, left)
        assert any("bob ha lasciato la partita" in t for t in fake.public_texts())
        assert not ids_on(fake.messages[hand.id])
        assert "Hai lasciato questa partita" in fake.messages[hand.id].content
    assert_all_answered(fake)


async def test_a_new_table_replaces_a_stale_lobby(fake: FakeDiscord, backend: Backend) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        old = await open_table(fake, alice, "scopa")
        old_id = table_id_of(old)
        backend.now += 660  # stale, and the timer loop has not run
        new = await open_table(fake, bob, "scopa")
        await settle(handler, fake, new)
        assert table_id_of(new) != old_id
        assert find_id(new, "@join")
        closed = fake.messages[old.id]
        assert "nessuno ha iniziato la partita" in closed.content.lower(), closed.content
        assert not ids_on(closed)
    assert_all_answered(fake)


async def test_abandon_mid_game_every_hand_says_the_table_is_closed(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table_id = await _two_player_game(fake, handler, alice, bob)
        table = next(m for m in fake.channel_messages() if table_id_of_safe(m) == table_id)
        hands = [
            await my_hand(fake, handler, alice, table),
            await my_hand(fake, handler, bob, fake.messages[table.id]),
        ]
        closed = await fake.slash(alice, "abandon")
        await closed.wait_answer()
        await settle(handler, fake, closed)
        for hand in hands:
            shown = fake.messages[hand.id]
            assert not ids_on(shown)
            assert "Il tavolo è stato chiuso." in shown.content, shown.content
            assert "Tocca a te" not in shown.content
    assert_all_answered(fake)
