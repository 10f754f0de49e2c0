"""Ctrl-C and Ctrl-D typed at a real terminal: at the move prompt, while the computers think,
and at the first run's name question. The player leaves with the game saved and told how to
resume it, and resuming plays on (the computers finish a turn they were stopped in)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.render import move_text
from tests.terminal.harness import Terminal, environment, export, listed, moves_since_own

SAVED_EN = "Game saved. To resume it, run: python -m bot"
SAVED_IT = "Partita salvata. Per riprenderla lancia: python -m bot"
PROMPT_EN = "q quit): "
PROMPT_IT = "q esci): "


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    started: list[Terminal] = []
    yield started
    for terminal in started:
        terminal.kill()


def start(
    terminals: list[Terminal], home: Path, args: list[str], lang: str = "en_US.UTF-8"
) -> Terminal:
    terminal = Terminal(args, environment(home, lang), cwd=home)
    terminals.append(terminal)
    return terminal


def test_ctrl_c_at_the_prompt_leaves_saying_the_game_is_saved(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    first = start(terminals, tmp_path, ["play", "scopa", "--name", "Eva"])
    first.expect(PROMPT_EN)
    first.send("\x03")
    end = first.expect(SAVED_EN)
    assert first.wait() == 130
    assert "Traceback" not in first.output[end:]
    again = start(terminals, tmp_path, [])
    again.expect("Resuming the saved Scopa game (table 1).")
    again.expect(PROMPT_EN)
    again.send("\x04")  # Ctrl-D: the same words, a clean exit
    again.expect(SAVED_EN)
    assert again.wait() == 0


@pytest.mark.parametrize(("key", "code"), [("\x03", 130), ("\x04", 0)], ids=["ctrl-c", "ctrl-d"])
def test_a_key_while_the_computers_think_then_resume(
    tmp_path: Path, terminals: list[Terminal], key: str, code: int
) -> None:
    # Scopone against three strong computers: after the player's card they think a while.
    first = start(
        terminals, tmp_path, ["play", "scopone", "--level", "hard", "--name", "Lia"], "it_IT.UTF-8"
    )
    at = first.expect(PROMPT_IT)
    first.line("1")
    first.expect("1\n", after=at)  # echoed by the terminal: the line is on its way
    time.sleep(0.3)  # for the program to take the line in (Ctrl-C flushes unread input)
    first.send(key)
    first.expect(SAVED_IT, after=at)
    assert first.wait() == code
    # Resuming: whatever the computers had not played yet, they play now; the screen lists
    # the player's own card and every computer move since.
    again = start(terminals, tmp_path, ["play", "scopone"], "it_IT.UTF-8")
    begin = again.expect("Riprendo la partita salvata")
    end = again.expect(PROMPT_IT, after=begin)
    rows = listed(again.output, "Mosse dal tuo ultimo turno:", after=begin)
    expected = moves_since_own(export(tmp_path))
    assert [who for who, _ in rows] == [
        "Tu" if seat == 0 else f"Computer {seat + 1} (difficile)" for seat, _ in expected
    ]
    # (a capture that cleared the table is marked " · Scopa!")
    assert [what.removesuffix(" · Scopa!") for _, what in rows] == [
        move_text(move) for _, move in expected
    ]
    if rows[0][0] == "Tu":  # the card was played before Ctrl-C: three computers answered
        assert len(rows) == 4
    again.send("\x03")
    again.expect(SAVED_IT, after=end)
    assert again.wait() == 130


def test_keys_at_the_first_run_name_question(tmp_path: Path, terminals: list[Terminal]) -> None:
    nothing = "No game was dealt yet, so there is nothing to save. To play, run: python -m bot"
    first = start(terminals, tmp_path, [])
    first.expect("Your name at the table [")
    first.send("\x03")
    first.expect(nothing)
    assert first.wait() == 130
    second = start(terminals, tmp_path, [])
    second.expect("Your name at the table [")
    second.send("\x04")
    second.expect(nothing)
    assert second.wait() == 0
    # Answered, the name is kept: the next run does not ask again.
    third = start(terminals, tmp_path, ["play", "scopa"])
    third.expect("Your name at the table [")
    third.line("Ada")
    third.expect("Your hand:")
    third.expect(PROMPT_EN)
    assert "▶ Ada" in third.output or "Ada:" in third.output
    third.send("q\r")
    third.expect(SAVED_EN)
    assert third.wait() == 0
    fourth = start(terminals, tmp_path, [])
    fourth.expect(PROMPT_EN)
    assert "Your name" not in fourth.output
    fourth.send("\x03")
    fourth.expect(SAVED_EN)
    assert fourth.wait() == 130


def test_play_again_deals_a_new_game(tmp_path: Path, terminals: list[Terminal]) -> None:
    game = start(terminals, tmp_path, ["play", "scopa", "--name", "Eva"])
    at = 0
    for _ in range(200):  # "1" to every prompt plays a whole Scopa game
        seen, at = game.expect_any((PROMPT_EN, "Play again? [y/N] "), after=at)
        if seen != PROMPT_EN:
            break
        game.line("1")
    else:
        raise AssertionError(game.output[-2000:])
    assert "game over!" in game.output
    assert "(The rating measures your play across games" in game.output
    game.line("y")
    again = game.expect("table 2: the cards are dealt!", after=at)
    game.expect("Your hand:", after=again)
    game.expect(PROMPT_EN, after=again)
    game.send("\x03")
    game.expect(SAVED_EN, after=again)
    assert game.wait() == 130


def test_keys_typed_while_the_computers_think_are_dropped(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    # Scopone against three strong computers: while they think the screen says so, and a line
    # typed then (the player's "1" again) never plays a move from a menu not yet shown.
    game = start(terminals, tmp_path, ["play", "scopone", "--level", "hard", "--name", "Lia"])
    at = game.expect(PROMPT_EN)
    game.line("1")
    thinking = game.expect("The computer is thinking…", after=at)
    game.line("1")  # typed blind, before the menu it would answer
    game.expect(PROMPT_EN, after=thinking)
    game.line("q")
    game.expect(SAVED_EN, after=thinking)
    assert game.wait() == 0
    document = export(tmp_path)
    assert [int(m["seat"]) for m in document["moves"]].count(0) == 1  # type: ignore[attr-defined]
