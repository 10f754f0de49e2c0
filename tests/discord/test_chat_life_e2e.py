"""Life around the games on Discord, through the real discord.py and the fake Discord: the
channel's language (the server's preferred locale, or one an admin sets), replies in the user's
own language, /stats about another player, a closed table's message, public leaderboards, no
public "thinking…" before a private refusal, and answering Discord before other edits.
"""

from __future__ import annotations

import re

from bot.service import ChatRef
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    Backend,
    assert_all_answered,
    backend,
    find_id,
    make_bot,
    move_ids,
    my_hand,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import CHANNEL_MESSAGE, FakeDiscord, InteractionRecord

__all__ = ["backend"]  # the fixture, imported for this module's tests


def _position(fake: FakeDiscord, method: str, pattern: str, after: int = 0) -> int:
    """The index in the fake's request log of the first request matching, from ``after``."""
    for index, (m, path) in enumerate(fake.requests[after:], start=after):
        if m == method and re.search(pattern, path):
            return index
    raise AssertionError(f"no {method} {pattern} in {fake.requests[after:]}")


def _callback(record: InteractionRecord) -> str:
    return rf"/interactions/{record.id}/"


async def test_an_english_server_gets_english_tables(fake: FakeDiscord, backend: Backend) -> None:
    fake.guild_locale = "en-US"
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        # alice's own client is Italian: the public table follows the server, her hand her.
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        table = fake.messages[lobby.id]
        assert "Turn:" in table.content, table.content
        hand = await my_hand(fake, handler, alice, table)
        assert "La tua mano" in hand.content
    assert_all_answered(fake)


async def test_lang_answers_a_sentence_and_admins_set_the_channel(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, admin = fake.add_user("alice"), fake.add_user("admin")
    fake.admins.add(admin.id)
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        mine = await fake.slash(alice, "lang", language="en")
        (reply,) = await mine.wait_messages(1)
        assert reply.ephemeral and reply.content.startswith("Your language: English.")
        # /help and /style follow /lang, not the (Italian) client
        helped = await fake.slash(alice, "help")
        (text,) = await helped.wait_messages(1)
        assert "Show the leaderboard" in text.content, text.content
        style = await fake.slash(alice, "style", deck="piacentine")
        (styled,) = await style.wait_messages(1)
        assert styled.content.startswith("Card pictures"), styled.content
        # only an admin sets the channel's language
        refused = await fake.slash(alice, "lang", language="en", scope="chat")
        (no,) = await refused.wait_messages(1)
        assert no.ephemeral and "admin" in no.content
        assert await handler.service.chat_locale(ChatRef("discord", str(fake.channel_id))) == "it"
        done = await fake.slash(admin, "lang", language="en", scope="chat")
        (yes,) = await done.wait_messages(1)
        assert not yes.ephemeral and yes.content.startswith("This channel's language: English.")
        lobby = await open_table(fake, admin, "scopa", computers=1)
        assert "Players" in lobby.content or "Join" in str(lobby.components), lobby.content
    assert_all_answered(fake)


async def test_help_names_commands_with_mentions_the_client_shows_in_its_language(
    fake: FakeDiscord, backend: Backend
) -> None:
    """After ``/lang it`` an English client still sees its own command names: /help writes
    each command as a mention (``</name:id>``, the synced command's id), never a localized
    name such as /classifica that the client does not know."""
    alice = fake.add_user("alice")
    bot, _ = await make_bot(backend)
    async with running(bot, fake):
        mine = await fake.slash(alice, "lang", language="it", locale="en-US")
        await mine.wait_messages(1)
        helped = await fake.slash(alice, "help", locale="en-US")
        (text,) = await helped.wait_messages(1)
        ids = {c["name"]: c["id"] for c in fake.global_commands}
        for name in ("leaderboard", "hand", "notify", "scopa", "help"):
            assert f"</{name}:{ids[name]}>" in text.content, text.content
        for italian in ("/classifica", "/mano", "/notifiche", "/aiuto"):
            assert italian not in text.content, text.content
        assert "Mostra la classifica" in text.content or "classifica" in text.content.lower()
        again = await fake.slash(alice, "help", locale="en-US")
        await again.wait_messages(1)
    # The ids were fetched once (the commands were synced before this process asked).
    fetches = [r for r in fake.requests if r[0] == "GET" and r[1].endswith("/commands")]
    assert len(fetches) <= 1, fetches
    assert_all_answered(fake)


async def test_stats_about_another_player_go_to_the_asker(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        asked = await fake.slash(alice, "stats", player=bob.id)
        (reply,) = await asked.wait_messages(1)
        await settle(handler, fake, asked)
        assert reply.ephemeral and "bob" in reply.content
        assert fake.dm_messages(bob) == []
    assert_all_answered(fake)


async def test_the_global_leaderboard_answers_publicly(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        for scope in ("global", "chat"):
            record = await fake.slash(alice, "leaderboard", game="scopa", scope=scope)
            (reply,) = await record.wait_messages(1)
            await settle(handler, fake, record)
            assert not reply.ephemeral and reply.content, scope
    assert_all_answered(fake)


async def test_a_second_table_is_refused_privately_without_a_public_flash(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa")
        assert lobby.id == fake.interactions[max(fake.interactions)].original.id  # the reply
        second = await fake.slash(bob, "scopa")
        await second.wait_answer()
        await settle(handler, fake, second)
        assert second.callback_type == CHANNEL_MESSAGE  # answered at once, not "thinking…"
        assert second.original is not None and second.original.ephemeral
        assert [m for m in second.messages() if not m.ephemeral] == []
    assert_all_answered(fake)


async def test_abandon_closes_the_table_message_and_answers_first(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        table_id = table_id_of(lobby)
        hand = await my_hand(fake, handler, alice, fake.messages[lobby.id])
        assert move_ids(hand)
        mark = len(fake.requests)
        closed = await fake.slash(alice, "abandon")
        (announcement,) = await closed.wait_messages(1)
        await settle(handler, fake, closed)
        assert not announcement.ephemeral
        table = fake.messages[lobby.id]
        assert table.components == [] and "chiuso" in table.content, table.content
        assert not fake.messages[hand.id].components  # the hand keeps no live buttons
        # Discord heard back before the table message was edited.
        answered = _position(fake, "POST", _callback(closed), mark)
        edited = _position(fake, "PATCH", rf"/channels/\d+/messages/{lobby.id}$", mark)
        assert answered < edited
        export = await handler.service.export_game(table_id)
        assert export["status"] == "abandoned"
    assert_all_answered(fake)


async def test_a_press_is_acknowledged_before_any_edit(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        hand = await my_hand(fake, handler, alice, fake.messages[lobby.id])
        mark = len(fake.requests)
        record = await fake.click(alice, hand, move_ids(hand)[0])
        await record.wait_answer()
        await settle(handler, fake, record)
        answered = _position(fake, "POST", _callback(record), mark)
        edits = [
            i
            for i, (method, _) in enumerate(fake.requests[mark:], start=mark)
            if method in ("PATCH", "POST", "DELETE") and i != answered
        ]
        assert edits and answered < min(edits)
    assert_all_answered(fake)
