"""The slash commands about the channel's table: show one's hand (``/hand``, also choosing DMs),
its rules, and close it, leave it or remove a player from it (the creator or an admin: the
service says who may). The commands that open a table are ``game_commands``.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.command_base import t as _t
from bot.discord.handler_core import PLATFORM, HandlerCore, SlashCall
from bot.discord.interaction import Interaction
from bot.discord.replies import defer_command
from bot.discord.routing import EventRouting
from bot.discord.settings_menu import is_channel_admin
from bot.discord.slash import Slash
from bot.service import Result, UserRef

__all__ = ["TableCommands"]


class TableCommands(commands.Cog):
    """/rules, /hand, /abandon, /leave, /kick."""

    def __init__(self, core: HandlerCore, routing: EventRouting) -> None:
        self.core = core
        self.slash = Slash(core, routing)

    @app_commands.command(
        name=_t("rules"), description=_t("Show the rules of this channel's table")
    )
    async def rules_command(self, interaction: Interaction) -> None:
        """Show the rule options of the channel's table."""
        await self.slash(interaction, self._rules)

    @app_commands.command(
        name=_t("hand"), description=_t("Show your hand here, or by direct message")
    )
    @app_commands.rename(dm=_t("dm"))
    @app_commands.describe(dm=_t("Send it, and your turn notices, by direct message"))
    @app_commands.guild_only()
    async def hand_command(self, interaction: Interaction, dm: bool = False) -> None:
        """Show the user's hand (privately, or by DM)."""
        await self.slash(interaction, self._hand, dm=dm)

    @app_commands.command(
        name=_t("abandon"),
        description=_t("Close this channel's table for everyone (its creator or an admin)"),
    )
    @app_commands.guild_only()
    async def abandon_command(self, interaction: Interaction) -> None:
        """Close the channel's table, without a result (its creator or an admin)."""
        await self.slash(interaction, self._abandon)

    @app_commands.command(
        name=_t("leave"),
        description=_t("Leave your game: the computer plays your seat to the end"),
    )
    @app_commands.guild_only()
    async def leave_command(self, interaction: Interaction) -> None:
        """Leave the lobby, or the game (a computer plays the seat; it counts as a loss)."""
        await self.slash(interaction, self._leave)

    @app_commands.command(
        name=_t("kick"),
        description=_t("Remove a player from the table (its creator or an admin)"),
    )
    @app_commands.rename(player=_t("player"))
    @app_commands.describe(player=_t("The player to remove (none: choose from a list)"))
    @app_commands.guild_only()
    async def kick_command(
        self, interaction: Interaction, player: discord.User | None = None
    ) -> None:
        """Remove a seated player (the table's creator or an admin)."""
        await self.slash(interaction, self._kick, player=player)

    async def _hand(self, call: SlashCall) -> Result:
        """/hand: the user's hand, privately (``dm:True``: by DM from now on)."""
        await self.core.set_dm(call.interaction.user.id, bool(call.options.get("dm")))
        await defer_command(call.interaction, private=True)
        return await self.core.service.show(call.chat, call.user)

    async def _rules(self, call: SlashCall) -> Result:
        """/rules: the rule options of the channel's table."""
        return await self.core.service.rules(call.chat, call.user)

    async def _abandon(self, call: SlashCall) -> Result:
        """/abandon: close the channel's table without a result (its creator or an admin)."""
        return await self.core.service.abandon(
            call.chat, call.user, is_admin=is_channel_admin(call.interaction)
        )

    async def _leave(self, call: SlashCall) -> Result:
        """/leave: leave the lobby, or the game (a computer plays the seat)."""
        return await self.core.service.leave(call.chat, call.user)

    async def _kick(self, call: SlashCall) -> Result:
        """/kick: remove a player (none named: the service offers a list)."""
        player = call.member("player")
        target = None
        if player is not None:
            target = UserRef(PLATFORM, str(player.id), player.display_name)
        return await self.core.service.kick(
            call.chat, call.user, target=target, is_admin=is_channel_admin(call.interaction)
        )
