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

``ServiceHandler`` is composed of one object per concern, each given the parts it uses (no
part inherits another): ``handler_core.HandlerCore`` (dependencies, identities, the adapter's
state), ``hand_delivery.HandDelivery`` (hands and private messages; given the core),
``routing.EventRouting`` (a result to its places; given the core and the hand delivery),
``presses.Presses`` (buttons and menus), and the slash commands' cogs (discord.py's
``commands.Cog``, each holding its ``@app_commands.command`` methods; given the core and the
routing): ``game_commands.GameCommands``, ``table_commands.TableCommands`` and
``chat_commands.ChatCommands``, which ``TavoloBot`` adds to its tree (``command_cogs``).
Components of rendered messages are in ``message_views``, a command's deferred reply in
``replies``. Every name that lived here is still importable from here, and the core's attributes
the app and the tests use are properties of the handler.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import discord
from discord.ext import commands

from bot.discord.activity import CoalescedEdits
from bot.discord.chat_commands import ChatCommands
from bot.discord.components import ComponentAction
from bot.discord.game_commands import DEFER_AFTER, SEATING_OPTIONS, GameCommands
from bot.discord.hand_delivery import HandDelivery
from bot.discord.handler_core import (
    DM_WISH,
    LANGUAGE_NAMES,
    NOTIFY,
    PLATFORM,
    TABLE_MESSAGE,
    TEXTS,
    TURN_HAND,
    TURN_MESSAGE,
    HandlerCore,
    SlashCall,
    locale_hint,
)
from bot.discord.hands import LiveHands
from bot.discord.idmap import MAX_REMEMBERED, FileIdMap, IdMap, MemoryIdMap
from bot.discord.inflight import InFlight
from bot.discord.interaction import Interaction
from bot.discord.message_views import PICK_CARDS, hand_view, view_of
from bot.discord.presses import OPEN_VERBS, Presses

# The tests of the handler's pure parts import it from here.
from bot.discord.routing import EventRouting
from bot.discord.routing import latest_table_views as _latest_table_views
from bot.discord.settings_menu import SettingsMenu
from bot.discord.table_commands import TableCommands
from bot.render import N_, Renderer
from bot.render.pictures import Pictures
from bot.service import Result, TableService
from bot.service.ports import AdapterState
from bot.service.presence import Presence

__all__ = [
    "DEFER_AFTER",
    "DM_WISH",
    "LANGUAGE_NAMES",
    "MAX_REMEMBERED",
    "NOTIFY",
    "N_",
    "OPEN_VERBS",
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


class ServiceHandler:
    """The Discord front end of a :class:`TableService` (implements ``bot.discord.bot.Handler``),
    composed of its parts, each given what it needs: the ``core`` (dependencies and the
    adapter's state), the hand delivery, the event ``routing``, the slash commands' cogs
    (``game_commands``, ``table_commands``, ``chat_commands``) and the ``presses``."""

    def __init__(
        self,
        service: TableService,
        renderer: Renderer,
        *,
        state: AdapterState | None = None,
        pictures: Pictures | None = None,
        clock: Callable[[], float] = time.time,
        presence: Presence | None = None,
    ) -> None:
        self.core = HandlerCore(
            service, renderer, state=state, pictures=pictures, clock=clock, presence=presence
        )
        self.hand_delivery = HandDelivery(self.core)
        self.routing = EventRouting(self.core, self.hand_delivery)
        self.game_commands = GameCommands(self.core, self.routing)
        self.table_commands = TableCommands(self.core, self.routing)
        self.chat_commands = ChatCommands(self.core, self.routing)
        self.presses = Presses(self.core, self.routing)

    # The core's attributes, as they were when the handler was one object.
    @property
    def service(self) -> TableService:
        return self.core.service

    @property
    def renderer(self) -> Renderer:
        return self.core.renderer

    @property
    def pictures(self) -> Pictures | None:
        return self.core.pictures

    @property
    def state(self) -> AdapterState:
        return self.core.state

    @property
    def hands(self) -> LiveHands:
        return self.core.hands

    @property
    def in_flight(self) -> InFlight:
        return self.core.in_flight

    @property
    def settings_menu(self) -> SettingsMenu:
        return self.core.settings_menu

    @property
    def client(self) -> discord.Client | None:
        return self.core.client

    @property
    def presence(self) -> Presence:
        return self.core.presence

    @presence.setter
    def presence(self, presence: Presence) -> None:
        self.core.presence = presence

    @property
    def closing(self) -> bool:
        return self.core.closing

    @closing.setter
    def closing(self, closing: bool) -> None:
        self.core.closing = closing

    @property
    def activity(self) -> bool:
        return self.core.activity

    @activity.setter
    def activity(self, on: bool) -> None:
        self.core.activity = on

    @property
    def table_edits(self) -> CoalescedEdits | None:
        return self.core.table_edits

    @table_edits.setter
    def table_edits(self, edits: CoalescedEdits | None) -> None:
        self.core.table_edits = edits

    def command_cogs(self) -> Sequence[commands.Cog]:
        """The slash commands' cogs, for ``TavoloBot`` to add."""
        return (self.game_commands, self.table_commands, self.chat_commands)

    def bind(self, client: discord.Client) -> None:
        self.core.bind(client)

    async def wants_dm(self, user_id: int) -> bool:
        return await self.core.wants_dm(user_id)

    async def notify_on(self, user_id: int) -> bool:
        return await self.core.notify_on(user_id)

    async def deliver(self, result: Result, interaction: Interaction | None = None) -> None:
        await self.routing.deliver(result, interaction)

    async def may_act(self, interaction: Interaction, action: ComponentAction) -> bool:
        return await self.presses.may_act(interaction, action)

    async def act(
        self, interaction: Interaction, action: ComponentAction, values: Sequence[str]
    ) -> None:
        await self.presses.act(interaction, action, values)

    async def unknown_component(self, interaction: Interaction) -> None:
        await self.presses.unknown_component(interaction)

    async def failed(self, interaction: Interaction, error: Exception) -> None:
        await self.core.failed(interaction, error)
