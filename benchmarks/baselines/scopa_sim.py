"""The baselines' own Scopa arithmetic: cards as numbers, captures, scoring, deals consistent with
a seat's view, and a cheap greedy playout. Written from docs/rules.md, not from ``engine.scopa``'s
internals (only the public view and its move strings are shared).

Glossary: **scopa** = a capture that sweeps the table; **settebello** = the 7 of denari;
**primiera** = the best card of each suit (7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13,
2 = 12, figures 10); **denari** = the coin suit (D); **smazzata** = one deal played out.

Default capture rules only (a card takes an equal card if there is one, else a set summing to its
value); the benchmark plays the default rules of each game.

A card is ``10 * suit + value - 1`` with suits D, C, S, B and values A = 1 ... K = 10.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Position",
    "SimGreedy",
    "captures",
    "card_of",
    "move_text",
    "parse",
    "position_of",
    "score",
]

SUITS = "DCSB"
RANKS = "A234567JQK"
SETTEBELLO = 6  # 7 of denari
PRIMIERA_POINTS = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
VALUE = tuple(c % 10 + 1 for c in range(40))
SUIT = tuple(c // 10 for c in range(40))


def card_of(text: str) -> int:
    rank, suit = text[0], text[1]
    return SUITS.index(suit) * 10 + RANKS.index(rank)


def text_of(card: int) -> str:
    return RANKS[card % 10] + SUITS[card // 10]


def parse(move: str) -> tuple[int, list[int]]:
    """(card, captured cards) of a move string such as ``7D:3C+4S``."""
    body = move.rstrip("!")
    head, _, rest = body.partition(":")
    return card_of(head), [card_of(t) for t in rest.split("+")] if rest else []


def move_text(card: int, taken: Sequence[int]) -> str:
    if not taken:
        return text_of(card)
    return text_of(card) + ":" + "+".join(text_of(c) for c in sorted(taken))


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def captures(table: int, value: int, memo: dict[tuple[int, int], list[int]]) -> list[int]:
    """Every capture (as a mask of table cards) a card of ``value`` may make."""
    key = (table, value)
    found = memo.get(key)
    if found is not None:
        return found
    cards = bits(table)
    same = [1 << c for c in cards if VALUE[c] == value]
    if same:
        memo[key] = same
        return same
    small = [c for c in cards if VALUE[c] < value]
    out: list[int] = []

    def walk(i: int, total: int, mask: int, count: int) -> None:
        if total == value:
            if count >= 2:
                out.append(mask)
            return
        for j in range(i, len(small)):
            c = small[j]
            v = VALUE[c]
            if total + v <= value:
                walk(j + 1, total + v, mask | 1 << c, count + 1)

    walk(0, 0, 0, 0)
    memo[key] = out
    return out


def _suit_best(pile: int) -> list[int]:
    best = [0, 0, 0, 0]
    for c in bits(pile):
        p = PRIMIERA_POINTS[c % 10]
        if p > best[SUIT[c]]:
            best[SUIT[c]] = p
    return best


def _unique_max(values: Sequence[int]) -> int | None:
    top = max(values)
    return values.index(top) if list(values).count(top) == 1 else None


def score(piles: Sequence[int], scope: Sequence[int]) -> list[int]:
    """Each side's smazzata points: cards, denari, settebello, primiera (a side missing a suit
    has none), and its scope."""
    out = list(scope)
    for values in (
        [p.bit_count() for p in piles],
        [(p & 0x3FF).bit_count() for p in piles],
    ):
        winner = _unique_max(values)
        if winner is not None:
            out[winner] += 1
    for side, pile in enumerate(piles):
        out[side] += pile >> SETTEBELLO & 1
    prim = [sum(b) if all(b) else -1 for b in map(_suit_best, piles)]
    if max(prim) >= 0:
        winner = _unique_max(prim)
        if winner is not None:
            out[winner] += 1
    return out


# What a greedy player values, in its own units.
WORTH = tuple(
    1.0
    + (0.6 if c < 10 else 0.0)
    + (4.0 if c == SETTEBELLO else 0.0)
    + {7: 1.4, 6: 0.7, 1: 0.4}.get(VALUE[c], 0.0)
    for c in range(40)
)
SCOPA_WORTH = 6.0


def mask_worth(mask: int) -> float:
    return sum(WORTH[c] for c in bits(mask))


@dataclass
class Position:
    """A full position of a smazzata (a sampled deal), mutable."""

    players: int
    hands: list[list[int]]
    table: int
    deck: list[int]
    piles: list[int]
    scope: list[int]
    last_taker: int
    seat: int
    left: int
    dealer_side: int

    def side(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def copy(self) -> Position:
        return Position(
            self.players,
            [h.copy() for h in self.hands],
            self.table,
            self.deck.copy(),
            self.piles.copy(),
            self.scope.copy(),
            self.last_taker,
            self.seat,
            self.left,
            self.dealer_side,
        )

    def play(self, card: int, taken: int) -> None:
        """Play ``card`` from the hand of the seat to move, taking ``taken`` (a mask, 0: none)."""
        seat = self.seat
        self.hands[seat].remove(card)
        self.left -= 1
        if taken:
            side = self.side(seat)
            self.table ^= taken
            self.piles[side] |= taken | 1 << card
            self.last_taker = side
            if not self.table and self.left:
                self.scope[side] += 1
        else:
            self.table |= 1 << card
        self.seat = (seat + 1) % self.players
        if self.left and not any(self.hands):
            for k in range(self.players):
                hand = self.hands[(self.seat + k) % self.players]
                for _ in range(3):
                    hand.append(self.deck.pop())

    def finish(self) -> list[int]:
        """The smazzata's points, after the last taker gets what is left on the table."""
        piles = self.piles.copy()
        if self.table:
            taker = self.last_taker if self.last_taker >= 0 else self.dealer_side
            piles[taker] |= self.table
        return score(piles, self.scope)


def greedy_choice(
    hand: Sequence[int],
    table: int,
    memo: dict[tuple[int, int], list[int]],
    *,
    last: bool,
    careful: bool = True,
) -> tuple[int, int]:
    """The most valuable capture (a scopa counts a lot), else throw the cheapest card; ``careful``:
    keeping the table over 10 when a card allows it (so no single card sweeps it)."""
    best_card, best_taken, best = -1, 0, -1.0
    if table:
        for card in hand:
            for taken in captures(table, VALUE[card], memo):
                worth = mask_worth(taken) + WORTH[card]
                if taken == table and not last:
                    worth += SCOPA_WORTH
                if worth > best:
                    best_card, best_taken, best = card, taken, worth
    if best_card >= 0:
        return best_card, best_taken
    if not careful:
        return min(hand, key=lambda c: (WORTH[c], -VALUE[c], c)), 0
    total = sum(VALUE[c] for c in bits(table))
    return min(hand, key=lambda c: (WORTH[c] + (3.0 if total + VALUE[c] <= 10 else 0.0), -c)), 0


def playout(pos: Position, memo: dict[tuple[int, int], list[int]]) -> list[int]:
    """Every seat plays greedy to the end of the smazzata; returns the points."""
    while pos.left:
        card, taken = greedy_choice(pos.hands[pos.seat], pos.table, memo, last=pos.left == 1)
        pos.play(card, taken)
    return pos.finish()


def position_of(view: Any) -> tuple[Position, list[int], list[tuple[int, int]]]:
    """The known part of the seat's position (other hands and deck empty), the unseen cards, and
    (seat, count) of the hidden hands to fill."""
    seat = view.seat
    n = view.players
    side = (lambda s: s % 2) if n == 4 else (lambda s: s)
    sides = 2 if n == 4 else n
    hand = [card_of(str(c)) for c in view.hand]
    table = 0
    for c in view.table:
        table |= 1 << card_of(str(c))
    piles = [0] * sides
    seen = table
    for c in hand:
        seen |= 1 << c
    last_taker = -1
    for mover, text in view.history:
        card, taken = parse(text)
        seen |= 1 << card
        if taken:
            mask = 1 << card
            for t in taken:
                mask |= 1 << t
            piles[side(mover)] |= mask
            last_taker = side(mover)
    for p in piles:
        seen |= p
    unseen = [c for c in range(40) if not seen >> c & 1]
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = hand
    hidden = [(s, view.hand_counts[s]) for s in range(n) if s != seat and view.hand_counts[s]]
    pos = Position(
        n,
        hands,
        table,
        [],
        piles,
        list(view.scope),
        last_taker,
        seat,
        sum(view.hand_counts) + view.deck_count,
        side(view.dealer),
    )
    return pos, unseen, hidden


def sample(
    known: Position, unseen: list[int], hidden: Sequence[tuple[int, int]], rng: random.Random
) -> Position:
    """One deal of the unseen cards to the hidden hands and the deck, uniformly at random."""
    pool = unseen.copy()
    rng.shuffle(pool)
    pos = known.copy()
    for seat, count in hidden:
        pos.hands[seat] = pool[-count:]
        del pool[-count:]
    pos.deck = pool
    return pos


class SimGreedy:
    """The greedy policy of the playouts as a player (``careful``), or the classical beginner
    (``careful=False``: the most valuable capture, else the cheapest card, the highest value on
    ties, with no thought for what the table is left)."""

    name = "simgreedy"

    def __init__(self, *, careful: bool = True) -> None:
        self.careful = careful
        self._memo: dict[tuple[int, int], list[int]] = {}

    def choose(self, view: Any, rng: random.Random) -> str:
        hand = [card_of(str(c)) for c in view.hand]
        table = 0
        for c in view.table:
            table |= 1 << card_of(str(c))
        last = view.deck_count == 0 and sum(view.hand_counts) == 1
        card, taken = greedy_choice(hand, table, self._memo, last=last, careful=self.careful)
        text = move_text(card, bits(taken))
        if text not in view.legal_moves:
            raise AssertionError(f"simgreedy chose {text}, not among {view.legal_moves}")
        return text
