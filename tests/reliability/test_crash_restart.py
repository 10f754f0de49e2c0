"""Crash/restart of real bot processes (``python -m bot run`` against the fake Bot API) with
SIGKILL at random moments: every game finishes, every acknowledged move is in the move log, the
database passes its integrity check, and no log of the DEBUG-level runs shows the token. The
100-kill run is ``benchmarks/crash_restart.py``."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.crash import crash_run


async def test_sigkill_and_restart_lose_no_acknowledged_move(tmp_path: Path) -> None:
    figures = await crash_run(tmp_path, tables=2, kills=3, seed=2026, max_gap=2.0)
    assert figures.kills == 3
    assert figures.moves_acked > 20
    assert figures.moves_logged >= figures.moves_acked
    # Every run logged at DEBUG, and something: the grep for the token above was not vacuous.
    assert all(log.stat().st_size > 0 for log in figures.log_files)
    assert len(figures.log_files) == 4
