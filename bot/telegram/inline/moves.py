"""How each game's moves read as inline results: Scopa (and Scopone), Scala 40, Briscola.

The inline answers know game families only here: the line above a hand's moves (the table's
cards, Briscola's trick, Scala 40's discard pile) and the card a move plays (its picture stands
for the result when the card has one move). A move's title and whether cards are better picked
one by one in the private hand (Scala 40's melds) are the renderer's (``bot.render``'s
``move_label`` and ``PICKS_CARDS`` of the family), as every adapter writes them.
"""

from __future__ import annotations

import gettext
from typing import Any

from bot.render import BRISCOLA_FAMILIES, card_text, cards_text, family_renderer
from bot.telegram.inline.base import TEXTS
from engine.cards import parse_card


def first_token(move: str) -> str:
    """The card a move starts with (``"7D:3C+4S"`` -> ``"7D"``), or its first word."""
    return move.rstrip("!").split(":", 1)[0]


class ScopaMoves:
    """Scopa and its variants: a card, and the cards it captures ("7♦ ➜ 3♣ 4♠")."""

    def __init__(self, family: str = "scopa") -> None:
        self.family = family

    @property
    def picks_in_private(self) -> bool:
        """Whether cards are picked one by one in the private hand (a header links there): the
        renderer says which hands are played so (``Renderer.picks_cards``)."""
        return family_renderer(self.family).PICKS_CARDS

    def context(self, view: Any, t: gettext.NullTranslations) -> str:
        """The line under every result: what the moves are about."""
        return _text(t, "table").format(cards=cards_text(view.table))

    def title(self, move: str, t: gettext.NullTranslations) -> str:
        """The move in the renderer's words (its family's buttons write it the same)."""
        return family_renderer(self.family).move_label(move, t)

    def played(self, move: str) -> str | None:
        """The card the move plays, when it plays one (its picture may stand for it)."""
        return first_token(move)


class BriscolaMoves(ScopaMoves):
    """Briscola and Briscola chiamata: a card to the trick, or a word (the swap, a bid, the
    call)."""

    def context(self, view: Any, t: gettext.NullTranslations) -> str:
        # The cards of the trick in play (the table of Briscola).
        trick = [card for _seat, card in getattr(view, "trick", ())]
        return _text(t, "table").format(cards=cards_text(trick))

    def played(self, move: str) -> str | None:
        played = first_token(move)
        return played if _is_card(played) else None  # the swap, bids and call are words


class Scala40Moves(ScopaMoves):
    """Scala 40: draws, melds, lay-offs and discards, from the private hand's menu."""

    def context(self, view: Any, t: gettext.NullTranslations) -> str:
        top = card_text(view.pile_top) if view.pile_top is not None else "—"
        return _text(t, "pile").format(card=top)

    def played(self, move: str) -> str | None:
        return None


def moves_of(family: str) -> ScopaMoves:
    """How the moves of a game family read."""
    if family == "scala40":
        return Scala40Moves(family)
    if family in BRISCOLA_FAMILIES:
        return BriscolaMoves(family)
    return ScopaMoves(family)


def _text(t: gettext.NullTranslations, key: str) -> str:
    """One of inline play's texts, translated."""
    return t.gettext(TEXTS[key])


def _is_card(text: str | None) -> bool:
    """Whether a move string is one card (``AS``), as Briscola's card moves are."""
    if text is None:
        return False
    try:
        parse_card(text)
    except ValueError:
        return False
    return True
