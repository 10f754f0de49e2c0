"""Crash/restart of real bot processes (``python -m bot run`` against the fake Bot API) with
SIGKILL at random moments: every game finishes, every acknowledged move is in the move log, the
database passes its integrity check, and no log of the DEBUG-level runs shows the token. The
100-kill run is ``benchmarks/crash_restart.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

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
from tests.reliability.crash import crash_run


@pytest.mark.slow
async def test_sigkill_and_restart_lose_no_acknowledged_move(tmp_path: Path) -> None:
    figures = await crash_run(tmp_path, tables=2, kills=3, seed=2026, max_gap=2.0)
    assert figures.kills == 3
    assert figures.moves_acked > 20
    assert figures.moves_logged >= figures.moves_acked
    # Every run logged at DEBUG, and something: the grep for the token above was not vacuous.
    assert all(log.stat().st_size > 0 for log in figures.log_files)
    assert len(figures.log_files) == 4


async def test_a_computer_turn_left_over_by_a_crash_is_played_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after committing a human's move and before the computer's reply (the
    hang the 100-kill run found): the restarted process's timer loop plays the computer."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'c.sqlite3'}"
    clock = [1_000_000.0]
    chat, anna = ChatRef("telegram", "7"), UserRef("telegram", "7", "Anna")

    async def service() -> TableService:
        store = Store.open(url)
        await store.upgrade()
        return TableService(
            store, registry=default_registry(), computers=ComputerPlayers(),
            timers=TimerSettings(reminder=60, autoplay=120), clock=lambda: clock[0],
        )  # fmt: skip

    first = await service()
    created = await first.create_table(chat, anna, "scopa", players=2)
    assert created.table is not None
    started = await first.start(chat, anna, created.table.id, fill_with="easy")
    assert started.ok and started.table is not None
    table_id = started.table.id
    hand = next(e for e in started.events if isinstance(e, HandView) and e.view.legal_moves)
    info = started.table

    async def dies(*args: object) -> None:
        raise SystemExit  # the kill: nothing after the human's commit runs

    monkeypatch.setattr(first.turns, "computer_turns", dies)
    with pytest.raises(SystemExit):
        await first.play(chat, anna, table_id, version=info.version, move=hand.view.legal_moves[0])
    await first.store.close()
    second = await service()
    try:
        moves = len(await second.store.moves(table_id))
        assert not await second.fire_due_timers()  # not before the grace period
        clock[0] += 11
        results = await second.fire_due_timers()
        assert results, "the computer's turn was never played"
        assert len(await second.store.moves(table_id)) > moves
        shown = (await second.show(chat, anna, table_id)).table
        assert shown is not None and shown.current_seat in (0, None)
    finally:
        await second.store.close()


@pytest.mark.slow
async def test_players_who_never_ask_for_their_hand_play_on_across_sigkills(
    tmp_path: Path,
) -> None:
    """Issue 45's run, smaller: two-player tables in groups, players who only press the buttons
    of their newest private hand (never "My hand" nor /start), SIGKILLs at random moments.
    Every game ends, and the turn timer never had to play for a waiting player: after each
    restart the player to move got a hand with buttons."""
    figures = await crash_run(tmp_path, tables=2, kills=3, seed=45, max_gap=2.0, groups=True)
    assert figures.kills == 3
    assert figures.hands_reasked == 0
    assert figures.moves_acked > 20
    assert figures.moves_logged >= figures.moves_acked
