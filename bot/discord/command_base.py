"""What every slash command shares: the handler it forwards to, and how it writes its words.

Every command only gathers its options and hands them to the bot's handler
(``handler.command(interaction, name, options)``): what the options mean is the service's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeAlias, runtime_checkable

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.discord.interaction import Interaction

__all__ = ["CommandHandler", "OptionValue", "SlashCommand", "forward", "named", "t"]

# What a slash command's option holds: a number, a word, a flag, or a member (/stats, /kick).
OptionValue: TypeAlias = int | float | str | bool | discord.abc.User
# A slash command: a plain function of the interaction and its options (in no group or cog),
# that answers through the interaction.
SlashCommand: TypeAlias = app_commands.Command[app_commands.Group, ..., None]


@runtime_checkable
class CommandHandler(Protocol):
    async def command(
        self, interaction: Interaction, name: str, options: Mapping[str, OptionValue]
    ) -> None:
        """Run the slash command ``name`` with the options the user gave (unset ones left out)."""


def _handler(interaction: Interaction) -> CommandHandler:
    handler = getattr(interaction.client, "handler", None)
    if not isinstance(handler, CommandHandler):
        raise TypeError("the client has no command handler: use bot.discord.bot.TavoloBot")
    return handler


async def forward(interaction: Interaction, name: str, **options: OptionValue | None) -> None:
    """Hand the command to the client's handler, with the options the user set."""
    given = {key: value for key, value in options.items() if value is not None}
    await _handler(interaction).command(interaction, name, given)


def t(text: str) -> locale_str:
    """A name or description, translated by the tree's translator."""
    return locale_str(text)


def named(*pairs: tuple[str, str]) -> list[Choice[str]]:
    """Choices from (English label, value) pairs."""
    return [Choice(name=t(label), value=value) for label, value in pairs]
