"""Computer players behind one interface: ``get_player(name).choose(view, rng) -> move string``.

This package holds what every game's players share: the interface (``engine.ai.base``), the
registry below, the player of every game (``random``, ``engine.ai.simple``) and the search
plumbing (``engine.ai.search``). Each game's players live beside its rules:

* Scopa family (``engine.scopa.ai``): ``greedy`` alias ``easy`` (the classical beginner: the
  baseline of every strength figure), ``medium`` (the classical advice with card counting),
  ``hard`` (a determinized flat search, every move tried on the same weighted deals; its settings
  one ``HardConfig``).
* Scala 40 (``engine.scala40.ai``): ``scala40`` (a heuristic club player: the hard level),
  ``scala40-medium`` (the same, one discard in seven at random), ``scala40-easy`` (a beginner).
* Briscola and chiamata (``engine.briscola.ai``): ``briscola-easy``, ``briscola-medium``,
  ``briscola-hard``.

The registry names each player by its module and factory, imported when first asked for: the
common code imports no game's package (and a game's players may import this package).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, cast

from engine.ai.base import NoMove, Player

__all__ = ["PLAYER_NAMES", "NoMove", "Player", "check_player_name", "get_player"]

# name -> (module, factory): a factory takes the player's options as keywords.
_FACTORIES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "random": ("engine.ai.simple", "RandomPlayer"),
        "greedy": ("engine.scopa.ai.greedy", "GreedyPlayer"),
        "easy": ("engine.scopa.ai.greedy", "GreedyPlayer"),
        "medium": ("engine.scopa.ai.medium", "MediumPlayer"),
        "hard": ("engine.scopa.ai.hard", "HardPlayer"),
        "scala40": ("engine.scala40.ai.player", "Scala40Player"),
        "scala40-easy": ("engine.scala40.ai.player", "easy_scala40"),
        "scala40-medium": ("engine.scala40.ai.player", "medium_scala40"),
        "briscola-easy": ("engine.briscola.ai.players", "BriscolaEasy"),
        "briscola-medium": ("engine.briscola.ai.players", "BriscolaMedium"),
        "briscola-hard": ("engine.briscola.ai.players", "BriscolaHard"),
    }
)
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def check_player_name(name: str) -> None:
    """ValueError naming the players there are, unless ``name`` is one of them."""
    if name not in _FACTORIES:
        raise ValueError(f"no computer player {name!r}; there are: {', '.join(PLAYER_NAMES)}")


def get_player(name: str, **options: Any) -> Player:
    """A new computer player by name, with its options (``get_player("hard", iterations=200)``);
    ValueError lists the names there are, or says which option is not known."""
    check_player_name(name)
    module, attribute = _FACTORIES[name]
    factory = cast(Callable[..., Player], getattr(importlib.import_module(module), attribute))
    try:
        return factory(**options)
    except TypeError as exc:
        raise ValueError(f"bad options for the {name} player: {exc}") from None
