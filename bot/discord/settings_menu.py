"""``/settings`` on Discord: the channel's settings menu, an ephemeral message edited in place.

Only members who may manage the server (or administrators) change a channel's settings; in a DM
with the bot anyone sets their own. The menu is rendered by ``bot.render.settings``; its buttons
are persistent components whose custom id is ``0:0:~cfg:...`` (table 0: no table; ``~``: the
adapter's own action), so they still work after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from bot.discord.components import ADAPTER_MARK, ActionButton, AdapterAction
from bot.discord.delivery import answer
from bot.discord.interaction import Interaction
from bot.discord.limits import MAX_CONTENT, MAX_ROW_BUTTONS, MAX_ROWS, fit_content
from bot.render import Message, Renderer
from bot.render.settings import parse_settings_data, render_settings
from bot.service import ChatRef, Refusal, TableService, UserRef
from bot.service.settings import SETTINGS_PREFIX, SettingsView

__all__ = ["ACTION_PREFIX", "SettingsMenu", "is_channel_admin", "settings_view"]

logger = logging.getLogger(__name__)

# The component action of a settings button: "~" + its data ("~cfg:timer=30").
ACTION_PREFIX = ADAPTER_MARK + SETTINGS_PREFIX


def is_channel_admin(interaction: Interaction) -> bool:
    """Whoever may manage the server (or administers it); anyone in a DM with the bot."""
    if interaction.guild_id is None:
        return True
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def settings_view(message: Message) -> discord.ui.View:
    """The menu's buttons as persistent components (table 0, version 0)."""
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(message.buttons[:MAX_ROWS]):
        for button in row[:MAX_ROW_BUTTONS]:
            action = AdapterAction(0, 0, ADAPTER_MARK + button.data)
            style = discord.ButtonStyle.primary if button.label.startswith("✓") else None
            view.add_item(
                ActionButton(
                    action,
                    label=button.label,
                    style=style or discord.ButtonStyle.secondary,
                    row=index,
                )
            )
    return view


class SettingsMenu:
    """The handlers of ``/settings`` and of its buttons."""

    def __init__(self, service: TableService, renderer: Renderer) -> None:
        self.service = service
        self.renderer = renderer

    async def command(self, interaction: Interaction, chat: ChatRef, user: UserRef) -> None:
        """/settings: the menu, privately (the channel's admins; anyone in a DM)."""
        if not is_channel_admin(interaction):
            await answer(interaction, await self._not_admin(chat, user), ephemeral=True)
            return
        result = await self.service.settings_view(chat, user, public=False)
        message = self._rendered(result.events)
        if message is None:
            return
        await answer(
            interaction, fit_content(message.text), view=settings_view(message), ephemeral=True
        )

    async def press(
        self, interaction: Interaction, action: AdapterAction, chat: ChatRef, user: UserRef
    ) -> None:
        """A menu button (the interaction already deferred): a page or a change, shown in the
        menu's own message; a refusal as a private follow-up."""
        try:
            key, value = parse_settings_data(action.token.removeprefix(ADAPTER_MARK))
        except ValueError:
            return
        admin = is_channel_admin(interaction)
        if value is None and admin:
            result = await self.service.settings_view(chat, user, page=key, public=False)
        else:
            result = await self.service.change_setting(
                chat, user, key, value, is_admin=admin, public=False
            )
        if result.refusal is not None:
            text = self.renderer.refusal(result.refusal, limit=MAX_CONTENT)
            await interaction.followup.send(text, ephemeral=True)
            return
        message = self._rendered(result.events)
        if message is not None:
            await interaction.edit_original_response(
                content=fit_content(message.text), view=settings_view(message)
            )

    def _rendered(self, events: Iterable[object]) -> Message | None:
        for event in events:
            if isinstance(event, SettingsView):
                return render_settings(self.renderer, event)
        return None

    async def _not_admin(self, chat: ChatRef, user: UserRef) -> str:
        locale = await self.service.locale_for(chat, user, public=False)
        return self.renderer.refusal(Refusal("not_admin", locale), limit=MAX_CONTENT)
