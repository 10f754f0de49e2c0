"""An expert rule-based Scopa-family player after the classical Scopone literature: Chitarrella's
rules (Naples, 18th century) with the additions of Saracino ("Lo scopone scientifico", 1963).

Glossary: **scopa** = sweeping the table; **settebello** = the 7 of denari; **primiera** = the
best card of each suit (7s first, then 6s, then aces); **spariglio** = taking two or more cards
with one (it breaks the pairing of values: four cards of each value, played two by two);
**carta morta** = a card whose other copies are all accounted for (nobody can take it by value);
**mulinello** = a run of scope between two players, each sweeping the single card the other
throws on the empty table; **mazziere** = the dealer.

The rules, as the player applies them, every move scored and the best played:

1. Take when you can (Chitarrella's first rule): a scopa above all, then the settebello, then the
   denari, the primiera cards (7s, 6s, aces) and the cards.
2. Spariglio: the side that plays first in the deal (not the dealer's) gains by breaking pairs,
   the dealer's side by keeping them (it plays last and retakes); a small preference either way.
3. Do not leave the next opponent a sum it can sweep, nor valuable cards it can take: count the
   cards seen (every card played is remembered) and weigh each value by the chance that player
   holds one; a table of 11 or more cannot be swept by one card.
4. Mulinello: on an empty table (after a scopa) throw a carta morta, or a card of which you hold
   the pair (you retake it, and the opponent's run stops); never start one for the opponents.
5. Play to the partner (Scopone): prefer a throw the partner can take and the next opponent cannot.
6. Never throw a 7 (the settebello least of all) nor a denari card when another card will do.
7. The last hand: the cards still unseen are exactly in the other hands; the last taker gets the
   table, so in the last round take whatever you can.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from benchmarks.baselines.flat_mc import legal_index
from benchmarks.baselines.scopa_sim import SETTEBELLO, VALUE, bits, captures, position_of

__all__ = ["ExpertPlayer"]


def card_worth(card: int) -> float:
    worth = 0.12  # the cards point
    if card < 10:
        worth += 0.25  # the denari point
    worth += {7: 0.8, 6: 0.45, 1: 0.3}.get(VALUE[card], 0.0)  # primiera
    if card == SETTEBELLO:
        worth += 2.5
    return worth


SCOPA = 2.0


class ExpertPlayer:
    """Chitarrella's rules with Saracino's additions (Scopa family, default capture rules)."""

    name = "expert"

    def __init__(self) -> None:
        self._memo: dict[tuple[int, int], list[int]] = {}

    def choose(self, view: Any, rng: random.Random) -> str:
        moves = legal_index(view)
        if len(moves) == 1:
            return next(iter(moves.values()))
        judge = _Judge(view, self._memo)
        best_text, best = "", -1e9
        for (card, taken), text in sorted(moves.items()):
            value = judge.score(card, taken)
            if value > best:
                best_text, best = text, value
        return best_text


class _Judge:
    """The rules applied to one position: ``score`` of each move (card, cards taken)."""

    def __init__(self, view: Any, memo: dict[tuple[int, int], list[int]]) -> None:
        known, unseen, _ = position_of(view)
        self.view = view
        self.unseen = unseen
        seat, n = view.seat, view.players
        self.seat, self.n = seat, n
        self.side = seat % 2 if n == 4 else seat
        self.hand = known.hands[seat]
        self.table = known.table
        self.left = known.left
        self.last_round = view.deck_count == 0
        self.dealer_side = view.dealer % 2 if n == 4 else view.dealer
        self.next_seat = (seat + 1) % n
        self.partner = (seat + 2) % n if n == 4 else None
        self.memo = memo

    def hand_size(self, s: int) -> int:
        size: int = self.view.hand_counts[s]
        if size == 0 and self.view.deck_count:
            return 3
        return size

    def p_holds(self, s: int, value: int) -> float:
        """Chance that seat ``s`` holds a card of ``value`` (card counting)."""
        unseen = self.unseen
        k = sum(1 for c in unseen if VALUE[c] == value)
        pool = len(unseen)
        size = min(self.hand_size(s), pool)
        if not k or not size:
            return 0.0
        return 1.0 - comb(pool - k, size) / comb(pool, size)

    def best_take(self, t: int, value: int, plays_left: int) -> float:
        best = 0.0
        for taken in captures(t, value, self.memo):
            gain = sum(card_worth(c) for c in bits(taken)) + 0.12
            if taken == t and plays_left > 1:
                gain += SCOPA
            best = max(best, gain)
        return best

    def exposure(self, s: int, t: int, plays_left: int) -> float:
        """What seat ``s`` is expected to take from table ``t`` with its best card."""
        if not t or plays_left <= 0:
            return 0.0
        options = []
        for value in range(1, 11):
            gain = self.best_take(t, value, plays_left)
            if gain:
                options.append((gain, self.p_holds(s, value)))
        options.sort(reverse=True)
        expected, none = 0.0, 1.0
        for gain, p in options:
            expected += gain * p * none
            none *= 1.0 - p
        return expected

    def score(self, card: int, taken: int) -> float:
        if taken:
            after = self.table & ~taken
            s = self._take(card, taken, after)
        else:
            after = self.table | 1 << card
            s = self._throw(card)
        if self.left <= 1:
            return s
        return self._ahead(s, card, after)

    def _take(self, card: int, taken: int, after: int) -> float:
        s = 0.0
        s += 1.0  # rule 1: take when you can
        s += sum(card_worth(c) for c in bits(taken)) + card_worth(card)
        if not after and self.left > 1:
            s += SCOPA
        if taken.bit_count() >= 2:  # rule 2: spariglio
            s += 0.15 if self.side != self.dealer_side else -0.1
        return s

    def _throw(self, card: int) -> float:
        value = VALUE[card]
        s = 0.0
        s -= card_worth(card) * 0.5  # rule 6
        mates = sum(1 for c in self.hand if c != card and VALUE[c] == value)
        dead = not any(VALUE[c] == value for c in self.unseen)
        if not self.table:  # rule 4: mulinello
            if dead:
                s += 0.6
            elif mates:
                s += 0.35
        elif mates:
            s += 0.1
        if self.last_round and self.left <= self.n:  # rule 7: the last taker takes the table
            s -= 0.2
        return s

    def _ahead(self, s: float, card: int, after: int) -> float:
        left, seat, n = self.left, self.seat, self.n
        # Rule 3: what the next opponent takes from the table left.
        s -= self.exposure(self.next_seat, after, left - 1)
        # Rule 5: play to the partner (what it may take after the opponent).
        if self.partner is not None:
            s += 0.4 * self.exposure(self.partner, after, left - 2)
            s -= 0.25 * self.exposure((seat + 3) % n, after, left - 3)
        elif n == 2:
            own_next = max(
                (self.best_take(after, VALUE[c], left - 2) for c in self.hand if c != card),
                default=0.0,
            )
            s += 0.3 * own_next
        elif n == 3:
            s -= 0.4 * self.exposure((seat + 2) % n, after, left - 2)
        return s
