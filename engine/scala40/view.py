"""What one seat may see of a Scala 40 game (its own hand plus everything public)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import Card

from .rules import Rules
from .state import HandResult, Phase, TableMeld

__all__ = ["Scala40View", "make_view"]


@dataclass(frozen=True, slots=True)
class Scala40View:
    """A seat's view; ``seat`` None is the public view (no hand, no legal moves).

    ``hand`` is in the sorted-hand order; ``legal_moves`` are move strings, only for the seat to
    move; ``pile_card_taken`` is the card the player to move took from the pozzo this turn (all
    saw it); ``must_open`` says that player must now open using it, ``must_use`` that the next
    move must lay it (docs/rules.md "a player who takes it must use it"); ``closing_allowed`` is
    False in the first round of a hand; ``pile`` is the whole pozzo (public: each card was seen
    when discarded); ``drawn`` is the card this seat drew from the tallone this turn (in its own
    view only, on its turn: the others never learn it).
    """

    seat: int | None
    rules: Rules
    players: int
    sides: tuple[tuple[int, ...], ...]
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    pile_top: Card | None
    pile_count: int
    stock_count: int
    dealer: int
    current_player: int | None
    phase: Phase
    hand_number: int
    closing_allowed: bool
    opened: tuple[bool, ...]
    scores: tuple[int, ...]
    eliminated: tuple[bool, ...]
    reentered: tuple[bool, ...]
    elimination: int
    opening_points: int
    pile_card_taken: Card | None
    must_open: bool
    must_use: bool
    legal_moves: tuple[str, ...]
    last_move: tuple[int, str] | None
    last_hand: HandResult | None
    is_over: bool
    winner: int | None
    # The whole pozzo, bottom to top (the last is ``pile_top``): every card in it was seen face
    # up when it was discarded, so a player who remembers knows them all.
    pile: tuple[Card, ...] = ()
    # The card this seat drew from the tallone this turn: only in its own view, only while it is
    # its turn (the others saw a card leave the tallone, not which). None in every other view.
    drawn: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: cards as strings, melds as ``{"owner", "cards"}``."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "sides": [list(side) for side in self.sides],
            "hand": [str(card) for card in self.hand],
            "hand_counts": list(self.hand_counts),
            "melds": [
                {"owner": meld.owner, "cards": [str(c) for c in meld.cards], "kind": meld.kind}
                for meld in self.melds
            ],
            "pile_top": None if self.pile_top is None else str(self.pile_top),
            "pile_count": self.pile_count,
            "stock_count": self.stock_count,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "closing_allowed": self.closing_allowed,
            "opened": list(self.opened),
            "scores": list(self.scores),
            "eliminated": list(self.eliminated),
            "reentered": list(self.reentered),
            "elimination": self.elimination,
            "opening_points": self.opening_points,
            "pile_card_taken": None if self.pile_card_taken is None else str(self.pile_card_taken),
            "must_open": self.must_open,
            "must_use": self.must_use,
            "legal_moves": list(self.legal_moves),
            "last_move": None if self.last_move is None else list(self.last_move),
            "last_hand": None if self.last_hand is None else self.last_hand.to_dict(),
            "is_over": self.is_over,
            "winner": self.winner,
            "pile": [str(card) for card in self.pile],
            "drawn": None if self.drawn is None else str(self.drawn),
        }


class _Viewable(Protocol):
    def view(self, seat: int | None, /) -> Scala40View: ...


def make_view(game: _Viewable, seat: int | None) -> Scala40View:
    """``game.view(seat)``: kept for callers of the former helper (``Game.view`` builds views)."""
    return game.view(seat)
