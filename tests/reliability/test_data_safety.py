"""Data safety: SQLite (WAL) stays consistent and keeps every acknowledged move through
power-cut style kills (SIGKILL mid-write); online backup while a game runs; restore."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.service import ChatRef
from bot.store.backup import BackupError, backup_sqlite, restore_sqlite
from tests.reliability.workload import open_service, play_one_move, start_table, users

ROOT = Path(__file__).resolve().parents[2]
GAMES = 12


def integrity(path: Path) -> list[tuple[str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchall()
    finally:
        conn.close()


def stored_moves(path: Path) -> set[tuple[int, int, str]]:
    conn = sqlite3.connect(path)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'moves'").fetchall():
            return set()  # killed before the migrations had run
        rows = conn.execute("SELECT table_id, version, move FROM moves").fetchall()
    finally:
        conn.close()
    return {(int(t), int(v), str(m)) for t, v, m in rows}


def run_writer_until_killed(
    url: str, seed: int, kill: tuple[str, float] | None
) -> tuple[list[str], bool]:
    """Runs the writer and SIGKILLs it: ``("after", s)`` that many seconds after its start,
    ``("acks", n)`` once it has acknowledged n more moves (plus a moment, so the kill lands
    mid-write rather than right after a flush); ``None``: let it finish. The kill follows the
    writer's progress, not the clock, so a fast machine cannot finish the games first.
    Returns its acknowledged lines and whether it finished on its own."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.writer", url, str(GAMES), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # A hung writer must not hang the test: it is killed after 300 s whatever happens.
    guard = threading.Timer(300, process.kill)
    guard.start()
    try:
        if kill is None or kill[0] == "after":
            try:
                out, err = process.communicate(timeout=kill[1] if kill is not None else None)
            except subprocess.TimeoutExpired:
                process.kill()  # SIGKILL: no cleanup, no flush, like a power cut of the process
                out, err = process.communicate(timeout=30)
                return out.splitlines(), False
            assert process.returncode == 0, err[-2000:]
            return out.splitlines(), True
        assert process.stdout is not None
        lines: list[str] = []
        seen = 0
        while seen < kill[1]:
            line = process.stdout.readline()
            if not line:
                break  # the writer ended before the kill
            lines.append(line.rstrip("\n"))
            seen += line.startswith("ack ")
        else:
            time.sleep(random.Random(seed).uniform(0.0, 0.02))
            process.kill()
        out, err = process.communicate(timeout=30)
        lines += out.splitlines()
        if process.returncode == 0:
            return lines, True
        assert process.returncode == -signal.SIGKILL, err[-2000:]
        return lines, False
    finally:
        guard.cancel()


def acks(lines: list[str]) -> set[tuple[int, int, str]]:
    out = set()
    for line in lines:
        if line.startswith("ack "):
            _, table, version, move = line.split(" ", 3)
            out.add((int(table), int(version), move))
    return out


@pytest.mark.slow
def test_sigkill_mid_write_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "tavolo.sqlite3"
    url = f"sqlite+aiosqlite:///{db}"
    rng = random.Random(20261122)
    acknowledged: set[tuple[int, int, str]] = set()
    kills = 0
    for attempt in range(12):
        # The first kill lands during start-up/migrations, later ones mid-game (12 games to
        # 11 points are well over 1,000 moves: nine kills at most 150 moves apart all land).
        kill: tuple[str, float] | None
        if attempt == 0:
            kill = ("after", rng.uniform(0.05, 0.5))
        elif attempt < 10:
            kill = ("acks", rng.randint(20, 150))
        else:
            kill = None
        lines, finished = run_writer_until_killed(url, attempt, kill)
        acknowledged |= acks(lines)
        kills += not finished
        assert integrity(db) == [("ok",)]
        missing = acknowledged - stored_moves(db)
        assert not missing, f"acknowledged moves lost after a kill: {sorted(missing)[:5]}"
        if finished:
            assert lines[-1] == "done"
            break
    else:
        raise AssertionError("the writer never finished")
    assert kills >= 3, "too few kills landed to test anything"
    conn = sqlite3.connect(db)
    try:
        statuses = conn.execute("SELECT status FROM tables").fetchall()
    finally:
        conn.close()
    assert statuses == [("finished",)] * GAMES


async def test_online_backup_while_a_game_is_played(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    service = await open_service(f"sqlite+aiosqlite:///{db}")
    chat = ChatRef("telegram", "-1")
    players = users("telegram", 1, 2)
    rng = random.Random(3)
    try:
        table_id = await start_table(service, chat, players, "scopa", {"target": 11})
        for _ in range(10):
            assert await play_one_move(service, chat, players, table_id, rng)
        # The backup runs in a thread while the event loop keeps committing moves.
        backup = asyncio.create_task(asyncio.to_thread(backup_sqlite, db, tmp_path / "b.sqlite3"))
        played = 0
        while not backup.done() or played < 5:
            assert await play_one_move(service, chat, players, table_id, rng)
            played += 1
        await backup
        live = [(m["version"], m["move"]) for m in (await service.export_game(table_id))["moves"]]
    finally:
        await service.store.close()
    assert integrity(tmp_path / "b.sqlite3") == [("ok",)]
    assert not (tmp_path / "b.sqlite3-wal").exists()
    saved = await open_service(f"sqlite+aiosqlite:///{tmp_path / 'b.sqlite3'}")
    try:
        copied = [(m["version"], m["move"]) for m in (await saved.export_game(table_id))["moves"]]
    finally:
        await saved.store.close()
    # A consistent snapshot: a prefix of the live game, at least what was played before it.
    assert len(copied) >= 10 and live[: len(copied)] == copied


async def test_restore_brings_back_the_backup_and_play_resumes(tmp_path: Path) -> None:
    db = tmp_path / "tavolo.sqlite3"
    url = f"sqlite+aiosqlite:///{db}"
    chat = ChatRef("telegram", "-1")
    players = users("telegram", 1, 2)
    rng = random.Random(5)
    service = await open_service(url)
    try:
        table_id = await start_table(service, chat, players, "scopa", {"target": 11})
        for _ in range(6):
            assert await play_one_move(service, chat, players, table_id, rng)
        backup_sqlite(db, tmp_path / "backup.sqlite3")
        at_backup = (await service.export_game(table_id))["moves"]
        for _ in range(6):
            assert await play_one_move(service, chat, players, table_id, rng)
    finally:
        await service.store.close()
    restore_sqlite(tmp_path / "backup.sqlite3", db)
    assert integrity(db) == [("ok",)]
    service = await open_service(url, seed=99)
    try:
        assert (await service.export_game(table_id))["moves"] == at_backup
        for _ in range(3000):
            if await play_one_move(service, chat, players, table_id, rng) is None:
                break
        assert (await service.export_game(table_id))["status"] == "finished"
    finally:
        await service.store.close()


def test_restore_refuses_a_damaged_backup_and_keeps_the_database(tmp_path: Path) -> None:
    db = tmp_path / "tavolo.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (42)")
    conn.commit()
    conn.close()
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(BackupError, match=r"not a SQLite database|damaged"):
        restore_sqlite(bad, db)
    with pytest.raises(BackupError, match="no backup"):
        restore_sqlite(tmp_path / "missing.sqlite3", db)
    with pytest.raises(BackupError, match="no database"):
        backup_sqlite(tmp_path / "missing.sqlite3", tmp_path / "x.sqlite3")
    with pytest.raises(BackupError, match="another file"):
        backup_sqlite(db, db)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT x FROM t").fetchall() == [(42,)]
    conn.close()
    assert not list(tmp_path.glob("*.partial"))
