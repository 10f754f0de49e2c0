"""Computer players behind one interface: ``get_player(name).choose(view, rng) -> move string``.

Names: ``random`` (any legal move, every game) and ``greedy`` (the classical beginner, Scopa
family: the "easy" level and the baseline of every strength figure).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from engine.ai.base import NoMove, Player
from engine.ai.simple import GreedyPlayer, RandomPlayer

__all__ = ["PLAYER_NAMES", "NoMove", "Player", "get_player"]

_FACTORIES: Mapping[str, Callable[[], Player]] = MappingProxyType(
    {"random": RandomPlayer, "greedy": GreedyPlayer}
)
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def get_player(name: str) -> Player:
    """A new computer player by name; ValueError lists the names there are."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"no computer player {name!r}; there are: {', '.join(PLAYER_NAMES)}")
    return factory()
