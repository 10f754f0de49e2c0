"""The interaction type every part of the adapter receives: a ``discord.Interaction`` of any
client (the type is covariant in its client, so the bot's own interactions are ones too)."""

from __future__ import annotations

from typing import TypeAlias

import discord

__all__ = ["Interaction"]

Interaction: TypeAlias = discord.Interaction[discord.Client]
