"""What every slash command of the cogs does around its own work, written once: the user is
marked as looking at their game, the interaction counted as work in progress (a stop waits for
it), its options gathered into a :class:`SlashCall` (unset ones left out), the server's language
hinted for the channel, and the service's result delivered where it belongs.
"""

from __future__ import annotations

from bot.discord.command_base import OptionValue
from bot.discord.handler_core import CommandRun, HandlerCore, SlashCall
from bot.discord.interaction import Interaction
from bot.discord.routing import EventRouting

__all__ = ["Slash"]


class Slash:
    """Runs a cog's command part: ``await self.slash(interaction, self._rules, dm=dm)``."""

    def __init__(self, core: HandlerCore, routing: EventRouting) -> None:
        self.core = core
        self.routing = routing

    async def __call__(
        self, interaction: Interaction, run: CommandRun, **options: OptionValue | None
    ) -> None:
        core = self.core
        core.mark_seen(interaction)
        async with core.in_flight.track():
            given = {key: value for key, value in options.items() if value is not None}
            call = SlashCall(
                interaction, core.chat_of(interaction), core.user_of(interaction), given
            )
            core.hint_chat(interaction)
            result = await run(call)
            if result is not None:
                await self.routing.deliver(result, interaction)
