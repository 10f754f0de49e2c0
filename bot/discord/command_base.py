"""What every slash command shares: the type of its options, and how it writes its words.

The commands themselves live in the cogs (``game_commands``, ``table_commands``,
``chat_commands``): each gathers its options and does its part with the handler's core.
"""

from __future__ import annotations

from typing import TypeAlias

import discord
from discord.app_commands import Choice, locale_str

__all__ = ["OptionValue", "named", "t"]

# What a slash command's option holds: a number, a word, a flag, or a member (/stats, /kick).
OptionValue: TypeAlias = int | float | str | bool | discord.abc.User


def t(text: str) -> locale_str:
    """A name or description, translated by the tree's translator."""
    return locale_str(text)


def named(*pairs: tuple[str, str]) -> list[Choice[str]]:
    """Choices from (English label, value) pairs."""
    return [Choice(name=t(label), value=value) for label, value in pairs]
