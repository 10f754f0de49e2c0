"""The chance of winning a game from a score (``engine.ai.game_value``) and hard's game-aware
reward (``HardPlayer(game=True)``)."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest

from engine import scopa
from engine.ai.determinize import info_set
from engine.ai.game_value import WinChances, win_chances
from engine.ai.hard import HardPlayer
from engine.ai.pimc import Reward
from engine.scopa.playout import FastRules


@pytest.fixture(scope="module")
def chances() -> WinChances:
    return win_chances(FastRules.of(scopa.Rules()), 11, samples=400)


def test_a_game_over_is_certain(chances: WinChances) -> None:
    """docs/rules.md "Winning the game": a side at the target or over it alone in the lead wins;
    a tie at or over the target plays on."""
    assert chances.of(11, 3) == 1.0
    assert chances.of(3, 11) == 0.0
    assert chances.of(12, 11) == 1.0
    assert 0.0 < chances.of(11, 11) < 1.0


def test_the_table_is_fair_and_ordered(chances: WinChances) -> None:
    """Which side is which does not matter (the sides are symmetrised), and more points never
    lower the chance."""
    for a in range(12):
        for b in range(12):
            assert chances.of(a, b) + chances.of(b, a) == pytest.approx(1.0)
            assert chances.of(a + 1, b) >= chances.of(a, b) - 1e-12
    assert chances.of(0, 0) == pytest.approx(0.5)
    assert chances.of(10, 0) > chances.of(5, 0) > chances.of(3, 2) > 0.5


def test_the_table_is_the_same_on_every_run_and_travels_to_workers() -> None:
    fast = FastRules.of(scopa.Rules())
    first = win_chances(fast, 11, samples=200)
    assert win_chances(fast, 11, samples=200) == first
    assert pickle.loads(pickle.dumps(first)) == first


def test_only_two_sides_and_sane_arguments_are_tabled() -> None:
    with pytest.raises(ValueError, match="two sides"):
        win_chances(FastRules.of(scopa.Rules(players=3)), 11)
    with pytest.raises(ValueError, match="target"):
        win_chances(FastRules.of(scopa.Rules()), 0)


def test_the_game_reward_counts_how_far_a_smazzata_takes_the_game(chances: WinChances) -> None:
    """At 8-9 a smazzata won 3-2 is worth less than one won 5-0, and a lost one that ends the
    game is the worst; between the two sides the reward is zero-sum."""
    game = scopa.new_game(scopa.Rules(), seed=1)
    info = info_set(game.view(game.current_player))
    info = replace(info, points=(8, 9), target=11)
    reward = Reward(info, margin=0.1, win=1.0, chances=chances)
    assert reward.of([5, 0], 0) > reward.of([3, 2], 0) > reward.of([1, 3], 0)
    assert reward.of([1, 3], 0) == -1.0
    for points in ([3, 2], [0, 4], [2, 2]):
        assert reward.of(points, 0) == pytest.approx(-reward.of(points, 1))


def test_hard_with_the_game_reward_plays_the_same_move_for_the_same_seed() -> None:
    game = scopa.new_game(scopa.Rules(), seed=5)
    view = game.view(game.current_player)
    player = HardPlayer(game=True, iterations=40)
    first = player.choose(view, random.Random(9))
    assert HardPlayer(game=True, iterations=40).choose(view, random.Random(9)) == first
    assert first in {str(move) for move in game.legal_moves()}
