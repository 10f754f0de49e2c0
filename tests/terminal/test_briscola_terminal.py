"""Briscola and Briscola chiamata in the terminal (``tavolo play briscola``, ``tavolo play
chiamata``): the hand and the moves in words, typed as numbers, cards or words, to game over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.terminal.test_terminal import run_tavolo

pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")


def test_briscola_two_players_to_the_end(tmp_path: Path) -> None:
    played = run_tavolo(["play", "briscola", "--name", "Eva"], "h\nzz\n" + "1\n" * 60, tmp_path)
    assert played.returncode == 0, played.stderr
    out = played.stdout
    assert "Your hand:" in out and "Briscola:" in out
    assert "no duty to follow suit" in out  # the game's own help
    assert "“zz” is not a move" in out
    assert "End of deal 1" in out and "card points" in out
    assert "game over!" in out and "Play again? [y/N]" in out
    assert "Traceback" not in played.stderr


def test_chiamata_auction_by_words_then_cards(tmp_path: Path) -> None:
    # "pass" by its word in the auction; then the first move at every prompt to the end.
    moves = "pass\n" + "1\n" * 300
    played = run_tavolo(["play", "chiamata", "--name", "Eva"], moves, tmp_path)
    assert played.returncode == 0, played.stderr
    out = played.stdout
    assert "Your turn in the auction" in out
    assert "Eva: passes" in out or "You: Pass" in out
    assert "Chiamante:" in out
    assert "game over!" in out
    assert "Traceback" not in played.stderr


def test_a_card_typed_as_shown_then_export_and_replay(tmp_path: Path) -> None:
    first = run_tavolo(["play", "briscola", "--players", "4", "--name", "Eva"], "q\n", tmp_path)
    assert first.returncode == 0, first.stderr
    card = first.stdout.rsplit("Your hand: ", 1)[1].splitlines()[0].split()[0]
    second = run_tavolo(["play", "briscola"], f"{card}\nq\n", tmp_path)
    assert second.returncode == 0, second.stderr
    assert f"You: {card}" in second.stdout
    exported = run_tavolo(["export-game", "1"], "", tmp_path)
    assert exported.returncode == 0, exported.stderr
    document = json.loads(exported.stdout)
    assert document["game"] == "briscola" and document["players"] == 4
    (tmp_path / "game.json").write_text(exported.stdout)
    replayed = run_tavolo(["replay", str(tmp_path / "game.json")], "", tmp_path)
    assert replayed.returncode == 0, replayed.stderr + replayed.stdout
    assert "briscola" in replayed.stdout
