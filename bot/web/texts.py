"""The page's own words, and every card's accessible name, from the chat's catalogs
(``GET /api/texts?locale=it``): the page writes no text of its own but these and the server's."""

from __future__ import annotations

from typing import TypedDict

from bot.render import GAME_NAMES, LEVEL_NAMES, N_, Renderer
from engine.cards import FRENCH_RANKS, ITALIAN_RANKS, SUITS

__all__ = ["PAGE_TEXTS", "page_texts"]

PAGE_TEXTS: dict[str, str] = {
    "your_turn": N_("Your turn"),
    "turn_of": N_("{name} to play"),
    "spectator": N_("You are watching"),
    "connecting": N_("Connecting…"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "signed_out": N_("Open the table again from the chat to sign in."),
    "stock": N_("Stock"),
    "pile": N_("Discard pile"),
    "table": N_("Table"),
    "hand": N_("Your hand"),
    "captured": N_("Captured"),
    "new_game": N_("New game"),
    "players": N_("Players"),
    "level": N_("Computer level"),
    "play": N_("Play"),
    "clear": N_("Clear selection"),
    "choose_capture": N_("Choose what to take"),
    "log": N_("What happened"),
    "score": N_("Score"),
    "game_over": N_("Game over"),
    "connected": N_("at the table"),
    "no_table": N_("No table is open for you here."),
    "rate": N_("Too many requests: wait a moment."),
    "cards_selected": N_("Cards selected: {count}"),
    "back": N_("Card back"),
    "drew": N_("You drew {card}."),
}

ITALIAN_RANK_NAMES = {"A": N_("Ace"), "J": N_("Jack"), "Q": N_("Knight"), "K": N_("King")}
FRENCH_RANK_NAMES = {
    "A": N_("Ace"),
    "T": "10",
    "J": N_("Jack"),
    "Q": N_("Queen"),
    "K": N_("King"),
}
ITALIAN_SUITS = {"D": N_("coins"), "C": N_("cups"), "S": N_("swords"), "B": N_("batons")}
FRENCH_SUITS = {"D": N_("diamonds"), "C": N_("hearts"), "S": N_("spades"), "B": N_("clubs")}
CARD_NAME = N_("{rank} of {suit}")
JOKER = N_("Joker")


class PageTexts(TypedDict):
    locale: str
    texts: dict[str, str]
    games: dict[str, str]
    levels: dict[str, str]
    cards: dict[str, dict[str, str]]


def page_texts(renderer: Renderer, locale: str) -> PageTexts:
    """``{"locale", "texts", "games", "levels", "cards": {"italian": {...}, "french": {...}}}``
    in ``locale``; card codes as the engine writes them (``7D``, ``TD``, ``*``)."""
    t = renderer.translations(locale)
    _ = t.gettext

    def names(
        ranks: tuple[str, ...], rank_names: dict[str, str], suits: dict[str, str]
    ) -> dict[str, str]:
        out = {}
        for suit in SUITS:
            for rank in ranks:
                spoken = _(rank_names[rank]) if rank in rank_names else rank
                out[rank + suit] = _(CARD_NAME).format(rank=spoken, suit=_(suits[suit]))
        return out

    french = names(FRENCH_RANKS, FRENCH_RANK_NAMES, FRENCH_SUITS)
    french["*"] = _(JOKER)
    return {
        "locale": locale,
        "texts": {key: _(text) for key, text in PAGE_TEXTS.items()},
        "games": {game: _(name) for game, name in GAME_NAMES.items()},
        "levels": {level: _(name) for level, name in LEVEL_NAMES.items()},
        "cards": {
            "italian": names(ITALIAN_RANKS, ITALIAN_RANK_NAMES, ITALIAN_SUITS),
            "french": french,
        },
    }
