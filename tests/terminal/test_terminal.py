"""Terminal play driven through stdin/stdout: a whole game, and resuming after quitting."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.terminal.harness import as_foreground

ROOT = Path(__file__).resolve().parents[2]


def run_tavolo(
    args: list[str], stdin: str, data_dir: Path, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in ``data_dir`` (its DATA_DIR too unless ``env`` says)."""
    env = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": "",
        "TELEGRAM_TOKEN": "",
        "DISCORD_TOKEN": "",
        "DEFAULT_LOCALE": "en",
        **(env or {}),
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


@pytest.mark.slow
def test_quit_and_resume_then_finish(tmp_path: Path) -> None:
    # Two moves, then quit: the game is saved.
    first = run_tavolo(["play", "scopa", "--players", "2", "--name", "Eva"], "1\n1\nq\n", tmp_path)
    assert first.returncode == 0, first.stderr
    assert "Your hand:" in first.stdout
    assert "Game saved. To resume it, run: python -m bot" in " ".join(first.stdout.split())
    assert f"\nSaved games are kept in {tmp_path / 'tavolo.sqlite3'}\n" in first.stdout
    assert (tmp_path / "tavolo.sqlite3").exists()
    last_hand = first.stdout.rsplit("Your hand:", 1)[1].splitlines()[0]

    # The default command (no token) resumes the same table, the same hand.
    # Bad input gets a reason and a new prompt; then "1" to every prompt plays to the end and
    # answers "no" to "Play again?".
    second = run_tavolo([], "zz\n" + "1\n" * 400, tmp_path)
    assert second.returncode == 0, second.stderr
    assert "Resuming the saved Scopa game (table 1)." in second.stdout
    assert "Your hand:" + last_hand in second.stdout
    assert "“zz” is not a move. Type a number from 1 to" in second.stdout
    assert "game over!" in second.stdout
    assert "Play again? [y/N]" in second.stdout
    assert "Traceback" not in second.stderr


@pytest.mark.slow
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


@pytest.mark.slow
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


def _hand(stdout: str) -> list[str]:
    """The cards of the last "Your hand:" line, as shown."""
    return stdout.rsplit("Your hand: ", 1)[1].splitlines()[0].split()


def _single_move_card(stdout: str) -> str:
    """A card of the last hand that the last menu lists in exactly one move."""
    menu = stdout.rsplit("Your hand: ", 1)[1]
    played = re.findall(r"\d+\) (\S+)", menu)
    single = [card for card in _hand(stdout) if played.count(card) == 1]
    assert single, menu
    return single[0]


@pytest.mark.slow
def test_cards_typed_as_shown_and_every_move_listed(tmp_path: Path) -> None:
    # Scopone: three computers move between two of the player's turns; every one is listed.
    first = run_tavolo(["play", "scopone", "--name", "Eva"], "q\n", tmp_path)
    assert first.returncode == 0, first.stderr
    # A card with a single move (e.g. "7♦"), typed exactly as the screen shows it: a card with
    # several captures would be answered with the choice, not played.
    card = _single_move_card(first.stdout)
    second = run_tavolo(["play", "scopone"], f"{card}\n99\nq\n", tmp_path)
    assert second.returncode == 0, second.stderr
    after = second.stdout.split("Your move", 2)[1]
    moves = after.split("Moves since your last turn:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert moves[0].startswith(f"  You: {card}")  # the player's own move, echoed
    names = [line.split(":", 1)[0].strip() for line in moves[1:]]
    assert names == ["Computer 2 (easy)", "Computer 3 (easy)", "Computer 4 (easy)"]
    assert "Choose a number from 1 to" in second.stdout
    assert "Traceback" not in second.stderr


@pytest.mark.slow
def test_english_letters_and_the_scala40_help(tmp_path: Path) -> None:
    dealt = run_tavolo(["play", "scala40", "--players", "2", "--name", "Eva"], "h\nq\n", tmp_path)
    assert dealt.returncode == 0, dealt.stderr
    assert "draws from the stock" in dealt.stdout  # the game's own help
    # "t" draws (a move, not a command), then a discard typed with English letters.
    card = _hand(run_tavolo(["play"], "t\nq\n", tmp_path).stdout)[0]
    letters = {"♥": "H", "♦": "D", "♣": "C", "♠": "S"}
    typed = "d " + card[:-1] + letters[card[-1]].lower() if card != "🃏" else "d *"
    played = run_tavolo(["play"], f"{typed}\nq\n", tmp_path)
    assert played.returncode == 0, played.stderr
    assert f"You: Discard: {card}" in played.stdout


def test_the_card_drawn_from_the_stock_is_told_to_the_player(tmp_path: Path) -> None:
    """Scala 40: after "t" the hand says which card came from the stock, and the move log
    names it on the player's own draw (their view alone holds it)."""
    drew = run_tavolo(["play", "scala40", "--players", "2", "--name", "Eva"], "t\nq\n", tmp_path)
    assert drew.returncode == 0, drew.stderr
    told = re.search(r"You drew (\S+)\.", drew.stdout)
    assert told is not None, drew.stdout
    assert f"You: Draw from the stock ({told[1]})" in drew.stdout


def test_ctrl_c_leaves_at_once_and_says_the_game_is_saved(tmp_path: Path) -> None:
    import signal
    import time

    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": "",
        "TELEGRAM_TOKEN": "",
        "DISCORD_TOKEN": "",
        "DEFAULT_LOCALE": "en",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--name", "Eva"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        preexec_fn=as_foreground,  # Ctrl-C works even in a test run started in the background
    )
    assert process.stdout is not None and process.stdin is not None
    seen = ""
    for _ in range(2000):  # up to the first prompt (the input stays open: nothing typed)
        seen += process.stdout.read(1)
        if seen.endswith("q quit): "):
            break
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)  # a bound for a hang, not a measurement
    finally:
        process.kill()
        time.sleep(0)
    assert process.returncode == 130
    assert "To resume it, run: python -m bot" in " ".join(out.split())
    assert "Traceback" not in err


@pytest.mark.slow
def test_one_saved_game_per_game_and_new_says_what_it_abandons(tmp_path: Path) -> None:
    def said(run: subprocess.CompletedProcess[str]) -> str:
        assert run.returncode == 0, run.stderr
        return " ".join(run.stdout.split())  # however the lines were wrapped

    said(run_tavolo(["play", "scopone", "--name", "Eva"], "q\n", tmp_path))
    resumed = said(run_tavolo([], "q\n", tmp_path))  # the default command resumes it
    assert "Resuming the saved Scopone game (table 1)." in resumed
    # play GAME plays GAME: a Scopa game is dealt, the Scopone game is kept.
    other = said(run_tavolo(["play", "scopa"], "q\n", tmp_path))
    assert "Scopa · table 2" in other and "abandoned" not in other
    kept = "Your saved Scopone game is kept; to play it, run: python -m bot play scopone"
    assert kept in other
    # The default command resumes the game played last, and names the other.
    last = said(run_tavolo([], "q\n", tmp_path))
    assert "Resuming the saved Scopa game (table 2)." in last and kept in last
    again = said(run_tavolo(["play", "scopone"], "q\n", tmp_path))
    assert "Resuming the saved Scopone game (table 1)." in again
    assert "Resuming the saved Scopone game (table 1)." in said(run_tavolo([], "q\n", tmp_path))
    # --new abandons the saved game of that game only, and says so.
    fresh = said(run_tavolo(["--new"], "q\n", tmp_path))
    assert "The saved Scopa game (table 2) is abandoned." in fresh
    assert "Scopa · table 3" in fresh and kept in fresh
    assert "Resuming the saved Scopone game (table 1)." in said(
        run_tavolo(["play", "scopone"], "q\n", tmp_path)
    )
    exported = run_tavolo(["export-game", "3"], "", tmp_path)
    assert exported.returncode == 0 and exported.stderr == ""  # no migration INFO lines


@pytest.mark.slow
def test_the_save_lives_in_the_users_data_directory_whatever_the_folder(tmp_path: Path) -> None:
    # No DATA_DIR: terminal play keeps its database in the user's data directory (here
    # XDG_DATA_HOME, a temporary folder: the real home is never written), not under data/ of
    # the current folder, so a run from another folder resumes the same game.
    home = tmp_path / "home"
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    env = {"DATA_DIR": "", "XDG_DATA_HOME": str(home), "HOME": str(home)}
    first = run_tavolo(["play", "scopa", "--name", "Eva"], "q\n", tmp_path / "one", env=env)
    assert first.returncode == 0, first.stderr
    save = home / "tavolo" / "tavolo.sqlite3"
    assert save.exists() and not (tmp_path / "one" / "data").exists()
    assert f"\nSaved games are kept in {save}\n" in first.stdout
    again = run_tavolo([], "q\n", tmp_path / "two", env=env)
    assert "Resuming the saved Scopa game (table 1)." in again.stdout
    # An explicit DATA_DIR still wins.
    own = run_tavolo(["play", "scopa", "--name", "Eva"], "q\n", tmp_path / "two")
    assert own.returncode == 0 and (tmp_path / "two" / "tavolo.sqlite3").exists()
    # A game an earlier version saved under data/ of the current folder is named, not lost.
    old = tmp_path / "two" / "data"
    old.mkdir()
    run_tavolo(["play", "scopa", "--name", "Eva"], "q\n", old)
    assert (old / "tavolo.sqlite3").exists()
    told = run_tavolo([], "q\n", tmp_path / "two", env=env)
    said = " ".join(told.stdout.split())
    earlier = f"Games saved by an earlier version stay in {old}; to play them, run: DATA_DIR={old}"
    assert earlier in said, said
    assert "Resuming the saved Scopa game (table 1)." in said  # the new place's game


@pytest.mark.slow
def test_a_game_resumed_in_another_language_speaks_it_everywhere(tmp_path: Path) -> None:
    italian = {"DEFAULT_LOCALE": "", "LANG": "it_IT.UTF-8"}
    first = run_tavolo(["play", "scopa", "--name", "Eva"], "1\nq\n", tmp_path, env=italian)
    assert "La tua mano:" in first.stdout and "Partita salvata." in first.stdout
    english = {"DEFAULT_LOCALE": "", "LANG": "en_US.UTF-8"}
    again = run_tavolo([], "v\nq\n", tmp_path, env=english)
    assert again.returncode == 0, again.stderr
    out = again.stdout
    assert "Your hand:" in out and "Game to 11." in out and "Moves since your last turn:" in out
    assert "Game saved." in out and "Your move (number or card" in out
    for italian_word in ("mano", "tavolo ", "Tocca", "Partita", "mossa", "Mosse", "Tu:"):
        assert italian_word not in out, out
