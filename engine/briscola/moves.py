"""Briscola's moves: the move notation (see :mod:`engine.briscola.game`), its two errors, the
phases of a deal, and the order a hand is shown in."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from engine.briscola.tricks import RANK_ORDER, STRENGTH
from engine.cards import SUITS, Card, CardParseError, parse_card
from engine.errors import RuleText

__all__ = ["IllegalMove", "Move", "MoveParseError", "Phase", "parse_move", "sort_hand"]


class MoveParseError(RuleText):
    """A move string that is not in the move notation."""


class IllegalMove(RuleText):
    """A well-formed move that the rules do not allow now; the message says why."""


class Phase(StrEnum):
    """Where a deal stands: the chiamata ``auction``, the winner's ``call``, the tricks (``play``),
    or the match is ``over``."""

    AUCTION = "auction"
    CALL = "call"
    PLAY = "play"
    OVER = "over"


class Move(NamedTuple):
    """One move: ``kind`` is ``card`` (``card``), ``swap``, ``pass``, ``rank`` (``rank``),
    ``points`` (``points``) or ``call`` (``card``). ``str(move)`` is its canonical string."""

    kind: str
    card: Card | None = None
    rank: str = ""
    points: int = 0

    def __str__(self) -> str:
        if self.kind == "card":
            return str(self.card)
        if self.kind == "call":
            return f"call {self.card}"
        if self.kind == "rank":
            return self.rank
        if self.kind == "points":
            return str(self.points)
        return self.kind


_ITALIAN_RANKS = frozenset(RANK_ORDER)


def parse_move(text: str) -> Move:
    """Parse a move string (see :mod:`engine.briscola.game`); raises MoveParseError."""
    if not isinstance(text, str):
        raise MoveParseError("a move is a string, not {kind}", kind=type(text).__name__)
    body = " ".join(text.strip().split())
    if len(body) > 16:
        raise MoveParseError("move string too long")
    lower = body.lower()
    if lower in ("pass", "swap"):
        return Move(lower)
    if body.upper() in _ITALIAN_RANKS:
        return Move("rank", rank=body.upper())
    if body.isdigit():
        return Move("points", points=int(body))
    word, _, rest = lower.partition(" ")
    if word == "call":
        return Move("call", card=_parse_card(rest, text))
    return Move("card", card=_parse_card(body, text))


def _parse_card(token: str, text: str) -> Card:
    try:
        card = parse_card(token)
    except CardParseError:
        raise MoveParseError("not a move: {move}", move=repr(text.strip())) from None
    if card.rank not in _ITALIAN_RANKS or card.deck:
        raise MoveParseError(
            "not a move: {move} ({card} is not a card of the Italian 40-card deck)",
            move=repr(text.strip()),
            card=str(card),
        )
    return card


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards by suit (D, C, S, B), the strongest first within a suit."""
    return tuple(sorted(cards, key=lambda c: (SUITS.index(c.suit), -STRENGTH[c.rank])))
