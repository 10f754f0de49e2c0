"""How a game's moves read as inline results, in the renderer's words for the table's family.

The inline answers know no game family: the line above a hand's moves (the table's cards,
Briscola's trick, Scala 40's discard pile), a move's title, the card a move plays (its picture
stands for the result when the card has one move) and whether cards are better picked one by
one in the private hand (Scala 40's melds) all come from the family's renderer in ``bot.render``
(``moves_line``, ``move_label``, ``played_card``, ``PICKS_CARDS``), as every adapter writes them.
"""

from __future__ import annotations

import gettext

from bot.render import FamilyRenderer, family_renderer


def first_token(move: str) -> str:
    """The card a move starts with (``"7D:3C+4S"`` -> ``"7D"``), or its first word."""
    return move.rstrip("!").split(":", 1)[0]


class FamilyMoves:
    """The moves of one game family as inline results read them."""

    def __init__(self, family: str) -> None:
        self.family = family
        self._words: FamilyRenderer = family_renderer(family)

    @property
    def picks_in_private(self) -> bool:
        """Whether cards are picked one by one in the private hand (a header links there)."""
        return self._words.PICKS_CARDS

    def context(self, view: object, t: gettext.NullTranslations) -> str:
        """The line under every result: what the moves are about."""
        return self._words.moves_line(view, t)

    def title(self, move: str, t: gettext.NullTranslations) -> str:
        """The move in words, as the family's buttons write it."""
        return self._words.move_label(move, t)

    def played(self, move: str) -> str | None:
        """The card the move plays, when it plays one (its picture may stand for it)."""
        return self._words.played_card(move)


def moves_of(family: str) -> FamilyMoves:
    """How the moves of a game family read."""
    return FamilyMoves(family)
