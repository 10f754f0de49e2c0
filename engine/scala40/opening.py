"""The opening helper: the melds worth the most points that a hand can lay down (apertura).

The search is an exact dynamic programme over "which cards are still free":

* the hand is reduced to its distinct real cards (each held once or twice, two decks) and a count
  of jokers; every meld the hand could ever form is listed once up front (a tris/quartetto: a set
  of suits of one rank plus jokers; a scala: an interval of positions of one suit, each position
  a real card or a joker);
* the lowest free card is then either left in hand or laid in one of the listed melds that holds
  it, and the best completion of each state is memoised.

A state is two bit masks over at most 15 distinct cards plus the jokers left, so the work is
bounded by (states reached) x (melds per card), whatever the hand; ``benchmarks/engine_scala40.py``
prints the worst time over 10,000 random 14-card hands with 2 jokers and over crafted worst cases.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import Card

from .melds import MAX_RUN, RANK_ORDER, position_points, sort_cards, sort_key, tris_points
from .rules import Rules

__all__ = ["Opening", "best_opening", "find_opening", "hand_melds"]

DEFAULT_RULES = Rules()
JOKER_SLOT = -1
JOKER_MAX = 11  # a joker is worth at most a high ace
MAX_SEARCH_CARDS = 20
_Result = tuple[int, int, tuple[tuple[int, ...], ...]]


@dataclass(frozen=True, slots=True)
class Opening:
    """Melds (each in laid order), their total points, and the cards left in hand (sorted)."""

    melds: tuple[tuple[Card, ...], ...]
    points: int
    rest: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class _Candidate:
    mask: int  # distinct real cards used, one bit per type
    jokers: int
    points: int
    layout: tuple[int, ...]  # laid order: type index, or JOKER_SLOT


class _Hand:
    """A hand reduced to distinct real cards (types), copies per type, and its jokers."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = tuple(cards)
        self.jokers = [card for card in self.cards if card.is_joker]
        by_type: dict[tuple[str, str], list[Card]] = {}
        for card in sorted((c for c in self.cards if not c.is_joker), key=sort_key):
            by_type.setdefault((card.rank, card.suit), []).append(card)
        self.types = list(by_type)
        self.copies = [by_type[key] for key in self.types]
        self.index = {key: i for i, key in enumerate(self.types)}

    def candidates(self, rules: Rules, *, jokers_anywhere: bool) -> list[_Candidate]:
        """Every meld the hand can form. With ``jokers_anywhere`` a joker may also stand in for
        a card the hand holds (so that card can serve another meld)."""
        limit = min(rules.jokers_per_meld, len(self.jokers))
        by_rank: dict[str, list[int]] = {}
        by_suit: dict[str, dict[int, int]] = {}
        for i, (rank, suit) in enumerate(self.types):
            by_rank.setdefault(rank, []).append(i)
            positions = by_suit.setdefault(suit, {})
            positions[RANK_ORDER[rank]] = i
            if rank == "A":
                positions[14] = i
        found = _tris(by_rank, limit)
        found += _runs(by_suit, limit, jokers_anywhere=jokers_anywhere)
        return found

    def lay(self, layouts: Iterable[tuple[int, ...]]) -> tuple[tuple[Card, ...], ...]:
        """Turn layouts into melds of this hand's own card objects (copies handed out in order)."""
        used = [0] * len(self.types)
        jokers = iter(self.jokers)
        melds = []
        for layout in layouts:
            meld = []
            for slot in layout:
                if slot == JOKER_SLOT:
                    meld.append(next(jokers))
                else:
                    meld.append(self.copies[slot][used[slot]])
                    used[slot] += 1
            melds.append(tuple(meld))
        return tuple(melds)


def _tris(by_rank: dict[str, list[int]], limit: int) -> list[_Candidate]:
    """The tris (and poker) of ``Hand.candidates``: 3-4 cards of a rank, up to ``limit`` jokers."""
    found: list[_Candidate] = []
    for rank, members in by_rank.items():
        for size in (2, 3, 4):
            for chosen in combinations(members, size):
                for jokers in range(limit + 1):
                    total = size + jokers
                    if 3 <= total <= 4:
                        mask = _mask(chosen)
                        layout = (*chosen, *([JOKER_SLOT] * jokers))
                        found.append(_Candidate(mask, jokers, tris_points(rank) * total, layout))
    return found


def _runs(
    by_suit: dict[str, dict[int, int]], limit: int, *, jokers_anywhere: bool
) -> list[_Candidate]:
    """The runs of ``Hand.candidates``: up to ``limit`` jokers for missing cards, and with
    ``jokers_anywhere`` the jokers left also standing in for cards the hand holds."""
    found: list[_Candidate] = []
    for positions in by_suit.values():
        for low in range(1, 13):
            present: list[int] = []
            missing = 0
            points = 0
            for high in range(low, min(low + MAX_RUN - 1, 14) + 1):
                points += position_points(high)
                if high in positions:
                    present.append(high)
                else:
                    missing += 1
                    if missing > limit:
                        break
                if high - low < 2 or len(present) < 2:
                    continue
                spare = limit - missing if jokers_anywhere else 0
                for drop in range(min(spare, len(present) - 2) + 1):
                    for dropped in combinations(present, drop):
                        layout = tuple(
                            positions[pos]
                            if pos in positions and pos not in dropped
                            else JOKER_SLOT
                            for pos in range(low, high + 1)
                        )
                        mask = _mask(positions[pos] for pos in present if pos not in dropped)
                        found.append(_Candidate(mask, missing + drop, points, layout))
    return found


def _mask(indices: Iterable[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def find_opening(
    hand: Sequence[Card],
    rules: Rules | None = None,
    *,
    pile_card: Card | None = None,
    min_left: int = 0,
) -> Opening | None:
    """The melds worth the most points (then using the most cards) that reach
    ``rules.opening_points``, or None.

    With ``pile_card`` the hand also holds that card (the pozzo's top) and the opening must use it.
    ``min_left``: at least this many cards must stay in hand (the game asks for 2 in the first
    round, when nobody may close yet).
    """
    rules = DEFAULT_RULES if rules is None else rules
    cards = tuple(hand) if pile_card is None else (*hand, pile_card)
    if len(cards) > MAX_SEARCH_CARDS:
        # A hand holds at most 14 cards (15 with the pozzo's); the bound keeps the search's
        # worst case bounded even on a corrupt saved game.
        raise ValueError(
            f"{len(cards)} cards is not a Scala 40 hand (the search takes at most "
            f"{MAX_SEARCH_CARDS})"
        )
    reduced = _Hand(cards)
    candidates = reduced.candidates(rules, jokers_anywhere=True)
    per_type: list[list[_Candidate]] = [[] for _ in reduced.types]
    for candidate in sorted(candidates, key=lambda c: -c.points):
        low_bit = candidate.mask & -candidate.mask
        per_type[low_bit.bit_length() - 1].append(candidate)
    has1 = (1 << len(reduced.types)) - 1
    has2 = _mask(i for i, copies in enumerate(reduced.copies) if len(copies) > 1)
    need = -1  # see _Search: -1 nothing to use, -2 a joker, else the pozzo card's type
    if pile_card is not None:
        need = -2 if pile_card.is_joker else reduced.index[pile_card.rank, pile_card.suit]
    values = [11 if rank == "A" else min(RANK_ORDER[rank], 10) for rank, _ in reduced.types]
    search = _Search(per_type, min_left=min_left, need=need, values=values)
    result = search.best(has1, has2, len(reduced.jokers), 0, need != -1)
    if result is None or result[0] < rules.opening_points or not result[2]:
        return None
    points, _, layouts = result
    melds = reduced.lay(layouts)
    rest = list(cards)
    for meld in melds:
        for card in meld:
            rest.remove(card)
    return Opening(melds, points, sort_cards(rest))


class _Search:
    """The memoised search of ``find_opening``; see the module docstring.

    ``need`` names what the opening must use: -1 nothing, -2 a joker (the pozzo's top was a
    joker), else the type index of the pozzo's card; the state's ``need`` flag says it is still
    unmet.
    """

    def __init__(
        self,
        per_type: list[list[_Candidate]],
        *,
        min_left: int,
        need: int,
        values: list[int],
    ) -> None:
        self.per_type = per_type
        self.min_left = min_left
        self.need = need
        self.values = values  # the most each card can be worth in a meld
        self.memo: dict[tuple[int, int, int, int, bool], _Result | None] = {}
        self.worth: dict[int, int] = {}

    def bound(self, mask: int) -> int:
        """The most the cards of ``mask`` can add (each at its highest meld value)."""
        total = self.worth.get(mask)
        if total is None:
            total = 0
            rest = mask
            while rest:
                bit = rest & -rest
                total += self.values[bit.bit_length() - 1]
                rest ^= bit
            self.worth[mask] = total
        return total

    def best(self, has1: int, has2: int, jokers: int, skipped: int, need: bool) -> _Result | None:
        """(points, cards used, layouts) of the best completion, None when none is allowed."""
        key = (has1, has2, jokers, skipped, need)
        if key in self.memo:
            return self.memo[key]
        if has1 == 0:
            done = not need and skipped + jokers >= self.min_left
            result: _Result | None = (0, 0, ()) if done else None
            self.memo[key] = result
            return result
        low_bit = has1 & -has1
        low = low_bit.bit_length() - 1
        best: _Result | None = None
        # Leave one copy of the lowest free card in hand (never the last copy of a card that
        # must be laid).
        if has2 & low_bit:
            best = self.best(has1, has2 & ~low_bit, jokers, min(skipped + 1, self.min_left), need)
        elif not (need and self.need == low):
            best = self.best(has1 & ~low_bit, has2, jokers, min(skipped + 1, self.min_left), need)
        for candidate in self.per_type[low]:
            if candidate.mask & ~has1 or candidate.jokers > jokers:
                continue
            mask = candidate.mask
            after1, after2 = (has1 & ~mask) | (has2 & mask), has2 & ~mask
            left_jokers = jokers - candidate.jokers
            # Within this state only: a candidate that cannot beat the best found here is skipped
            # (the memoised value of the state stays exact).
            if (
                best is not None
                and candidate.points
                + self.bound(after1)
                + self.bound(after2)
                + JOKER_MAX * left_jokers
                < best[0]
            ):
                continue
            met = (self.need >= 0 and mask >> self.need & 1) or (
                self.need == -2 and candidate.jokers > 0
            )
            rest = self.best(after1, after2, left_jokers, skipped, need and not met)
            if rest is None:
                continue
            value = (candidate.points + rest[0], len(candidate.layout) + rest[1])
            if best is None or value > best[:2]:
                best = (value[0], value[1], (candidate.layout, *rest[2]))
        self.memo[key] = best
        return best


def best_opening(
    hand: Sequence[Card], rules: Rules | None = None, *, pile_card: Card | None = None
) -> list[tuple[Card, ...]] | None:
    """The best set of melds by points that reaches the opening points, or None.

    Each meld is in laid order (a scala ascending, a joker at its card's position). With
    ``pile_card`` (the pozzo's top) the melds come from the hand plus that card and must use it.
    ``find_opening`` also returns the points and the cards left in hand.
    """
    opening = find_opening(hand, rules, pile_card=pile_card)
    return None if opening is None else list(opening.melds)


def hand_melds(hand: Sequence[Card], rules: Rules | None = None) -> list[tuple[Card, ...]]:
    """Every distinct meld the hand can lay (jokers only where the hand lacks the card), each in
    laid order: what an opened player may lay next."""
    rules = DEFAULT_RULES if rules is None else rules
    reduced = _Hand(hand)
    seen: set[str] = set()
    melds: list[tuple[Card, ...]] = []
    for candidate in reduced.candidates(rules, jokers_anywhere=False):
        (meld,) = reduced.lay([candidate.layout])
        text = "".join(card.rank + card.suit for card in meld)
        if text not in seen:
            seen.add(text)
            melds.append(meld)
    return melds
