"""Healing per message (issue 45): a process stopped between a move's commit and its messages
leaves some of them out; after the restart each message (the table, every hand, the turn
notice of the player to move) is compared with the table's version and the ones behind go
out, whatever the restarted process delivers first. A turn notice whose turn has passed is
never sent. The real PTB against the fake Bot API; the fake holds a chat's calls to stand for
the calls a killed process never made."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.service import HandView, TableService, decode_button, encode_button
from tests.fakes.telegram_api import JSON, FakeBotApi, Fault, StoredMessage
from tests.telegram.harness import Tavolo, move_buttons, table_messages
from tests.telegram.test_fast_delivery import (
    ALICE,
    BOB,
    GROUP,
    hand_of,
    next_move,
    open_game,
    settled,
    version_of,
)

# Bounds of the waits below (seconds): never reached when the bot does its work.
WAIT = 20.0


def turn_notices(api: FakeBotApi, who: JSON, since: int) -> list[str]:
    """The turn notices sent to ``who`` since request ``since``."""
    return [
        str(r.params.get("text"))
        for r in api.requests[since:]
        if r.ok
        and r.method == "sendMessage"
        and r.chat_id == who["id"]
        and "your turn" in str(r.params.get("text", "")).lower()
    ]


def shows(message: StoredMessage | None, version: int) -> bool:
    """``message`` has buttons, all of the table at ``version``."""
    if message is None:
        return False
    data = [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]
    return bool(data) and {decode_button(d).version for d in data} == {version}


def playable(api: FakeBotApi, who: JSON, table_id: int, version: int) -> Callable[[], bool]:
    """``who`` has their hand at ``version`` with move buttons."""

    def check() -> bool:
        hand = hand_of(api, who, table_id)
        return hand is not None and shows(hand, version) and bool(move_buttons(hand))

    return check


async def kill(tavolo: Tavolo) -> None:
    """Stop the bot without a grace period (what is on its way is cancelled, nothing more is
    written), and the store: a kill, but for the updates the fake server still holds."""
    assert tavolo.bot is not None
    tavolo.bot.stop_grace = 0.0
    await tavolo.stop()


async def held_until_reached(fault: Fault) -> None:
    await asyncio.wait_for(fault.reached.wait(), WAIT)


async def test_a_kill_before_the_hand_of_the_player_to_move_went_out_is_healed(
    api: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: the table and the mover's hand went out, the hand of the player to
    move (and their notice) did not, then the process died. After the restart the mover
    presses their old hand before the restart's healing reached the table (the press heals
    the mover's messages only): the player to move still gets a current hand with move
    buttons and their turn notice, with no "My hand", no /start and no timer."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        await settled(tavolo)
        mover, hand, move = await next_move(tavolo, table_id)
        waiting = BOB if mover is ALICE else ALICE
        held = api.hold_call("editMessageText", chat_id=waiting["id"], error_code=502)
        try:
            start = len(api.requests)
            answer = await api.wait_answered(api.press(hand, mover, data=move))
            assert answer["text"] is None, answer
            version = await version_of(tavolo, table_id)
            await held_until_reached(held)

            def table_and_mover_out() -> bool:
                table = table_messages(api, GROUP["id"], table_id)[-1]
                mover_hand = api.message(mover["id"], hand.message_id)
                return shows(table, version) and shows(mover_hand, version)

            await api.wait_for(table_and_mover_out, timeout=WAIT, what="the table and mover")
            await kill(tavolo)
            assert not playable(api, waiting, table_id, version)()
            assert turn_notices(api, waiting, start) == []

            # The restart's healing waits until the mover's stale press was healed.
            go = asyncio.Event()
            versions = TableService.table_versions

            async def later(service: TableService, platform: str) -> dict[int, int]:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(go.wait(), WAIT)
                return await versions(service, platform)

            monkeypatch.setattr(TableService, "table_versions", later)
            await tavolo.start()
            assert tavolo.bot is not None
            delivery = tavolo.bot.delivery
            restarted = len(api.requests)
            stale = api.press(api.message(mover["id"], hand.message_id), mover, data=move)
            assert (await api.wait_answered(stale))["show_alert"]
            await api.wait_for(
                lambda: any(
                    r.chat_id == mover["id"] and r.method == "editMessageText"
                    for r in api.requests[restarted:]
                ),
                timeout=WAIT,
                what="the mover's hand healed",
            )
            for _ in range(200):  # bounded: the heal's lanes fall idle
                if not delivery.delivering(table_id):
                    break
                await asyncio.sleep(0.05)
            assert not delivery.delivering(table_id)
            assert not playable(api, waiting, table_id, version)()
            go.set()

            await api.wait_for(
                playable(api, waiting, table_id, version),
                timeout=WAIT,
                what="the hand of the player to move",
            )
            await api.wait_for(
                lambda: turn_notices(api, waiting, restarted),
                timeout=WAIT,
                what="the turn notice of the player to move",
            )
            # The mover, who has just moved, was never told it is their turn.
            assert turn_notices(api, mover, start) == []
            # ... and the game goes on from that hand.
            healed = hand_of(api, waiting, table_id)
            assert healed is not None
            plain = [d for d in move_buttons(healed) if ":?" not in d] or move_buttons(healed)
            answer = await api.wait_answered(api.press(healed, waiting, data=plain[0]))
            assert answer["text"] is None, answer
        finally:
            held.release()


async def test_messages_already_current_are_not_sent_again_after_a_restart(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Killed while only the hand of the player to move was behind: the restart edits that
    hand and sends that player's notice, and nothing else (the table message and the
    mover's hand already show the version)."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        await settled(tavolo)
        mover, hand, move = await next_move(tavolo, table_id)
        waiting = BOB if mover is ALICE else ALICE
        held = api.hold_call("editMessageText", chat_id=waiting["id"], error_code=502)
        try:
            answer = await api.wait_answered(api.press(hand, mover, data=move))
            assert answer["text"] is None, answer
            version = await version_of(tavolo, table_id)
            await held_until_reached(held)
            await api.wait_for(
                lambda: (
                    shows(table_messages(api, GROUP["id"], table_id)[-1], version)
                    and shows(api.message(mover["id"], hand.message_id), version)
                ),
                timeout=WAIT,
                what="the table and the mover's hand",
            )
            await kill(tavolo)
            restarted = len(api.requests)
            await tavolo.start()
            await api.wait_for(
                playable(api, waiting, table_id, version), timeout=WAIT, what="the hand"
            )
            await api.wait_for(
                lambda: turn_notices(api, waiting, restarted), timeout=WAIT, what="the notice"
            )
            assert tavolo.bot is not None
            for _ in range(200):  # bounded: the restart's deliveries fall idle
                if not tavolo.bot.delivery.delivering(table_id):
                    break
                await asyncio.sleep(0.05)
            sent = [
                r
                for r in api.requests[restarted:]
                if r.method.startswith(("send", "edit")) and r.chat_id != waiting["id"]
            ]
            assert sent == [], [(r.method, r.chat_id) for r in sent]
            assert await tavolo.bot.delivery.book.delivered(table_id) is not None
        finally:
            held.release()


async def test_a_notice_of_a_turn_that_has_passed_is_not_sent(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """The notice of the player to move waits in their chat behind their hand's edit, which
    Telegram is slow to answer; meanwhile they play (from a button they already had): when
    the edit returns, the notice of the turn they have played is dropped, not sent."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        await settled(tavolo)
        mover, hand, move = await next_move(tavolo, table_id)
        waiting = BOB if mover is ALICE else ALICE
        held = api.hold_call("editMessageText", chat_id=waiting["id"])
        try:
            start = len(api.requests)
            answer = await api.wait_answered(api.press(hand, mover, data=move))
            assert answer["text"] is None, answer
            version = await version_of(tavolo, table_id)
            await held_until_reached(held)
            # The player to move plays before their hand and notice arrived.
            assert tavolo.service is not None
            views = await tavolo.service.views(table_id)
            (mine,) = [
                e
                for e in views.events
                if isinstance(e, HandView) and e.audience.id == str(waiting["id"])
            ]
            legal = [str(m) for m in mine.view.legal_moves]
            assert legal
            data = encode_button(table_id, version, legal[0])
            old_hand = api.bot_messages(waiting["id"])[-1]
            answer = await api.wait_answered(api.press(old_hand, waiting, data=data))
            assert answer["text"] is None, answer
            assert await version_of(tavolo, table_id) > version
        finally:
            held.release()
        await settled(tavolo)
        assert turn_notices(api, waiting, start) == []
        # The turn is the mover's again: they are told, and their hand offers moves.
        assert turn_notices(api, mover, start)
        now = await version_of(tavolo, table_id)
        assert playable(api, mover, table_id, now)()
