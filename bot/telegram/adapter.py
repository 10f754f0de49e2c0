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

from bot.render import Renderer
from bot.service import TableService
from bot.telegram.buttons import HEALED, Buttons, Press
from bot.telegram.commands import Commands, leaderboard_family
from bot.telegram.delivery import Delivery
from bot.telegram.handling import (
    PICKER_PREFIX,
    QUICK_GAME,
    QUICK_LEVEL,
    STYLE_PREFIX,
    Handling,
    parse_table_args,
    user_ref,
    where_of_message,
)
from bot.telegram.inline import InlinePlay

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


class TelegramAdapter:
    """The handlers; every dependency comes in through the constructor.

    Composed: the shared ground (``Handling``) is given to the commands and the button presses.
    """

    def __init__(
        self,
        *,
        service: TableService,
        renderer: Renderer,
        delivery: Delivery,
        inline: InlinePlay | None = None,
    ) -> None:
        self._ground = Handling(
            service=service, renderer=renderer, delivery=delivery, inline=inline
        )
        self.commands = Commands(self._ground)
        self.buttons = Buttons(self._ground)

    def install(self, application: Application) -> None:  # type: ignore[type-arg]
        """Register the handlers on ``application``."""
        commands, inline = self.commands, self._ground.inline
        add = application.add_handler
        add(CommandHandler("start", commands.on_start))
        add(CommandHandler("play", commands.on_play))
        # One command per game kind of the service (/scopa, /scala40...).
        add(CommandHandler(list(self._ground.service.registry.names), commands.on_game))
        add(CommandHandler("new", commands.on_new))
        add(CommandHandler("leaderboard", commands.on_leaderboard))
        add(CommandHandler("stats", commands.on_stats))
        add(CommandHandler("rules", commands.on_rules))
        add(CommandHandler("abandon", commands.on_abandon))
        add(CommandHandler("leave", commands.on_leave))
        add(CommandHandler("kick", commands.on_kick))
        add(CommandHandler("lang", commands.on_lang))
        add(CommandHandler("help", commands.on_help))
        add(CommandHandler("style", commands.on_style))
        add(CommandHandler("settings", commands.on_settings))
        add(CallbackQueryHandler(self.buttons.on_button))
        add(MessageHandler(filters.StatusUpdate.MIGRATE, commands.on_migrate))
        # Group 1 runs beside the commands: every group message the bot sees moves the table
        # message further up (with privacy mode on, Telegram only shows it some of them).
        add(MessageHandler(filters.ChatType.GROUPS, commands.on_chatter), group=1)
        if inline is not None:
            add(CommandHandler("notify", inline.on_notify))
            add(InlineQueryHandler(inline.on_inline_query))
            add(ChosenInlineResultHandler(inline.on_chosen))
            # Group 2: a move posted "via @bot" is also chatter (group 1) first.
            add(MessageHandler(filters.VIA_BOT, inline.on_via_message), group=2)
