"""Hands that follow the game, and turn mentions, through the real discord.py and the fake.

A player who pressed "My hand" once keeps that one ephemeral message: the bot edits it through
the interaction's webhook as the game goes on (the other players' moves, the computers' turns,
new deals), while the token works; when it has run out, the turn notice in the channel carries
a fresh "My hand" button. Turn notices mention only the player whose turn it is, once per turn,
never the player who just moved, never a player alone against the computer, never a player who
said ``/notify off``, and never a player who is looking (an interaction within
``PING_AFTER_IDLE_SECONDS``: their hand, edited to "Your turn", is in front of them).
"""

from __future__ import annotations

import random

import pytest

from bot.service import TableService
from bot.service.presence import Presence
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    MAX_PRESSES,
    Backend,
    Watch,
    action_of,
    assert_all_answered,
    assert_no_hand_in_channel,
    backend,
    find_id,
    make_bot,
    move_ids,
    my_hand,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import EPHEMERAL, FakeDiscord, FakeUser, StoredMessage

__all__ = ["backend"]  # the fixture, imported for this module's tests


async def _two_player_table(
    fake: FakeDiscord, handler: object, alice: FakeUser, bob: FakeUser, **options: object
) -> tuple[StoredMessage, int]:
    lobby = await open_table(fake, alice, "scopa", players=2, **options)
    join = await fake.click(bob, lobby, find_id(lobby, "@join"))
    await join.wait_answer()
    await settle(handler, fake, join)  # type: ignore[arg-type]
    start = await fake.click(
        alice, fake.messages[lobby.id], find_id(fake.messages[lobby.id], "@start")
    )
    await start.wait_answer()
    await settle(handler, fake, start)  # type: ignore[arg-type]
    return fake.messages[lobby.id], table_id_of(lobby)


def _turn_notices(fake: FakeDiscord) -> list[StoredMessage]:
    return [
        m
        for m in fake.messages.values()
        if not m.ephemeral
        and m.channel_id in fake.text_channels
        and any(action_of(c) == "~hand" for c in m.custom_ids())
    ]


async def _finished(service: TableService, table_id: int) -> bool:
    return (await service.export_game(table_id))["status"] == "finished"


@pytest.mark.slow
async def test_two_players_each_open_my_hand_once_and_finish_the_game(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    idle = [0.0]  # the presence's own clock: a player looks away when it jumps a minute
    handler.presence = Presence(idle_after=60, clock=lambda: idle[0])
    watch = Watch(fake)
    rng = random.Random(5)
    async with running(bot, fake):
        table, table_id = await _two_player_table(fake, handler, alice, bob)
        hands = {
            alice.id: (await my_hand(fake, handler, alice, table)).id,
            bob.id: (await my_hand(fake, handler, bob, fake.messages[table.id])).id,
        }
        players = {alice.id: alice, bob.id: bob}
        pings: list[tuple[int, int]] = []  # (who moved last, who was pinged)
        seen: set[int] = set()
        moves = 0
        away_turns = 0
        last_seen = dict.fromkeys(players, 0.0)  # on the presence's clock
        for step in range(MAX_PRESSES):
            if await _finished(handler.service, table_id):
                break
            to_move = [u for u, m in hands.items() if move_ids(fake.messages[m])]
            assert len(to_move) == 1, {
                players[u].username: fake.messages[m].content for u, m in hands.items()
            }
            user = players[to_move[0]]
            other = next(u for u in players if u != user.id)
            hand = fake.messages[hands[user.id]]
            chosen = rng.choice(move_ids(hand))
            away = step % 4 == 0  # the other player has not touched the game for a minute
            if away:
                idle[0] += 61
            last_seen[user.id] = idle[0]
            record = await fake.click(user, hand, chosen)
            await record.wait_answer()
            await settle(handler, fake, record)
            moved = not action_of(chosen).startswith("?")
            # The other player was away when they last pressed before the clock jumped.
            was_away = idle[0] - last_seen[other] >= 60
            turn_passed = bool(move_ids(fake.messages[hands[other]]))  # (a new deal may not)
            due = moved and was_away and turn_passed
            new_pings = []
            for notice in _turn_notices(fake):
                if notice.id not in seen:
                    seen.add(notice.id)
                    new_pings.extend(notice.pings)
            pings.extend((user.id, pinged) for pinged in new_pings)
            # A ping exactly when the turn passed to a player who was not looking.
            assert new_pings == ([other] if due else []), (step, new_pings)
            away_turns += due
            if moved:
                moves += 1
            await watch.check(handler.service, table_id)
            # never more than one turn notice in the channel
            assert len(_turn_notices(fake)) <= 1
        else:
            raise AssertionError("the game did not end within the bound")
        # Each kept the one hand message all game long, never pressing "My hand" again; once
        # the game is over the hands keep no buttons.
        for message_id in hands.values():
            assert message_id in fake.messages and not fake.messages[message_id].components
            assert fake.messages[message_id].history[0] != fake.messages[message_id].content
        hand_presses = [
            r
            for r in fake.interactions.values()
            if r.source_message_id == table.id and r.callback_type is not None
        ]
        assert len(hand_presses) == 2 + 2  # start, join... and one "My hand" each
        assert len(fake.messages[hands[bob.id]].history) > 5  # edited by alice's moves too
    assert moves > 20
    # Every mention named the player to move, never the one who had just moved, and only when
    # they were away: far fewer than one a turn.
    assert pings and all(pinged != mover for mover, pinged in pings), pings
    assert {pinged for _, pinged in pings} == {alice.id, bob.id}
    assert len(pings) == away_turns < moves / 2
    assert all(m.pings == [] for m in fake.messages.values() if m.id not in seen)
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


async def test_alone_against_the_computer_nobody_is_mentioned(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    rng = random.Random(2)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        hand = await my_hand(fake, handler, alice, fake.messages[lobby.id])
        for _ in range(MAX_PRESSES):
            if await _finished(handler.service, table_id):
                break
            choices = move_ids(fake.messages[hand.id])
            assert choices, fake.messages[hand.id].content  # the hand followed the game
            record = await fake.click(alice, fake.messages[hand.id], rng.choice(choices))
            await record.wait_answer()
            await settle(handler, fake, record)
        else:
            raise AssertionError("the game did not end within the bound")
    assert all(m.pings == [] for m in fake.messages.values())
    assert _turn_notices(fake) == []
    assert_all_answered(fake)


async def test_an_expired_hand_falls_back_to_a_fresh_my_hand_prompt(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    handler.presence = Presence(idle_after=0)  # nobody counts as looking: a mention every turn
    async with running(bot, fake):
        table, table_id = await _two_player_table(fake, handler, alice, bob)
        alice_hand = await my_hand(fake, handler, alice, table)
        bob_hand = await my_hand(fake, handler, bob, fake.messages[table.id])
        first, second = (alice, alice_hand), (bob, bob_hand)
        if not move_ids(alice_hand):
            first, second = second, first
        place = await handler.hands.get(first[0].id, table_id)
        assert place is not None and place.message_id == first[1].id
        # Fifteen minutes pass for Discord only: the bot still trusts the token, and the edit
        # of the waiting player's hand is refused (401); the turn notice takes over.
        fake.advance(16 * 60)
        mover, mover_hand = first
        waiting, _ = second
        # The mover's press brings a fresh token for the mover's own hand.
        chosen = move_ids(mover_hand)[0]
        record = await fake.click(mover, mover_hand, chosen)
        await record.wait_answer()
        await settle(handler, fake, record)
        if action_of(chosen).startswith("?"):
            again = fake.messages[mover_hand.id]
            record = await fake.click(mover, again, move_ids(again)[0])
            await record.wait_answer()
            await settle(handler, fake, record)
        assert fake.expired_calls >= 1
        assert await handler.hands.get(waiting.id, table_id) is None  # forgotten
        (notice,) = _turn_notices(fake)
        assert notice.pings == [waiting.id]
        # The fresh prompt: "My hand" on the turn notice gives a new hand with the moves.
        press = await fake.click(waiting, notice, find_id(notice, "~hand"))
        await press.wait_answer()
        await settle(handler, fake, press)
        fresh = [m for m in press.followups if m.ephemeral]
        assert fresh and move_ids(fresh[-1])
        assert fake.messages[notice.id].content == notice.content  # not taken for the table
        place = await handler.hands.get(waiting.id, table_id)
        assert place is not None and place.message_id == fresh[-1].id
        # Now the bot's clock also says the token ran out: no call is even tried.
        calls = fake.expired_calls
        fake.advance(16 * 60)
        backend.now += 16 * 60
        record = await fake.click(waiting, fresh[-1], move_ids(fresh[-1])[0])
        await record.wait_answer()
        await settle(handler, fake, record)
        assert fake.expired_calls == calls
    assert_all_answered(fake)


async def test_notify_off_stops_the_mentions_of_that_player_only(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    handler.presence = Presence(idle_after=0)  # nobody counts as looking: a mention every turn
    async with running(bot, fake):
        off = await fake.slash(bob, "notify", state="off", locale="en-US")
        (reply,) = await off.wait_messages(1)
        assert reply.flags & EPHEMERAL and "off" in reply.content
        stored = await handler.state.state_get(platform="discord", kind="notify", scope=str(bob.id))
        assert stored == {"on": False}
        table, _ = await _two_player_table(fake, handler, alice, bob)
        hands = {
            alice.id: await my_hand(fake, handler, alice, table),
            bob.id: await my_hand(fake, handler, bob, fake.messages[table.id]),
        }
        users = {alice.id: alice, bob.id: bob}
        for _ in range(12):
            user_id = next(u for u, m in hands.items() if move_ids(fake.messages[m.id]))
            hand = fake.messages[hands[user_id].id]
            record = await fake.click(users[user_id], hand, move_ids(hand)[0])
            await record.wait_answer()
            await settle(handler, fake, record)
        assert bob.id not in fake.pinged and alice.id in fake.pinged
        on = await fake.slash(bob, "notify", state="on")
        await on.wait_messages(1)
        assert await handler.notify_on(bob.id)
    assert_all_answered(fake)


@pytest.mark.parametrize("custom_id", ["join|42", "42:3:@table"])
async def test_a_button_of_an_older_version_is_acknowledged(
    fake: FakeDiscord, backend: Backend, custom_id: str
) -> None:
    """Another format of custom id, or Tavolo's naming an action this version does not
    know: one short notice (the component items pass it over)."""
    alice = fake.add_user("alice")
    bot, _ = await make_bot(backend)
    async with running(bot, fake):
        old = fake.post_as_bot(
            "Scopa (old)",
            [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Join", "custom_id": custom_id}
                    ],
                }
            ],
        )
        record = await fake.click(alice, old, custom_id, locale="en-US")
        (reply,) = await record.wait_messages(1)
        assert reply.ephemeral and reply.content == "This button is no longer in use."
    assert_all_answered(fake)


async def test_a_dm_hand_is_edited_in_place_all_game(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    rng = random.Random(8)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        asked = await fake.slash(alice, "hand", dm=True)
        await asked.wait_answer()
        await settle(handler, fake, asked)
        (hand,) = fake.dm_messages(alice)
        presses = 0
        for _ in range(MAX_PRESSES):
            if await _finished(handler.service, table_id):
                break
            choices = move_ids(fake.messages[hand.id])
            assert choices, fake.messages[hand.id].content
            record = await fake.click(alice, fake.messages[hand.id], rng.choice(choices))
            await record.wait_answer()
            await settle(handler, fake, record)
            presses += 1
        else:
            raise AssertionError("the game did not end within the bound")
        # One DM all game long, edited at every press, without buttons once the game is over.
        assert [m.id for m in fake.dm_messages(alice)] == [hand.id]
        assert len(fake.messages[hand.id].history) > presses // 2
        assert fake.messages[hand.id].components == []
    assert_all_answered(fake)


async def test_hands_keep_following_the_game_after_a_restart(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    users = {alice.id: alice, bob.id: bob}

    async def play(handler: object, hands: dict[int, StoredMessage], moves: int) -> None:
        for _ in range(moves):
            user_id = next(u for u, m in hands.items() if move_ids(fake.messages[m.id]))
            hand = fake.messages[hands[user_id].id]
            record = await fake.click(users[user_id], hand, move_ids(hand)[-1])
            await record.wait_answer()
            await settle(handler, fake, record)  # type: ignore[arg-type]

    async with running(bot, fake):
        table, _ = await _two_player_table(fake, handler, alice, bob)
        hands = {
            alice.id: await my_hand(fake, handler, alice, table),
            bob.id: await my_hand(fake, handler, bob, fake.messages[table.id]),
        }
        await play(handler, hands, 4)
    bot, handler = await make_bot(backend)  # a new process: where the hands are is in the store
    async with running(bot, fake):
        edits = {u: len(fake.messages[m.id].history) for u, m in hands.items()}
        await play(handler, hands, 6)
        assert all(len(fake.messages[m.id].history) > edits[u] for u, m in hands.items())
    assert_all_answered(fake)
