"""Rule options of the Scopa family (docs/rules.md "Scopa family"), as one frozen value.

Glossary: **Scopone** = the 4-player game in pairs with 9 cards each (FIGS rules); **Scopone
scientifico** = 10 cards each and none on the table; **primiera** = the best card of each suit,
summed; **re bello** = the king of denari; **napola** = ace, 2 and 3 of denari (and what follows);
**fuori** = declaring the game won during play (FIGS art. 16); **obbligo di presa** = having to play
a capturing card; **asso piglia tutto** = the ace takes the whole table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.errors import RuleText
from engine.options import Option, options_problem

__all__ = ["OPTIONS", "PRIMIERA_MODES", "VARIANTS", "Rules", "RulesError"]

VARIANTS: tuple[str, ...] = ("scopa", "scopone", "scientifico")
PRIMIERA_MODES: tuple[str, ...] = ("void", "lenient")
TARGET_RANGE = range(1, 52)
SCOPA_PLAYERS: tuple[int, ...] = (2, 3, 4)
SCOPONE_PLAYERS: tuple[int, ...] = (4,)

# What Rules.from_dict accepts, described for menus and /rules (engine.options); the defaults are
# Rules()'s, tests/engine/scopa/test_options.py holds them to Rules.from_dict.
OPTIONS: tuple[Option, ...] = (
    Option(
        "variant",
        "choice",
        "scopa",
        VARIANTS,
        help="the game: Scopa, Scopone or Scopone scientifico",
    ),
    Option(
        "players",
        "choice",
        2,
        SCOPA_PLAYERS,
        help="how many seats (Scopone and scientifico: 4); at 4, two pairs",
    ),
    Option(
        "target",
        "int",
        11,
        low=TARGET_RANGE.start,
        high=TARGET_RANGE.stop - 1,
        help="the points that win, checked at the end of each smazzata",
    ),
    Option(
        "primiera_missing_suit",
        "choice",
        "void",
        PRIMIERA_MODES,
        help="a side missing a suit: it cannot win the primiera (void), or it still may (lenient)",
    ),
    Option("win_by_two", "bool", False, help="the winner must also lead by 2 points"),
    Option("re_bello", "bool", False, help="1 point to the side holding the king of denari"),
    Option(
        "napola",
        "bool",
        False,
        help="ace, 2 and 3 of denari score 3, and 1 more for each next denari in sequence",
    ),
    Option(
        "obbligo_di_presa",
        "bool",
        False,
        help="when a card of the hand can capture, a card that captures must be played",
    ),
    Option(
        "asso_piglia_tutto",
        "bool",
        False,
        help="an ace captures the whole table, and that is not a scopa",
    ),
    Option(
        "scopa_a_15",
        "bool",
        False,
        help="a card also captures the cards that sum to 15 with it",
    ),
    Option(
        "fuori",
        "bool",
        False,
        variants=("scopone", "scientifico"),
        help="a pair may declare the game won during play (Scopone games to 8, where it is on)",
    ),
)


class RulesError(RuleText):
    """A rule option that does not exist or has a value that is not allowed."""


@dataclass(frozen=True, init=False)
class Rules:
    """The options a Scopa-family table is played with; defaults as in docs/rules.md.

    ``players`` defaults to 2 for Scopa and 4 for Scopone; ``target`` to 11; ``fuori`` to on for
    Scopone games to 8 and off otherwise.
    """

    variant: str
    players: int
    target: int
    primiera_missing_suit: str
    win_by_two: bool
    re_bello: bool
    napola: bool
    obbligo_di_presa: bool
    asso_piglia_tutto: bool
    scopa_a_15: bool
    fuori: bool

    def __init__(
        self,
        *,
        variant: str = "scopa",
        players: int | None = None,
        target: int | None = None,
        primiera_missing_suit: str = "void",
        win_by_two: bool = False,
        re_bello: bool = False,
        napola: bool = False,
        obbligo_di_presa: bool = False,
        asso_piglia_tutto: bool = False,
        scopa_a_15: bool = False,
        fuori: bool | None = None,
    ) -> None:
        if variant not in VARIANTS:
            raise RulesError(
                "variant must be one of {choices}; got {value}",
                choices=", ".join(VARIANTS),
                value=repr(variant),
            )
        allowed_players = SCOPA_PLAYERS if variant == "scopa" else SCOPONE_PLAYERS
        if players is None:
            players = allowed_players[0]
        if type(players) is not int or players not in allowed_players:
            if variant == "scopa":
                raise RulesError(
                    "{variant} is played by 2 or 3 or 4 players; got {value}",
                    variant=variant,
                    value=repr(players),
                )
            raise RulesError(
                "{variant} is played by 4 players; got {value}",
                variant=variant,
                value=repr(players),
            )
        if target is None:
            target = 11
        if type(target) is not int or target not in TARGET_RANGE:
            raise RulesError(
                "target must be a whole number from {low} to {high}"
                " (11 is usual; Scopone also 8, 16, 21); got {value}",
                low=TARGET_RANGE.start,
                high=TARGET_RANGE.stop - 1,
                value=repr(target),
            )
        if primiera_missing_suit not in PRIMIERA_MODES:
            raise RulesError(
                "{name} must be one of {choices}; got {value}",
                name="primiera_missing_suit",
                choices=", ".join(PRIMIERA_MODES),
                value=repr(primiera_missing_suit),
            )
        flags = {
            "win_by_two": win_by_two,
            "re_bello": re_bello,
            "napola": napola,
            "obbligo_di_presa": obbligo_di_presa,
            "asso_piglia_tutto": asso_piglia_tutto,
            "scopa_a_15": scopa_a_15,
        }
        for name, value in flags.items():
            if type(value) is not bool:
                raise RulesError(
                    "{name} must be true or false; got {value}", name=name, value=repr(value)
                )
        # FIGS art. 16: fuori belongs to Scopone games to 8.
        fuori_possible = variant != "scopa" and target == 8
        if fuori is None:
            fuori = fuori_possible
        if type(fuori) is not bool:
            raise RulesError(
                "{name} must be true or false; got {value}", name="fuori", value=repr(fuori)
            )
        if fuori and not fuori_possible:
            raise RulesError("fuori is played only in Scopone (or scientifico) games to 8")
        values: dict[str, Any] = {
            "variant": variant,
            "players": players,
            "target": target,
            "primiera_missing_suit": primiera_missing_suit,
            **flags,
            "fuori": fuori,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def sides(self) -> int:
        """How many sides score: pairs at 4 players, else each player."""
        return 2 if self.players == 4 else self.players

    @property
    def figs_multiplier(self) -> bool:
        """FIGS art. 16: in Scopone games to 8 a win is single, double or triple."""
        return self.variant != "scopa" and self.target == 8

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a mapping of options; unknown options are refused by name."""
        problem = options_problem(data, {f.name for f in fields(cls)})
        if problem is not None:
            raise RulesError.of(problem)
        return cls(**data)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @staticmethod
    def options() -> tuple[Option, ...]:
        """Every option with its kind, allowed values, default and help (engine.options)."""
        return OPTIONS
