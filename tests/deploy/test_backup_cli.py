"""`tavolo db backup PATH` and `tavolo db restore PATH` (issue 10, data safety)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def tavolo(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update({"DATA_DIR": str(data_dir), "DATABASE_URL": ""})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_backup_then_restore(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert tavolo("db", "upgrade", data_dir=data).returncode == 0
    database = data / "tavolo.sqlite3"
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO chats (platform, chat_id) VALUES ('test', 'kept')")
    backup = tmp_path / "copy.sqlite3"
    done = tavolo("db", "backup", str(backup), data_dir=data)
    assert done.returncode == 0, done.stderr
    assert "backed up" in done.stdout and backup.is_file()
    with sqlite3.connect(database) as conn:  # a change after the backup, undone by restore
        conn.execute("DELETE FROM chats")
    done = tavolo("db", "restore", str(backup), data_dir=data)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT chat_id FROM chats").fetchall() == [("kept",)]


def test_bad_backup_is_refused_and_the_database_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert tavolo("db", "upgrade", data_dir=data).returncode == 0
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    done = tavolo("db", "restore", str(junk), data_dir=data)
    assert done.returncode == 1 and "tavolo:" in done.stderr
    with sqlite3.connect(data / "tavolo.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    missing = tavolo("db", "backup", str(tmp_path / "x.sqlite3"), data_dir=tmp_path / "empty")
    assert missing.returncode == 1 and "no database" in missing.stderr
