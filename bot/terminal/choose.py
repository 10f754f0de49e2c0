"""A typed line to a move string: the number of a listed move, the move as the menu shows it,
its short form (Scala 40: ``d 7♦``, ``a3 10♦``), or the cards alone, with the suit symbols or the
letters of the player's language; else it says why the line names no move."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.render import BRISCOLA_FAMILIES, SCALA40_KINDS, move_text
from bot.render.typed import TypedMove, read_typed, suit_help
from bot.service import HandView

from .console import Console
from .layout import columns

__all__ = ["MoveChooser"]

# Scala 40 move heads (engine notation) and, per kind, the move it makes with cards alone.
_SCALA40_HEADS = ("t", "p", "o", "m", "a", "s", "d", "in", "out")
_ARROWS = re.compile(r"➜|→|->|=>")
_OUTLINE = str.maketrans({"♢": "♦", "♡": "♥", "♤": "♠", "♧": "♣", "\ufe0f": None})


class MoveChooser:
    """Reading the player's move, given the session's ``Console`` (where it says why a line
    names no move, in the player's language)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    @property
    def _locale(self) -> str:
        return self.console.locale

    def _(self, text: str) -> str:
        return self.console.translate(text)

    def say(self, text: str) -> None:
        self.console.say(text)

    def _label(self, family: str, move: str) -> str:
        return self.console.label(family, move)

    def choose(
        self,
        line: str,
        moves: list[str],
        labels: list[str],
        family: str,
        hand: HandView | None = None,
    ) -> str | None:
        """The move string a typed line names, or None after saying why it names none."""
        count = len(moves)
        number = line.rstrip(").")
        if number.isdigit():
            if 1 <= int(number) <= count:
                return moves[int(number) - 1]
            self.say(self._("Choose a number from 1 to {count}.").format(count=count))
            return None
        key = _key(line)
        same = [m for m, label in zip(moves, labels, strict=True) if _key(label) == key]
        if len(same) == 1:
            return same[0]  # typed as the menu shows it
        if family in BRISCOLA_FAMILIES:
            # A move by its word or label (pass, swap, call 3D, "Passo"), else a card as below.
            by_name = (
                {m.lower(): m for m in moves}
                | {lb.split(" (", 1)[0].lower(): m for m, lb in zip(moves, labels, strict=True)}
                | {lb.lower(): m for m, lb in zip(moves, labels, strict=True)}
            )  # "Knight (Q)": by its word too
            if line.strip().lower() in by_name:
                return by_name[line.strip().lower()]
        typed = read_typed(line, self._locale)
        calling = family in BRISCOLA_FAMILIES and any(m.startswith("call ") for m in moves)
        if calling and typed.cards is not None and len(typed.cards) == 1:
            # Chiamata's call: the card alone names it (2♠ for "Call 2♠"); a card of another
            # rank is refused by the engine with the rank to call.
            return f"call {typed.cards[0]}"
        if family == "scala40":
            return self._scala40_move(line, typed, moves, hand)
        return self._card_move(line, typed, moves)

    def _card_move(self, line: str, typed: TypedMove, moves: list[str]) -> str | None:
        """A move of the card games (Scopa): the card played, then what it takes if given."""
        if typed.cards is None:
            self._unknown(line, len(moves))
            return None
        found = _card_moves(typed, moves)
        if not found and typed.other is not None and _card_moves(typed.other, moves):
            self._ambiguous(line, _card_moves(typed.other, moves), moves, "scopa")
            return None
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            self._several(move_text(typed.cards[0]), found, moves, "scopa")
            return None
        # Not a legal move: the service says why (not in your hand, must take...).
        return (
            ":".join([typed.cards[0], "+".join(typed.cards[1:])])
            if typed.cards[1:]
            else typed.cards[0]
        )

    def _scala40_move(
        self, line: str, typed: TypedMove, moves: list[str], hand: HandView | None
    ) -> str | None:
        """A Scala 40 move: its short form (``d 7♦``), a kind's word (``discard 7♦``,
        ``scarta 7♦``), or cards alone, which name the one listed move made of them."""
        words = typed.text.split(" ")
        head = self._scala40_head(words[0])
        if typed.cards is not None:
            found = _scala40_moves_of(typed, moves)
            other = _scala40_moves_of(typed.other, moves) if typed.other is not None else []
            if not found and other:
                self._ambiguous(line, other, moves, "scala40")
                return None
            if len(found) == 1:
                return found[0]
            shown = " ".join(words)
            if len(found) > 1:
                self._several(line.strip()[:40], found, moves, "scala40")
                return None
            # Not a listed move: the engine says why (draw first, not 40 points...).
            if len(typed.cards) == 1 and len(words) == 1:
                return f"d {shown}"
            opened = getattr(hand.view, "opened", None) if hand is not None else None
            seat = hand.seat if hand is not None else None
            has_opened = bool(opened and seat is not None and opened[seat])
            return f"{'m' if has_opened else 'o'} {shown}"
        rest = " ".join(words[1:])
        if head is None or (rest and read_typed(rest, self._locale).cards is None):
            self._unknown(line, len(moves))  # a word that is no move, or no card after it
            return None
        move = " ".join([head, *words[1:]])
        listed = {m.lower(): m for m in moves}
        if move.lower() in listed:
            return listed[move.lower()]
        if typed.other is not None:
            other_words = typed.other.text.split(" ")
            other_move = " ".join([head, *other_words[1:]]).lower()
            if other_move in listed:
                self._ambiguous(line, [listed[other_move]], moves, "scala40")
                return None
        return move  # the engine says what is wrong with it, if anything

    def _scala40_head(self, word: str) -> str | None:
        """The engine's head of a Scala 40 move from the typed first word: the short form
        (``d``, ``a3``), or the first word of a kind's name in the player's language or English
        (``discard``, ``scarta``, ``draw``, ``pesca``)."""
        low = word.lower()
        for h in _SCALA40_HEADS:
            if low == h or (h in "as" and low[:1] == h and low[1:].isdigit()):
                return low
        for kind, name in SCALA40_KINDS.items():
            if kind in ("a", "s"):
                continue  # they need a meld's number: the short form, or the menu's text
            for text in (name, self._(name)):
                first = text.split(" ", 1)[0].lower()
                if low == first:
                    return kind
        return None

    def _numbered(self, choices: Sequence[str], moves: Sequence[str], family: str) -> str:
        return "  ".join(
            f"{moves.index(c) + 1}) {self._label(family, c)}"
            if c in moves
            else self._label(family, c)
            for c in choices
        )

    def _several(self, what: str, found: list[str], moves: list[str], family: str) -> None:
        self.say(
            self._(
                "{card} can be played in different ways: type the number of your choice."
            ).format(card=what)
        )
        items = [f"{moves.index(c) + 1}) {self._label(family, c)}" for c in found if c in moves]
        for row in columns(items, self.console.width() - 1):
            self.say(row)

    def _unknown(self, line: str, count: int) -> None:
        self.say(
            self._(
                "“{text}” is not a move. Type a number from 1 to {count}, or a card as it is "
                "shown (7♦, or with letters: {letters}); h for help."
            ).format(text=line[:40], count=count, letters=suit_help(self._locale))
        )

    def _ambiguous(self, line: str, choices: list[str], moves: list[str], family: str) -> None:
        self.say(
            self._(
                "In this language C means {suit}, and “{text}” is not a move that way. Did you "
                "mean: {choices}? Type it with the symbol, as shown."
            ).format(
                suit="♣" if not self._locale.startswith("it") else "♥",
                text=line[:40],
                choices=self._numbered(choices, moves, family),
            )
        )


def _key(text: str) -> str:
    """A menu label or a typed line, for comparing: no case, spacing, arrows or punctuation."""
    text = _ARROWS.sub(" ", text.translate(_OUTLINE)).casefold()
    return re.sub(r"[\s:,;+]+", "", text)


def _card_moves(typed: TypedMove, moves: Sequence[str]) -> list[str]:
    """The legal moves a typed line of cards names: the card played, and what it takes when
    given (in any order)."""
    if not typed.cards:
        return []
    played, taken = typed.cards[0], sorted(typed.cards[1:])
    found = []
    for move in moves:
        core = move.rstrip("!")
        card, _, took = core.partition(":")
        if card.rstrip("'") != played:
            continue
        if taken and sorted(c.rstrip("'") for c in took.split("+") if c) != taken:
            continue
        found.append(move)
    return found


def _scala40_moves_of(typed: TypedMove | None, moves: Sequence[str]) -> list[str]:
    """The listed Scala 40 moves made of exactly the typed cards (as laid: melds, attach,
    swap, discard), whatever their kind."""
    if typed is None or typed.cards is None:
        return []
    body = typed.text.upper()
    return [m for m in moves if " " in m and m.split(" ", 1)[1].upper() == body]
