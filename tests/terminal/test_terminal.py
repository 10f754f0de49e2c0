"""Terminal play driven through stdin/stdout: a whole game, and resuming after quitting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_tavolo(args: list[str], stdin: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": "",
        "TELEGRAM_TOKEN": "",
        "DISCORD_TOKEN": "",
        "DEFAULT_LOCALE": "en",
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=data_dir,
        timeout=300,
        check=False,
    )


def test_quit_and_resume_then_finish(tmp_path: Path) -> None:
    # Two moves, then quit: the game is saved.
    first = run_tavolo(["play", "scopa", "--players", "2", "--name", "Eva"], "1\n1\nq\n", tmp_path)
    assert first.returncode == 0, first.stderr
    assert "Your hand:" in first.stdout
    assert "Game saved: run again to resume." in first.stdout
    assert (tmp_path / "tavolo.sqlite3").exists()
    last_hand = first.stdout.rsplit("Your hand:", 1)[1].splitlines()[0]

    # The default command (no token) resumes the same table, the same hand.
    # Bad input gets a reason and a new prompt; then "1" to every prompt plays to the end and
    # answers "no" to "Play again?".
    second = run_tavolo([], "zz\n" + "1\n" * 400, tmp_path)
    assert second.returncode == 0, second.stderr
    assert "Resuming the saved game (table 1)." in second.stdout
    assert "Your hand:" + last_hand in second.stdout
    assert "That move is not allowed." in second.stdout
    assert "game over!" in second.stdout
    assert "Play again? [y/N]" in second.stdout
    assert "Traceback" not in second.stderr


def test_help_text_and_bad_setting(tmp_path: Path) -> None:
    helped = run_tavolo(["--help"], "", tmp_path)
    assert helped.returncode == 0
    for command in ("run", "play", "db", "export-game"):
        assert command in helped.stdout
    env_bad = run_tavolo(["db", "upgrade"], "", tmp_path)
    assert env_bad.returncode == 0 and "up to date" in env_bad.stdout
    os.environ["TURN_REMINDER_SECONDS"] = "-5"
    try:
        bad = run_tavolo(["db", "upgrade"], "", tmp_path)
    finally:
        del os.environ["TURN_REMINDER_SECONDS"]
    assert bad.returncode == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "TURN_REMINDER_SECONDS" in lines[0]


def test_export_game(tmp_path: Path) -> None:
    run_tavolo(["play", "--new"], "1\nq\n", tmp_path)
    exported = run_tavolo(["export-game", "1"], "", tmp_path)
    assert exported.returncode == 0, exported.stderr
    import json

    data = json.loads(exported.stdout)
    assert data["game"] == "scopa" and data["moves"] and "seed" in data
    missing = run_tavolo(["export-game", "99"], "", tmp_path)
    assert missing.returncode == 1 and "no table 99" in missing.stderr
    # A bad request for a new game is refused before the saved game is given up.
    bad = run_tavolo(["play", "poker", "--new"], "", tmp_path)
    assert bad.returncode == 2 and "Unknown game." in bad.stdout
    kept = json.loads(run_tavolo(["export-game", "1"], "", tmp_path).stdout)
    assert kept["status"] == "playing"
