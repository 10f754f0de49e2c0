"""How far a Scala 40 hand is from going down: the hand evaluator of the ``scala40`` player.

Glossary: **tris** = 3-4 cards of one rank in different suits; **scala** = a run in one suit;
**jolly** = the joker; **apertura** = the first melds (40 points); **pozzo** = the discard pile.

A rummy hand is worth what it still lacks. :class:`HandEvaluator` splits the hand, exactly, into
complete melds, **partial melds** (two cards that one more card completes: two of a rank in
different suits, two of a suit one or two ranks apart, or a card with a joker) and lone cards,
choosing the split of least **cost**, in units of "cards still to find":

* a complete meld costs nothing;
* a partial meld costs ``1 + OUTS_WEIGHT / outs``, where ``outs`` is how many copies of the cards
  that would complete it are still unseen (not in the hand, not on the table, not in the pozzo,
  whose every card was seen when discarded): a partial that nothing can complete costs as much
  as two lone cards;
* a lone card costs ``LONE`` (it needs two more cards), nothing once opened when it fits a meld
  on the table (it will be attached);
* every card outside a complete meld adds ``danger x its penalty``: what it would cost if someone
  closed now, weighted by how close the opponents are to closing (:func:`danger`) and, past half
  the elimination score, by how near ours is to it (``SCORE_WEIGHT``);
* before the opening, the points of the complete melds (and half those a partial would make)
  are a gain, ``OPENING_WEIGHT`` per point: the opening needs 40.

The split is a search over "the lowest card still free goes lone, into a partial, or into a
complete meld that holds it", memoised on the cards left, so one evaluator (built once per
decision, for one view) prices every candidate hand of the decision sharing its memo. Cards are
small integers, ``suit * 16 + position`` (ace 1), a hand a sorted tuple of them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import SUITS, Card
from engine.scala40 import Scala40View
from engine.scala40.melds import RANK_ORDER, attach_ends

__all__ = ["HandEvaluator", "card_code", "danger"]

LONE = 2.0
OUTS_WEIGHT = 2.0
JOKER_PARTIAL = 1.1
OPENING_WEIGHT = 0.02
BASE_DANGER = 0.02
DANGER_WEIGHT = 0.16
SCORE_WEIGHT = 2.0


def card_code(card: Card) -> int:
    """A real card as ``suit * 16 + position`` (ace 1, king 13); -1 for a joker."""
    if card.is_joker:
        return -1
    return SUITS.index(card.suit) * 16 + RANK_ORDER[card.rank]


def _points(position: int, *, tris: bool = False) -> int:
    """A card's points in a meld: ace 11 in a tris or at the high end (position 14), else 1."""
    if position == 14 or (tris and position == 1):
        return 11
    return min(position, 10)


def _penalty(code: int) -> int:
    position = code & 15
    return 11 if position == 1 else min(position, 10)


def danger(view: Scala40View) -> float:
    """How likely, 0 to 1, that an opponent goes out before our next turn or two: from the cards
    the opened opponents still hold (an unopened one can close only all at once)."""
    assert view.seat is not None
    worst = 0.0
    for seat in range(view.players):
        if seat == view.seat or view.eliminated[seat] or not view.hand_counts[seat]:
            continue
        held = view.hand_counts[seat]
        if not view.opened[seat]:
            level = 0.1
        elif held <= 2:
            level = 1.0
        elif held <= 4:
            level = 0.6
        elif held <= 7:
            level = 0.3
        else:
            level = 0.15
        worst = max(worst, level)
    return worst


def _codes(cards: Iterable[Card]) -> tuple[tuple[int, ...], int]:
    """The sorted codes of the real cards, and the number of jokers."""
    codes: list[int] = []
    jokers = 0
    for card in cards:
        code = card_code(card)
        if code < 0:
            jokers += 1
        else:
            codes.append(code)
    return tuple(sorted(codes)), jokers


@dataclass(frozen=True, slots=True)
class _Option:
    """One place for the lowest free card: the cards and jokers left after it, the cards still to
    find, the points the meld makes (once complete), the penalty of the cards it leaves at risk."""

    rest: tuple[int, ...]
    jokers: int
    find: float
    points: int
    penalty: int
    complete: bool = False
    lone: bool = False


class HandEvaluator:
    """Prices hands for one decision of one seat (see the module docstring); lower is better."""

    def __init__(self, view: Scala40View, *, danger_weight: float | None = None) -> None:
        assert view.seat is not None
        self.opened = view.opened[view.seat]
        self.jokers_per_meld = view.rules.jokers_per_meld
        if danger_weight is None:
            danger_weight = DANGER_WEIGHT
        self.weight = BASE_DANGER + danger_weight * danger(view)
        seen: Counter[int] = Counter()
        for card in view.hand:
            seen[card_code(card)] += 1
        for meld in view.melds:
            for card in meld.cards:
                seen[card_code(card)] += 1
        # The pozzo: every card in it was seen when discarded, not only its top.
        for card in view.pile:
            seen[card_code(card)] += 1
        codes = [s * 16 + p for s in range(len(SUITS)) for p in range(1, 14)]
        self.unseen = {code: max(0, 2 - seen[code]) for code in codes}
        self.fits: frozenset[int] = frozenset()
        if self.opened and view.melds:
            self.fits = frozenset(
                s * 16 + p
                for s, suit in enumerate(SUITS)
                for p, rank in enumerate(("A", *"23456789", "T", "J", "Q", "K"), start=1)
                if any(attach_ends(m.shape, Card(rank, suit), view.rules) for m in view.melds)
            )
        self.memo: dict[tuple[tuple[int, ...], int], float] = {}
        self.options: dict[tuple[tuple[int, ...], int], list[_Option]] = {}
        # Nearer the elimination score, every point held weighs more (up to 2x more at it).
        ahead = view.scores[view.seat] / max(1, view.elimination)
        self.weight *= 1.0 + SCORE_WEIGHT * max(0.0, ahead - 0.5)

    # -- the public price ------------------------------------------------------------------

    def cost(self, cards: Iterable[Card]) -> float:
        """The cost of holding ``cards`` (see the module docstring)."""
        codes, jokers = _codes(cards)
        return self._best(codes, jokers)

    def without(self, hand: Sequence[Card], card: Card) -> float:
        """The cost of ``hand`` less one copy of ``card``."""
        rest = list(hand)
        rest.remove(card)
        return self.cost(rest)

    # -- the search ------------------------------------------------------------------------

    def _outs(self, *codes: int) -> int:
        return sum(self.unseen.get(code, 0) for code in codes)

    def _partial(self, outs: int) -> float:
        """Cards still to find for a partial meld with ``outs`` unseen completions."""
        if outs <= 0:
            return 2 * LONE
        return 1.0 + OUTS_WEIGHT / outs

    def _pair(
        self, rest: tuple[int, ...], jokers: int, outs: int, points: int, penalty: int
    ) -> _Option:
        """A partial meld of two cards; one nothing can complete makes no points."""
        return _Option(rest, jokers, self._partial(outs), points if outs > 0 else 0, penalty)

    def _options(self, cards: tuple[int, ...], jokers: int) -> list[_Option]:
        """Where the lowest card of ``cards`` can go: lone, a partial meld, a complete meld."""
        first = cards[0]
        rest = cards[1:]
        suit, position = first >> 4, first & 15
        found = self.options.get((cards, jokers))
        if found is not None:
            return found
        lone = 0.0 if first in self.fits else LONE
        pen = _penalty(first)
        found = [_Option(rest, jokers, lone, 3 * _points(position, tris=True), pen, lone=True)]
        if jokers:
            found.append(
                _Option(rest, jokers - 1, JOKER_PARTIAL, 3 * _points(position, tris=True), pen + 25)
            )
        seen_partner: set[int] = set()
        for i, other in enumerate(rest):
            if other in seen_partner or other == first:
                continue
            seen_partner.add(other)
            o_suit, o_pos = other >> 4, other & 15
            after = rest[:i] + rest[i + 1 :]
            pair = pen + _penalty(other)
            if o_pos == position and o_suit != suit:
                outs = self._outs(*(s * 16 + position for s in range(4) if s not in (suit, o_suit)))
                points = 3 * _points(position, tris=True)
                found.append(self._pair(after, jokers, outs, points, pair))
            elif o_suit == suit:
                gap = o_pos - position
                low, high = position, o_pos
                if position == 1 and o_pos >= 12:  # the ace high, under Q or K
                    gap, low, high = 14 - o_pos, o_pos, 14
                if gap == 1:
                    # Either end completes it; position 14 is the ace (code position 1).
                    around = [p for p in (low - 1, high + 1) if 1 <= p <= 14]
                    ends = [suit * 16 + (1 if p == 14 else p) for p in around]
                    points = sum(_points(p) for p in (low, high)) + _points(min(high + 1, 14))
                    found.append(self._pair(after, jokers, self._outs(*ends), points, pair))
                elif gap == 2:
                    middle = suit * 16 + low + 1
                    points = sum(_points(p) for p in (low, low + 1, high))
                    found.append(self._pair(after, jokers, self._outs(middle), points, pair))
        for meld, used_jokers, points in self._melds_with(first, rest, jokers):
            after_list = list(rest)
            for code in meld:
                after_list.remove(code)
            found.append(_Option(tuple(after_list), jokers - used_jokers, 0.0, points, 0, True))
        self.options[cards, jokers] = found
        return found

    def _best(self, cards: tuple[int, ...], jokers: int) -> float:
        """The least cost of a split of the hand (cards still to find, penalty at risk, and
        before the opening the points it makes as a gain)."""
        key = (cards, jokers)
        found = self.memo.get(key)
        if found is not None:
            return found
        if not cards:
            result = jokers * self.weight * 25
            self.memo[key] = result
            return result
        weight = self.weight
        best = math.inf
        for option in self._options(cards, jokers):
            value = option.find + weight * option.penalty
            if not self.opened and not option.lone:
                value -= OPENING_WEIGHT * option.points * (1.0 if option.complete else 0.5)
            best = min(best, value + self._best(option.rest, option.jokers))
        self.memo[key] = best
        return best

    def _melds_with(
        self, first: int, rest: tuple[int, ...], jokers: int
    ) -> list[tuple[tuple[int, ...], int, int]]:
        """Complete melds holding ``first`` and other cards of ``rest``: (the other cards, jokers
        used, points)."""
        suit, position = first >> 4, first & 15
        limit = min(jokers, self.jokers_per_meld)
        found: list[tuple[tuple[int, ...], int, int]] = []
        same_rank = sorted({c for c in rest if c & 15 == position and c >> 4 != suit})
        each = _points(position, tris=True)
        for size in (1, 2, 3):
            for chosen in combinations(same_rank, size):
                for used in range(min(limit, 4 - 1 - size) + 1):
                    if 1 + size + used >= 3:
                        found.append((chosen, used, each * (1 + size + used)))
        in_suit = {c & 15 for c in rest if c >> 4 == suit}
        # Scalas starting at ``first``, jokers filling gaps or the high end ...
        held: list[int] = []
        missing = 0
        points = _points(position)
        for p in range(position + 1, 14):
            if p in in_suit:
                held.append(p)
            else:
                missing += 1
                if missing > limit:
                    break
            points += _points(p)
            if p - position >= 2 and held:
                found.append((tuple(suit * 16 + q for q in held), missing, points))
        if position == 1:
            # ... and, for an ace, those it ends at the high end (Q-K-A, J-Q-K-A, ...).
            for low in range(12, 1, -1):
                held = [p for p in range(low, 14) if p in in_suit]
                missing = 14 - low - len(held)
                if missing > limit:
                    break
                if held:
                    points = sum(_points(p) for p in range(low, 14)) + 11
                    found.append((tuple(suit * 16 + q for q in held), missing, points))
        return found
