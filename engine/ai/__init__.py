"""Computer players behind one interface: ``get_player(name).choose(view, rng) -> move string``.

Names (Scopa family): ``random`` (any legal move, every game), ``greedy`` alias ``easy`` (the
classical beginner: the baseline of every strength figure), ``medium`` (the classical advice with
card counting, ``engine.ai.medium``), ``hard`` (a determinized search, ``engine.ai.hard``: by
default flat, every move tried on the same weighted deals with ``engine.ai.pimc``, or the ISMCTS
tree with ``method="ismcts"``; options ``work``, ``iterations``, ``seconds``, ``workers``,
``epsilon``, ``inference``, ``method`` and the method's own).
Scala 40: ``scala40`` (a heuristic club player, ``engine.ai.scala40_player``: the hard level),
``scala40-medium`` (the same, one discard in seven at random), ``scala40-easy`` (a beginner: never
draws from the pozzo nor takes a joker back, a third of its discards at random) and ``random``.
Briscola and chiamata: ``briscola-easy``, ``briscola-medium``, ``briscola-hard``
(``engine.ai.briscola_players``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from engine.ai.base import NoMove, Player
from engine.ai.briscola_players import BriscolaEasy, BriscolaHard, BriscolaMedium
from engine.ai.hard import HardPlayer
from engine.ai.medium import MediumPlayer
from engine.ai.scala40_player import Scala40Player, easy_scala40, medium_scala40
from engine.ai.simple import GreedyPlayer, RandomPlayer

__all__ = ["PLAYER_NAMES", "NoMove", "Player", "get_player"]

_FACTORIES: Mapping[str, Callable[..., Player]] = MappingProxyType(
    {
        "random": RandomPlayer,
        "greedy": GreedyPlayer,
        "easy": GreedyPlayer,
        "medium": MediumPlayer,
        "hard": HardPlayer,
        "scala40": Scala40Player,
        "scala40-easy": easy_scala40,
        "scala40-medium": medium_scala40,
        "briscola-easy": BriscolaEasy,
        "briscola-medium": BriscolaMedium,
        "briscola-hard": BriscolaHard,
    }
)
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def get_player(name: str, **options: Any) -> Player:
    """A new computer player by name, with its options (``get_player("hard", iterations=200)``);
    ValueError lists the names there are, or says which option is not known."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"no computer player {name!r}; there are: {', '.join(PLAYER_NAMES)}")
    try:
        return factory(**options)
    except TypeError as exc:
        raise ValueError(f"bad options for the {name} player: {exc}") from None
