"""Card points and who takes a trick (docs/rules.md "Briscola", "Cards, values, order").

Glossary: **briscola** = the trump suit of a deal (and the face-up card that shows it);
**carico** = a loaded card, the Asso or the 3 (11 and 10 points); **liscio** = a card worth nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import ITALIAN_RANKS, SUITS, Card, parse_card

__all__ = [
    "POINTS",
    "RANK_ORDER",
    "STRENGTH",
    "TOTAL_POINTS",
    "card_points",
    "trick_winner",
]

# Trick strength within a suit, high to low; also the order of the chiamata auction.
RANK_ORDER: tuple[str, ...] = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")
# rank -> strength, 10 for the Asso down to 1 for the 2.
STRENGTH: dict[str, int] = {rank: 10 - i for i, rank in enumerate(RANK_ORDER)}
POINTS: dict[str, int] = {
    "A": 11,
    "3": 10,
    "K": 4,
    "Q": 3,
    "J": 2,
    "7": 0,
    "6": 0,
    "5": 0,
    "4": 0,
    "2": 0,
}
TOTAL_POINTS = 120  # the whole deck (the 2 taken out at 3 players is worth nothing)

assert set(RANK_ORDER) == set(ITALIAN_RANKS)
assert sum(POINTS.values()) * len(SUITS) == TOTAL_POINTS


def _card(card: Card | str) -> Card:
    if isinstance(card, str):
        card = parse_card(card)
    if card.rank not in POINTS or card.suit not in SUITS:
        raise ValueError(f"{card} is not a card of the Italian 40-card deck")
    return card


def card_points(cards: Iterable[Card | str]) -> int:
    """The card points of ``cards`` (A 11, 3 10, K 4, Q 3, J 2, the rest 0); cards may be
    ``Card`` values or their strings (``"AS"``)."""
    return sum(POINTS[_card(c).rank] for c in cards)


def trick_winner(cards_in_play_order: Sequence[Card | str], briscola_suit: str) -> int:
    """The index (in play order) of the card that takes the trick: the highest briscola in it,
    else the highest card of the suit led. There is no duty to follow suit, so a card of another
    suit that is not briscola never takes the trick."""
    cards = [_card(c) for c in cards_in_play_order]
    if not cards:
        raise ValueError("a trick holds at least one card")
    suit = str(briscola_suit).strip().upper()
    if suit not in SUITS:
        raise ValueError(f"the briscola suit is one of {', '.join(SUITS)}, not {briscola_suit!r}")
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], suit):
            best = i
    return best


def beats(card: Card, best: Card, briscola_suit: str) -> bool:
    """Whether ``card``, played after ``best`` (the card taking the trick so far), takes it."""
    if card.suit == best.suit:
        return STRENGTH[card.rank] > STRENGTH[best.rank]
    return card.suit == briscola_suit
