"""Computer players: the one place that maps the service's levels to engine players.

Levels are ``easy``, ``medium``, ``hard``. Each level lists engine player names (of
``engine.ai.get_player``) from the preferred to the fallback, so the strong players of a later
issue take over as soon as they exist, with no change elsewhere.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable, Mapping
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["LEVELS", "ComputerPlayers"]

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

# family -> level -> engine player names, preferred first.
CANDIDATES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "scopa": {
        "easy": ("greedy", "random"),
        "medium": ("medium", "greedy", "random"),
        "hard": ("hard", "medium", "greedy", "random"),
    },
    # "greedy" is a Scopa player: never offered for Scala 40.
    "scala40": {
        "easy": ("scala40-easy", "scala40", "random"),
        "medium": ("scala40-medium", "scala40", "random"),
        "hard": ("scala40-hard", "scala40-medium", "scala40", "random"),
    },
}


def _engine_get_player(name: str) -> Any:
    ai = importlib.import_module("engine.ai")
    return ai.get_player(name)


class ComputerPlayers:
    """Chooses computer moves; ``choose`` is synchronous: the service runs it in a thread."""

    def __init__(self, get_player: Callable[[str], Any] | None = None) -> None:
        self._get_player = get_player or _engine_get_player
        self._players: dict[tuple[str, str], Any] = {}

    def player_name(self, family: str, level: str) -> str:
        return self._resolve(family, level)[0]

    def _resolve(self, family: str, level: str) -> tuple[str, Any]:
        key = (family, level)
        cached = self._players.get(key)
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        if level not in LEVELS:
            raise ValueError(f"computer level must be one of {', '.join(LEVELS)}, not {level!r}")
        names = CANDIDATES.get(family, CANDIDATES["scopa"])[level]
        for name in names:
            try:
                found = (name, self._get_player(name))
            except (KeyError, ValueError, LookupError):
                continue
            self._players[key] = found
            logger.info("computer level %s plays %s as %s", level, family, name)
            return found
        raise LookupError(f"no computer player for {family} at level {level}")

    def choose(self, family: str, level: str, view: Any, rng: random.Random) -> str:
        """A legal move string for the view's seat."""
        _name, player = self._resolve(family, level)
        return str(player.choose(view, rng))
