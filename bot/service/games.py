"""The registry of game kinds: what the service needs to know of each engine module.

Adding a game is one :class:`GameKind` entry: its family (leaderboards are per family), the
player counts it allows, and the engine module, which implements the engine contract
(:class:`engine.contract.GameModule`: ``Rules.from_dict``, which refuses an unknown option by
name with a ValueError, ``new_game``, ``Game.from_dict``, and games that answer ``view``,
``play``, ``outcome``...). The engines are imported here, so mypy checks each registration
against the contract, and ``tests/engine/test_contract.py`` plays every registered kind.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from engine import briscola, scala40, scopa
from engine.contract import GameModule, GameRules, GameState
from engine.errors import RuleText

logger = logging.getLogger(__name__)

# A rule option's value as a chat command or a setting spells it (the engine's Rules.from_dict
# reads and checks it).
OptionValue: TypeAlias = str | int | bool

__all__ = ["GameKind", "OptionValue", "Registry", "default_registry"]


@dataclass(frozen=True, slots=True)
class GameKind:
    """One game a table can be created for (``name`` is what users type: ``scopa``...)."""

    name: str
    family: str
    module: GameModule  # the engine module (engine.scopa, engine.scala40)
    players: tuple[int, ...]
    default_players: int
    fixed: Mapping[str, OptionValue] = field(default_factory=dict)  # options the kind implies
    teams: Callable[[int], bool] = lambda players: False  # are seats chosen for pairs?
    # Option values as chat commands spell them -> the engine's (Briscola: swap=off reads as
    # False on Telegram, the engine's value is "off").
    aliases: Mapping[str, Mapping[OptionValue, OptionValue]] = field(default_factory=dict)
    # Options of the engine that do not apply to this kind (Briscola's chiamata-only options):
    # refused by name when given, and not kept with the table (/rules does not list them).
    ignored: tuple[str, ...] = ()

    def rules(self, players: int, options: Mapping[str, object]) -> GameRules:
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

    def new_game(self, rules: GameRules, seed: int) -> GameState:
        """A new game of this kind; ``rules`` are the ones :meth:`rules` made."""
        return self.module.new_game(rules, seed=seed)

    def load(self, state: Mapping[str, object]) -> GameState:
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
    """Scopa, Scopone, Scopone scientifico, Scala 40, Briscola and Briscola chiamata."""
    return Registry(
        [
            GameKind("scopa", "scopa", scopa, (2, 3, 4), 2, {"variant": "scopa"}, _pairs),
            GameKind("scopone", "scopa", scopa, (4,), 4, {"variant": "scopone"}, _pairs),
            GameKind("scientifico", "scopa", scopa, (4,), 4, {"variant": "scientifico"}, _pairs),
            GameKind("scala40", "scala40", scala40, (2, 3, 4, 5, 6), 2),
            *_briscola_kinds(),
        ]
    )


def _briscola_kinds() -> tuple[GameKind, GameKind]:
    """Briscola (2, 3, 4 players; pairs at 4) and Briscola chiamata (5, each for themselves over
    the match: the socio's share of a deal is in their score). Two families: their scores and
    leaderboards do not compare."""
    swap: dict[OptionValue, OptionValue] = {
        False: "off",
        2: "two",
        7: "seven",
        "2": "two",
        "7": "seven",
    }
    aliases = {"swap": swap}
    chiamata_only = ("point_bids", "deals", "cappotto")
    classic_only = ("target", "removed_two", "swap", "deal_scoring")
    return (
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
        ),
        GameKind(
            "chiamata",
            "chiamata",
            briscola,
            (5,),
            5,
            {"variant": "chiamata"},
            ignored=classic_only,
        ),
    )
