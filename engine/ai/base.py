"""The one interface every computer player implements, for every game.

A player sees only what its seat may see (the game's ``view(seat)``) and returns the string of a
legal move; randomness comes in as a ``random.Random`` so a game with computer players replays
exactly from its seed.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


class NoMove(ValueError):
    """The view has no legal move for its seat (not this seat's turn, or the game is over)."""


@runtime_checkable
class Player(Protocol):
    """A computer player: ``choose(view, rng)`` returns a legal move string for ``view.seat``."""

    name: str

    def choose(self, view: Any, rng: random.Random) -> str:
        """The move to play in this view."""
        ...


def legal_moves_of(view: Any) -> tuple[str, ...]:
    moves: tuple[str, ...] = tuple(getattr(view, "legal_moves", ()))
    if not moves:
        raise NoMove("no legal move in this view: it is not this seat's turn, or the game is over")
    return moves
