"""``TavoloBot``: the ``commands.Bot`` subclass everything hangs on, with its dependencies injected.

After discord.py's ``examples/advanced_startup.py``: the constructor takes what the bot needs
(the handler that talks to the service, where the command fingerprint lives), and ``setup_hook``
registers the persistent components, the translator and the handler's cogs (the slash commands,
``bot.discord.commands``), and syncs the command tree only when it changed. ``sync_commands_once``
is the CLI path (log in, sync the commands the cogs declare, log out; no gateway, no service).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.activity import LAUNCH_TEMPLATE, ActivityButton
from bot.discord.commands import ItalianTranslator, add_cogs, declare_commands
from bot.discord.components import ActionButton, ActionSelect, ComponentAction, parse_custom_id
from bot.discord.interaction import Interaction
from bot.discord.sync import SyncState, sync_commands

logger = logging.getLogger(__name__)


@runtime_checkable
class Handler(Protocol):
    """The adapter's translation layer: interactions in, service calls, messages out."""

    def command_cogs(self) -> Sequence[commands.Cog]:
        """The cogs holding the slash commands (``bot.discord.commands.command_cogs``)."""
        ...

    async def may_act(self, interaction: Interaction, action: ComponentAction) -> bool: ...

    async def act(
        self, interaction: Interaction, action: ComponentAction, values: Sequence[str]
    ) -> None: ...

    async def failed(self, interaction: Interaction, error: Exception) -> None:
        """A command raised: log it and, if the interaction is still open, say so."""


class TavoloBot(commands.Bot):
    """The Discord side of Tavolo: slash commands and persistent components -> ``handler``."""

    def __init__(
        self,
        *,
        handler: Handler,
        sync_state: SyncState,
        sync_on_start: bool = True,
        intents: discord.Intents | None = None,
        shard_id: int | None = None,
        shard_count: int | None = None,
        guild_ready_timeout: float = 2.0,  # discord.py's default
    ) -> None:
        # No privileged intents: commands and components need none; DMs are sent, never read.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            help_command=None,
            shard_id=shard_id,
            shard_count=shard_count,
            guild_ready_timeout=guild_ready_timeout,
        )
        self.handler = handler
        self.sync_state = sync_state
        self.sync_on_start = sync_on_start
        self.tree.error(self._on_app_command_error)
        # The synced commands' ids by name, for command mentions (``</name:id>``).
        self._command_ids: dict[str, int] = {}

    @property
    def action_handler(self) -> Handler:
        return self.handler

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton, ActionSelect, ActivityButton)
        await self.tree.set_translator(ItalianTranslator())
        await add_cogs(self, self.handler.command_cogs())
        if self.sync_on_start:
            await self.sync_commands()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Upload the slash commands if they changed since the last sync (or ``force``)."""
        synced = await sync_commands(self.tree, self.sync_state, force=force)
        if synced:
            self._command_ids = {}  # new ids, perhaps: fetched again when next needed
        return synced

    async def command_ids(self) -> dict[str, int]:
        """The global commands' ids by name, fetched from Discord once (empty when Discord
        cannot be asked: the help then names the commands without mentions)."""
        if not self._command_ids:
            try:
                fetched = await self.tree.fetch_commands()
            except discord.HTTPException as error:
                logger.warning("could not fetch the command ids: %s", error.status)
                return {}
            self._command_ids = {command.name: command.id for command in fetched}
        return self._command_ids

    async def on_interaction(self, interaction: Interaction) -> None:
        """A component whose custom id is not Tavolo's current format (an older version's, or
        someone else's) matches no persistent item, and one framed like Tavolo's but naming
        an action this version does not know is passed over by its item (``bot.discord.
        components``): discord.py would leave either unanswered ("This interaction failed"),
        so the handler acknowledges it with a short notice."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data
        found = None if data is None else data.get("custom_id")
        custom_id = found if isinstance(found, str) else ""
        if LAUNCH_TEMPLATE.fullmatch(custom_id):
            return  # the Activity's button answers itself (bot/discord/activity.py)
        try:
            parse_custom_id(custom_id)
        except ValueError:
            unknown = getattr(self.handler, "unknown_component", None)
            if unknown is not None:
                await unknown(interaction)

    async def _on_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        await self.handler.failed(interaction, original)


async def sync_commands_once(token: str, *, sync_state: SyncState, force: bool = False) -> bool:
    """The CLI's ``discord-sync``: log in over REST only, sync if changed (or ``force``), close.
    The commands are the ones the cogs declare (the same payload as a serving bot's)."""
    client = discord.Client(intents=discord.Intents.default())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    await tree.set_translator(ItalianTranslator())
    declare_commands(tree)
    try:
        await client.login(token)
        return await sync_commands(tree, sync_state, force=force)
    finally:
        await client.close()
