"""A Briscola match (:class:`Game`, :func:`new_game`): its moves, and what each seat may see.

The parts, one module each: the move notation and its errors (:mod:`~engine.briscola.moves`), a
trick, a deal's result, events and the outcome (:mod:`~engine.briscola.records`), the mutable
state (:mod:`~engine.briscola.state`), the rules in motion (:mod:`~engine.briscola.deal`, with
chiamata's auction in :mod:`~engine.briscola.auction`), the view
(:mod:`~engine.briscola.view`) and the saved document (:mod:`~engine.briscola.serial`); every
name listed in ``__all__`` is importable from here as well.

Glossary: **mano** / **presa** = a trick; **mazziere** = the dealer; **mazzo** / **tallone** = the
stock; **briscola** = the trump suit and the face-up card under the stock that shows it;
**smazzata** = one deal played out; **asta** = the chiamata auction; **chiamante** = the player who
wins the auction and calls a card; **socio** = the holder of the called card, the chiamante's
secret partner; **cappotto** = one side taking all 120 points.

Move strings (case-insensitive; ``legal_moves()`` writes them canonically):

=================  ===========================================================================
``AS``             play the Asso of spade (any card held: there is no duty to follow suit)
``swap``           the scambio: exchange the briscola 2 (or 7) for the face-up card, then play
``pass``           (chiamata auction) leave the auction
``3``              (auction) call a rank, lower than the last one called: A 3 K Q J 7 6 5 4 2
``71``             (auction, after the 2, option ``point_bids``) a point threshold, 61 to 120
``call 3D``        (the auction's winner) name the card: its suit is the briscola, its holder
                   the socio (a card of one's own hand: playing alone)
=================  ===========================================================================

Engine choices where docs/rules.md is silent (each also documented where implemented):

* At 3 players, where nobody need pass 60, the deal goes to the player with the most card points;
  a tie for the most is a draw, as 60-60 is with two sides.
* A point bid may be made once the 2 is the last rank called; the first may be 61 (docs/rules.md:
  "a point threshold of 61 or more, higher than the last"), each next one higher. The called rank
  stays the 2.
* A chiamata hand where all five pass is dealt again by the next dealer and does not count as one
  of the match's ``deals``.
* The last trick of a deal stays visible, beside the deal's result, until the first card of the
  next deal is played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.briscola.auction import MAX_BID as MAX_BID
from engine.briscola.auction import MIN_BID
from engine.briscola.deal import Deal
from engine.briscola.moves import (
    IllegalMove,
    Move,
    MoveParseError,
    Phase,
    parse_move,
    sort_hand,
)
from engine.briscola.records import DealResult, Event, Outcome, Trick
from engine.briscola.rules import Rules
from engine.briscola.serial import SCHEMA, state_from_dict, state_to_dict
from engine.briscola.state import State, fresh_state, sides_of
from engine.briscola.tricks import POINTS
from engine.briscola.view import BriscolaView
from engine.cards import Card

__all__ = [
    "SCHEMA",
    "BriscolaView",
    "DealResult",
    "Event",
    "Game",
    "IllegalMove",
    "Move",
    "MoveParseError",
    "Outcome",
    "Phase",
    "Trick",
    "new_game",
    "parse_move",
    "sort_hand",
]


def new_game(rules: Rules | None = None, *, seed: int | random.Random) -> Game:
    """A new match: a random first dealer and the first deal, both fixed by ``seed``."""
    rules = rules or Rules()
    if not isinstance(rules, Rules):
        raise TypeError("rules must be briscola.Rules")
    if isinstance(seed, random.Random):
        seed = seed.randrange(2**63)
    if type(seed) is not int:
        raise TypeError("seed must be an int or a random.Random")
    state = fresh_state(rules, seed)
    Deal(rules, state).deal()
    return Game(rules, state)


class Game:
    """A Briscola match. ``play`` returns the match after the move and leaves this one as it was.

    Seats are numbered in play order; the seat after the dealer plays first. Sides: at 4 players
    side 0 = seats 0 and 2, side 1 = seats 1 and 3; otherwise side = seat (in chiamata too: the
    partnership changes every deal, so scores are per player).
    """

    __slots__ = ("_legal", "_rules", "_s")

    def __init__(self, rules: Rules, state: State) -> None:
        self._rules = rules
        self._s = state
        self._legal: list[Move] | None = None

    # -- reading ----------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._s.seed

    @property
    def players(self) -> int:
        return self._rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return sides_of(self._rules)

    def side_of(self, seat: int) -> int:
        seat = self._seat(seat)
        return seat % 2 if self._rules.players == 4 and not self._rules.chiamata else seat

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def current_player(self) -> int | None:
        return self._s.current

    @property
    def is_over(self) -> bool:
        return self._s.phase is Phase.OVER

    @property
    def winner(self) -> int | None:
        """The side that won the match (None while it goes on, or for a shared first place)."""
        return self._s.winner

    def points(self, side: int) -> int:
        """The side's match score: games won, or card points with ``deal_scoring=points``;
        chiamata: the player's score."""
        return self._s.scores[self._side(side)]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._s.scores)

    def outcome(self) -> Outcome | None:
        """None while the match goes on; then who won, each side's rank and score."""
        if not self.is_over:
            return None
        scores = self._s.scores
        ranks = tuple(sum(1 for other in scores if other > mine) for mine in scores)
        return Outcome(self._s.winner, ranks, tuple(scores))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards, by suit and strength (``sort_hand``)."""
        return sort_hand(self._s.hands[self._seat(seat)])

    def hand_count(self, seat: int) -> int:
        return len(self._s.hands[self._seat(seat)])

    @property
    def briscola(self) -> Card | None:
        """The face-up card under the stock (None once drawn, and in chiamata)."""
        return self._s.face_up

    @property
    def briscola_suit(self) -> str | None:
        return self._s.trump

    @property
    def stock_count(self) -> int:
        return len(self._s.stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, next card to draw first (the face-up one last). Hidden from players."""
        return tuple(reversed(self._s.stock))

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        s = self._s
        return tuple(((s.leader + i) % self.players, c) for i, c in enumerate(s.trick))

    @property
    def last_trick(self) -> Trick | None:
        return self._s.last_trick

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks taken in this deal, in order."""
        return tuple(self._s.tricks)

    def won_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards of the tricks ``seat`` took in this deal."""
        return tuple(self._s.won[self._seat(seat)])

    def deal_points(self, side: int) -> int:
        """The card points ``side`` has taken in this deal (never in a view while it lasts)."""
        side = self._side(side)
        return sum(POINTS[c.rank] for k in self.sides[side] for c in self._s.won[k])

    @property
    def deal_number(self) -> int:
        """The deal being played (from 1); after the end, the last one played."""
        return len(self._s.results) + (0 if self.is_over else 1)

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        return tuple(self._s.results)

    @property
    def last_deal(self) -> DealResult | None:
        return self._s.results[-1] if self._s.results else None

    @property
    def auction(self) -> tuple[tuple[int, str], ...]:
        return tuple(self._s.auction)

    @property
    def caller(self) -> int | None:
        return self._s.caller

    @property
    def called(self) -> Card | None:
        return self._s.called

    @property
    def socio(self) -> int | None:
        """The holder of the called card (hidden from the players until it is played)."""
        return self._s.socio

    @property
    def socio_revealed(self) -> bool:
        return self._s.revealed

    @property
    def threshold(self) -> int | None:
        s = self._s
        if s.bid_rank is None:
            return None
        return s.bid_points or MIN_BID

    @property
    def events(self) -> tuple[Event, ...]:
        """What the last move did (for a new game: the first deal)."""
        return tuple(self._s.events)

    @property
    def last_move(self) -> tuple[int, str] | None:
        return self._s.last_move

    def all_cards(self) -> list[Card]:
        """Every card in play, wherever it is (hands, stock, trick, tricks taken)."""
        return self._s.cards()

    # -- moves ------------------------------------------------------------------------------
    def _legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = Deal(self._rules, self._s).legal()
        return self._legal

    def legal_moves(self) -> list[str]:
        """Every move the seat to move may make, as move strings (empty once the match is over)."""
        return [str(m) for m in self._legal_moves()]

    def play(self, move: Move | str) -> Game:
        """The match after the current player's ``move`` (a string or a Move); raises
        MoveParseError for a string that is not a move, IllegalMove for a move not allowed now."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, Move):
            raise MoveParseError("a move is a string, not {kind}", kind=type(move).__name__)
        seat = self._s.current
        if seat is None:
            raise IllegalMove("the game is over")
        rules, state = self._rules, self._s
        if move not in self._legal_moves():
            raise Deal(rules, state).why_illegal(seat, move)
        state = state.copy()
        Deal(rules, state).apply(seat, move)
        return Game(rules, state)

    def _seat(self, seat: int) -> int:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        return seat

    def _side(self, side: int) -> int:
        sides = len(self.sides)
        if type(side) is not int or not 0 <= side < sides:
            raise ValueError(f"no side {side!r}: sides are 0 to {sides - 1}")
        return side

    # -- views ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> BriscolaView:
        """What ``seat`` may see; ``None`` gives the public view (no hand)."""
        if seat is not None:
            self._seat(seat)
        s, rules = self._s, self._rules
        sides = self.sides
        to_move = seat is not None and seat == s.current
        tricks_won = [0] * self.players
        for t in s.tricks:
            tricks_won[t.winner] += 1
        return BriscolaView(
            seat=seat,
            rules=rules,
            variant=rules.variant,
            players=rules.players,
            sides=sides,
            phase=s.phase,
            hand=self.hand(seat) if seat is not None else (),
            hand_counts=tuple(len(h) for h in s.hands),
            dealer=s.dealer,
            current_player=s.current,
            briscola=s.face_up,
            briscola_suit=s.trump,
            turned_up=s.turned_up,
            swapped=s.swapped,
            stock_count=len(s.stock),
            trick=self.trick,
            last_trick=s.last_trick,
            tricks=tuple(s.tricks),
            tricks_won=tuple(tricks_won),
            side_tricks=tuple(sum(tricks_won[k] for k in side) for side in sides),
            scores=tuple(s.scores),
            target=rules.target,
            deal_number=self.deal_number,
            deals=rules.deals if rules.chiamata else 0,
            auction=tuple(s.auction),
            passed=tuple(s.passed),
            high_bidder=s.high_bidder,
            bid_rank=s.bid_rank,
            threshold=self.threshold,
            caller=s.caller,
            called=s.called,
            revealed_socio=s.socio if s.revealed else None,
            socio_revealed=s.revealed,
            legal_moves=tuple(self.legal_moves()) if to_move else (),
            last_move=s.last_move,
            last_deal=self.last_deal,
            events=tuple(s.events),
            is_over=self.is_over,
            winner=s.winner,
        )

    # -- serialisation ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict with everything (hidden cards too: for storage, never for players)."""
        return state_to_dict(self._rules, self._s)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The match saved by ``to_dict``; raises ValueError on a bad or foreign document."""
        rules, state = state_from_dict(data)
        return cls(rules, state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self._s.current} to {self._s.phase.value}"
        return f"<briscola.Game {self._rules.variant} {self._rules.players}p, {state}>"
