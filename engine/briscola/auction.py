"""Briscola chiamata's own rules: the auction, the call of a card, and the score of a deal.

Glossary: **asta** = the auction; **chiamante** = the player who wins it and calls a card;
**socio** = the holder of the called card, the chiamante's secret partner; **cappotto** = one side
taking all 120 points. Each function reads or changes a copied :class:`~engine.briscola.state.State`
for :class:`~engine.briscola.deal.Deal`.
"""

from __future__ import annotations

from engine.briscola.moves import IllegalMove, Move, Phase
from engine.briscola.records import DealResult, Event
from engine.briscola.rules import Rules
from engine.briscola.state import State
from engine.briscola.tricks import RANK_ORDER, TOTAL_POINTS
from engine.cards import SUITS, Card

__all__ = [
    "MAX_BID",
    "MIN_BID",
    "auction_moves",
    "auction_refusal",
    "bid",
    "call",
    "call_moves",
    "min_point_bid",
    "score_chiamata",
]

MIN_BID = 61  # a rank call wins with 61 points, and point bids start there
MAX_BID = TOTAL_POINTS


def auction_moves(rules: Rules, s: State) -> list[Move]:
    """The bids open to the player to speak: pass, a lower rank, or points after the 2."""
    moves = [Move("pass")]
    start = 0 if s.bid_rank is None else RANK_ORDER.index(s.bid_rank) + 1
    moves += [Move("rank", rank=r) for r in RANK_ORDER[start:]]
    low = min_point_bid(rules, s)
    if low is not None:
        moves += [Move("points", points=p) for p in range(low, MAX_BID + 1)]
    return moves


def call_moves(s: State) -> list[Move]:
    """The auction's winner calls a card of the rank bid, of any suit."""
    assert s.bid_rank is not None
    return [Move("call", card=Card(s.bid_rank, suit)) for suit in SUITS]


def min_point_bid(rules: Rules, s: State) -> int | None:
    """The lowest point bid allowed now (None: none is)."""
    if not rules.point_bids or s.bid_rank != RANK_ORDER[-1]:
        return None
    low = MIN_BID if s.bid_points is None else s.bid_points + 1
    return low if low <= MAX_BID else None


def auction_refusal(rules: Rules, s: State, move: Move) -> IllegalMove:
    """Why ``move`` is not allowed in the auction or the call (``s.phase`` is one of them)."""
    if s.phase is Phase.AUCTION:
        if move.kind == "rank":
            return IllegalMove(
                "call a rank lower than {rank} (A 3 K Q J 7 6 5 4 2), or points, or pass",
                rank=s.bid_rank or "",
            )
        if move.kind == "points":
            if not rules.point_bids:
                return IllegalMove("point bids are not played at this table")
            if s.bid_rank != RANK_ORDER[-1]:
                return IllegalMove("point bids come only after the 2 has been called")
            low = min_point_bid(rules, s)
            if low is None:
                return IllegalMove("nobody can bid more than 120 points")
            return IllegalMove("bid from {low} to {high} points", low=low, high=MAX_BID)
        return IllegalMove("the auction is on: call a rank, or points, or pass")
    if move.kind == "call":
        return IllegalMove("call a card of the rank you bid: {rank}", rank=s.bid_rank or "")
    return IllegalMove(
        "you won the auction: call a card of rank {rank}, e.g. call {rank}D",
        rank=s.bid_rank or "",
    )


def bid(s: State, seat: int, move: Move, n: int) -> bool:
    """``seat`` passes or bids. True when all ``n`` passed: the next dealer, already in
    ``s.dealer``, deals again (and that hand is not one of the match's deals)."""
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
        s.events.append(Event("redeal", (s.dealer + 1) % n, {"dealer": (s.dealer + 1) % n}))
        s.dealer = (s.dealer + 1) % n
        return True
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
        return False
    nxt = (seat + 1) % n
    while s.passed[nxt]:
        nxt = (nxt + 1) % n
    s.current = nxt
    return False


def call(s: State, seat: int, card: Card, n: int) -> None:
    """The chiamante names ``card``: its suit is the briscola, its holder the socio."""
    s.called = card
    s.trump = card.suit
    s.socio = next(k for k in range(n) if card in s.hands[k])
    s.phase = Phase.PLAY
    s.current = s.leader = (s.dealer + 1) % n
    s.events.append(Event("called", seat, {"card": str(card)}))


def score_chiamata(rules: Rules, s: State, seat_points: list[int]) -> DealResult:
    """A chiamata deal's result: the caller's side against ``threshold``, per player scores."""
    caller, socio = s.caller, s.socio
    assert caller is not None and socio is not None and s.called is not None
    team = {caller, socio}
    caller_points = sum(seat_points[k] for k in team)
    threshold = s.bid_points or MIN_BID
    won = caller_points >= threshold
    cappotto = rules.cappotto and caller_points in (0, TOTAL_POINTS)
    sign = (1 if won else -1) * (2 if cappotto else 1)
    scores = []
    for k in range(rules.players):
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
