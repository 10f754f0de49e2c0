"""Briscola rule options (docs/rules.md "Briscola"), one frozen value validated on construction.

Glossary: **chiamata** = Briscola chiamata, the 5-player game with an auction and a secret
partner; **a punti** = scoring deals by card points rather than by games won; **due su tre** =
a match to 2 games; **scambio** = the swap of the briscola 2 or 7 for the face-up card;
**cappotto** = one side taking all 120 points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.cards import SUITS
from engine.errors import RuleText
from engine.options import options_problem

__all__ = [
    "DEAL_SCORING",
    "OPTIONS",
    "SWAPS",
    "VARIANTS",
    "Option",
    "Rules",
    "RulesError",
]

VARIANTS: tuple[str, ...] = ("classic", "chiamata")
SWAPS: tuple[str, ...] = ("off", "two", "seven")
DEAL_SCORING: tuple[str, ...] = ("win", "points")
REMOVABLE_TWOS: tuple[str, ...] = tuple(f"2{suit}" for suit in SUITS)
CLASSIC_PLAYERS: tuple[int, ...] = (2, 3, 4)
CHIAMATA_PLAYERS = 5
GAMES_TARGET = range(1, 52)  # deal_scoring "win": games to win the match
POINTS_TARGET = range(1, 10_000)  # deal_scoring "points": card points to reach (121, 241...)
DEALS_RANGE = range(1, 101)


class RulesError(RuleText):
    """A rule option that does not exist or has a value that is not allowed."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option as a menu would offer it: ``kind`` is ``"choice"`` (``choices``), ``"int"``
    (``low``..``high``) or ``"bool"``; ``variants`` are those where the option matters."""

    name: str
    kind: str
    default: object
    choices: tuple[object, ...] = ()
    low: int | None = None
    high: int | None = None
    variants: tuple[str, ...] = VARIANTS
    help: str = ""


OPTIONS: tuple[Option, ...] = (
    Option("variant", "choice", "classic", VARIANTS, help="classic (2-4 players) or chiamata (5)"),
    Option("players", "choice", 2, (*CLASSIC_PLAYERS, CHIAMATA_PLAYERS), help="5 is chiamata"),
    Option(
        "target",
        "int",
        1,
        low=1,
        high=POINTS_TARGET.stop - 1,
        variants=("classic",),
        help="games to win the match (2 = due su tre), or card points with deal_scoring=points",
    ),
    Option(
        "removed_two",
        "choice",
        "2B",
        REMOVABLE_TWOS,
        variants=("classic",),
        help="the 2 taken out at 3 players",
    ),
    Option(
        "swap",
        "choice",
        "off",
        SWAPS,
        variants=("classic",),
        help="the briscola 2 or 7 may be exchanged for the face-up card",
    ),
    Option(
        "deal_scoring",
        "choice",
        "win",
        DEAL_SCORING,
        variants=("classic",),
        help="a deal won scores 1 game, or each side scores its card points",
    ),
    Option(
        "point_bids",
        "bool",
        True,
        (True, False),
        variants=("chiamata",),
        help="after the 2, bids go on in points from 61",
    ),
    Option(
        "deals",
        "int",
        5,
        low=DEALS_RANGE.start,
        high=DEALS_RANGE.stop - 1,
        variants=("chiamata",),
        help="deals in the match",
    ),
    Option(
        "cappotto",
        "bool",
        True,
        (True, False),
        variants=("chiamata",),
        help="all 120 points double every score",
    ),
)


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    """The options of one Briscola table; every default is the one docs/rules.md names.

    * ``variant``: ``"classic"`` (2, 3 or 4 players; at 4 seats 0+2 play against 1+3) or
      ``"chiamata"`` (Briscola chiamata, always 5 players: ``players`` defaults to 5 there and
      any other count is refused).
    * ``target``: games (``deal_scoring="win"``) or card points (``"points"``) to win the match.
    * ``removed_two``: the 2 taken out at 3 players (``"2B"``).
    * ``swap``: ``"off"``, ``"two"`` or ``"seven"`` (the scambio).
    * ``deal_scoring``: ``"win"`` (a deal won is 1 game) or ``"points"`` (running card points).
    * ``point_bids``, ``deals``, ``cappotto``: chiamata only (bids in points after the 2; the
      number of deals in the match; all 120 points double the scores).
    """

    variant: str
    players: int
    target: int
    removed_two: str
    swap: str
    deal_scoring: str
    point_bids: bool
    deals: int
    cappotto: bool

    def __init__(
        self,
        *,
        players: int | None = None,
        variant: str = "classic",
        target: int = 1,
        removed_two: str = "2B",
        swap: str = "off",
        deal_scoring: str = "win",
        point_bids: bool = True,
        deals: int = 5,
        cappotto: bool = True,
    ) -> None:
        _choice("variant", variant, VARIANTS)
        if variant == "chiamata":
            if players is None:
                players = CHIAMATA_PLAYERS
            if not _is_int(players) or players != CHIAMATA_PLAYERS:
                raise RulesError(
                    "{variant} is played by 5 players; got {value}",
                    variant="chiamata",
                    value=repr(players),
                )
        else:
            if players is None:
                players = CLASSIC_PLAYERS[0]
            if not _is_int(players) or players not in CLASSIC_PLAYERS:
                raise RulesError(
                    "briscola is played by 2, 3 or 4 players (5: variant chiamata); got {value}",
                    value=repr(players),
                )
        _choice("deal_scoring", deal_scoring, DEAL_SCORING)
        allowed = GAMES_TARGET if deal_scoring == "win" else POINTS_TARGET
        if not _is_int(target) or target not in allowed:
            raise RulesError(
                "{name} must be a whole number from {low} to {high}; got {value}",
                name="target",
                low=allowed.start,
                high=allowed.stop - 1,
                value=repr(target),
            )
        if isinstance(removed_two, str):
            removed_two = removed_two.strip().upper()
        _choice("removed_two", removed_two, REMOVABLE_TWOS)
        _choice("swap", swap, SWAPS)
        for name, flag in (("point_bids", point_bids), ("cappotto", cappotto)):
            if type(flag) is not bool:
                raise RulesError(
                    "{name} must be true or false; got {value}", name=name, value=repr(flag)
                )
        if not _is_int(deals) or deals not in DEALS_RANGE:
            raise RulesError(
                "{name} must be a whole number from {low} to {high}; got {value}",
                name="deals",
                low=DEALS_RANGE.start,
                high=DEALS_RANGE.stop - 1,
                value=repr(deals),
            )
        values: dict[str, Any] = {
            "variant": variant,
            "players": players,
            "target": target,
            "removed_two": removed_two,
            "swap": swap,
            "deal_scoring": deal_scoring,
            "point_bids": point_bids,
            "deals": deals,
            "cappotto": cappotto,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def chiamata(self) -> bool:
        return self.variant == "chiamata"

    @property
    def sides(self) -> int:
        """How many sides score: pairs at 4 players; otherwise each player (in chiamata the
        partnership changes every deal, so scores are kept per player)."""
        return 2 if self.players == 4 else self.players

    @property
    def hand_size(self) -> int:
        return 8 if self.chiamata else 3

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a mapping of options; unknown options are refused by name."""
        problem = options_problem(data, {f.name for f in fields(cls)})
        if problem is not None:
            raise RulesError.of(problem)
        return cls(**{str(key): value for key, value in data.items()})

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @staticmethod
    def options() -> tuple[Option, ...]:
        """Every option with its kind, allowed values and default (for menus and /rules)."""
        return OPTIONS


def _is_int(value: object) -> bool:
    return type(value) is int


def _choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise RulesError(
            "{name} must be one of {choices}; got {value}",
            name=name,
            choices=", ".join(choices),
            value=repr(value),
        )
