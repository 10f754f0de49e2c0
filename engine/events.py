"""What a move did, as the engines report it: typed, immutable, public events.

Each game kind defines its events as small frozen dataclasses over :class:`Event` (Scopa's in
``engine.scopa.events``, Scala 40's in ``engine.scala40.events``; :class:`Dealt`, the same in
both, is declared here and re-exported by each); a game state's ``events`` are
those of the move that made it, in the order they happened. Every event is public: it never
names a card another seat could not see (a card drawn from the stock is not named).

Code that knows a game matches on the classes (``case Captured(seat=seat, taken=taken)``); code
that does not (a log, a generic renderer, the contract test) reads the common shape of
:class:`engine.contract.GameEvent`: ``kind`` (a short string), ``seat`` (the seat it concerns,
or None) and ``data`` (the other fields, JSON-safe: cards as their strings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.cards import Card

__all__ = ["Dealt", "Event", "plain"]


@dataclass(frozen=True, slots=True)
class Event:
    """The base of the engines' events. A subclass sets ``KIND`` and declares its fields, one
    of them ``seat`` (the seat the event concerns; ``None`` where it concerns no one seat)."""

    KIND: ClassVar[str] = "event"

    @property
    def kind(self) -> str:
        return self.KIND

    @property
    def data(self) -> dict[str, Any]:
        """Every field but ``seat``, JSON-safe (cards as strings, tuples as lists)."""
        return {f.name: plain(getattr(self, f.name)) for f in fields(self) if f.name != "seat"}

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": getattr(self, "seat", None), "data": self.data}


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Deal ``number`` (Scopa's smazzata, Scala 40's hand) was dealt by ``seat`` (the dealer).

    One class for both games: the same fields and meaning. ``GameOver`` is not shared: Scopa's
    names the winning side and the FIGS multiplier, Scala 40's the winning seat. Briscola reports
    its events untyped (``engine.briscola.records.Event``), its ``dealt`` with the face-up card.
    """

    KIND: ClassVar[str] = "dealt"
    seat: int
    number: int


def plain(value: object) -> Any:
    """``value`` as JSON-safe data: cards as their strings, tuples and lists as lists."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    return value
