"""The medium and hard players: legal, deterministic, sensible in classic positions, view-only."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import scopa
from engine.ai import PLAYER_NAMES, get_player
from engine.scopa.ai.hard import HardPlayer

from ..scopa.helpers import position

TINY = {"iterations": 40}


def _player(name: str) -> object:
    return get_player(name, **TINY) if name == "hard" else get_player(name)


def test_names_and_options() -> None:
    assert {"random", "greedy", "easy", "medium", "hard"} <= set(PLAYER_NAMES)
    assert get_player("easy").name == "greedy"
    with pytest.raises(ValueError, match="there are: random, greedy"):
        get_player("grandmaster")
    with pytest.raises(ValueError, match="bad options for the medium player"):
        get_player("medium", iterations=3)
    for bad in (
        {"iterations": 0},
        {"seconds": -1.0},
        {"epsilon": 2.0},
        {"workers": 0},
        {"sweep": True},
    ):
        with pytest.raises(ValueError):
            get_player("hard", **bad)


@pytest.mark.parametrize(
    ("name", "hand", "table", "expected"),
    [
        # docs/rules.md "Scopa": a capture that leaves the table empty is a scopa, worth 1 point.
        ("medium", "7C 2D KB", "3C 4S", "7C:3C+4S"),
        ("hard", "7C 2D KB", "3C 4S", "7C:3C+4S"),
        # The settebello (7D) is a point by itself: take it.
        ("medium", "7C 5S QB", "7D 3C JS", "7C:7D"),
        ("hard", "7C 5S QB", "7D 3C JS", "7C:7D"),
        # Leave no sum a single card can sweep: 3C + JC = 11 cannot be taken at once; 3C + 4S = 7
        # and 3C + 6B = 9 can.
        ("medium", "4S 6B JC", "3C", "JC"),
        ("hard", "4S 6B JC", "3C", "JC"),
    ],
)
def test_classic_positions(name: str, hand: str, table: str, expected: str) -> None:
    # The last three cards each; what nobody holds was taken earlier (not in the history).
    game = position(hands=[hand, "AB 2B 3B"], table=table, rest_to=1)
    player = get_player(name, iterations=400) if name == "hard" else get_player(name)
    assert player.choose(game.view(0), random.Random(1)) == expected


@pytest.mark.parametrize("name", ["medium", "hard"])
@pytest.mark.parametrize(
    "rules",
    [
        scopa.Rules(),
        scopa.Rules(players=3),
        scopa.Rules(variant="scopone"),
        scopa.Rules(variant="scientifico", asso_piglia_tutto=True),
        scopa.Rules(scopa_a_15=True, obbligo_di_presa=True),
    ],
    ids=lambda r: f"{r.variant}{r.players}",
)
def test_plays_a_whole_smazzata_legally(name: str, rules: scopa.Rules) -> None:
    """Every seat played by the player: every move legal (``play`` validates), the deal ends."""
    game = scopa.new_game(rules, seed=4)
    player = _player(name)
    rng = random.Random(4)
    for _ in range(41):
        if game.smazzate or game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        move = player.choose(view, rng)  # type: ignore[attr-defined]
        assert move in view.legal_moves
        game = game.play(move)
    assert game.smazzate


@pytest.mark.parametrize("name", ["medium", "hard"])
def test_same_view_and_seed_same_move(name: str) -> None:
    game = scopa.new_game(scopa.Rules(variant="scopone"), seed=9)
    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    moves = {_player(name).choose(view, random.Random(21)) for _ in range(3)}  # type: ignore[attr-defined]
    assert len(moves) == 1


def test_hard_sees_only_the_view() -> None:
    """Two games with the same view for seat 0 but different hidden cards: same move, same
    search (iterations), because the player is given the view and nothing else."""
    a = position(hands=["7D 2S 3S", "5C 6C KB"], table="4B QS JS QC", rest_to="deck")
    b = position(hands=["7D 2S 3S", "AC 2C 3C"], table="4B QS JS QC", rest_to="deck")
    assert a.view(0) == b.view(0)
    hard_a, hard_b = HardPlayer(iterations=60), HardPlayer(iterations=60)
    assert hard_a.choose(a.view(0), random.Random(8)) == hard_b.choose(b.view(0), random.Random(8))
    assert hard_a.last_iterations == hard_b.last_iterations == 60


def test_hard_time_mode_and_workers() -> None:
    game = scopa.new_game(scopa.Rules(), seed=2)
    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    timed = HardPlayer(seconds=0.02)
    assert timed.choose(view, random.Random(1)) in view.legal_moves
    assert timed.last_iterations >= 1
    # Two parts of 20 deals, run here one after the other or in the caller's pool: the same move.
    parallel = HardPlayer(iterations=40, workers=2)
    first = parallel.choose(view, random.Random(5))
    assert parallel.choose(view, random.Random(5)) == first and first in view.legal_moves
    assert parallel.last_iterations == 40
    with ThreadPoolExecutor(2) as pool:
        pooled = HardPlayer(iterations=40, workers=2, executor=pool)
        assert pooled.choose(view, random.Random(5)) == first


def test_refuses_other_games_and_finished_views() -> None:
    game = scopa.new_game(scopa.Rules(), seed=2)
    other = 1 - (game.current_player or 0)
    for name in ("medium", "hard"):
        with pytest.raises(ValueError, match="not this seat's turn"):
            _player(name).choose(game.view(other), random.Random(1))  # type: ignore[attr-defined]
