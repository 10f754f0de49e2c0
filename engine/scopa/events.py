"""What a Scopa-family move did (``Game.events``), in the order it happened.

Glossary: **presa** = capture; **scopa** = a capture that sweeps the table; **fuori** = declaring
the game won during play (FIGS art. 16); **smazzata** = one deal played out; **mazziere** = the
dealer.

A move gives, in order: ``Played`` (the card stays on the table) or ``Captured``; ``Scopa`` when
it swept the table; ``Fuori`` when it declared fuori; at the end of a smazzata ``Rest`` (the last
side that captured takes what is left, if anything), ``SmazzataScored``, then ``GameOver`` or
``Dealt`` (the next smazzata). A new game starts with ``Dealt``. Sides: the seat with 2 or 3
players; with 4, side 0 = seats 0 and 2, side 1 = seats 1 and 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card
from engine.events import Dealt, Event  # Dealt: the same in Scopa and Scala 40, declared once

__all__ = [
    "Captured",
    "Dealt",
    "Fuori",
    "GameOver",
    "Played",
    "Rest",
    "Scopa",
    "ScopaEvent",
    "SmazzataScored",
]


@dataclass(frozen=True, slots=True)
class Played(Event):
    """``seat`` played ``card``, which captured nothing and stays on the table."""

    KIND: ClassVar[str] = "played"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Captured(Event):
    """``seat`` played ``card`` and took ``taken`` from the table for ``side``."""

    KIND: ClassVar[str] = "captured"
    seat: int
    card: Card
    taken: tuple[Card, ...]
    side: int


@dataclass(frozen=True, slots=True)
class Scopa(Event):
    """The capture swept the table: a point for ``side``."""

    KIND: ClassVar[str] = "scopa"
    seat: int
    side: int


@dataclass(frozen=True, slots=True)
class Fuori(Event):
    """``seat`` declared fuori for ``side``; the game ends, ``won`` if the side had reached the
    target (else it loses)."""

    KIND: ClassVar[str] = "fuori"
    seat: int
    side: int
    won: bool


@dataclass(frozen=True, slots=True)
class Rest(Event):
    """At the end of a smazzata ``side`` (the last to capture) took the cards left on the table
    (not a scopa); ``seat`` is None."""

    KIND: ClassVar[str] = "rest"
    side: int
    cards: tuple[Card, ...]
    seat: None = None


@dataclass(frozen=True, slots=True)
class SmazzataScored(Event):
    """Smazzata ``number`` was scored: ``scores[side]`` is its breakdown (carte, denari,
    settebello, primiera, scope, ..., total; after fuori, the points then certain), ``totals``
    the match points after it, ``fuori`` the side that declared it; ``seat`` is None."""

    KIND: ClassVar[str] = "smazzata"
    number: int
    scores: tuple[Mapping[str, int], ...]
    totals: tuple[int, ...]
    fuori: int | None
    seat: None = None


# Not shared with Scala 40's GameOver (engine.scala40.events): this one names the winning side
# and the FIGS multiplier and concerns no seat; that one names the winning seat.
@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: ``winner`` is a side, ``multiplier`` the FIGS single/double/triple (1
    outside Scopone games to 8); ``seat`` is None."""

    KIND: ClassVar[str] = "over"
    winner: int
    multiplier: int
    seat: None = None


ScopaEvent = Dealt | Played | Captured | Scopa | Fuori | Rest | SmazzataScored | GameOver
