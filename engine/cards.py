"""Cards, suits, ranks, decks and the text notation of docs/rules.md.

Glossary (Italian terms used across the engine):

* **denari** (D, quadri ♦), **coppe** (C, cuori ♥), **spade** (S, picche ♠),
  **bastoni** (B, fiori ♣): the four suits; one letter serves the Italian and the French deck.
* **Asso** (A), **Fante** (J, the 8), **Cavallo** (Q, the 9; "Donna" on some decks),
  **Re** (K, the 10).
* **jolly** (``*``): the joker of the French deck (Scala 40 only).

Notation: one card is rank + suit, e.g. ``7D``, ``KC``, ``AS``, ``JB``; the French deck adds
``8 9 T`` (``T`` = 10) and the joker ``*``. Where two French decks are in play the deck index may
follow as apostrophes (``7D'`` is the copy from the second deck); it is kept for display but two
cards of the same rank and suit compare equal, as every rule compares rank and suit only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import RuleText

__all__ = [
    "FRENCH_RANKS",
    "ITALIAN_RANKS",
    "JOKER",
    "SUITS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "french_deck",
    "italian_deck",
    "parse_card",
    "parse_cards",
]


class Suit(StrEnum):
    """The four suits, by the Italian correspondence of FIGS art. 2."""

    DENARI = "D"
    COPPE = "C"
    SPADE = "S"
    BASTONI = "B"


class Rank(StrEnum):
    """Every rank of either deck (see ``ITALIAN_RANKS`` and ``FRENCH_RANKS``)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "*"


SUITS: tuple[str, ...] = ("D", "C", "S", "B")
ITALIAN_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
FRENCH_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
JOKER = "*"


class CardParseError(RuleText):
    """A card string that is not in the notation; the message names the bad token (``card``)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``rank`` in ``Rank``, ``suit`` in ``Suit`` ("" for the joker).

    ``deck`` (0 or 1) tells the two French decks apart for display only; it takes no part in
    equality or hashing.
    """

    rank: str
    suit: str
    deck: int = field(default=0, compare=False)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}" + "'" * self.deck

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_TOKEN = re.compile(r"^(10|[A2-9TJQK])([DCSB])('*)$|^\*('*)$")
_SEPARATORS = re.compile(r"[\s,]+")


def parse_card(text: str) -> Card:
    """Parse one card, e.g. ``"7D"``, ``"KC"``, ``"TD'"``, ``"*"``; case-insensitive.

    Raises ``CardParseError`` naming the token when it is not a card.
    """
    if not isinstance(text, str):
        raise CardParseError("not a card: {card}", card=repr(text))
    token = text.strip()
    match = _TOKEN.match(token.upper())
    if match is None:
        raise CardParseError("not a card: {card}", card=repr(token))
    rank, suit, marks, joker_marks = match.groups()
    deck = len(marks if rank is not None else joker_marks)
    if deck > 1:
        raise CardParseError("not a card: {card} (the deck index is 0 or 1)", card=repr(token))
    if rank is None:
        return Card(JOKER, "", deck)
    return Card("T" if rank == "10" else rank, suit, deck)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces and/or commas: ``"7D 3C, KS"`` -> three cards."""
    if not isinstance(text, str):
        raise CardParseError("not a list of cards: {cards}", cards=repr(text))
    return tuple(parse_card(token) for token in _SEPARATORS.split(text.strip()) if token)


def italian_deck() -> tuple[Card, ...]:
    """The 40-card Italian deck, suit by suit (D, C, S, B), ranks A..K within a suit."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in ITALIAN_RANKS)


def french_deck(deck: int = 0) -> tuple[Card, ...]:
    """One 54-card French deck: 52 cards suit by suit, then its two jokers."""
    cards = [Card(rank, suit, deck) for suit in SUITS for rank in FRENCH_RANKS]
    cards += [Card(JOKER, "", deck), Card(JOKER, "", deck)]
    return tuple(cards)
