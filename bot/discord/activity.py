"""The web table as a Discord Activity, the adapter's side: the table message's button that
launches it, and whether a player has it open (then their turn needs no mention).

The button's interaction is answered with the ``LAUNCH_ACTIVITY`` callback (type 12): Discord
opens the application's Activity in the channel, and the page finds the channel's table
(``bot/web/discord_auth.py``). It is shown when ``DISCORD_ACTIVITY`` is on, which needs the
Activity enabled for the application in Discord's developer portal (README, "Discord
Activity").
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Protocol

import discord

from bot.discord.components import Button
from bot.discord.interaction import Interaction
from bot.discord.limits import MAX_LABEL, clip
from bot.render import N_

__all__ = [
    "LAUNCH_LABEL",
    "ActivityButton",
    "CoalescedEdits",
    "add_launch_button",
    "channel_guild_lookup",
    "looking",
]

logger = logging.getLogger(__name__)

LAUNCH_PREFIX = "~activity:"
LAUNCH_TEMPLATE = re.compile(re.escape(LAUNCH_PREFIX) + r"(?P<table>[0-9]{1,19})")


LAUNCH_LABEL = N_("Play at the web table")
NOT_ENABLED = N_("The web table cannot be opened here: ask the server's admins.")


class ActivityButton(discord.ui.DynamicItem[Button], template=LAUNCH_TEMPLATE):
    """Opens the Activity for everyone who presses it (no seat needed: a spectator too)."""

    def __init__(self, table_id: int, *, label: str, row: int | None = None) -> None:
        button: Button = discord.ui.Button(
            label=clip(label, MAX_LABEL),
            style=discord.ButtonStyle.success,
            custom_id=f"{LAUNCH_PREFIX}{table_id}",
        )
        super().__init__(button, row=row)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[discord.ui.View | discord.ui.LayoutView],
        match: re.Match[str],
        /,
    ) -> ActivityButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["table"]), label=label or "?")

    async def callback(self, interaction: Interaction) -> None:
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
    def on_page(self, platform: str, user_id: str, table: int) -> bool: ...

    def watched(self, table: int) -> bool: ...


def looking(presence: _Looking | None, table_id: int, user_id: int | str) -> bool:
    """Whether the user has the table open in the Activity (or any web page) right now."""
    return presence is not None and presence.on_page("discord", str(user_id), table_id)


class CoalescedEdits:
    """The channel's table message while pages show the table: edited at most once every
    ``seconds`` (the latest version then), since those players see every move live. An edit
    made at once (a press in the channel, the game's end) supersedes the one waiting."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._latest: dict[int, Callable[[], Awaitable[None]]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.flushing: set[int] = set()
        self.deferred = 0  # edits folded into a later one (metrics, tests)

    def wanted(self, presence: _Looking | None, table_id: int, status: str) -> bool:
        """Whether this edit may wait: pages show the table and the game goes on."""
        return (
            self.seconds > 0
            and status == "playing"
            and table_id not in self.flushing
            and presence is not None
            and presence.watched(table_id)
        )

    def later(self, table_id: int, show: Callable[[], Awaitable[None]]) -> None:
        if table_id in self._latest:
            self.deferred += 1
        self._latest[table_id] = show
        if table_id not in self._tasks:
            self._tasks[table_id] = asyncio.create_task(self._flush(table_id))

    def now(self, table_id: int) -> None:
        """An edit is made at once: the waiting one would only be older."""
        if self._latest.pop(table_id, None) is not None:
            self.deferred += 1

    async def _flush(self, table_id: int) -> None:
        try:
            await asyncio.sleep(self.seconds)
            show = self._latest.pop(table_id, None)
            if show is not None:
                self.flushing.add(table_id)
                try:
                    await show()
                finally:
                    self.flushing.discard(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("table %s: the coalesced edit failed", table_id)
        finally:
            self._tasks.pop(table_id, None)

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)


def channel_guild_lookup(client: discord.Client) -> Callable[[str], str | None]:
    """The guild of a channel from the client's gateway cache (for the Activity's sign-in when
    the API base has no channel lookup)."""

    def guild_of(channel_id: str) -> str | None:
        if not channel_id.isdigit():
            return None
        channel = client.get_channel(int(channel_id))
        guild = getattr(channel, "guild", None)
        return None if guild is None else str(guild.id)

    return guild_of
