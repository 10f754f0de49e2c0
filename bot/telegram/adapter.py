"""Telegram updates -> service calls; service results -> Telegram messages.

The adapter knows no rules and writes no game text: it turns a command or a button press into one
``TableService`` call and hands each event of the result to ``Delivery``, which renders it with
``bot.render`` and puts it in the right place (edited in place where it already shows).

Its handlers, one module each: ``bot.telegram.commands`` (commands), ``bot.telegram.buttons``
(button presses), on the shared ground of ``bot.telegram.handling``; inline play is
``bot.telegram.inline``.
"""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from bot.telegram.buttons import HEALED, Buttons, Press
from bot.telegram.commands import Commands, leaderboard_family
from bot.telegram.handling import (
    PICKER_PREFIX,
    QUICK_GAME,
    QUICK_LEVEL,
    STYLE_PREFIX,
    parse_table_args,
    user_ref,
    where_of_message,
)

__all__ = [
    "HEALED",
    "PICKER_PREFIX",
    "QUICK_GAME",
    "QUICK_LEVEL",
    "STYLE_PREFIX",
    "Press",
    "TelegramAdapter",
    "leaderboard_family",
    "parse_table_args",
    "user_ref",
    "where_of_message",
]


class TelegramAdapter(Commands, Buttons):
    """The handlers; every dependency comes in through the constructor."""

    def install(self, application: Application) -> None:  # type: ignore[type-arg]
        """Register the handlers on ``application``."""
        add = application.add_handler
        add(CommandHandler("start", self.on_start))
        add(CommandHandler("play", self.on_play))
        # One command per game kind of the service (/scopa, /scala40...).
        add(CommandHandler(list(self._service.registry.names), self.on_game))
        add(CommandHandler("new", self.on_new))
        add(CommandHandler("leaderboard", self.on_leaderboard))
        add(CommandHandler("stats", self.on_stats))
        add(CommandHandler("rules", self.on_rules))
        add(CommandHandler("abandon", self.on_abandon))
        add(CommandHandler("leave", self.on_leave))
        add(CommandHandler("kick", self.on_kick))
        add(CommandHandler("lang", self.on_lang))
        add(CommandHandler("help", self.on_help))
        add(CommandHandler("style", self.on_style))
        add(CommandHandler("settings", self.on_settings))
        add(CallbackQueryHandler(self.on_button))
        add(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        # Group 1 runs beside the commands: every group message the bot sees moves the table
        # message further up (with privacy mode on, Telegram only shows it some of them).
        add(MessageHandler(filters.ChatType.GROUPS, self.on_chatter), group=1)
        if self._inline is not None:
            add(CommandHandler("notify", self._inline.on_notify))
            add(InlineQueryHandler(self._inline.on_inline_query))
            add(ChosenInlineResultHandler(self._inline.on_chosen))
            # Group 2: a move posted "via @bot" is also chatter (group 1) first.
            add(MessageHandler(filters.VIA_BOT, self._inline.on_via_message), group=2)
