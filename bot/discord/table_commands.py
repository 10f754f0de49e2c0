"""The slash commands about the channel's table: open one (with computers at once), show one's
hand (``/hand``, also choosing DMs), its rules, and close it, leave it or remove a player from it
(the creator or an admin: the service says who may).
"""

from __future__ import annotations

import asyncio

from bot.discord.handler_core import PLATFORM, CommandRun, HandlerCore, SlashCall
from bot.discord.replies import defer_command
from bot.discord.routing import EventRouting
from bot.discord.settings_menu import is_channel_admin
from bot.service import Result, UserRef

# Options of the table commands that are not rule options.
SEATING_OPTIONS = ("players", "computers", "level")
# A table command answers with the table itself; only a slower service gets "thinking…" first.
DEFER_AFTER = 1.5


class TableCommands:
    """/scopa, /scopone, /scala40, /briscola, /chiamata, /hand, /rules, /abandon, /leave, /kick."""

    def __init__(self, core: HandlerCore, routing: EventRouting) -> None:
        self.core = core
        self.routing = routing

    def commands(self) -> dict[str, CommandRun]:
        """This group's slash commands by name (the games' own: ``open_game``)."""
        return {
            "hand": self._hand_command,
            "rules": self._rules_command,
            "abandon": self._abandon_command,
            "leave": self._leave_command,
            "kick": self._kick_command,
        }

    async def open_game(self, call: SlashCall, game: str) -> Result:
        """Open a table of ``game``. No public "thinking…" unless the service is slow: a refusal
        (a table is already open here) then stays private, and a new table is the command's own
        reply."""
        admin = is_channel_admin(call.interaction)
        opening = asyncio.ensure_future(self._open_table(call, game, is_admin=admin))
        done, _ = await asyncio.wait({opening}, timeout=DEFER_AFTER)
        if not done:
            await defer_command(call.interaction, private=False)
        return await opening

    async def _open_table(self, call: SlashCall, game: str, *, is_admin: bool = False) -> Result:
        # The rule options: numbers, words and flags (the engine's Rules check them).
        rules = {
            k: v
            for k, v in call.options.items()
            if k not in SEATING_OPTIONS and isinstance(v, int | float | str)
        }
        return await self.core.service.create_table(
            call.chat,
            call.user,
            game,
            players=call.number("players"),
            options=rules,
            is_admin=is_admin,
            computers=call.number("computers") or 0,
            level=call.text("level") or "easy",
        )

    async def _hand_command(self, call: SlashCall) -> Result:
        """/hand: the user's hand, privately (``dm:True``: by DM from now on)."""
        await self.core.set_dm(call.interaction.user.id, bool(call.options.get("dm")))
        await defer_command(call.interaction, private=True)
        return await self.core.service.show(call.chat, call.user)

    async def _rules_command(self, call: SlashCall) -> Result:
        """/rules: the rule options of the channel's table."""
        return await self.core.service.rules(call.chat, call.user)

    async def _abandon_command(self, call: SlashCall) -> Result:
        """/abandon: close the channel's table without a result (its creator or an admin)."""
        return await self.core.service.abandon(
            call.chat, call.user, is_admin=is_channel_admin(call.interaction)
        )

    async def _leave_command(self, call: SlashCall) -> Result:
        """/leave: leave the lobby, or the game (a computer plays the seat)."""
        return await self.core.service.leave(call.chat, call.user)

    async def _kick_command(self, call: SlashCall) -> Result:
        """/kick: remove a player (none named: the service offers a list)."""
        player = call.member("player")
        target = None
        if player is not None:
            target = UserRef(PLATFORM, str(player.id), player.display_name)
        return await self.core.service.kick(
            call.chat, call.user, target=target, is_admin=is_channel_admin(call.interaction)
        )
