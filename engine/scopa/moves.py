"""Scopa-family moves: the move value, its string notation, and the two errors a move can raise.

Glossary: **presa** = capture; **fuori** = declaring the game won during play (FIGS art. 16).

Move strings: ``"7D"`` plays the 7 of denari and leaves it on the table; ``"7D:3C+4S"`` plays it
capturing the 3 of coppe and the 4 of spade (capture cards in any order); a trailing ``"!"``
(``"7D!"``, ``"7D:3C+4S!"``) also declares fuori.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import Card, CardParseError, parse_card, parse_cards
from engine.errors import RuleText
from engine.scopa.tables import INDEX

__all__ = ["IllegalMove", "Move", "MoveParseError", "card_order"]


class MoveParseError(RuleText):
    """A move string that is not in the move notation."""


class IllegalMove(RuleText):
    """A well-formed move that the rules do not allow now; the message says why."""


class Move(NamedTuple):
    """Play ``card``, capturing ``capture`` (empty: the card stays), optionally declaring fuori.

    A named tuple: moves are built by the thousand per second, and tuples are the cheapest
    immutable values Python has.
    """

    card: Card
    capture: frozenset[Card] = frozenset()
    fuori: bool = False

    def __str__(self) -> str:
        text = str(self.card)
        if self.capture:
            text += ":" + "+".join(str(c) for c in sorted(self.capture, key=card_order))
        return text + ("!" if self.fuori else "")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``"7D"``, ``"7D:3C+4S"``, ``"7D:3C+4S!"``; raises MoveParseError."""
        if not isinstance(text, str):
            raise MoveParseError("not a move: {move}", move=repr(text))
        body = text.strip()
        fuori = body.endswith("!")
        if fuori:
            body = body[:-1]
        card_text, sep, capture_text = body.partition(":")
        try:
            card = parse_card(card_text)
            capture = parse_cards(capture_text.replace("+", " ")) if sep else ()
        except CardParseError as exc:
            raise MoveParseError(
                "not a move: {move} (not a card: {card})",
                move=repr(text.strip()),
                card=exc.params.get("card", ""),
            ) from None
        if sep and not capture:
            raise MoveParseError("not a move: {move} (nothing after ':')", move=repr(text.strip()))
        if len(set(capture)) != len(capture):
            raise MoveParseError(
                "not a move: {move} (a card is named twice)", move=repr(text.strip())
            )
        return cls(card, frozenset(capture), fuori)


def card_order(card: Card) -> int:
    return INDEX.get(card, 99)
