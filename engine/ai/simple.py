"""The computer player of every game: ``random`` (any legal move)."""

from __future__ import annotations

import random

from engine.ai.base import legal_moves_of

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Any legal move, uniformly (moves that declare fuori are as likely as any other)."""

    name = "random"

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        return moves[rng.randrange(len(moves))]
