"""Deck styles: which cards a style draws, its colours and its corner labels.

Glossary: *napoletane* and *piacentine* are two regional Italian 40-card decks (Spanish-type
suits: denari = coins, coppe = cups, spade = swords, bastoni = clubs/cudgels); *francesi* are
French-suited cards (quadri ♦, cuori ♥, picche ♠, fiori ♣). The figures are Fante (J), Cavallo
(Q, a knight on horseback) and Re (K); French decks have Jack, Queen and King.

Every style here is drawn by this package from vector shapes; nothing is copied from a real deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from engine.cards import FRENCH_RANKS, ITALIAN_RANKS, JOKER, SUITS, Card

__all__ = [
    "DEFAULT_FRENCH_STYLE",
    "DEFAULT_ITALIAN_STYLE",
    "STYLES",
    "DeckStyle",
    "get_style",
    "style_names",
]

Rgb = tuple[int, int, int]
DeckKind = Literal["italian", "french"]


def _rgb(hex_colour: str) -> Rgb:
    value = int(hex_colour.lstrip("#"), 16)
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


@dataclass(frozen=True, slots=True)
class DeckStyle:
    """One way of drawing cards.

    ``deck`` says which cards exist: ``"italian"`` draws the 40-card deck only, ``"french"`` draws
    all 54 French cards (and so also the 40-card subset used by Scopa with French cards).
    ``symbols`` names the suit shapes ("napoletane", "piacentine" or "french").
    """

    name: str
    title: str
    deck: DeckKind
    symbols: str
    face: Rgb
    border: Rgb
    frame: Rgb | None
    ink: Mapping[str, Rgb]
    back: tuple[Rgb, Rgb]
    labels: Mapping[str, str]

    def ranks(self) -> tuple[str, ...]:
        return ITALIAN_RANKS if self.deck == "italian" else FRENCH_RANKS

    def cards(self) -> tuple[Card, ...]:
        """Every distinct face this style can draw (jokers once per deck index colour)."""
        faces = [Card(rank, suit) for suit in SUITS for rank in self.ranks()]
        if self.deck == "french":
            faces += [Card(JOKER, "", 0), Card(JOKER, "", 1)]
        return tuple(faces)

    def check(self, card: Card) -> None:
        """Raise ``ValueError`` when this style cannot draw ``card``."""
        if not isinstance(card, Card):
            raise ValueError(f"not a card: {card!r}")
        if card.is_joker:
            if self.deck != "french":
                raise ValueError(
                    f"style {self.name!r} draws the Italian 40-card deck: no joker; "
                    f"French styles: {', '.join(style_names('french'))}"
                )
            return
        if card.suit not in SUITS or card.rank not in self.ranks():
            raise ValueError(
                f"style {self.name!r} has no card {str(card)!r} "
                f"(ranks {' '.join(self.ranks())}, suits {' '.join(SUITS)})"
            )

    def label(self, card: Card) -> str:
        return self.labels.get(card.rank, card.rank)


_ITALIAN_INK = MappingProxyType(
    {"D": _rgb("#a86400"), "C": _rgb("#c62828"), "S": _rgb("#1d4fa0"), "B": _rgb("#2e7d32")}
)
_ITALIAN_LABELS = MappingProxyType({"J": "F", "Q": "C", "K": "R"})
_FRENCH_LABELS = MappingProxyType({"T": "10"})

STYLES: Mapping[str, DeckStyle] = MappingProxyType(
    {
        style.name: style
        for style in (
            DeckStyle(
                name="napoletane",
                title="Napoletane",
                deck="italian",
                symbols="napoletane",
                face=_rgb("#fbf5e6"),
                border=_rgb("#4a3b2a"),
                frame=None,
                ink=_ITALIAN_INK,
                back=(_rgb("#a3201d"), _rgb("#e8b640")),
                labels=_ITALIAN_LABELS,
            ),
            DeckStyle(
                name="piacentine",
                title="Piacentine",
                deck="italian",
                symbols="piacentine",
                face=_rgb("#ffffff"),
                border=_rgb("#222222"),
                frame=_rgb("#c9302c"),
                ink=MappingProxyType(
                    {
                        "D": _rgb("#8a5a00"),
                        "C": _rgb("#b3261e"),
                        "S": _rgb("#1a3f8a"),
                        "B": _rgb("#5d3a1a"),
                    }
                ),
                back=(_rgb("#1f3d7a"), _rgb("#d9e3f5")),
                labels=_ITALIAN_LABELS,
            ),
            DeckStyle(
                name="francesi",
                title="Francesi",
                deck="french",
                symbols="french",
                face=_rgb("#ffffff"),
                border=_rgb("#333333"),
                frame=None,
                ink=MappingProxyType(
                    {
                        "D": _rgb("#d42020"),
                        "C": _rgb("#d42020"),
                        "S": _rgb("#161616"),
                        "B": _rgb("#161616"),
                    }
                ),
                back=(_rgb("#1f4e9c"), _rgb("#ffffff")),
                labels=_FRENCH_LABELS,
            ),
            DeckStyle(
                name="francesi4",
                title="Francesi, quattro colori",
                deck="french",
                symbols="french",
                face=_rgb("#ffffff"),
                border=_rgb("#333333"),
                frame=None,
                ink=MappingProxyType(
                    {
                        "D": _rgb("#1565c0"),
                        "C": _rgb("#d42020"),
                        "S": _rgb("#161616"),
                        "B": _rgb("#2e7d32"),
                    }
                ),
                back=(_rgb("#2e7d32"), _rgb("#ffffff")),
                labels=_FRENCH_LABELS,
            ),
        )
    }
)

DEFAULT_ITALIAN_STYLE = "napoletane"
DEFAULT_FRENCH_STYLE = "francesi"


def style_names(deck: DeckKind | None = None) -> tuple[str, ...]:
    """Names of the styles that can draw ``deck`` (all when ``None``).

    ``"italian"`` (the 40-card deck of Scopa and Scopone) is drawn by every style, the French
    styles included (quadri, cuori, picche, fiori); ``"french"`` (54 cards, Scala 40) only by the
    French styles.
    """
    return tuple(
        name
        for name, style in STYLES.items()
        if deck is None or deck == "italian" or style.deck == "french"
    )


def get_style(name: str) -> DeckStyle:
    """The style called ``name``; ``ValueError`` listing the names when there is none."""
    try:
        return STYLES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown card style {name!r}; styles: {', '.join(style_names())}"
        ) from None
