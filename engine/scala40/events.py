"""What a Scala 40 move did (``Game.events``), in the order it happened.

Glossary: **tallone** = the stock; **pozzo** = the discard pile; **apertura** = opening;
**attaccare** = to add a card to a table meld; **jolly** = the joker; **chiusura** = closing
(emptying the hand); **chiusura in mano** = closing in the turn of opening; **mano** = one hand;
**sballare** = reaching the elimination score; **rientro** = re-entering after it.

A turn gives ``Drew`` (the card is named only when it came from the pozzo: everybody saw it),
then ``Opened`` / ``Melded`` / ``Attached`` / ``Swapped`` as laid, and ``Discarded``. When the
tallone runs out, ``Restocked`` (the pozzo became the tallone). When a hand ends: ``Closed``
(unless the ``max_restocks`` safeguard ended it), ``HandScored``, an ``Eliminated`` per player
out, then ``Dealt`` (the next hand) or ``GameOver``; between hands ``Reentered`` / ``StayedOut``.
A new game starts with ``Dealt``. Meld numbers count from 1 in the order laid, as in moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.cards import Card
from engine.events import Dealt, Event  # Dealt: the same in Scopa and Scala 40, declared once

__all__ = [
    "Attached",
    "Closed",
    "Dealt",
    "Discarded",
    "Drew",
    "Eliminated",
    "GameOver",
    "HandScored",
    "Melded",
    "Opened",
    "Reentered",
    "Restocked",
    "Scala40Event",
    "StayedOut",
    "Swapped",
]


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` drew from ``source``; ``card`` is the pozzo's card, None from the tallone."""

    KIND: ClassVar[str] = "drew"
    seat: int
    source: Literal["tallone", "pozzo"]
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Restocked(Event):
    """The tallone ran out: the pozzo but its top card became the new tallone (``count`` cards,
    the ``times``-th time this hand)."""

    KIND: ClassVar[str] = "restocked"
    count: int
    times: int
    seat: None = None


@dataclass(frozen=True, slots=True)
class Opened(Event):
    """``seat`` opened with ``melds`` (numbered ``first`` onwards), worth ``points``."""

    KIND: ClassVar[str] = "opened"
    seat: int
    melds: tuple[tuple[Card, ...], ...]
    first: int
    points: int


@dataclass(frozen=True, slots=True)
class Melded(Event):
    """``seat``, already open, laid ``melds`` (numbered ``first`` onwards)."""

    KIND: ClassVar[str] = "melded"
    seat: int
    melds: tuple[tuple[Card, ...], ...]
    first: int


@dataclass(frozen=True, slots=True)
class Attached(Event):
    """``seat`` attached ``card`` to meld ``meld`` (at ``end``: "<" low, ">" high, "" a tris)."""

    KIND: ClassVar[str] = "attached"
    seat: int
    card: Card
    meld: int
    end: str


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """``seat`` put ``card`` in meld ``meld`` in place of its joker, and took the joker."""

    KIND: ClassVar[str] = "swapped"
    seat: int
    card: Card
    meld: int


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """``seat`` discarded ``card`` on the pozzo (the turn ends, or the hand if it was the last)."""

    KIND: ClassVar[str] = "discarded"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Closed(Event):
    """``seat`` emptied the hand and closed it; ``in_hand``: in the turn it opened."""

    KIND: ClassVar[str] = "closed"
    seat: int
    in_hand: bool


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """Hand ``number`` was scored: ``penalties[seat]`` added to each score, ``scores`` after
    it, ``eliminated`` the seats it put out; ``seat`` is the closer (None: no one closed)."""

    KIND: ClassVar[str] = "hand"
    seat: int | None
    number: int
    in_hand: bool
    penalties: tuple[int, ...]
    scores: tuple[int, ...]
    eliminated: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """``seat`` reached the elimination score with ``score``."""

    KIND: ClassVar[str] = "eliminated"
    seat: int
    score: int


@dataclass(frozen=True, slots=True)
class Reentered(Event):
    """``seat`` re-entered the match with ``score`` (the highest among those still in)."""

    KIND: ClassVar[str] = "reentered"
    seat: int
    score: int


@dataclass(frozen=True, slots=True)
class StayedOut(Event):
    """``seat`` chose not to re-enter."""

    KIND: ClassVar[str] = "stayed_out"
    seat: int


# Not shared with Scopa's GameOver (engine.scopa.events): this one names the winning seat;
# that one the winning side and the FIGS multiplier.
@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The match ended; ``seat`` is the winner (None if nobody was left in)."""

    KIND: ClassVar[str] = "over"
    seat: int | None


Scala40Event = (
    Dealt
    | Drew
    | Restocked
    | Opened
    | Melded
    | Attached
    | Swapped
    | Discarded
    | Closed
    | HandScored
    | Eliminated
    | Reentered
    | StayedOut
    | GameOver
)
