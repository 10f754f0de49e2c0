"""Scala 40 rule options (docs/rules.md, "Scala 40"), a frozen value validated on construction."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.errors import RuleText
from engine.options import Option

__all__ = [
    "CLOSE_IN_HAND",
    "DISCARD_ATTACHABLE",
    "ELIMINATION",
    "OPTIONS",
    "UNOPENED_PAYS",
    "Rules",
    "RulesError",
]

DISCARD_ATTACHABLE: tuple[str, ...] = ("allowed", "forbidden")
CLOSE_IN_HAND: tuple[str, ...] = ("double", "bonus", "off")
UNOPENED_PAYS: tuple[str, ...] = ("sum", "100")
ELIMINATION: tuple[int, ...] = (101, 151, 201, 501)
MAX_JOKERS_PER_MELD = 4
MAX_OPENING_POINTS = 100
MAX_RESTOCKS = 20
PLAYERS = range(2, 7)

# What Rules.from_dict accepts, described for menus and /rules (engine.options); the defaults are
# Rules()'s, tests/engine/scala40/test_options.py holds them to Rules.from_dict.
OPTIONS: tuple[Option, ...] = (
    Option(
        "players",
        "int",
        4,
        low=PLAYERS.start,
        high=PLAYERS.stop - 1,
        help="how many seats, each for themselves",
    ),
    Option(
        "dealer_fourteen",
        "bool",
        False,
        help="the dealer gets 14 cards and starts by discarding, no card turned up",
    ),
    Option(
        "jokers_per_meld",
        "int",
        1,
        low=0,
        high=MAX_JOKERS_PER_MELD,
        help="how many jokers one meld may hold",
    ),
    Option(
        "opening_points",
        "int",
        40,
        low=0,
        high=MAX_OPENING_POINTS,
        help="the points the opening melds must reach (0: Machiavelli)",
    ),
    Option(
        "first_pile_card_free",
        "bool",
        False,
        help="the first card turned up may be taken by a player who has not opened",
    ),
    Option(
        "discard_attachable",
        "choice",
        "allowed",
        DISCARD_ATTACHABLE,
        help="whether a card that fits a meld on the table may be discarded",
    ),
    Option(
        "close_in_hand",
        "choice",
        "double",
        CLOSE_IN_HAND,
        help="closing in the opening turn: the others pay double, or the closer scores -25, or off",
    ),
    Option(
        "unopened_pays",
        "choice",
        "sum",
        UNOPENED_PAYS,
        help="what a player who never opened pays: the cards held, or a flat 100",
    ),
    Option(
        "elimination",
        "choice",
        101,
        ELIMINATION,
        help="the score that puts a player out",
    ),
    Option("reentry", "bool", False, help="an eliminated player may re-enter once"),
    Option(
        "max_restocks",
        "int",
        0,
        low=0,
        high=MAX_RESTOCKS,
        help="a hand ends unclosed when the tallone runs out after this many re-formings (0: off)",
    ),
)


class RulesError(RuleText):
    """A rule option with a value the engine does not support; the message lists what is allowed."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one Scala 40 table; every default is the one docs/rules.md names.

    * ``players``: 2 to 6, each for themselves.
    * ``dealer_fourteen``: the dealer gets 14 cards, no card is turned up, and the dealer starts
      by discarding without drawing.
    * ``jokers_per_meld``: how many jokers one meld may hold (0 to 4; default 1).
    * ``opening_points``: points the opening melds must reach (0 to 100; default 40; 0 is the
      "Machiavelli" variant of Regole Scala 40).
    * ``first_pile_card_free``: while the pozzo has held a single card since the deal, a player
      who has not opened may take it.
    * ``discard_attachable``: ``"allowed"`` (Regole Scala 40: the next player may not take that card
      only to attach it) or ``"forbidden"`` (a card that fits a table meld may not be discarded,
      except the last card).
    * ``close_in_hand``: ``"double"`` (the others pay double), ``"bonus"`` (the closer scores
      -25) or ``"off"``.
    * ``unopened_pays``: ``"sum"`` (the cards held) or ``"100"`` (a flat 100).
    * ``elimination``: the score that puts a player out: 101, 151, 201 or 501.
    * ``reentry``: an eliminated player may re-enter once, with the highest score among those
      still in.
    * ``max_restocks`` (not in docs/rules.md; an engine safeguard, 0 = off, the rules as written):
      a hand can deadlock (e.g. every table meld complete, no jokers allowed, and each player
      left with one or two cards that can never be laid), and then it would never end. With
      ``max_restocks = k``, when the tallone runs out after the pozzo has already been turned
      into a new tallone k times in the hand, the hand ends with nobody closing and every
      player pays the penalty of the cards held (``unopened_pays`` applies; no doubling).
    """

    players: int = 4
    dealer_fourteen: bool = False
    jokers_per_meld: int = 1
    opening_points: int = 40
    first_pile_card_free: bool = False
    discard_attachable: str = "allowed"
    close_in_hand: str = "double"
    unopened_pays: str = "sum"
    elimination: int = 101
    reentry: bool = False
    max_restocks: int = 0

    def __post_init__(self) -> None:
        _check_int("players", self.players, PLAYERS)
        _check_bool("dealer_fourteen", self.dealer_fourteen)
        _check_int(
            "jokers_per_meld",
            self.jokers_per_meld,
            range(MAX_JOKERS_PER_MELD + 1),
        )
        _check_int(
            "opening_points",
            self.opening_points,
            range(MAX_OPENING_POINTS + 1),
        )
        _check_bool("first_pile_card_free", self.first_pile_card_free)
        # Accept the number 100 for the flat payment, the natural way to write it.
        if self.unopened_pays == 100 and not isinstance(self.unopened_pays, bool):  # type: ignore[comparison-overlap]
            object.__setattr__(self, "unopened_pays", "100")
        _check_choice("discard_attachable", self.discard_attachable, DISCARD_ATTACHABLE)
        _check_choice("close_in_hand", self.close_in_hand, CLOSE_IN_HAND)
        _check_choice("unopened_pays", self.unopened_pays, UNOPENED_PAYS)
        _check_int("elimination", self.elimination, ELIMINATION)
        _check_bool("reentry", self.reentry)
        restocks = self.max_restocks
        if (
            not isinstance(restocks, int)
            or isinstance(restocks, bool)
            or not 0 <= restocks <= MAX_RESTOCKS
        ):
            raise RulesError(
                "{name} must be an integer from 0 (no limit) to {high}, not {value}",
                name="max_restocks",
                high=MAX_RESTOCKS,
                value=repr(restocks),
            )

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-safe dict (every option, defaults included)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from ``to_dict()`` output; unknown or bad options raise ``RulesError``."""
        if not isinstance(data, dict):
            raise RulesError(
                "rules must be a dict of options, not {kind}", kind=type(data).__name__
            )
        known = [f.name for f in fields(cls)]
        unknown = sorted(str(key) for key in data if key not in known)
        if len(unknown) == 1:
            raise RulesError(
                "unknown Scala 40 option {unknown}; the options are {options}",
                unknown=unknown[0],
                options=", ".join(known),
            )
        if unknown:
            raise RulesError(
                "unknown Scala 40 options {unknown}; the options are {options}",
                unknown=", ".join(unknown),
                options=", ".join(known),
            )
        return cls(**data)

    @staticmethod
    def options() -> tuple[Option, ...]:
        """Every option with its kind, allowed values, default and help (engine.options)."""
        return OPTIONS


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise RulesError("{name} must be true or false, not {value}", name=name, value=repr(value))


def _check_int(name: str, value: object, allowed: range | tuple[int, ...]) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        if isinstance(allowed, range):
            raise RulesError(
                "{name} must be an integer from {low} to {high}, not {value}",
                name=name,
                low=allowed.start,
                high=allowed.stop - 1,
                value=repr(value),
            )
        raise RulesError(
            "{name} must be one of {choices}, not {value}",
            name=name,
            choices=", ".join(map(str, allowed)),
            value=repr(value),
        )


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(
            "{name} must be one of {choices}, not {value}",
            name=name,
            choices=", ".join(repr(choice) for choice in allowed),
            value=repr(value),
        )
