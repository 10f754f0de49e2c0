"""The few words of Telegram's own screens (command menu, help, the private-chat link).

They are not game text: tables, hands and scores come from ``bot.render``. The English message
ids are marked with ``N_`` so ``pybabel extract -k N_ ... bot/`` puts them in the ``tavolo``
catalogs, and they are translated through the renderer's catalogs like everything else.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence

from bot.render import LOCALES


def N_(message: str) -> str:
    """Marks a string for extraction; translated when shown."""
    return message


# (command, description) in menu order. Group chats get the table commands, private chats /play.
GROUP_COMMANDS: Sequence[tuple[str, str]] = (
    ("scopa", N_("New table of Scopa")),
    ("scopone", N_("New table of Scopone")),
    ("scientifico", N_("New table of Scopone scientifico")),
    ("scala40", N_("New table of Scala 40")),
    ("briscola", N_("New table of Briscola")),
    ("chiamata", N_("New table of Briscola chiamata (5 players)")),
    ("new", N_("New table: choose the game")),
    ("leaderboard", N_("Leaderboard of this chat: /leaderboard season or all")),
    ("stats", N_("Your statistics (reply to a message: that player's)")),
    ("rules", N_("Rules of the open table")),
    ("leave", N_("Leave your game: the computer plays your seat")),
    ("kick", N_("Remove a player (the table's creator or an admin)")),
    ("abandon", N_("Close the open table")),
    ("lang", N_("Language: /lang it or /lang en")),
    ("style", N_("Deck style of the card pictures")),
    ("settings", N_("Settings of this chat")),
    ("notify", N_("Turn mentions: on or off")),
    ("help", N_("How to play")),
)
PRIVATE_COMMANDS: Sequence[tuple[str, str]] = (
    ("play", N_("Quick game against the computer")),
    ("scopa", N_("Scopa against the computer")),
    ("scopone", N_("Scopone against the computer")),
    ("scientifico", N_("Scopone scientifico against the computer")),
    ("scala40", N_("Scala 40 against the computer")),
    ("briscola", N_("Briscola against the computer")),
    ("chiamata", N_("Briscola chiamata against the computer")),
    ("stats", N_("Your statistics")),
    ("leaderboard", N_("Global leaderboard: /leaderboard season or all")),
    ("lang", N_("Language: /lang it or /lang en")),
    ("style", N_("Deck style of the card pictures")),
    ("settings", N_("Settings of this chat")),
    ("notify", N_("Turn mentions: on or off")),
    ("help", N_("How to play")),
)

HELP = N_(
    "Tavolo: Scopa, Scopone, Scala 40, Briscola and Briscola chiamata.\n"
    "In a group: /scopa, /scopone, /scala40, /briscola or /chiamata opens a table; join with "
    "the buttons, the creator starts. Your cards come in a private chat with me.\n"
    "In a private chat: /play for a quick game against the computer.\n"
    "/leave leaves your game (the computer plays your seat), /kick removes a player.\n"
    "/leaderboard season|all, /stats, /rules, /abandon, /settings, /lang it|en."
)
OPEN_PRIVATE_CHAT = N_(
    "{name}: I cannot write to you privately yet. Tap the button to open our chat: your cards "
    "arrive there at once."
)
OPEN_PRIVATE_BUTTON = N_("Get my cards")
CHOOSE_GAME = N_("Which game?")
LANGUAGE_SET = N_("Language set: English.")
NO_HAND = N_("You have no cards at that table.")
USE_IN_GROUP = N_("This command works in a group.")


def menu(
    commands: Sequence[tuple[str, str]], translations: dict[str, gettext.NullTranslations]
) -> dict[str, list[tuple[str, str]]]:
    """The command menu in every language, for ``setMyCommands``."""
    return {
        code: [(name, translations[code].gettext(text)) for name, text in commands]
        for code in LOCALES
        if code in translations
    }
