"""Interactions -> ``TableService`` calls; the service's events -> Discord messages.

Where each event goes (its ``audience`` says chat or user):
* the table (``LobbyView``/``TableView`` for the chat): one channel message per table, edited in
  place; it is the slash command's own reply at first, and is re-learned from any press on it
  (after a restart too);
* other chat events (announcements, summaries, game over, leaderboards): new channel messages;
* a player's hand (``HandView``): one hand message per player and table (``bot.discord.hands``),
  edited in place as the game goes on, also after other players' moves, while Discord lets the
  bot edit it (an ephemeral message: 15 minutes from the last press on it; a DM: always); a new
  one (the old one removed) when the player asks for it, or in DM mode when their turn comes;
* a turn notice for another player: a channel message mentioning only them (``/notify``; none
  against the computer alone), with a "My hand" button, replacing the table's previous notice;
  by DM for players who asked for DMs;
* other events for a user (private views, stats): to the user who is interacting, ephemerally,
  or by DM for users who asked for DMs (``/hand dm:True``); closed DMs fall back to the
  ephemeral path with a hint.

Discord's 3 seconds: a component press is deferred before the service is called (the service
plays the computers' turns before it returns), a table-creating command is deferred too; fast
commands (leaderboard, stats, rules, help, language) answer directly.

No rule and no game text here: the service decides, ``bot.render`` writes.

``ServiceHandler`` is assembled from one module per concern, each a layer over the one before:
``handler_core`` (dependencies, identities, the adapter's state), ``hand_delivery`` (hands and
private messages), ``routing`` (a result to its places), ``presses`` (buttons and menus),
``table_commands`` and ``chat_commands`` (the slash commands); components of rendered messages are
in ``message_views``, a command's deferred reply in ``replies``. Every name that lived here is
still importable from here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.discord.chat_commands import ChatCommands
from bot.discord.handler_core import (
    DM_WISH,
    LANGUAGE_NAMES,
    NOTIFY,
    PLATFORM,
    TABLE_MESSAGE,
    TEXTS,
    TURN_HAND,
    TURN_MESSAGE,
    SlashCall,
    locale_hint,
)
from bot.discord.idmap import MAX_REMEMBERED, FileIdMap, IdMap, MemoryIdMap
from bot.discord.message_views import PICK_CARDS, hand_view, view_of
from bot.discord.presses import OPEN_ACTIONS, Presses

# The tests of the handler's pure parts import it from here.
from bot.discord.routing import latest_table_views as _latest_table_views
from bot.discord.table_commands import DEFER_AFTER, SEATING_OPTIONS, TableCommands
from bot.render import N_
from bot.service import Result

__all__ = [
    "DEFER_AFTER",
    "DM_WISH",
    "LANGUAGE_NAMES",
    "MAX_REMEMBERED",
    "NOTIFY",
    "N_",
    "OPEN_ACTIONS",
    "PICK_CARDS",
    "PLATFORM",
    "SEATING_OPTIONS",
    "TABLE_MESSAGE",
    "TEXTS",
    "TURN_HAND",
    "TURN_MESSAGE",
    "FileIdMap",
    "IdMap",
    "MemoryIdMap",
    "ServiceHandler",
    "SlashCall",
    "_latest_table_views",
    "hand_view",
    "locale_hint",
    "view_of",
]

# A slash command's part: its reply sent already (None), or a service result to deliver.
CommandRun = Callable[[SlashCall], Awaitable[Result | None]]


class ServiceHandler(TableCommands, ChatCommands, Presses):
    """The Discord front end of a :class:`TableService` (implements ``bot.discord.bot.Handler``)."""

    async def command(
        self, interaction: discord.Interaction[Any], name: str, options: Mapping[str, Any]
    ) -> None:
        """Run a slash command (one service use case each)."""
        self._seen(interaction)
        async with self.in_flight.track():
            await self._command(interaction, name, options)

    async def _command(
        self, interaction: discord.Interaction[Any], name: str, options: Mapping[str, Any]
    ) -> None:
        call = SlashCall(interaction, self.chat_of(interaction), self.user_of(interaction), options)
        self._hint_chat(interaction)
        result: Result | None
        if self.service.registry.get(name) is not None:  # a game: open a table
            result = await self._table_command(call, name)
        else:
            run = self._commands().get(name)
            if run is None:
                raise ValueError(f"unknown command {name!r}")
            result = await run(call)
        if result is not None:
            await self.deliver(result, interaction)

    def _commands(self) -> dict[str, CommandRun]:
        return {
            "hand": self._hand_command,
            "leaderboard": self._leaderboard_command,
            "stats": self._stats_command,
            "rules": self._rules_command,
            "lang": self._lang_command,
            "abandon": self._abandon_command,
            "leave": self._leave_command,
            "kick": self._kick_command,
            "notify": self._notify_command,
            "help": self._help_command,
            "style": self._style_command,
            "settings": self._settings_command,
        }
