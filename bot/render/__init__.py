"""Service events -> text and buttons, in Italian or English; shared by every adapter.

Usage in an adapter::

    from bot.render import Renderer
    renderer = Renderer()                     # one per process (the composition root makes it)
    for event in result.events:
        message = renderer.render(event)      # Message(text, buttons)
        # message.text: plain text (no markup), at most 2000 characters (Discord's limit)
        # message.buttons: rows (<= 5) of Button(label, data) (<= 5 per row); data is
        # "<table>:<version>:<action>" (<= 64 bytes): hand it back to TableService.press()
    if result.refusal: alert = renderer.refusal(result.refusal)

Around the game: ``renderer.commands(locale)`` (command, description) pairs for
``setMyCommands`` / slash commands, ``renderer.help(locale)``, ``renderer.notice(key, locale)``
(``NOTICES``: deep-link and closed-DM hints...), ``renderer.game_label(game, locale)``,
``renderer.level_label(level, locale)``.

Pictures: ``bot.render.pictures.Pictures`` maps the same events (table, hand, stats) to the
scenes of ``bot.render.images`` and draws them off the event loop; the text stays the caption.
Scala 40 card selection: a hand rendered with ``focus="#<hex mask>"`` shows a button per card
(tapping toggles it) and the moves the selected cards make (``selection_of`` reads the mask).

Cards are shown with suit symbols (``7♦``); the locale is the event's own (resolved by the
service). Private hands only ever appear in ``HandView`` messages, which go to one user.

Inside: ``bot.render.texts`` holds the words every game shares and the text helpers,
``bot.render.renderer`` the shared :class:`Renderer` and its dispatch by family, and one module
per family writes that family's messages: ``bot.render.scopa``, ``bot.render.scala40``,
``bot.render.briscola`` (Briscola and chiamata) and ``bot.render.generic`` (any other game),
with the kit the renderer hands it (``bot.render.kit``).
Every name below stays importable from ``bot.render``.
"""

from __future__ import annotations

from bot.render.i18n import LOCALES
from bot.render.renderer import FAMILIES, FamilyRenderer, Renderer, family_renderer
from bot.render.scala40 import (
    SCALA40_KINDS,
    SELECT,
    move_cards,
    plain_card,
    scala40_move_text,
    selection_of,
)
from bot.render.texts import (
    ALERT_LIMIT,
    BRISCOLA_FAMILIES,
    COMMANDS,
    GAME_NAMES,
    HELP,
    LEVEL_NAMES,
    MAX_PER_ROW,
    MAX_ROWS,
    MAX_TEXT,
    N_,
    NOTICES,
    POINT_KEYS,
    POINT_NAMES,
    QUIT,
    REFUSAL_TEXTS,
    SUIT_SYMBOLS,
    Button,
    Message,
    card_text,
    cards_text,
    move_text,
    sides_of,
)

__all__ = [
    "ALERT_LIMIT",
    "BRISCOLA_FAMILIES",
    "COMMANDS",
    "FAMILIES",
    "GAME_NAMES",
    "HELP",
    "LEVEL_NAMES",
    "LOCALES",
    "MAX_PER_ROW",
    "MAX_ROWS",
    "MAX_TEXT",
    "NOTICES",
    "N_",
    "POINT_KEYS",
    "POINT_NAMES",
    "QUIT",
    "REFUSAL_TEXTS",
    "SCALA40_KINDS",
    "SELECT",
    "SUIT_SYMBOLS",
    "Button",
    "FamilyRenderer",
    "Message",
    "Renderer",
    "card_text",
    "cards_text",
    "family_renderer",
    "move_cards",
    "move_text",
    "plain_card",
    "scala40_move_text",
    "selection_of",
    "sides_of",
]
