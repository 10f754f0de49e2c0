"""The web table as a Discord Activity, the adapter's side: the table message's button that
launches it, and whether a player has it open (then their turn needs no mention).

The button's interaction is answered with the ``LAUNCH_ACTIVITY`` callback (type 12): Discord
opens the application's Activity in the channel, and the page finds the channel's table
(``bot/web/discord_auth.py``). It is shown when ``DISCORD_ACTIVITY`` is on, which needs the
Activity enabled for the application in Discord's developer portal (README, "Discord
Activity").
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from bot.discord.limits import MAX_LABEL, clip
from bot.render import N_

__all__ = ["LAUNCH_LABEL", "ActivityButton", "add_launch_button", "looking"]

logger = logging.getLogger(__name__)

LAUNCH_PREFIX = "~activity:"
LAUNCH_TEMPLATE = re.compile(re.escape(LAUNCH_PREFIX) + r"(?P<table>[0-9]{1,19})")


LAUNCH_LABEL = N_("Play at the web table")
NOT_ENABLED = N_("The web table cannot be opened here: ask the server's admins.")


class ActivityButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LAUNCH_TEMPLATE):
    """Opens the Activity for everyone who presses it (no seat needed: a spectator too)."""

    def __init__(self, table_id: int, *, label: str, row: int | None = None) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(label, MAX_LABEL),
            style=discord.ButtonStyle.success,
            custom_id=f"{LAUNCH_PREFIX}{table_id}",
        )
        super().__init__(button, row=row)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActivityButton:
        return cls(int(match["table"]), label=getattr(item, "label", None) or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            # Activities off for the application, or a channel where they cannot run.
            logger.warning("table %s: launching the Activity failed: %s", self.table_id, exc)
            if interaction.response.is_done():
                return
            renderer = getattr(getattr(interaction.client, "handler", None), "renderer", None)
            text = NOT_ENABLED
            if renderer is not None:
                locale = "it" if str(interaction.locale).startswith("it") else "en"
                text = renderer.translations(locale).gettext(NOT_ENABLED)
            await interaction.response.send_message(text, ephemeral=True)


def add_launch_button(
    view: discord.ui.View | None, table_id: int, label: str
) -> discord.ui.View | None:
    """``view`` with the launch button added where a row has room (a new view if none)."""
    out = view if view is not None else discord.ui.View(timeout=None)
    try:
        out.add_item(ActivityButton(table_id, label=label))
    except ValueError:
        logger.debug("table %s: no room for the Activity's button", table_id)
        return view
    return out


class _Looking(Protocol):
    def looking(self, platform: str, user_id: str, table: int) -> bool: ...


def looking(presence: _Looking | None, table_id: int, user_id: int | str) -> bool:
    """Whether the user has the table open in the Activity (or any web page) right now."""
    return presence is not None and presence.looking("discord", str(user_id), table_id)
