"""Scala 40 moves and their short strings (grammar in the package docstring), and move errors."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card, CardParseError, parse_card
from engine.errors import RuleText

__all__ = ["IllegalMove", "Move", "MoveKind", "MoveParseError", "parse_move"]


class MoveParseError(RuleText):
    """A move string that does not follow the grammar; the message says what was expected."""


class IllegalMove(RuleText):
    """A well-formed move that the rules do not allow now; the message is for the player."""


class MoveKind(StrEnum):
    """What a move does; the value is the move string's opening token."""

    DRAW_STOCK = "t"  # pesca dal tallone
    DRAW_PILE = "p"  # prende dal pozzo
    OPEN = "o"  # apertura: one or more melds
    MELD = "m"  # one or more further melds, after opening
    ATTACH = "a"  # attacca a card to a table meld
    SWAP = "s"  # puts the real card in place of a joker and takes the joker
    DISCARD = "d"  # scarto
    REENTER = "in"  # rientro after elimination
    DECLINE = "out"  # stays out


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``melds`` for OPEN/MELD (each in laid order); ``card`` for ATTACH/SWAP/DISCARD;
    ``target`` the table meld number (from 1) for ATTACH/SWAP; ``end`` for ATTACH: "<" the low end
    of a scala, ">" its high end, "" wherever the card fits (the high end when both do)."""

    kind: MoveKind
    melds: tuple[tuple[Card, ...], ...] = ()
    card: Card | None = None
    target: int = 0
    end: str = ""

    def __str__(self) -> str:
        if self.kind in (MoveKind.OPEN, MoveKind.MELD):
            return f"{self.kind} " + " ".join("".join(map(_card_text, m)) for m in self.melds)
        if self.kind in (MoveKind.ATTACH, MoveKind.SWAP):
            assert self.card is not None
            return f"{self.kind}{self.target} {_card_text(self.card)}{self.end}"
        if self.kind is MoveKind.DISCARD:
            assert self.card is not None
            return f"d {_card_text(self.card)}"
        return str(self.kind)

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move a string names (see ``parse_move``)."""
        return parse_move(text)


def _card_text(card: Card) -> str:
    # Rank and suit only: rules never tell the two decks apart, and it keeps buttons short.
    return card.rank + card.suit


_CARD = r"(?:10|[A2-9TJQK])[DCSB]'?|\*'?"
_CARD_RE = re.compile(_CARD, re.IGNORECASE)
_MELD_RE = re.compile(rf"^(?:{_CARD})+$", re.IGNORECASE)
_TARGETED = re.compile(rf"^([as])\s*(\d{{1,3}})\s*[:\s]?\s*({_CARD})\s*([<>]?)$", re.IGNORECASE)
_DISCARD = re.compile(rf"^d\s*({_CARD})$", re.IGNORECASE)
_MELDS = re.compile(r"^([om])\s+(.+)$", re.IGNORECASE)
_SIMPLE = {kind.value: kind for kind in (MoveKind.DRAW_STOCK, MoveKind.DRAW_PILE,
                                         MoveKind.REENTER, MoveKind.DECLINE)}  # fmt: skip
MAX_MOVE_LENGTH = 200


def parse_move(text: str) -> Move:
    """Parse a move string (case-insensitive, spaces around tokens optional where unambiguous).

    Raises ``MoveParseError`` with the expected forms when it does not parse.
    """
    if not isinstance(text, str):
        raise MoveParseError("a move is a string, not {kind}", kind=type(text).__name__)
    raw = text.strip()
    if len(raw) > MAX_MOVE_LENGTH:
        raise MoveParseError("move string too long")
    lowered = raw.lower()
    if lowered in _SIMPLE:
        return Move(_SIMPLE[lowered])
    if match := _DISCARD.match(raw):
        return Move(MoveKind.DISCARD, card=_parse_card(match.group(1)))
    if match := _TARGETED.match(raw):
        kind = MoveKind(match.group(1).lower())
        target = int(match.group(2))
        if target < 1:
            raise MoveParseError("table melds are numbered from 1")
        end = match.group(4)
        if end and kind is MoveKind.SWAP:
            raise MoveParseError("a swap takes no end marker (< or >)")
        return Move(kind, card=_parse_card(match.group(3)), target=target, end=end)
    if match := _MELDS.match(raw):
        kind = MoveKind(match.group(1).lower())
        melds = []
        for chunk in re.split(r"[\s,/|.]+", match.group(2).strip()):
            if not _MELD_RE.match(chunk):
                raise MoveParseError(
                    "cannot read the meld {meld}: write its cards one after the other, "
                    "e.g. 7D8D9D or KCKSKD or 5D*7D",
                    meld=repr(chunk),
                )
            melds.append(tuple(_parse_card(token) for token in _CARD_RE.findall(chunk)))
        return Move(kind, melds=tuple(melds))
    raise MoveParseError(
        "cannot read the move {move}: expected t, p, o <melds>, m <melds>, a<n> <card>[<|>], "
        "s<n> <card>, d <card>, in or out (e.g. 'o 7D8D9D KCKSKD', 'a2 5D', 'd QS')",
        move=repr(raw),
    )


def _parse_card(token: str) -> Card:
    try:
        return parse_card(token)
    except CardParseError as error:
        raise MoveParseError.of(error) from error
