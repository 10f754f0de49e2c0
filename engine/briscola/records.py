"""What a Briscola match keeps and tells: a trick taken, a deal's result, the events of a move,
the outcome; and the card and number fields of a saved game, checked as they are read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, parse_card

__all__ = ["DealResult", "Event", "Outcome", "Trick"]


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick taken: who led, the cards in play order (the leader's first), who took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seats(self, players: int) -> tuple[int, ...]:
        return tuple((self.leader + k) % players for k in range(len(self.cards)))

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": cards_text(self.cards), "winner": self.winner}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Trick:
        return cls(as_int(data["leader"]), parse_cards(data["cards"]), as_int(data["winner"]))


@dataclass(frozen=True, slots=True)
class DealResult:
    """A deal played out.

    Classic: ``points[side]`` card points taken, ``winner`` the side that won the deal (None: a
    draw), ``scores[side]`` what each side added to its match score (1 game, or the points).
    Chiamata: ``points[seat]`` card points each player took, ``scores[seat]`` each player's score
    for the deal (+2/+1/-1..., doubled by cappotto), ``caller``, ``socio`` (== caller when alone),
    ``called`` card, ``threshold``, ``caller_points`` (the caller's side), ``won`` (by the caller's
    side), ``cappotto``; ``winner`` is None.
    """

    number: int
    dealer: int
    points: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int | None = None
    caller: int | None = None
    socio: int | None = None
    called: Card | None = None
    threshold: int | None = None
    caller_points: int | None = None
    won: bool | None = None
    cappotto: bool = False

    @property
    def alone(self) -> bool:
        return self.caller is not None and self.caller == self.socio

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "points": list(self.points),
            "scores": list(self.scores),
            "winner": self.winner,
            "caller": self.caller,
            "socio": self.socio,
            "called": None if self.called is None else str(self.called),
            "threshold": self.threshold,
            "caller_points": self.caller_points,
            "won": self.won,
            "cappotto": self.cappotto,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealResult:
        called = data.get("called")
        won = data.get("won")
        return cls(
            number=as_int(data["number"]),
            dealer=as_int(data["dealer"]),
            points=tuple(as_int(p) for p in data["points"]),
            scores=tuple(as_int(s) for s in data["scores"]),
            winner=opt_int(data.get("winner")),
            caller=opt_int(data.get("caller")),
            socio=opt_int(data.get("socio")),
            called=None if called is None else parse_card(called),
            threshold=opt_int(data.get("threshold")),
            caller_points=opt_int(data.get("caller_points")),
            won=None if won is None else bool(won),
            cappotto=bool(data.get("cappotto", False)),
        )


@dataclass(frozen=True, slots=True)
class Event:
    """What a move did, for announcements; every event is public.

    Kinds and ``data``: ``bid`` (``bid``: a rank, points or "pass"), ``auction_won`` (``rank``,
    ``threshold``), ``redeal`` (``dealer``: all passed, the next dealer deals again),
    ``called`` (``card``), ``swap`` (``card`` given, ``took`` the face-up card), ``card``
    (``card``), ``socio`` (the called card was played: ``seat`` is the socio; ``alone``),
    ``trick`` (``seat`` took it: ``cards``, ``points`` is not given — no points during a deal),
    ``deal`` (``result``: a DealResult as a dict), ``dealt`` (a new deal: ``number``,
    ``dealer``, ``briscola``), ``over`` (``winner``: side or None for a shared first place).
    """

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        return cls(str(data["kind"]), opt_int(data.get("seat")), dict(data.get("data") or {}))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended: ``winner`` (a side; None when first place is shared, which
    only chiamata allows), ``ranks[side]`` (0 = first, ties share), ``points[side]`` (the match
    scores) and ``multiplier`` (always 1 in Briscola)."""

    winner: int | None
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    multiplier: int = 1


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def parse_cards(text: Any) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise TypeError(f"expected cards as a string, got {text!r}")
    return tuple(parse_card(token) for token in text.split())


def opt_card(value: Any) -> Card | None:
    return None if value is None else parse_card(str(value))


def as_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def opt_int(value: Any) -> int | None:
    return None if value is None else as_int(value)
