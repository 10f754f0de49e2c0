"""The chance of winning the game from a score, for the flat search's game-aware reward.

Glossary: **smazzata** = one deal played out. A game of the Scopa family is played to a target
(11, 16, 21 points...): it ends when a side has reached the target alone in the lead (a tie at or
over the target plays on). What one smazzata is worth is then not whether it was won but how
much nearer it brings the game: 3-2 and 5-0 are both won smazzate, and far from equal at 8-9.

``WinChances`` tables, for two sides, the chance that the side with ``a`` points wins the game
against ``b``, from the distribution of one smazzata's points: sampled by playing fresh smazzate
out with the fast path's epsilon-greedy (``engine.scopa.playout.random_smazzata``, a fixed seed,
so the table is the same on every run and every machine), symmetrised (which side deals is not
modelled), and carried back from the game's ends by dynamic programming:
``P(a, b) = sum over outcomes (x, y) of p(x, y) * P(a + x, b + y)``. A smazzata always gives a
point (the settebello goes to someone), so every step moves the score on and the recursion ends.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.scopa.playout import FastRules, random_smazzata

__all__ = ["SAMPLES", "WinChances", "win_chances"]

# Smazzate sampled for the distribution of one smazzata's points (about a quarter of a second).
SAMPLES = 3000
# The playouts' share of random moves (as in hard's own playouts).
EPSILON = 0.2
# Scores beyond target + SPAN are not tabled: a game tied that far past its target is even.
SPAN = 30


@dataclass(frozen=True, slots=True)
class WinChances:
    """``of(a, b)``: the chance that a side with ``a`` game points beats one with ``b``, both
    counted after the smazzata (picklable: search workers receive it)."""

    target: int
    size: int
    table: tuple[float, ...]

    def of(self, a: int, b: int) -> float:
        return _lookup(self.table, self.size, self.target, a, b)


def _decided(a: int, b: int, target: int) -> float | None:
    """1 or 0 when the game is over at ``a`` to ``b`` (a side at the target alone in the lead),
    else None."""
    if (a >= target or b >= target) and a != b:
        return 1.0 if a > b else 0.0
    return None


def _lookup(table: Sequence[float], size: int, target: int, a: int, b: int) -> float:
    """The chance at ``a`` to ``b``: decided, even beyond the table, or the table's entry."""
    decided = _decided(a, b, target)
    if decided is not None:
        return decided
    if a >= size or b >= size:
        return 0.5
    return table[a * size + b]


def win_chances(
    fast: FastRules, target: int, *, samples: int = SAMPLES, seed: int = 0
) -> WinChances:
    """The table for a game of ``fast``'s rules to ``target`` (two sides only)."""
    if fast.sides != 2:
        raise ValueError(f"win chances are tabled for two sides; these rules have {fast.sides}")
    if type(target) is not int or target < 1:
        raise ValueError(f"target must be a whole number >= 1; got {target!r}")
    if type(samples) is not int or samples < 1:
        raise ValueError(f"samples must be a whole number >= 1; got {samples!r}")
    rng = random.Random(seed)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(samples):
        x, y = random_smazzata(fast, rng, epsilon=EPSILON)
        counts[x, y] += 1
        counts[y, x] += 1
    total = 2 * samples
    outcomes = [(x, y, n / total) for (x, y), n in sorted(counts.items())]
    if any(x + y == 0 for x, y, _ in outcomes):
        raise AssertionError("a smazzata gave no point at all: the recursion would not end")
    size = target + SPAN
    table = [0.0] * (size * size)
    # From the highest scores down: every outcome leads to a higher sum of the two scores.
    for total_points in range(2 * size - 2, -1, -1):
        for a in range(max(0, total_points - size + 1), min(size - 1, total_points) + 1):
            b = total_points - a
            if _decided(a, b, target) is not None:
                continue  # never read: ``_lookup`` answers a decided game itself
            value = 0.0
            for x, y, p in outcomes:
                value += p * _lookup(table, size, target, a + x, b + y)
            table[a * size + b] = value
    return WinChances(target, size, tuple(table))
