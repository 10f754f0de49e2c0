"""A move is made at once, whatever the group's flood-limit budget: only its messages wait.

The fake Bot API enforces Telegram's real limits (20 calls a minute in a group, 429 with
``retry_after`` past them) and the bot runs its production limiter. The group's window is
filled first, so every group message of the moves below has to wait for it; players then tap
about once a second, inline or on their private hand's buttons, and each move must be made
(the table's version advances) without waiting for any of those messages.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.service import decode_button
from bot.telegram.limiter import PacedRateLimiter, Stopping
from tests.fakes.telegram_api import (
    FLOOD_COUNTED,
    JSON,
    FakeBotApi,
    StoredMessage,
    group_chat,
    user,
)
from tests.telegram.harness import Tavolo, action_data, hand_message, move_buttons
from tests.telegram.inline_play import LOOK, ask, game_now, version_of

ALICE = user(1201, "Alice")
BOB = user(1202, "Bob")
GROUP = group_chat(-100900, "Tavolata")
MOVES = 8
TAP_EVERY = 1.0  # friends who know the game
# Bounded waits (the moves must not wait for the group's window: a minute when full).
MADE_WAIT = 15.0


def lobby_message(api: FakeBotApi, chat_id: int) -> StoredMessage | None:
    """The newest lobby the bot posted in the chat (its "join" button), if any yet."""
    for message in reversed(api.bot_messages(chat_id)):
        if any(str(b.get("callback_data", "")).endswith(":@join") for b in message.buttons()):
            return message
    return None


async def open_scopa(tavolo: Tavolo) -> int:
    api = tavolo.api
    await tavolo.say(GROUP, ALICE, "/scopa 2 target=21")
    lobby = await api.wait_for(
        lambda: lobby_message(api, GROUP["id"]), timeout=30, what="the lobby"
    )
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), BOB, "@join")
    await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
    await api.wait_idle(quiet=0.5)
    return table_id


async def fill_group_window(tavolo: Tavolo) -> PacedRateLimiter:
    """Spend the rest of the group's window (the bot's own limiter keeps the count), so the
    group's next message waits for about a minute."""
    assert tavolo.bot is not None
    bot = tavolo.bot.runner.application.bot
    limiter = bot.rate_limiter
    assert isinstance(limiter, PacedRateLimiter)
    for _ in range(40):  # bounded: the window holds 20
        room = limiter.group_room(GROUP["id"])
        assert room is not None
        if room.free == 0:
            break
        await bot.send_message(chat_id=GROUP["id"], text="…")
    room = limiter.group_room(GROUP["id"])
    assert room is not None and room.free == 0
    return limiter


def group_calls(api: FakeBotApi) -> int:
    return sum(
        1 for r in api.requests if r.ok and r.method in FLOOD_COUNTED and r.chat_id == GROUP["id"]
    )


def shown_version(api: FakeBotApi, table_id: int) -> int:
    """The newest table version the group's messages show (their buttons carry it)."""
    newest = -1
    for message in api.bot_messages(GROUP["id"]):
        for data in (b.get("callback_data") for b in message.buttons()):
            if isinstance(data, str) and data.count(":") >= 2:
                decoded = decode_button(data)
                if decoded.table_id == table_id:
                    newest = max(newest, decoded.version)
    return newest


async def made(tavolo: Tavolo, table_id: int, before: int) -> None:
    """Wait (bounded) until the table's version moved past ``before``."""
    for _ in range(int(MADE_WAIT / 0.05)):
        if await version_of(tavolo, table_id) > before:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the move at version {before} was not made")


async def test_inline_moves_are_made_while_the_group_budget_is_spent(tmp_path: Path) -> None:
    """Players who play inline tap a result about once a second while the group's window is
    full: every move is made at once (the table message catches up later), each answer offers
    only the moves of the table as it is now (never the one just made), no 429 comes, and a
    posted move stays until the table shows it."""
    async with FakeBotApi(inline=True) as api:
        api.enforce_flood_limits()  # Telegram's: 20 a minute in a group, 30 a second overall
        api.make_bot_admin(GROUP["id"])
        for player in (ALICE, BOB):
            api.block_private(player["id"])  # they play inline, from the group
        async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=PacedRateLimiter) as tavolo:
            table_id = await open_scopa(tavolo)
            await fill_group_window(tavolo)
            players = {ALICE["id"]: ALICE, BOB["id"]: BOB}
            rng = random.Random(5)
            chosen: dict[int, str] = {}
            start_shown = shown_version(api, table_id)
            start_calls = group_calls(api)
            for _ in range(MOVES):
                game, export = await game_now(tavolo, table_id)
                assert export["status"] == "playing"
                seats = [int(s["user_id"]) for s in export["seats"]]
                player = players[seats[game.current_player]]
                version = int(export["version"])
                query_id, results, _ = await ask(tavolo, player, str(table_id))
                # The panel offers the moves of the table as it is now, not the one just made.
                assert {decode_button(r["id"]).version for r in results} == {version}
                assert chosen.get(player["id"]) not in {r["id"] for r in results}
                playable = [
                    r for r in results if not decode_button(r["id"]).action.startswith(LOOK)
                ]
                assert playable, "no moves offered to the player to move"
                pick = rng.choice(playable)["id"]
                chosen[player["id"]] = pick
                api.choose_inline_result(player, query_id, pick, chat=GROUP)
                await made(tavolo, table_id, version)
                await asyncio.sleep(TAP_EVERY)
            assert await version_of(tavolo, table_id) >= MOVES
            # The moves did not wait for the group: its messages are still behind them...
            assert group_calls(api) - start_calls < MOVES
            assert shown_version(api, table_id) < await version_of(tavolo, table_id)
            assert start_shown >= 0
            # ...and the posted moves the table does not show yet are still there.
            assert api.via_bot_messages(GROUP["id"])
            assert not api.flood_refusals, api.flood_refusals


async def test_button_moves_are_made_while_the_group_budget_is_spent(tmp_path: Path) -> None:
    """The same with the private hand's buttons: each press is answered and its move made at
    once while the group's table message waits for the window."""
    async with FakeBotApi() as api:
        api.enforce_flood_limits()
        async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=PacedRateLimiter) as tavolo:
            table_id = await open_scopa(tavolo)
            await fill_group_window(tavolo)
            rng = random.Random(3)
            start_calls = group_calls(api)
            presses = 0
            for _ in range(MOVES):
                version = await version_of(tavolo, table_id)
                await _press_a_move(tavolo, table_id, version, rng)
                await made(tavolo, table_id, version)
                presses += 1
                await asyncio.sleep(TAP_EVERY)
            assert presses == MOVES
            assert group_calls(api) - start_calls < MOVES
            assert shown_version(api, table_id) < await version_of(tavolo, table_id)
            assert not api.flood_refusals, api.flood_refusals


async def _press_a_move(tavolo: Tavolo, table_id: int, version: int, rng: random.Random) -> None:
    """The player to move presses a move on their hand (a capture choice: one of its
    options)."""
    api = tavolo.api
    game, export = await game_now(tavolo, table_id)
    who = ALICE if export["seats"][game.current_player]["user_id"] == str(ALICE["id"]) else BOB
    message = await api.wait_for(
        lambda: _hand_of(api, who, table_id, version),
        timeout=MADE_WAIT,
        what="the hand of the player to move",
    )
    data = rng.choice(move_buttons(message))
    answer = await api.wait_answered(api.press(message, who, data=data))
    assert answer.get("text") is None, answer
    if data.split(":", 2)[2].startswith("?"):
        edited = await api.wait_for(
            lambda: _options(api, who, message.message_id),
            timeout=MADE_WAIT,
            what="the capture choice",
        )
        options = move_buttons(edited)
        answer = await api.wait_answered(api.press(edited, who, data=rng.choice(options)))
        assert answer.get("text") is None, answer


def _hand_of(api: FakeBotApi, who: JSON, table_id: int, version: int) -> StoredMessage | None:
    """The player's hand message of ``version`` with its move buttons (none while it shows
    an older version)."""
    message = hand_message(api, who["id"], table_id)
    if message is None:
        return None
    moves = move_buttons(message)
    return message if decode_button(moves[0]).version == version else None


def _options(api: FakeBotApi, who: JSON, message_id: int) -> StoredMessage | None:
    edited = api.message(who["id"], message_id)
    options = move_buttons(edited)
    return edited if options and all(":?" not in o for o in options) else None


async def test_a_call_waiting_for_the_group_window_gives_up_when_the_bot_stops() -> None:
    """Stopping, a call that would wait up to a minute for a group's window raises
    ``Stopping`` at once (the updates in hand finish, the HTTP clients close); a call that
    may go at once still goes."""
    limiter = PacedRateLimiter(group_rate=1, group_period=600.0)
    await limiter.initialize()
    sent: list[object] = []

    async def call(*args: object, **kwargs: object) -> bool:
        sent.append(kwargs)
        return True

    try:
        await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -7}, None)
        waiting = asyncio.ensure_future(
            limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -7}, None)
        )
        for _ in range(100):  # bounded: until it waits for the window
            room = limiter.group_room(-7)
            if room is not None and room.waiting:
                break
            await asyncio.sleep(0.01)
        assert not waiting.done()
        limiter.stop_waiting()
        with pytest.raises(Stopping):
            await asyncio.wait_for(waiting, 10.0)
        await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -8}, None)
        assert len(sent) == 2
    finally:
        await limiter.shutdown()


async def test_reading_about_a_group_does_not_wait_for_its_window() -> None:
    """``getChatMember`` (is the one who sent /abandon an admin?) puts nothing in the group:
    it goes while the group's window is full, and takes none of it."""
    limiter = PacedRateLimiter(group_rate=1, group_period=600.0)
    await limiter.initialize()

    async def call(*args: object, **kwargs: object) -> bool:
        return True

    try:
        await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -9}, None)
        room = limiter.group_room(-9)
        assert room is not None and room.free == 0
        data = {"chat_id": -9, "user_id": 5}
        assert await asyncio.wait_for(
            limiter.process_request(call, (), {}, "getChatMember", data, None), 10.0
        )
        room = limiter.group_room(-9)
        assert room is not None and room.free == 0 and not room.waiting
    finally:
        await limiter.shutdown()
