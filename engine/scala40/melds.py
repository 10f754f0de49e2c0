"""Melds (tris, quartetto, scala), their values, attaching, joker swaps and hand penalties.

Glossary: **tris** / **quartetto** = 3 / 4 cards of one rank in different suits; **scala** = 3 or
more consecutive cards of one suit; **jolly** = joker; **attaccare** = attach a card to a meld on
the table.

A meld is given as its cards *in laid order*: a scala ascending, each joker at the position of the
card it stands for (``5D * 7D``: the joker is 6D; ``QD KD *``: the joker is the high ace AD).
In a tris the order does not matter and a joker stands for its rank in a suit the meld lacks
(in a quartetto that is exactly one suit).

Scala positions run 1..14: ace low = 1, 2..10, J = 11, Q = 12, K = 13, ace high = 14; a scala
never holds both (no K-A-2). Values (docs/rules.md): face value, J/Q/K = 10, ace = 1 low in a scala
and 11 in a tris or a high scala; a joker counts as the card it stands for.

Every meld holds at least two real cards (an engine choice that only matters when
``jokers_per_meld`` >= 2): with two real cards the kind of the meld and every joker's card are
determined.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import JOKER, SUITS, Card
from engine.errors import Problem

from .rules import Rules

__all__ = [
    "RANK_ORDER",
    "MeldShape",
    "analyze_meld",
    "attach_ends",
    "attach_options",
    "can_attach",
    "card_penalty",
    "hand_penalty",
    "meld_points",
    "position_points",
    "sort_cards",
    "sort_key",
    "swap_fits",
    "swap_index",
    "swap_position",
    "tris_points",
]

# Rank -> scala position with the ace low.
RANK_ORDER: dict[str, int] = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7,
    "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13,
}  # fmt: skip
POSITION_RANK: dict[int, str] = {pos: rank for rank, pos in RANK_ORDER.items()} | {14: "A"}
TRIS = "tris"
SCALA = "scala"
MAX_RUN = 13
DEFAULT_RULES = Rules()


_POSITION_POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)


def position_points(position: int) -> int:
    """Points of the card at a scala position: low ace 1, high ace 11, J/Q/K 10, else face."""
    return _POSITION_POINTS[position]


def tris_points(rank: str) -> int:
    """Points of one card of a tris/quartetto: ace 11, T/J/Q/K 10, else face."""
    return 11 if rank == "A" else min(RANK_ORDER[rank], 10)


def sort_key(card: Card) -> tuple[int, int, int]:
    """The sorted-hand order: suits D, C, S, B; within a suit A (low) .. K; jokers last; deck."""
    if card.is_joker:
        return (len(SUITS), 0, card.deck)
    return (SUITS.index(card.suit), RANK_ORDER[card.rank], card.deck)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in the sorted-hand order of ``sort_key`` (the order views and UIs show)."""
    return tuple(sorted(cards, key=sort_key))


@dataclass(frozen=True, slots=True)
class MeldShape:
    """A valid meld: ``kind`` ("tris" or "scala"), its cards, what each stands for, its points.

    ``stands_for[i]`` is ``cards[i]`` for a real card, the represented card for a joker; in a tris
    a joker whose suit is open (more missing suits than jokers) stands for ``Card(rank, "")``.
    ``low`` is the first scala position (1..12), 0 for a tris. ``rank`` (a tris) or ``suit``
    (a scala), ``suits`` (the real suits of a tris) and ``jokers`` (their positions) are kept for
    the attach and swap checks, which run often.
    """

    kind: str
    cards: tuple[Card, ...]
    stands_for: tuple[Card, ...]
    points: int
    low: int = 0
    rank: str = ""
    suit: str = ""
    suits: frozenset[str] = frozenset()
    jokers: tuple[int, ...] = ()


def _rules(rules: Rules | None) -> Rules:
    return DEFAULT_RULES if rules is None else rules


def analyze_meld(cards: Sequence[Card], rules: Rules | None = None) -> MeldShape | Problem:
    """The shape of ``cards`` laid in this order, or the reason (a sentence naming the cards,
    a ``str``) it is not a meld."""
    return _analyze(tuple(cards), _rules(rules).jokers_per_meld)


def _label(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _analyze(cards: tuple[Card, ...], limit: int) -> MeldShape | Problem:
    # Each reason is a whole sentence (a template of its own) so that it translates as one.
    if not cards:
        return Problem("nothing is not a meld: a meld needs at least 3 cards")
    if len(cards) < 3:
        return Problem("{cards} is not a meld: a meld needs at least 3 cards", cards=_label(cards))
    real = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(real)
    if jokers > limit:
        if limit == 0:
            return Problem("{cards} is not a meld: a meld may hold no jokers", cards=_label(cards))
        if limit == 1:
            return Problem(
                "{cards} is not a meld: a meld may hold at most 1 joker", cards=_label(cards)
            )
        return Problem(
            "{cards} is not a meld: a meld may hold at most {limit} jokers",
            cards=_label(cards),
            limit=limit,
        )
    if len(real) < 2:
        return Problem(
            "{cards} is not a meld: a meld needs at least two real cards", cards=_label(cards)
        )
    if all(card.rank == real[0].rank for card in real):
        return _tris(cards, real)
    if all(card.suit == real[0].suit for card in real):
        return _scala(cards)
    return Problem(
        "{cards} is not a meld: a tris is one rank, a scala is one suit", cards=_label(cards)
    )


def _tris(cards: tuple[Card, ...], real: list[Card]) -> MeldShape | Problem:
    rank = real[0].rank
    suits = [card.suit for card in real]
    if len(set(suits)) < len(suits):
        twice = next(card for card in real if suits.count(card.suit) > 1)
        return Problem(
            "{cards} is not a meld: a tris needs different suits ({card} twice)",
            cards=_label(cards),
            card=twice,
        )
    if len(cards) > 4:
        return Problem(
            "{cards} is not a meld: a tris or quartetto holds at most 4 cards", cards=_label(cards)
        )
    missing = [suit for suit in SUITS if suit not in suits]
    jokers = len(cards) - len(real)
    open_suits = len(missing) != jokers
    fill = iter(missing)
    stands = tuple(
        (Card(rank, "") if open_suits else Card(rank, next(fill))) if card.is_joker else card
        for card in cards
    )
    return MeldShape(
        TRIS,
        cards,
        stands,
        tris_points(rank) * len(cards),
        rank=rank,
        suits=frozenset(suits),
        jokers=tuple(i for i, card in enumerate(cards) if card.is_joker),
    )


def _scala(cards: tuple[Card, ...]) -> MeldShape | Problem:
    if len(cards) > MAX_RUN:
        return Problem("{cards} is not a meld: a scala holds at most 13 cards", cards=_label(cards))
    has_ace = False
    for ace in (1, 14):
        low: int | None = None
        for index, card in enumerate(cards):
            if card.is_joker:
                continue
            position = RANK_ORDER[card.rank]
            if card.rank == "A":
                has_ace = True
                position = ace
            start = position - index
            if low is None:
                low = start
            elif low != start:
                low = None
                break
        if low is not None and low >= 1 and low + len(cards) - 1 <= 14:
            suit = next(card.suit for card in cards if not card.is_joker)
            stands = tuple(
                Card(POSITION_RANK[low + index], suit) if card.is_joker else card
                for index, card in enumerate(cards)
            )
            points = sum(position_points(low + index) for index in range(len(cards)))
            jokers = tuple(i for i, card in enumerate(cards) if card.is_joker)
            return MeldShape(SCALA, cards, stands, points, low, suit=suit, jokers=jokers)
    if has_ace:
        return Problem(
            "{cards} is not a meld: in a scala the ace is low (A-2-3) or high (Q-K-A), "
            "never K-A-2, and the cards go up one by one",
            cards=_label(cards),
        )
    return Problem(
        "{cards} is not a meld: a scala is laid in ascending order with no gaps",
        cards=_label(cards),
    )


def meld_points(cards: Sequence[Card], rules: Rules | None = None) -> int | None:
    """Points of a meld laid in this order (a joker counts as its card); None if not a meld."""
    shape = analyze_meld(cards, rules)
    return None if isinstance(shape, str) else shape.points


def attach_ends(shape: MeldShape, card: Card, rules: Rules | None = None) -> list[str]:
    """Where ``card`` can join a valid meld: "<" (a scala's low end), ">" (its high end) or ""
    (into a tris); empty when it fits nowhere. Arithmetic on the shape, no re-analysis."""
    size = len(shape.cards)
    joker = card.rank == JOKER
    if joker and len(shape.jokers) >= _rules(rules).jokers_per_meld:
        return []
    if shape.kind == TRIS:
        if size >= 4:
            return []
        if joker:
            return [""]
        return [""] if card.rank == shape.rank and card.suit not in shape.suits else []
    if size >= MAX_RUN or not (joker or card.suit == shape.suit):
        return []
    low, high = shape.low, shape.low + size - 1
    suit = shape.suit
    ends = []
    if low > 1 and (joker or (card.suit == suit and _fits(card.rank, low - 1))):
        ends.append("<")
    if high < 14 and (joker or (card.suit == suit and _fits(card.rank, high + 1))):
        ends.append(">")
    return ends


def _fits(rank: str, position: int) -> bool:
    return RANK_ORDER[rank] == position or (rank == "A" and position == 14)


def attach_options(
    meld_cards: Sequence[Card], card: Card, rules: Rules | None = None
) -> list[tuple[str, tuple[Card, ...]]]:
    """Where ``card`` can join the meld: ``(end, new_cards)`` with end "<" (a scala's low end),
    ">" (its high end) or "" (into a tris). Empty when it fits nowhere or the meld is invalid."""
    meld_cards = tuple(meld_cards)
    shape = analyze_meld(meld_cards, rules)
    if isinstance(shape, str):
        return []
    return [
        (end, (card, *meld_cards) if end == "<" else (*meld_cards, card))
        for end in attach_ends(shape, card, rules)
    ]


def can_attach(meld_cards: Sequence[Card], card: Card, rules: Rules | None = None) -> bool:
    """Whether ``card`` can be attached to the meld: at either end of a scala, or into a tris."""
    return bool(attach_options(meld_cards, card, rules))


def swap_position(
    meld_cards: Sequence[Card], card: Card, rules: Rules | None = None
) -> int | Problem:
    """The index of the joker that ``card`` (its exact card) may replace, or the reason it may not.

    In a scala a joker is replaced only by the very card it stands for; in a tris by its rank in a
    suit the meld lacks (in a quartetto, the single missing suit).
    """
    shape = analyze_meld(tuple(meld_cards), rules)
    if isinstance(shape, str):
        return shape
    return swap_index(shape, card)


def swap_fits(shape: MeldShape, card: Card) -> int | None:
    """The index of the joker ``card`` may replace in an analysed meld, else None (no reason)."""
    jokers = shape.jokers
    if not jokers or card.rank == JOKER:
        return None
    if shape.kind == TRIS:
        if card.rank == shape.rank and card.suit not in shape.suits:
            return jokers[0]
        return None
    for index in jokers:
        if shape.stands_for[index] == card:
            return index
    return None


def swap_index(shape: MeldShape, card: Card) -> int | Problem:
    """``swap_position`` on an analysed meld."""
    found = swap_fits(shape, card)
    if found is not None:
        return found
    jokers = shape.jokers
    if card.rank == JOKER:
        return Problem("a joker is swapped for a real card, not for another joker")
    label = _label(shape.cards)
    if not jokers:
        return Problem("{meld} holds no joker", meld=label)
    if shape.kind == TRIS:
        wanted = "/".join(f"{shape.rank}{suit}" for suit in SUITS if suit not in shape.suits)
    else:
        wanted = "/".join(str(shape.stands_for[index]) for index in jokers)
    return Problem(
        "the joker in {meld} stands for {wanted}, not {card}", meld=label, wanted=wanted, card=card
    )


def card_penalty(card: Card, *, alone: bool = False) -> int:
    """What one card left in hand pays: joker 25, ace 11 (1 when alone), J/Q/K/T 10, else face."""
    if card.rank == JOKER:
        return 25
    if card.rank == "A":
        return 1 if alone else 11
    return min(RANK_ORDER[card.rank], 10)


def hand_penalty(cards: Sequence[Card], rules: Rules | None = None) -> int:
    """The penalty of the cards still held when someone closes (docs/rules.md "Closing and
    scoring").

    ``rules`` is accepted for symmetry with the other helpers; options that change what a hand
    pays (``unopened_pays``, ``close_in_hand``) depend on the game and are applied by it.
    """
    cards = tuple(cards)
    alone = len(cards) == 1
    return sum(card_penalty(card, alone=alone) for card in cards)
