"""Cards as people type them: the way the screen shows them, or with the suit letters natural in
their language, read into the engine's notation (``engine.cards``: D denari/♦, C coppe/♥,
S spade/♠, B bastoni/♣), which players never have to learn.

* Suit symbols, as shown: ``7♦``, ``10♣``, ``Q♥``; the outline forms ``♢♡♤♧`` and the emoji forms
  too; the joker as shown (``🃏``) or ``*``.
* English letters: H ♥, D ♦, C ♣, S ♠ (hearts, diamonds, clubs, spades).
* Italian letters: D denari ♦, C coppe ♥, S spade ♠, B bastoni ♣ (the Italian deck), and for the
  French deck's names Q quadri ♦, C cuori ♥, F fiori ♣, P picche ♠.
* A letter only one language uses is read in the other too (B ♣ in English, H ♥ in Italian).

The one letter the two languages read differently is C (clubs ♣ in English, coppe/cuori ♥ in
Italian): the player's language decides, and the other reading is kept as ``other`` so a caller
can offer it instead of guessing when the first reading is not a card the player can play.
Ranks are typed as shown (A 2..10 J Q K; ``T`` is 10 and ``1`` the ace too), in either case; in
Italian the figures' initials too: F fante (J), C cavallo (Q), R re (K).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SUIT_LETTERS", "TypedMove", "read_typed", "suit_help"]

_SYMBOLS = {
    "♦": "D",
    "♢": "D",
    "♥": "C",
    "♡": "C",
    "♠": "S",
    "♤": "S",
    "♣": "B",
    "♧": "B",
}
# Letter -> engine suit, per language.
SUIT_LETTERS: dict[str, dict[str, str]] = {
    "en": {"H": "C", "D": "D", "C": "B", "S": "S"},
    "it": {"D": "D", "C": "C", "S": "S", "B": "B", "Q": "D", "F": "B", "P": "S"},
}
# Letters read although the help does not list them: no other reading in that language.
_EXTRA_LETTERS: dict[str, dict[str, str]] = {"en": {"B": "B"}, "it": {"H": "C"}}
# Rank aliases: the ace as 1 everywhere; the Italian figures' initials.
_RANK_ALIASES: dict[str, dict[str, str]] = {
    "en": {"1": "A"},
    "it": {"1": "A", "F": "J", "C": "Q", "R": "K"},
}
_JOKERS = ("🃏", "*", "JOLLY", "JOKER")
_RANK = re.compile(r"(10|[A1-9TJQK])", re.IGNORECASE)
_RANK_IT = re.compile(r"(10|[A1-9TJQKFCR])", re.IGNORECASE)
# Separators people put between cards: spaces, "+", ":", commas and the arrow the menu shows.
_SEPARATORS = re.compile(r"\s*(?:➜|->|→|=>|[+:,;])\s*|\s+")


@dataclass(frozen=True, slots=True)
class TypedMove:
    """A typed line read as engine notation: ``cards`` for a line of cards only (the first is the
    card played, the rest what it takes), else ``None``; ``text`` keeps words as typed (a Scala 40
    move such as ``d 7♦`` becomes ``d 7D``); ``other`` is the same line with C read the other
    language's way, when it held a C."""

    text: str
    cards: tuple[str, ...] | None
    other: TypedMove | None = None


def _language(locale: str | None) -> str:
    return "it" if (locale or "").lower().startswith("it") else "en"


def _read_token(token: str, language: str, letters: dict[str, str]) -> list[str] | None:
    """The cards of one token (``7♦``, ``7D8D9D``, ``K♥K♠🃏``), or None when it is not cards."""
    ranks = _RANK_IT if language == "it" else _RANK
    aliases = _RANK_ALIASES[language]
    token = token.replace("\ufe0f", "")  # emoji presentation selector
    cards: list[str] = []
    i = 0
    while i < len(token):
        rest = token[i:]
        joker = next((j for j in _JOKERS if rest.upper().startswith(j)), None)
        if joker is not None:
            cards.append("*")
            i += len(joker)
            continue
        if rest[0] in "<>":
            cards.append(rest[0])  # a Scala 40 meld's end marker, kept where it stands
            i += 1
            continue
        rank = ranks.match(rest)
        if rank is None or len(rest) <= len(rank.group()):
            return None
        suit_char = rest[len(rank.group())]
        suit = _SYMBOLS.get(suit_char) or letters.get(suit_char.upper())
        if suit is None:
            return None
        value = rank.group().upper()
        value = "T" if value == "10" else aliases.get(value, value)
        cards.append(value + suit)
        i += len(rank.group()) + 1
        while i < len(token) and token[i] == "'":
            i += 1  # a deck mark: the engine compares rank and suit only
    return cards or None


def _read(line: str, language: str) -> TypedMove:
    letters = {**_EXTRA_LETTERS[language], **SUIT_LETTERS[language]}
    tokens = [t for t in _SEPARATORS.split(line.strip()) if t]
    words: list[str] = []
    cards: list[str] = []
    only_cards = bool(tokens)
    for token in tokens:
        read = _read_token(token, language, letters)
        if read is None:
            only_cards = False
            words.append(token)
        else:
            cards.extend(c for c in read if c not in "<>")
            words.append("".join(read))
    return TypedMove(text=" ".join(words), cards=tuple(cards) if only_cards else None)


def read_typed(line: str, locale: str | None) -> TypedMove:
    """Read a typed move or card line in the player's language (see the module docstring)."""
    language = _language(locale)
    first = _read(line, language)
    if not any(ch in "cC" for ch in _card_letters(line)):
        return first
    other_language = "en" if language == "it" else "it"
    other = _read(line, other_language)
    if other == first:
        return first
    return TypedMove(text=first.text, cards=first.cards, other=other)


def _card_letters(line: str) -> str:
    """The suit letters of the card-like tokens of a line (the character after each rank)."""
    return "".join(
        m.group(2) for m in re.finditer(r"(10|[A1-9TJQKFCR])([A-Za-z])", line, re.IGNORECASE)
    )


def suit_help(locale: str | None) -> str:
    """The letters the player's language reads, per suit: ``H ♥  D ♦  C ♣  S ♠``, or with two
    letters for a suit ``D/Q ♦  C ♥  S/P ♠  B/F ♣``."""
    symbol = {"D": "♦", "C": "♥", "S": "♠", "B": "♣"}
    by_suit: dict[str, list[str]] = {}
    for letter, suit in SUIT_LETTERS[_language(locale)].items():
        by_suit.setdefault(suit, []).append(letter)
    return "  ".join(f"{'/'.join(letters)} {symbol[suit]}" for suit, letters in by_suit.items())
