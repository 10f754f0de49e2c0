"""A terminal player who leaves while the computers think (Ctrl-C): the next run finds a
computer to move and no turn timer to play it (the terminal runs none). ``TableService.catch_up``
plays those turns, so the resumed game goes on instead of waiting forever."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

from bot.service import (
    ChatRef,
    ComputerPlayers,
    HandView,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
from bot.store import Store

CHAT = ChatRef("terminal", "local")
EVA = UserRef("terminal", "eva", "Eva", "en")
WAIT = 60.0  # a bound for a hang


class Stalling:
    """The first legal move, after ``gate`` opens; says when it starts thinking."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.gate = threading.Event()

    def choose(self, view: Any, rng: random.Random) -> str:
        self.thinking.set()
        self.gate.wait(WAIT)
        return str(view.legal_moves[0])


class Prompt:
    def choose(self, view: Any, rng: random.Random) -> str:
        return str(view.legal_moves[0])


async def terminal_service(path: Path, player: Any) -> tuple[TableService, Store]:
    store = Store.open(f"sqlite+aiosqlite:///{path}")
    await store.upgrade()
    service = TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(lambda name: player),
        timers=TimerSettings(reminder=0.0, chat_timers=False),  # as at the terminal
    )
    return service, store


def legal(result: Any) -> list[str]:
    hand = next((e for e in result.events if isinstance(e, HandView)), None)
    return list(getattr(hand.view, "legal_moves", ()) or ()) if hand else []


async def test_catch_up_plays_the_computer_turns_left_over(tmp_path: Path) -> None:
    database = tmp_path / "tavolo.sqlite3"
    first, store = await terminal_service(database, Prompt())
    created = await first.create_table(CHAT, EVA, "scopone")
    assert created.table is not None
    table_id = created.table.id
    await first.start(CHAT, EVA, table_id, fill_with="easy")
    shown = await first.show(CHAT, EVA, table_id)
    assert shown.table is not None and legal(shown)  # the player's turn
    # Nothing to catch up on: no events, nothing moves.
    idle = await first.catch_up(CHAT, EVA, table_id)
    assert idle.refusal is None and idle.events == []
    await store.close()

    # The player moves; the computers think; the player leaves (the call is cancelled).
    stalling = Stalling()
    second, store = await terminal_service(database, stalling)
    shown = await second.show(CHAT, EVA, table_id)
    assert shown.table is not None
    play = asyncio.create_task(
        second.play(CHAT, EVA, table_id, version=shown.table.version, move=legal(shown)[0])
    )
    assert await asyncio.to_thread(stalling.thinking.wait, WAIT)
    play.cancel()
    stalling.gate.set()
    await asyncio.gather(play, return_exceptions=True)
    await store.close()

    # The next run: a computer is to move, the player has no move.
    third, store = await terminal_service(database, Prompt())
    try:
        shown = await third.show(CHAT, EVA, table_id)
        assert shown.table is not None and shown.table.current_seat != 0
        assert legal(shown) == []
        caught = await third.catch_up(CHAT, EVA, table_id)
        assert caught.refusal is None and caught.table is not None
        assert caught.table.current_seat == 0  # the three computers played
        assert legal(caught)  # and the player's hand comes with their moves
        log = (await third.export_game(table_id))["moves"]
        assert [m["seat"] for m in log[-4:]] == [0, 1, 2, 3]
        # Someone else's table is refused, not played.
        stranger = UserRef("terminal", "bob", "Bob", "en")
        assert (await third.catch_up(CHAT, stranger, table_id)).refusal is not None
    finally:
        await store.close()
