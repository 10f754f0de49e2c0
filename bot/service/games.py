"""The registry of game kinds: what the service needs to know of each engine module.

Adding a game is one :class:`GameKind` entry: its family (leaderboards are per family), the
player counts it allows, and how to build rules, new games and saved games from the engine
module, which follows the generic engine contract (``Rules.from_dict``, which refuses an unknown
option by name with a ValueError, ``new_game``, ``Game.from_dict``, ``game.view``,
``game.outcome``...). Engines are imported lazily, so a missing engine only removes
its kinds.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleText

logger = logging.getLogger(__name__)

__all__ = ["GameKind", "Registry", "default_registry"]


@dataclass(frozen=True, slots=True)
class GameKind:
    """One game a table can be created for (``name`` is what users type: ``scopa``...)."""

    name: str
    family: str
    module: Any  # the engine module (engine.scopa, engine.scala40)
    players: tuple[int, ...]
    default_players: int
    fixed: Mapping[str, Any] = field(default_factory=dict)  # options the kind implies
    teams: Callable[[int], bool] = lambda players: False  # are seats chosen for pairs?
    # Option values as chat commands spell them -> the engine's (Briscola: swap=off reads as
    # False on Telegram, the engine's value is "off").
    aliases: Mapping[str, Mapping[Any, Any]] = field(default_factory=dict)
    # Options of the engine that do not apply to this kind (Briscola's chiamata-only options):
    # refused by name when given, and not kept with the table (/rules does not list them).
    ignored: tuple[str, ...] = ()

    def rules(self, players: int, options: Mapping[str, Any]) -> Any:
        """The engine's Rules, or ValueError naming what is allowed: the engine's RulesError, or a
        RuleText of the same kind (template and params, so the refusal translates)."""
        if players not in self.players:
            raise RuleText(
                "{game} is played by {allowed} players, not {players}",
                game=self.name,
                allowed=", ".join(map(str, self.players)),
                players=players,
            )
        clash = set(options) & ({"players"} | set(self.fixed))
        if clash:
            raise RuleText(
                "option {option} is set by the game {game}", option=sorted(clash)[0], game=self.name
            )
        unplayed = set(options) & set(self.ignored)
        if unplayed:
            raise RuleText(
                "option {option} is not played in {game}",
                option=sorted(unplayed)[0],
                game=self.name,
            )
        options = {
            name: self.aliases.get(name, {}).get(value, value)
            if isinstance(value, str | bool | int)
            else value
            for name, value in options.items()
        }
        # The engine names an unknown option and the options it knows (RulesError).
        return self.module.Rules.from_dict({"players": players, **self.fixed, **options})

    def new_game(self, rules: Any, seed: int) -> Any:
        return self.module.new_game(rules, seed=seed)

    def load(self, state: Mapping[str, Any]) -> Any:
        return self.module.Game.from_dict(state)


class Registry:
    """Game kinds by name."""

    def __init__(self, kinds: Sequence[GameKind] = ()) -> None:
        self._kinds = {k.name: k for k in kinds}

    def add(self, kind: GameKind) -> None:
        self._kinds[kind.name] = kind

    def get(self, name: str) -> GameKind | None:
        return self._kinds.get(name.strip().lower())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._kinds)

    @property
    def families(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(k.family for k in self._kinds.values()))


def _pairs(players: int) -> bool:
    return players == 4


def default_registry() -> Registry:
    """Scopa, Scopone, Scopone scientifico, Scala 40, Briscola and Briscola chiamata, for the
    engines that are installed."""
    registry = Registry()
    try:
        scopa = importlib.import_module("engine.scopa")
    except ImportError:
        logger.warning("engine.scopa is not available: no Scopa tables")
    else:
        registry.add(GameKind("scopa", "scopa", scopa, (2, 3, 4), 2, {"variant": "scopa"}, _pairs))
        registry.add(GameKind("scopone", "scopa", scopa, (4,), 4, {"variant": "scopone"}, _pairs))
        registry.add(
            GameKind("scientifico", "scopa", scopa, (4,), 4, {"variant": "scientifico"}, _pairs)
        )
    try:
        scala40 = importlib.import_module("engine.scala40")
    except ImportError:
        logger.info("engine.scala40 is not available: no Scala 40 tables")
    else:
        registry.add(GameKind("scala40", "scala40", scala40, (2, 3, 4, 5, 6), 2))
    _add_briscola(registry)
    return registry


def _add_briscola(registry: Registry) -> None:
    """Briscola (2, 3, 4 players; pairs at 4) and Briscola chiamata (5, each for themselves over
    the match: the socio's share of a deal is in their score). Two families: their scores and
    leaderboards do not compare."""
    try:
        briscola = importlib.import_module("engine.briscola")
    except ImportError:
        logger.info("engine.briscola is not available: no Briscola tables")
        return
    aliases = {"swap": {False: "off", 2: "two", 7: "seven", "2": "two", "7": "seven"}}
    chiamata_only = ("point_bids", "deals", "cappotto")
    classic_only = ("target", "removed_two", "swap", "deal_scoring")
    registry.add(
        GameKind(
            "briscola",
            "briscola",
            briscola,
            (2, 3, 4),
            2,
            {"variant": "classic"},
            _pairs,
            aliases,
            ignored=chiamata_only,
        )
    )
    registry.add(
        GameKind(
            "chiamata",
            "chiamata",
            briscola,
            (5,),
            5,
            {"variant": "chiamata"},
            ignored=classic_only,
        )
    )
