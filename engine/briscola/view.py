"""What one seat of a Briscola match may see (OpenSpiel's observer): :class:`BriscolaView`,
made by :meth:`engine.briscola.game.Game.view`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.briscola.moves import Phase
from engine.briscola.records import DealResult, Event, Trick
from engine.briscola.rules import Rules
from engine.cards import Card

__all__ = ["BriscolaView"]


@dataclass(frozen=True, slots=True)
class BriscolaView:
    """What one seat may see (``seat`` None: the public view, no hand, no legal moves).

    * ``briscola``: the face-up card under the stock (None once drawn, and in chiamata);
      ``briscola_suit``: the trump suit (chiamata: None until the card is called);
      ``turned_up``: the card that lay face up last in this deal (still known once drawn: it went
      to the last player to draw); ``swapped``: (seat, the face-up card it took) after a swap.
    * ``trick``: the cards of the trick being played, as (seat, card) in play order;
      ``last_trick``: the trick taken last, shown until the next one is led (None then).
    * ``tricks``: the tricks taken this deal, in order: what the seat has watched being played (a
      player's memory; a renderer shows ``last_trick`` only).
    * ``tricks_won[seat]`` and ``side_tricks[side]``: how many tricks each took this deal. Card
      points are **not** in the view during a deal; ``last_deal`` has them once a deal ends.
    * ``scores[side]``: the match scores (games, or card points with ``deal_scoring=points``;
      chiamata: per player).
    * Chiamata: ``auction`` (seat, bid) in order, ``passed[seat]``, ``high_bidder``, ``bid_rank``,
      ``threshold``, ``caller``, ``called``; ``revealed_socio`` is the socio's seat once the called
      card has been played (None before: the same for every seat, as is everything but ``hand``
      and ``legal_moves``); the property ``socio`` adds what the seat's own hand tells: the seat
      holding the called card knows it is the socio (the caller who called a card of their own:
      that they play alone).
    * ``events``: what the last move did (public).
    """

    seat: int | None
    rules: Rules
    variant: str
    players: int
    sides: tuple[tuple[int, ...], ...]
    phase: Phase
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    dealer: int
    current_player: int | None
    briscola: Card | None
    briscola_suit: str | None
    turned_up: Card | None
    swapped: tuple[int, Card] | None
    stock_count: int
    trick: tuple[tuple[int, Card], ...]
    last_trick: Trick | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    side_tricks: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    deal_number: int
    deals: int
    auction: tuple[tuple[int, str], ...]
    passed: tuple[bool, ...]
    high_bidder: int | None
    bid_rank: str | None
    threshold: int | None
    caller: int | None
    called: Card | None
    revealed_socio: int | None
    socio_revealed: bool
    legal_moves: tuple[str, ...]
    last_move: tuple[int, str] | None
    last_deal: DealResult | None
    events: tuple[Event, ...]
    is_over: bool
    winner: int | None

    @property
    def socio(self) -> int | None:
        """The socio's seat as this seat knows it: once the called card is played, or when the
        seat holds it; otherwise None."""
        if self.revealed_socio is not None:
            return self.revealed_socio
        if self.seat is not None and self.called is not None and self.called in self.hand:
            return self.seat
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: cards as strings (``socio``: the revealed socio only)."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "variant": self.variant,
            "players": self.players,
            "sides": [list(s) for s in self.sides],
            "phase": self.phase.value,
            "hand": [str(c) for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "dealer": self.dealer,
            "current_player": self.current_player,
            "briscola": None if self.briscola is None else str(self.briscola),
            "briscola_suit": self.briscola_suit,
            "turned_up": None if self.turned_up is None else str(self.turned_up),
            "swapped": None if self.swapped is None else [self.swapped[0], str(self.swapped[1])],
            "stock_count": self.stock_count,
            "trick": [[s, str(c)] for s, c in self.trick],
            "last_trick": None if self.last_trick is None else self.last_trick.to_dict(),
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "side_tricks": list(self.side_tricks),
            "scores": list(self.scores),
            "target": self.target,
            "deal_number": self.deal_number,
            "deals": self.deals,
            "auction": [[s, b] for s, b in self.auction],
            "passed": list(self.passed),
            "high_bidder": self.high_bidder,
            "bid_rank": self.bid_rank,
            "threshold": self.threshold,
            "caller": self.caller,
            "called": None if self.called is None else str(self.called),
            "socio": self.revealed_socio,
            "socio_revealed": self.socio_revealed,
            "legal_moves": list(self.legal_moves),
            "last_move": None if self.last_move is None else list(self.last_move),
            "last_deal": None if self.last_deal is None else self.last_deal.to_dict(),
            "events": [e.to_dict() for e in self.events],
            "is_over": self.is_over,
            "winner": self.winner,
        }
