"""The state of a Briscola match, its moves, and what each seat may see.

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

Engine choices where RULES.md is silent (each also documented where implemented):

* At 3 players, where nobody need pass 60, the deal goes to the player with the most card points;
  a tie for the most is a draw, as 60-60 is with two sides.
* A point bid may be made once the 2 is the last rank called; the first may be 61 (RULES.md:
  "a point threshold of 61 or more, higher than the last"), each next one higher. The called rank
  stays the 2.
* A chiamata hand where all five pass is dealt again by the next dealer and does not count as one
  of the match's ``deals``.
* The last trick of a deal stays visible, beside the deal's result, until the first card of the
  next deal is played.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from engine.briscola.rules import Rules
from engine.briscola.tricks import POINTS, RANK_ORDER, STRENGTH, TOTAL_POINTS, beats
from engine.cards import SUITS, Card, CardParseError, italian_deck, parse_card
from engine.errors import RuleText

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

SCHEMA = 1
MIN_BID = 61  # a rank call wins with 61 points, and point bids start there
MAX_BID = TOTAL_POINTS


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
    """Parse a move string (see the module docstring); raises MoveParseError."""
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


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick taken: who led, the cards in play order (the leader's first), who took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seats(self, players: int) -> tuple[int, ...]:
        return tuple((self.leader + k) % players for k in range(len(self.cards)))

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": _text(self.cards), "winner": self.winner}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Trick:
        return cls(_int(data["leader"]), _cards(data["cards"]), _int(data["winner"]))


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
            number=_int(data["number"]),
            dealer=_int(data["dealer"]),
            points=tuple(_int(p) for p in data["points"]),
            scores=tuple(_int(s) for s in data["scores"]),
            winner=_opt_int(data.get("winner")),
            caller=_opt_int(data.get("caller")),
            socio=_opt_int(data.get("socio")),
            called=None if called is None else parse_card(called),
            threshold=_opt_int(data.get("threshold")),
            caller_points=_opt_int(data.get("caller_points")),
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
        return cls(str(data["kind"]), _opt_int(data.get("seat")), dict(data.get("data") or {}))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended: ``winner`` (a side; None when first place is shared, which
    only chiamata allows), ``ranks[side]`` (0 = first, ties share), ``points[side]`` (the match
    scores) and ``multiplier`` (always 1 in Briscola)."""

    winner: int | None
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    multiplier: int = 1


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


@dataclass(slots=True)
class _State:
    """Everything that changes; copied before each move so a Game never changes."""

    seed: int
    shuffles: int  # deals shuffled so far (the random stream of the next one)
    dealer: int
    phase: Phase
    hands: list[list[Card]]
    stock: list[Card]  # drawn from the end; the face-up briscola is stock[0] while it lies there
    face_up: Card | None
    turned_up: Card | None  # the last card to lie face up this deal (known after it is drawn)
    swapped: tuple[int, Card] | None  # (seat, face-up card taken) after a swap this deal
    trump: str | None
    leader: int
    trick: list[Card]
    tricks: list[Trick]
    won: list[list[Card]]  # per seat: the cards of the tricks it took this deal
    last_trick: Trick | None
    current: int | None
    auction: list[tuple[int, str]]
    passed: list[bool]
    high_bidder: int | None
    bid_rank: str | None
    bid_points: int | None
    caller: int | None
    called: Card | None
    socio: int | None
    revealed: bool
    scores: list[int]
    results: list[DealResult]
    winner: int | None
    last_move: tuple[int, str] | None
    events: list[Event]

    def copy(self) -> _State:
        return _State(
            seed=self.seed,
            shuffles=self.shuffles,
            dealer=self.dealer,
            phase=self.phase,
            hands=[h.copy() for h in self.hands],
            stock=self.stock.copy(),
            face_up=self.face_up,
            turned_up=self.turned_up,
            swapped=self.swapped,
            trump=self.trump,
            leader=self.leader,
            trick=self.trick.copy(),
            tricks=self.tricks.copy(),
            won=[w.copy() for w in self.won],
            last_trick=self.last_trick,
            current=self.current,
            auction=self.auction.copy(),
            passed=self.passed.copy(),
            high_bidder=self.high_bidder,
            bid_rank=self.bid_rank,
            bid_points=self.bid_points,
            caller=self.caller,
            called=self.called,
            socio=self.socio,
            revealed=self.revealed,
            scores=self.scores.copy(),
            results=self.results.copy(),
            winner=self.winner,
            last_move=self.last_move,
            events=[],
        )


def new_game(rules: Rules | None = None, *, seed: int | random.Random) -> Game:
    """A new match: a random first dealer and the first deal, both fixed by ``seed``."""
    rules = rules or Rules()
    if not isinstance(rules, Rules):
        raise TypeError("rules must be briscola.Rules")
    if isinstance(seed, random.Random):
        seed = seed.randrange(2**63)
    if type(seed) is not int:
        raise TypeError("seed must be an int or a random.Random")
    n = rules.players
    state = _State(
        seed=seed,
        shuffles=0,
        dealer=random.Random(_stream(seed, 0)).randrange(n),
        phase=Phase.PLAY,
        hands=[[] for _ in range(n)],
        stock=[],
        face_up=None,
        turned_up=None,
        swapped=None,
        trump=None,
        leader=0,
        trick=[],
        tricks=[],
        won=[[] for _ in range(n)],
        last_trick=None,
        current=None,
        auction=[],
        passed=[False] * n,
        high_bidder=None,
        bid_rank=None,
        bid_points=None,
        caller=None,
        called=None,
        socio=None,
        revealed=False,
        scores=[0] * rules.sides,
        results=[],
        winner=None,
        last_move=None,
        events=[],
    )
    _Deal(rules, state).deal()
    return Game(rules, state)


def _stream(seed: int, deal: int) -> int:
    """The seed of one random stream of a match: 0 chooses the first dealer, n shuffles deal n."""
    return (seed << 32) | deal


class _Deal:
    """The rules in motion: mutates a copied ``_State``."""

    __slots__ = ("n", "rules", "s")

    def __init__(self, rules: Rules, state: _State) -> None:
        self.rules = rules
        self.s = state
        self.n = rules.players

    # -- dealing ----------------------------------------------------------------------------
    def deal(self) -> None:
        """Shuffle and deal by ``s.dealer``; the seat after the dealer speaks or leads first."""
        s, n = self.s, self.n
        s.shuffles += 1
        deck = list(italian_deck())
        if n == 3:
            deck.remove(parse_card(self.rules.removed_two))
        random.Random(_stream(s.seed, s.shuffles)).shuffle(deck)
        first = (s.dealer + 1) % n
        s.hands = [[] for _ in range(n)]
        for _ in range(self.rules.hand_size):
            for k in range(n):
                s.hands[(first + k) % n].append(deck.pop())
        s.won = [[] for _ in range(n)]
        s.tricks = []
        s.trick = []
        s.leader = first
        s.current = first
        s.auction = []
        s.passed = [False] * n
        s.high_bidder = s.bid_rank = s.bid_points = None
        s.caller = s.called = s.socio = None
        s.revealed = False
        s.swapped = None
        if self.rules.chiamata:
            s.stock, s.face_up, s.trump = [], None, None
            s.phase = Phase.AUCTION
        else:
            face_up = deck.pop()
            # The face-up card lies crosswise under the stock: it is the last card drawn.
            s.stock = [face_up, *deck]
            s.face_up, s.trump = face_up, face_up.suit
            s.phase = Phase.PLAY
        s.turned_up = s.face_up
        s.events.append(
            Event(
                "dealt",
                s.dealer,
                {
                    "number": len(s.results) + 1,
                    "dealer": s.dealer,
                    "briscola": None if s.face_up is None else str(s.face_up),
                },
            )
        )

    # -- legality ---------------------------------------------------------------------------
    def legal(self) -> list[Move]:
        s = self.s
        seat = s.current
        if seat is None:
            return []
        if s.phase is Phase.AUCTION:
            moves = [Move("pass")]
            start = 0 if s.bid_rank is None else RANK_ORDER.index(s.bid_rank) + 1
            moves += [Move("rank", rank=r) for r in RANK_ORDER[start:]]
            low = self.min_point_bid()
            if low is not None:
                moves += [Move("points", points=p) for p in range(low, MAX_BID + 1)]
            return moves
        if s.phase is Phase.CALL:
            assert s.bid_rank is not None
            return [Move("call", card=Card(s.bid_rank, suit)) for suit in SUITS]
        moves = [Move("card", card=c) for c in sort_hand(s.hands[seat])]
        if self.swap_card(seat) is not None:
            moves.insert(0, Move("swap"))
        return moves

    def min_point_bid(self) -> int | None:
        """The lowest point bid allowed now (None: none is)."""
        s = self.s
        if not self.rules.point_bids or s.bid_rank != RANK_ORDER[-1]:
            return None
        low = MIN_BID if s.bid_points is None else s.bid_points + 1
        return low if low <= MAX_BID else None

    def swap_card(self, seat: int) -> Card | None:
        """The card ``seat`` may exchange for the face-up one now, if any."""
        s, rules = self.s, self.rules
        if rules.swap == "off" or s.phase is not Phase.PLAY or s.face_up is None:
            return None
        if len(s.stock) < 2 or s.trump is None:
            return None
        card = Card("2" if rules.swap == "two" else "7", s.trump)
        return card if card in s.hands[seat] else None

    def why_illegal(self, seat: int, move: Move) -> IllegalMove:
        s = self.s
        if s.phase is Phase.AUCTION:
            if move.kind == "rank":
                return IllegalMove(
                    "call a rank lower than {rank} (A 3 K Q J 7 6 5 4 2), or points, or pass",
                    rank=s.bid_rank or "",
                )
            if move.kind == "points":
                if not self.rules.point_bids:
                    return IllegalMove("point bids are not played at this table")
                if s.bid_rank != RANK_ORDER[-1]:
                    return IllegalMove("point bids come only after the 2 has been called")
                low = self.min_point_bid()
                if low is None:
                    return IllegalMove("nobody can bid more than 120 points")
                return IllegalMove("bid from {low} to {high} points", low=low, high=MAX_BID)
            return IllegalMove("the auction is on: call a rank, or points, or pass")
        if s.phase is Phase.CALL:
            if move.kind == "call":
                return IllegalMove("call a card of the rank you bid: {rank}", rank=s.bid_rank or "")
            return IllegalMove(
                "you won the auction: call a card of rank {rank}, e.g. call {rank}D",
                rank=s.bid_rank or "",
            )
        if move.kind in ("pass", "rank", "points", "call"):
            return IllegalMove("the auction is over: play a card")
        if move.kind == "swap":
            if self.rules.swap == "off":
                return IllegalMove("the swap is not played at this table")
            if s.face_up is None or len(s.stock) < 2:
                return IllegalMove("the swap is allowed only while the stock has 2 cards or more")
            rank = "2" if self.rules.swap == "two" else "7"
            return IllegalMove(
                "you do not hold {card} to swap for the face-up card",
                card=f"{rank}{s.trump}",
            )
        return IllegalMove("{card} is not in your hand", card=str(move.card))

    # -- moves ------------------------------------------------------------------------------
    def apply(self, seat: int, move: Move) -> None:
        s = self.s
        s.events = []
        s.last_move = (seat, str(move))
        if move.kind == "card":
            assert move.card is not None
            self.play_card(seat, move.card)
        elif move.kind == "swap":
            self.swap(seat)
        elif move.kind == "call":
            assert move.card is not None
            self.call(seat, move.card)
        else:
            self.bid(seat, move)

    def bid(self, seat: int, move: Move) -> None:
        s, n = self.s, self.n
        text = str(move)
        s.auction.append((seat, text))
        s.events.append(Event("bid", seat, {"bid": text}))
        if move.kind == "pass":
            s.passed[seat] = True
        else:
            s.high_bidder = seat
            if move.kind == "rank":
                s.bid_rank = move.rank
            else:
                s.bid_points = move.points
        left = [k for k in range(n) if not s.passed[k]]
        if not left:
            # All five passed: the next dealer deals again (not one of the match's deals).
            s.events.append(Event("redeal", (s.dealer + 1) % n, {"dealer": (s.dealer + 1) % n}))
            s.dealer = (s.dealer + 1) % n
            self.deal()
            return
        if s.high_bidder is not None and left == [s.high_bidder]:
            s.phase = Phase.CALL
            s.current = s.caller = s.high_bidder
            s.events.append(
                Event(
                    "auction_won",
                    s.caller,
                    {"rank": s.bid_rank, "threshold": s.bid_points or MIN_BID},
                )
            )
            return
        nxt = (seat + 1) % n
        while s.passed[nxt]:
            nxt = (nxt + 1) % n
        s.current = nxt

    def call(self, seat: int, card: Card) -> None:
        s = self.s
        s.called = card
        s.trump = card.suit
        s.socio = next(k for k in range(self.n) if card in s.hands[k])
        s.phase = Phase.PLAY
        s.current = s.leader = (s.dealer + 1) % self.n
        s.events.append(Event("called", seat, {"card": str(card)}))

    def swap(self, seat: int) -> None:
        s = self.s
        card = self.swap_card(seat)
        assert card is not None and s.face_up is not None
        hand = s.hands[seat]
        hand[hand.index(card)] = s.face_up
        s.events.append(Event("swap", seat, {"card": str(card), "took": str(s.face_up)}))
        s.swapped = (seat, s.face_up)
        s.stock[0] = card
        s.face_up = s.turned_up = card

    def play_card(self, seat: int, card: Card) -> None:
        s, n = self.s, self.n
        s.hands[seat].remove(card)
        if not s.trick:
            s.last_trick = None
            s.leader = seat
        s.trick.append(card)
        s.events.append(Event("card", seat, {"card": str(card)}))
        if s.called is not None and card == s.called:
            s.revealed = True
            s.events.append(
                Event("socio", s.socio, {"card": str(card), "alone": s.socio == s.caller})
            )
        if len(s.trick) < n:
            s.current = (seat + 1) % n
            return
        assert s.trump is not None
        best = 0
        for i in range(1, n):
            if beats(s.trick[i], s.trick[best], s.trump):
                best = i
        winner = (s.leader + best) % n
        trick = Trick(s.leader, tuple(s.trick), winner)
        s.won[winner].extend(s.trick)
        s.tricks.append(trick)
        s.last_trick = trick
        s.trick = []
        s.events.append(
            Event("trick", winner, {"cards": _text(trick.cards), "leader": trick.leader})
        )
        if s.stock:
            # The winner draws first, then the others in turn order.
            for k in range(n):
                s.hands[(winner + k) % n].append(s.stock.pop())
            if not s.stock:
                s.face_up = None
        if any(s.hands):
            s.current = s.leader = winner
            return
        self.end_deal()

    # -- scoring ----------------------------------------------------------------------------
    def end_deal(self) -> None:
        s, rules, n = self.s, self.rules, self.n
        seat_points = [sum(POINTS[c.rank] for c in pile) for pile in s.won]
        if rules.chiamata:
            result = self.score_chiamata(seat_points)
        else:
            sides = _sides(rules)
            points = tuple(sum(seat_points[k] for k in side) for side in sides)
            best = max(points)
            leaders = [i for i, p in enumerate(points) if p == best]
            # At 3 players the most points win the deal; a shared first place is a draw.
            winner = leaders[0] if len(leaders) == 1 else None
            if rules.deal_scoring == "win":
                scores = tuple(1 if i == winner else 0 for i in range(len(sides)))
            else:
                scores = points
            result = DealResult(len(s.results) + 1, s.dealer, points, scores, winner)
        for i, delta in enumerate(result.scores):
            s.scores[i] += delta
        s.results.append(result)
        s.events.append(Event("deal", None, {"result": result.to_dict()}))
        if self.match_over():
            s.phase = Phase.OVER
            s.current = None
            s.events.append(Event("over", s.winner, {"winner": s.winner}))
            return
        s.dealer = (s.dealer + 1) % n
        self.deal()

    def score_chiamata(self, seat_points: list[int]) -> DealResult:
        s, rules = self.s, self.rules
        caller, socio = s.caller, s.socio
        assert caller is not None and socio is not None and s.called is not None
        team = {caller, socio}
        caller_points = sum(seat_points[k] for k in team)
        threshold = s.bid_points or MIN_BID
        won = caller_points >= threshold
        cappotto = rules.cappotto and caller_points in (0, TOTAL_POINTS)
        sign = (1 if won else -1) * (2 if cappotto else 1)
        scores = []
        for k in range(self.n):
            if k == caller:
                scores.append(sign * (4 if socio == caller else 2))
            elif k == socio:
                scores.append(sign)
            else:
                scores.append(-sign)
        return DealResult(
            number=len(s.results) + 1,
            dealer=s.dealer,
            points=tuple(seat_points),
            scores=tuple(scores),
            winner=None,
            caller=caller,
            socio=socio,
            called=s.called,
            threshold=threshold,
            caller_points=caller_points,
            won=won,
            cappotto=cappotto,
        )

    def match_over(self) -> bool:
        s, rules = self.s, self.rules
        best = max(s.scores)
        leaders = [i for i, p in enumerate(s.scores) if p == best]
        if rules.chiamata:
            if len(s.results) < rules.deals:
                return False
            s.winner = leaders[0] if len(leaders) == 1 else None  # a tie is shared
            return True
        # On a tie the match goes on with another deal.
        if best >= rules.target and len(leaders) == 1:
            s.winner = leaders[0]
            return True
        return False


def _sides(rules: Rules) -> tuple[tuple[int, ...], ...]:
    if rules.players == 4 and not rules.chiamata:
        return ((0, 2), (1, 3))
    return tuple((k,) for k in range(rules.players))


class Game:
    """A Briscola match. ``play`` returns the match after the move and leaves this one as it was.

    Seats are numbered in play order; the seat after the dealer plays first. Sides: at 4 players
    side 0 = seats 0 and 2, side 1 = seats 1 and 3; otherwise side = seat (in chiamata too: the
    partnership changes every deal, so scores are per player).
    """

    __slots__ = ("_legal", "_rules", "_s")

    def __init__(self, rules: Rules, state: _State) -> None:
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
        return _sides(self._rules)

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
        s = self._s
        out = [c for h in s.hands for c in h]
        out += s.stock + s.trick
        out += [c for w in s.won for c in w]
        return out

    # -- moves ------------------------------------------------------------------------------
    def _legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = _Deal(self._rules, self._s).legal()
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
            raise _Deal(rules, state).why_illegal(seat, move)
        state = state.copy()
        _Deal(rules, state).apply(seat, move)
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
        s = self._s
        return {
            "schema": SCHEMA,
            "game": "briscola",
            "rules": self._rules.to_dict(),
            "seed": s.seed,
            "shuffles": s.shuffles,
            "dealer": s.dealer,
            "phase": s.phase.value,
            "hands": [_text(h) for h in s.hands],
            "stock": _text(s.stock),
            "face_up": None if s.face_up is None else str(s.face_up),
            "turned_up": None if s.turned_up is None else str(s.turned_up),
            "swapped": None if s.swapped is None else [s.swapped[0], str(s.swapped[1])],
            "trump": s.trump,
            "leader": s.leader,
            "trick": _text(s.trick),
            "tricks": [t.to_dict() for t in s.tricks],
            "won": [_text(w) for w in s.won],
            "last_trick": None if s.last_trick is None else s.last_trick.to_dict(),
            "current": s.current,
            "auction": [[k, b] for k, b in s.auction],
            "passed": list(s.passed),
            "high_bidder": s.high_bidder,
            "bid_rank": s.bid_rank,
            "bid_points": s.bid_points,
            "caller": s.caller,
            "called": None if s.called is None else str(s.called),
            "socio": s.socio,
            "revealed": s.revealed,
            "scores": list(s.scores),
            "results": [r.to_dict() for r in s.results],
            "winner": s.winner,
            "last_move": None if s.last_move is None else list(s.last_move),
            "events": [e.to_dict() for e in s.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The match saved by ``to_dict``; raises ValueError on a bad or foreign document."""
        if not isinstance(data, Mapping) or data.get("game") != "briscola":
            raise ValueError("not a saved Briscola game")
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unsupported saved-game schema {data.get('schema')!r}")
        rules = Rules.from_dict(data["rules"])
        try:
            last = data["last_trick"]
            last_move = data["last_move"]
            swapped = data["swapped"]
            state = _State(
                seed=_int(data["seed"]),
                shuffles=_int(data["shuffles"]),
                dealer=_int(data["dealer"]),
                phase=Phase(data["phase"]),
                hands=[list(_cards(h)) for h in data["hands"]],
                stock=list(_cards(data["stock"])),
                face_up=_opt_card(data["face_up"]),
                turned_up=_opt_card(data["turned_up"]),
                swapped=None if swapped is None else (_int(swapped[0]), parse_card(swapped[1])),
                trump=None if data["trump"] is None else str(data["trump"]),
                leader=_int(data["leader"]),
                trick=list(_cards(data["trick"])),
                tricks=[Trick.from_dict(t) for t in data["tricks"]],
                won=[list(_cards(w)) for w in data["won"]],
                last_trick=None if last is None else Trick.from_dict(last),
                current=_opt_int(data["current"]),
                auction=[(_int(k), str(b)) for k, b in data["auction"]],
                passed=[bool(p) for p in data["passed"]],
                high_bidder=_opt_int(data["high_bidder"]),
                bid_rank=None if data["bid_rank"] is None else str(data["bid_rank"]),
                bid_points=_opt_int(data["bid_points"]),
                caller=_opt_int(data["caller"]),
                called=_opt_card(data["called"]),
                socio=_opt_int(data["socio"]),
                revealed=bool(data["revealed"]),
                scores=[_int(x) for x in data["scores"]],
                results=[DealResult.from_dict(r) for r in data["results"]],
                winner=_opt_int(data["winner"]),
                last_move=None if last_move is None else (_int(last_move[0]), str(last_move[1])),
                events=[Event.from_dict(e) for e in data["events"]],
            )
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise ValueError(f"corrupt saved Briscola game: {exc!r}") from None
        n = rules.players
        lists = (state.hands, state.won, state.passed)
        if any(len(x) != n for x in lists) or len(state.scores) != len(_sides(rules)):
            raise ValueError("corrupt saved Briscola game: wrong number of seats or sides")
        game = cls(rules, state)
        expected = [c for c in italian_deck() if n != 3 or str(c) != rules.removed_two]
        cards = game.all_cards()
        if sorted(map(str, cards)) != sorted(map(str, expected)):
            raise ValueError("corrupt saved Briscola game: the cards are not all there once")
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self._s.current} to {self._s.phase.value}"
        return f"<briscola.Game {self._rules.variant} {self._rules.players}p, {state}>"


def _text(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def _cards(text: Any) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise TypeError(f"expected cards as a string, got {text!r}")
    return tuple(parse_card(token) for token in text.split())


def _opt_card(value: Any) -> Card | None:
    return None if value is None else parse_card(str(value))


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)
