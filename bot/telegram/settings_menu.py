"""``/settings`` on Telegram: the chat's settings menu, one message edited in place.

In a group only its administrators (and its creator) may change a setting: a press by anyone
else is refused with an alert and changes nothing. In a private chat the user sets their own
chat. The menu is rendered by ``bot.render.settings``; its buttons carry ``cfg:...`` data,
answered here (never a table's ``<table>:<version>:<action>``).
"""

from __future__ import annotations

import logging

from telegram import Bot, Chat, Message, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from bot.render import MAX_TEXT, Renderer
from bot.render.settings import parse_settings_data, render_settings
from bot.service import ChatRef, Refusal, TableService, UserRef
from bot.service.settings import SettingsView
from bot.telegram.delivery import Delivery, keyboard
from bot.telegram.messenger import Where

__all__ = ["SettingsMenu", "is_chat_admin"]

logger = logging.getLogger(__name__)


async def is_chat_admin(bot: Bot, chat: Chat, user_id: int) -> bool:
    """A private chat's user, or a group's administrator or creator (asked of Telegram)."""
    if chat.type == ChatType.PRIVATE:
        return True
    try:
        member = await bot.get_chat_member(chat.id, user_id)
    except TelegramError as error:
        logger.info("getChatMember failed: %s", error)
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


class SettingsMenu:
    """The handlers of ``/settings`` and of its buttons."""

    def __init__(self, *, service: TableService, renderer: Renderer, delivery: Delivery) -> None:
        self._service = service
        self._renderer = renderer
        self._delivery = delivery

    async def command(
        self, message: Message, user: UserRef, *, chat: ChatRef, where: Where, bot: Bot
    ) -> None:
        """/settings: the menu (in a group: for everyone to see; changes are the admins')."""
        if not await is_chat_admin(bot, message.chat, int(user.user_id)):
            await self._delivery.say(where, await self._not_admin(chat, user, limit=MAX_TEXT))
            return
        result = await self._service.settings_view(chat, user)
        for event in result.events:
            if isinstance(event, SettingsView):
                rendered = render_settings(self._renderer, event)
                await self._delivery.say(where, rendered.text, keyboard(rendered))

    async def press(
        self, message: Message, user: User, data: str, *, chat: ChatRef, where: Where
    ) -> str | None:
        """A menu button: a page or a change, shown in the menu's own message; the alert to
        show (a refusal), if any."""
        who = UserRef(chat.platform, str(user.id), user.full_name, user.language_code)
        try:
            key, value = parse_settings_data(data)
        except ValueError:
            return None
        admin = await is_chat_admin(message.get_bot(), message.chat, user.id)
        if value is None:
            if not admin:
                return await self._not_admin(chat, who)
            result = await self._service.settings_view(chat, who, page=key)
        else:
            result = await self._service.change_setting(chat, who, key, value, is_admin=admin)
        if result.refusal is not None:
            return self._renderer.refusal(result.refusal)
        for event in result.events:
            if isinstance(event, SettingsView):
                rendered = render_settings(self._renderer, event)
                markup = keyboard(rendered)
                if not await self._delivery.messenger.edit(
                    where, message.message_id, rendered.text, markup
                ):
                    await self._delivery.say(where, rendered.text, markup)
        return None

    async def _not_admin(self, chat: ChatRef, user: UserRef, *, limit: int | None = None) -> str:
        locale = await self._service.locale_for(chat, user, public=False)
        if limit is None:
            return self._renderer.refusal(Refusal("not_admin", locale))
        return self._renderer.refusal(Refusal("not_admin", locale), limit=limit)
