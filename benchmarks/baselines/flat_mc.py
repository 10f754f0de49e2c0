"""A flat Monte Carlo Scopa-family player, as a reader of the Monte Carlo literature would write it.

For each move: ``samples`` deals of the unseen cards consistent with the seat's view (own hand,
table, every card played this smazzata, the hand and deck counts), uniformly at random; every
legal move is tried on the SAME deals (common random numbers), each deal played out with greedy
moves for every seat; the move with the best mean score difference (own side minus the best other
side) is played. No tree, no inference about the other hands.
"""

from __future__ import annotations

import random
from typing import Any

from benchmarks.baselines.scopa_sim import parse, playout, position_of, sample

__all__ = ["FlatMonteCarlo"]


def legal_index(view: Any) -> dict[tuple[int, int], str]:
    """(card, taken mask) -> the view's move string (moves declaring fuori left out)."""
    out: dict[tuple[int, int], str] = {}
    for text in view.legal_moves:
        if text.endswith("!"):
            continue
        card, taken = parse(text)
        mask = 0
        for t in taken:
            mask |= 1 << t
        out[(card, mask)] = text
    return out


class FlatMonteCarlo:
    """Flat Monte Carlo with greedy playouts (``samples`` deals per move, shared by the moves)."""

    name = "flatmc"

    def __init__(self, samples: int = 100) -> None:
        self.samples = samples
        self._memo: dict[tuple[int, int], list[int]] = {}

    def choose(self, view: Any, rng: random.Random) -> str:
        moves = legal_index(view)
        if len(moves) == 1:
            return next(iter(moves.values()))
        if len(self._memo) > 200_000:
            self._memo.clear()
        known, unseen, hidden = position_of(view)
        n = view.players
        side = view.seat % 2 if n == 4 else view.seat
        deals = [sample(known, unseen, hidden, rng) for _ in range(self.samples)]
        best_text, best = "", -1e9
        for (card, taken), text in sorted(moves.items()):
            total = 0.0
            for deal in deals:
                pos = deal.copy()
                pos.play(card, taken)
                points = playout(pos, self._memo)
                own = points[side]
                total += own - max(p for s, p in enumerate(points) if s != side)
            if total > best:
                best_text, best = text, total
        return best_text
