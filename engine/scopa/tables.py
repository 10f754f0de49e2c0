"""Precomputed, immutable tables over the 40-card Italian deck.

A card is an index ``0..39`` = ``suit * 10 + rank`` (suits D, C, S, B; ranks A, 2..7, J, Q, K),
and a set of cards is a 40-bit mask. Everything here is built once at import and never changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import ITALIAN_RANKS, SUITS, Card, italian_deck

CARDS: tuple[Card, ...] = italian_deck()
INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
FULL_MASK = (1 << 40) - 1

# Capture value: A=1, 2..7 face, J=8, Q=9, K=10 (docs/rules.md "Values").
VALUE: tuple[int, ...] = tuple(r + 1 for _ in SUITS for r in range(len(ITALIAN_RANKS)))
# Primiera value: 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, J/Q/K=10 (docs/rules.md "Values").
PRIMIERA_BY_RANK: tuple[int, ...] = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
PRIMIERA: tuple[int, ...] = tuple(PRIMIERA_BY_RANK[i % 10] for i in range(40))

SUIT_MASK: tuple[int, ...] = tuple(0x3FF << (10 * s) for s in range(4))
DENARI_MASK = SUIT_MASK[0]
SETTEBELLO = INDEX[Card("7", "D")]
RE_BELLO = INDEX[Card("K", "D")]
KING_MASK = sum(1 << (10 * s + 9) for s in range(4))
# Masks of the cards of each capture value 1..10 (index 0 unused).
VALUE_MASK: tuple[int, ...] = (
    0,
    *(sum(1 << (10 * s + v - 1) for s in range(4)) for v in range(1, 11)),
)

# Best primiera value among the cards of one suit, by that suit's 10-bit slice (0 = suit missing).
PRIMIERA_BEST: tuple[int, ...] = tuple(
    max((PRIMIERA_BY_RANK[r] for r in range(10) if slice_ >> r & 1), default=0)
    for slice_ in range(1024)
)


def _partitions(total: int, smallest: int) -> list[list[int]]:
    """Multisets of values >= ``smallest`` (each <= 10) summing to ``total``, as sorted lists."""
    if total == 0:
        return [[]]
    found: list[list[int]] = []
    for value in range(smallest, min(total, 10) + 1):
        for rest in _partitions(total - value, value):
            found.append([value, *rest])
    return found


def _sum_sets(total: int, *, min_parts: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For a target sum: the value multisets with at least ``min_parts`` cards, as
    ((value, count), ...), at most 4 cards of a value (there are four suits)."""
    result = []
    for parts in _partitions(total, 1):
        if len(parts) < min_parts:
            continue
        counts = tuple((v, parts.count(v)) for v in sorted(set(parts)))
        if all(c <= 4 for _, c in counts):
            result.append(counts)
    return tuple(result)


# SUM_SETS[v]: ways to make v from two or more table cards (presa dispari).
SUM_SETS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = (
    (),
    *(_sum_sets(v, min_parts=2) for v in range(1, 11)),
)
# FIFTEEN_SETS[v]: ways to make 15 - v from one or more table cards (option scopa_a_15).
FIFTEEN_SETS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = (
    (),
    *(_sum_sets(15 - v, min_parts=1) for v in range(1, 11)),
)


def _need(way: tuple[tuple[int, int], ...]) -> int:
    """Rank bits (bit v-1 for value v) a value multiset needs on the table."""
    return sum(1 << (v - 1) for v, _ in way)


# SUM_WAYS_BY_PRESENCE[v][p]: the presa dispari ways for value v whose values are all present,
# where p has bit w-1 set when the table holds a card of value w < v (larger values never fit).
# Ways that need two or more cards of one value still have that count checked at capture time.
SUM_WAYS_BY_PRESENCE: tuple[tuple[tuple[tuple[tuple[int, int], ...], ...], ...], ...] = (
    (),
    *(
        tuple(
            tuple(way for way in SUM_SETS[v] if _need(way) & ~present == 0)
            for present in range(1 << (v - 1))
        )
        for v in range(1, 11)
    ),
)


def mask_of(cards: Iterable[Card]) -> int:
    """Mask of an iterable of Italian-deck cards (duplicates and foreign cards raise ValueError)."""
    mask = 0
    for card in cards:
        i = INDEX.get(card)
        if i is None:
            raise ValueError(f"{card} is not a card of the Italian 40-card deck")
        if mask >> i & 1:
            raise ValueError(f"{card} appears twice")
        mask |= 1 << i
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in deck order (suit by suit, ace to king)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def indices_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
