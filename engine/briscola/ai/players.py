"""Computer players for Briscola and Briscola chiamata at three levels, on the one interface
(``choose(view, rng) -> move string``; names ``briscola-easy``, ``briscola-medium``,
``briscola-hard``).

* **easy** (greedy): when the trick holds points, the least valuable card that wins it; otherwise
  the least valuable card. The baseline every strength figure is measured against.
* **medium** (the classical advice): leads a liscio; saves its briscole for tricks with a carico
  on them (or the trick that decides the deal); takes with a card of the suit led when it can;
  loads points on a trick its partner is sure to take (4 players, and the chiamata socio once
  known); counts the points taken so far, so it takes at any cost the trick that wins the deal or
  stops the other side from winning it.
* **hard**: single-observer ISMCTS (Cowling, Powley, Whitehouse 2012): one tree over the seat's
  information set, every iteration deals the unseen cards anew consistently with what the seat
  has seen (``engine.briscola.playout.determinize``: the face-up briscola, every card played, a
  swap, the called card and what the play revealed of the socio), walks the tree with UCB1 and
  availability counts, and plays the deal out with epsilon-greedy moves. Deterministic for a
  given ``rng`` and ``iterations``.

Chiamata auction: easy bids on a long suit with a carico; medium and hard estimate, for each
rank they may bid and each suit they may call, the caller's chance of reaching the threshold by
sampling the other hands and playing the deal out greedily (hard with more samples), and bid the
least committing rank whose chance clears their bar; the call is the suit with the best chance.
The swap (scambio) is made whenever the face-up card is the stronger one.

Glossary: **carico** = the Asso or the 3; **liscio** = a card worth nothing; **briscola** = the
trump suit; **socio** = the chiamata caller's secret partner; **scambio** = the swap.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engine.ai.base import legal_moves_of
from engine.briscola import BriscolaView, Phase
from engine.briscola.playout import (
    CARD,
    INDEX,
    PTS,
    TEXT,
    Deal,
    beats,
    determinize,
    greedy_card,
    points_taken,
    winning_index,
)
from engine.briscola.tricks import RANK_ORDER
from engine.cards import SUITS, Card

__all__ = [
    "DEFAULT_ITERATIONS",
    "BriscolaEasy",
    "BriscolaHard",
    "BriscolaMedium",
]

# Calibrated so that the costliest move (the first of a chiamata deal) stays well under a second
# of CPU on the reference machine (benchmarks/README.md "Briscola and chiamata").
DEFAULT_ITERATIONS = 2000


def _check(view: Any) -> BriscolaView:
    if not isinstance(view, BriscolaView):
        raise TypeError("this player plays Briscola; use another for this game")
    return view


def _trump(view: BriscolaView) -> int:
    assert view.briscola_suit is not None
    return SUITS.index(view.briscola_suit)


def _swap_pays(view: BriscolaView) -> bool:
    """The scambio gives the face-up card for the 2 or 7: worth it when the face-up one is
    stronger (always for the 2)."""
    if view.briscola is None:
        return False
    mine = "2" if view.rules.swap == "two" else "7"
    return RANK_ORDER.index(view.briscola.rank) < RANK_ORDER.index(mine)


# -- chiamata: the auction and the call ------------------------------------------------------


def _bid_moves(moves: Sequence[str]) -> tuple[list[str], list[int]]:
    ranks = [m for m in moves if m in RANK_ORDER]
    points = [int(m) for m in moves if m.isdigit() and m not in RANK_ORDER]
    return ranks, points


def _easy_bid(view: BriscolaView, moves: Sequence[str]) -> str:
    """Bid on a suit of four cards or more holding a carico, the highest rank it lacks there."""
    ranks, _ = _bid_moves(moves)
    best = _longest_suit(view.hand)
    held = {c.rank for c in view.hand if c.suit == best}
    long_enough = sum(1 for c in view.hand if c.suit == best) >= 4
    if long_enough and held & {"A", "3"}:
        for rank in ranks:
            if rank not in held:
                return rank
    return "pass"


def _longest_suit(hand: Sequence[Card]) -> str:
    def key(suit: str) -> tuple[int, int]:
        cards = [c for c in hand if c.suit == suit]
        return (len(cards), sum(PTS[INDEX[c]] for c in cards))

    return max(SUITS, key=key)


def _easy_call(view: BriscolaView) -> str:
    rank = view.bid_rank or "A"
    best = _longest_suit(view.hand)
    order = [best, *(s for s in SUITS if s != best)]
    for suit in order:
        if Card(rank, suit) not in view.hand:
            return f"call {rank}{suit}"
    return f"call {rank}{best}"  # holding all four: alone


def _estimate(
    view: BriscolaView, suit: str, rank: str, rng: random.Random, samples: int
) -> list[int]:
    """The caller's side points in ``samples`` greedy playouts, this seat calling ``rank`` of
    ``suit`` (its own card: alone), the other hands sampled."""
    seat, n = int(view.seat or 0), view.players
    hand = [INDEX[c] for c in view.hand]
    called = INDEX[Card(rank, suit)]
    rest = [i for i in range(40) if i not in set(hand)]
    out = []
    for _ in range(samples):
        rng.shuffle(rest)
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[seat] = hand.copy()
        others = [k for k in range(n) if k != seat]
        for j, other in enumerate(others):
            hands[other] = rest[j * 8 : (j + 1) * 8]
        socio = next(k for k in range(n) if called in hands[k])
        team = [1 if k in (seat, socio) else 0 for k in range(n)]
        deal = Deal(
            hands=hands,
            stock=[],
            trump=SUITS.index(suit),
            trick=[],
            leader=(view.dealer + 1) % n,
            pts=[0] * n,
            team=team,
            mode="chiamata",
        )
        deal.play_out(rng, 0.1)
        out.append(deal.side_points()[1])
    return out


def _candidate_suits(hand: Sequence[Card], keep: int) -> list[str]:
    def key(suit: str) -> tuple[int, int]:
        cards = [c for c in hand if c.suit == suit]
        return (len(cards) * 4 + sum(PTS[INDEX[c]] for c in cards) // 3, -SUITS.index(suit))

    return sorted(SUITS, key=key, reverse=True)[:keep]


def _chance(points: Sequence[int], threshold: int) -> float:
    return sum(1 for p in points if p >= threshold) / max(1, len(points))


class _Auction:
    """Monte Carlo bidding: ``samples`` playouts per (rank, suit), a bid when the caller's
    chance of reaching the threshold is at least ``bar``."""

    def __init__(self, samples: int, bar: float, suits: int = 2) -> None:
        self.samples = samples
        self.bar = bar
        self.suits = suits

    def bid(self, view: BriscolaView, moves: Sequence[str], rng: random.Random) -> str:
        ranks, points = _bid_moves(moves)
        suits = _candidate_suits(view.hand, self.suits)
        for rank in ranks:  # the least committing first
            for suit in suits:
                if _chance(_estimate(view, suit, rank, rng, self.samples), 61) >= self.bar:
                    return rank
        if points:
            results = [_estimate(view, suit, "2", rng, self.samples) for suit in suits]
            for bid in points:
                if max(_chance(r, bid) for r in results) >= self.bar:
                    return str(bid)
                break  # only the lowest point bid: raising further is a gamble
        return "pass"

    def call(self, view: BriscolaView, rng: random.Random) -> str:
        rank = view.bid_rank or "A"
        threshold = int(view.threshold or 61)
        best, best_chance = "", -1.0
        for suit in SUITS:
            chance = _chance(_estimate(view, suit, rank, rng, self.samples), threshold)
            # Calling one's own card (alone) must be clearly better to be chosen.
            if Card(rank, suit) in view.hand:
                chance -= 0.1
            if chance > best_chance:
                best, best_chance = suit, chance
        return f"call {rank}{best}"


# -- the players ---------------------------------------------------------------------------------


class BriscolaEasy:
    """The greedy beginner (see the module docstring)."""

    name = "briscola-easy"

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        v = _check(view)
        if v.phase is Phase.AUCTION:
            return _easy_bid(v, moves)
        if v.phase is Phase.CALL:
            return _easy_call(v)
        if "swap" in moves and _swap_pays(v):
            return "swap"
        hand = [INDEX[c] for c in v.hand]
        return TEXT[greedy_card(hand, [INDEX[c] for _, c in v.trick], _trump(v))]


def _partners(view: BriscolaView) -> set[int]:
    """The seats this seat knows to be on its side (itself excluded)."""
    seat = int(view.seat or 0)
    if view.variant != "chiamata":
        return {(seat + 2) % 4} if view.players == 4 else set()
    caller, socio = view.caller, view.socio
    if socio is None:
        return set()  # the socio is unknown (to the caller too, unless revealed)
    team = {caller, socio}
    if seat in team:
        return {k for k in team if k is not None and k != seat}
    return {k for k in range(view.players) if k not in team and k != seat}


def _opponents_known(view: BriscolaView) -> set[int]:
    seat = int(view.seat or 0)
    if view.variant != "chiamata":
        if view.players == 4:
            return {(seat + 1) % 4, (seat + 3) % 4}
        return {k for k in range(view.players) if k != seat}
    partners = _partners(view) | {seat}
    if view.socio is not None:
        return {k for k in range(view.players) if k not in partners}
    if seat == view.caller:
        return set()
    return {view.caller} if view.caller is not None else set()


class BriscolaMedium:
    """The classical advice with point counting (see the module docstring)."""

    name = "briscola-medium"

    def __init__(self, samples: int = 12, bar: float = 0.6) -> None:
        self.auction = _Auction(samples, bar)

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        v = _check(view)
        if v.phase is Phase.AUCTION:
            return self.auction.bid(v, moves, rng)
        if v.phase is Phase.CALL:
            return self.auction.call(v, rng)
        if "swap" in moves and _swap_pays(v):
            return "swap"
        return TEXT[medium_card(v)]


def medium_card(view: BriscolaView) -> int:
    """The medium player's card (see the module docstring)."""
    seat = int(view.seat or 0)
    n = view.players
    trump = _trump(view)
    hand = [INDEX[c] for c in view.hand]
    trick = [INDEX[c] for _, c in view.trick]
    taken = points_taken(view)
    partners = _partners(view)
    mine = taken[seat] + sum(taken[k] for k in partners)
    opponents = _opponents_known(view)
    theirs = sum(taken[k] for k in opponents)
    goal = int(view.threshold or 61) if view.variant == "chiamata" else 61
    two_sides = view.variant == "chiamata" or n != 3

    def cheap(c: int) -> tuple[int, bool, int]:
        return (PTS[c], c // 10 == trump, -(c % 10))

    if not trick:
        lisci = [c for c in hand if PTS[c] == 0 and c // 10 != trump]
        if lisci:
            return min(lisci, key=lambda c: -(c % 10))
        figures = [c for c in hand if c // 10 != trump and PTS[c] < 10]
        if figures:
            return min(figures, key=cheap)
        trumps = [c for c in hand if c // 10 == trump]
        if trumps:
            return min(trumps, key=cheap)
        return min(hand, key=cheap)
    best_i = winning_index(trick, trump)
    best = trick[best_i]
    leader = view.trick[0][0]
    best_seat = (leader + best_i) % n
    on_table = sum(PTS[c] for c in trick)
    last = len(trick) == n - 1
    later = {(seat + k) % n for k in range(1, n - len(trick))}
    if best_seat in partners:
        threatened = bool(later & opponents) or (view.variant == "chiamata" and not last)
        safe = not threatened or (best // 10 == trump and best % 10 <= 2)
        if safe:
            loads = [c for c in hand if c // 10 != trump and PTS[c] > 0]
            if loads:
                return max(loads, key=lambda c: PTS[c])
        return min(hand, key=cheap)
    winners = [c for c in hand if beats(c, best, trump)]
    same = [c for c in winners if c // 10 != trump]
    trumps = [c for c in winners if c // 10 == trump]
    decisive = two_sides and (
        mine + on_table < goal <= mine + on_table + 11 or theirs + on_table >= goal
    )
    if same:
        return max(same, key=lambda c: (PTS[c], c % 10))
    if trumps and (on_table >= 10 or decisive or (on_table >= 4 and last and len(trumps) >= 2)):
        return min(trumps, key=cheap)
    return min(hand, key=cheap)


class _Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who made the move into this node
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def ismcts(
    view: BriscolaView,
    rng: random.Random,
    *,
    iterations: int,
    exploration: float = 0.7,
    epsilon: float = 0.2,
) -> dict[int, tuple[int, float]]:
    """Grow one tree over the seat's information set; the root's children as {card: (visits,
    mean reward)}."""
    root = _Node(int(view.seat or 0))
    log, sqrt = math.log, math.sqrt
    for _ in range(iterations):
        deal, _socio = determinize(view, rng)
        node = root
        path = [root]
        while deal.hands[deal.cur]:
            moves = deal.hands[deal.cur]
            children = node.children
            untried = [m for m in moves if m not in children]
            if untried:
                move = untried[rng.randrange(len(untried))]
                for m in moves:
                    child = children.get(m)
                    if child is not None:
                        child.avail += 1
                child = children[move] = _Node(deal.cur)
                deal.play(move)
                path.append(child)
                break
            best_score = -math.inf
            move = moves[0]
            for m in moves:
                child = children[m]
                child.avail += 1
                score = child.total / child.visits + exploration * sqrt(
                    log(child.avail) / child.visits
                )
                if score > best_score:
                    best_score, move = score, m
            node = children[move]
            deal.play(move)
            path.append(node)
        deal.play_out(rng, epsilon)
        rewards = deal.rewards()
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat]
    return {m: (c.visits, c.total / max(1, c.visits)) for m, c in root.children.items()}


class BriscolaHard:
    """ISMCTS with determinization (see the module docstring); ``iterations`` per move."""

    name = "briscola-hard"

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        exploration: float = 0.7,
        epsilon: float = 0.2,
        samples: int = 30,
        bar: float = 0.6,
    ) -> None:
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
        self.iterations = iterations
        self.exploration = exploration
        self.epsilon = epsilon
        self.auction = _Auction(samples, bar, suits=2)

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        v = _check(view)
        # A stream of its own: the caller's rng advances the same whatever the search does.
        own = random.Random(rng.getrandbits(64))
        if v.phase is Phase.AUCTION:
            return self.auction.bid(v, moves, own)
        if v.phase is Phase.CALL:
            return self.auction.call(v, own)
        if "swap" in moves and _swap_pays(v):
            return "swap"
        cards = [m for m in moves if m != "swap"]
        if len(cards) == 1:
            return cards[0]
        stats = ismcts(
            v, own, iterations=self.iterations, exploration=self.exploration, epsilon=self.epsilon
        )
        best = max(stats, key=lambda m: (stats[m][0], stats[m][1], -m))
        text = TEXT[best]
        if text not in moves:  # the tree's root moves are the seat's own cards
            raise AssertionError(f"ISMCTS chose {text}, which is not among {moves}")
        return text


assert len(CARD) == 40
