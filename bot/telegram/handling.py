"""What every Telegram handler uses: the adapter's dependencies, and a message's chat, sender
and reply.

``Handling`` holds the adapter's state (the service, the renderer, the delivery, inline play,
the settings menu) and the helpers its handlers share; ``bot.telegram.commands`` and
``bot.telegram.buttons`` are each given it, put together by
``bot.telegram.adapter.TelegramAdapter``.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from telegram import Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.render import MAX_TEXT, Renderer
from bot.service import Announcement, ChatRef, Event, HandView, Result, TableService, UserRef
from bot.telegram import phrases
from bot.telegram.delivery import Delivery
from bot.telegram.ids import PLATFORM, chat_key
from bot.telegram.inline import InlinePlay
from bot.telegram.messenger import Where
from bot.telegram.settings_menu import SettingsMenu, is_chat_admin

logger = logging.getLogger(__name__)

QUICK_GAME = "scopa"
QUICK_LEVEL = "easy"
# Game-picker buttons belong to no table yet: "new:0:<game>" can never be a table's data
# (table ids are digits), so the adapter answers them itself.
PICKER_PREFIX = "new:0:"
# Deck-style buttons ("sty:0:<style>"), answered by the adapter too.
STYLE_PREFIX = "sty:0:"


def user_ref(user: User) -> UserRef:
    """The service's id of a Telegram user (the display name and language hint travel along)."""
    return UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)


def where_of_message(message: Message) -> Where:
    """The chat of a message, and its forum topic when the group has topics."""
    chat = message.chat
    if chat.is_forum and message.is_topic_message and message.message_thread_id is not None:
        return Where(chat.id, message.message_thread_id)
    return Where(chat.id)


class Handling:
    """The adapter's dependencies, and the helpers its handlers share."""

    def __init__(
        self,
        *,
        service: TableService,
        renderer: Renderer,
        delivery: Delivery,
        inline: InlinePlay | None = None,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.delivery = delivery
        self.inline = inline
        self.settings_menu = SettingsMenu(service=service, renderer=renderer, delivery=delivery)

    def seen(self, update: Update) -> tuple[Message | None, User | None]:
        """The message and its sender; notes the message id (the repost distance needs it)."""
        message, user = update.effective_message, update.effective_user
        if message is not None:
            self.delivery.book.saw(message.chat.id, message.message_id)
        if user is not None and user.is_bot:
            return None, None
        return message, user

    @staticmethod
    def chat(message: Message) -> ChatRef:
        return ChatRef(PLATFORM, chat_key(where_of_message(message)))

    async def open_table(self, message: Message, user: User, game: str, args: list[str]) -> None:
        """A lobby in a group; in private, a table against the computer dealt at once.

        ``args``: an optional number of players, then rule options as ``name=value`` (checked by
        the engine through the service, which names the allowed values).
        """
        players, options = parse_table_args(args)
        chat, who = self.chat(message), user_ref(user)
        origin = where_of_message(message)
        if message.chat.type != ChatType.PRIVATE:
            result = await self.service.create_table(
                chat,
                who,
                game,
                players=players,
                options=options,
                is_admin=lambda: is_chat_admin(message.get_bot(), message.chat, user.id),
            )
            await self.reply(message, result)
            return
        # One quick game at a time in a private chat: a new one replaces the old.
        for table in await self.service.open_tables(chat):
            await self.service.abandon(chat, who, table.id, is_admin=True)
            await self.delivery.book.forget_table(table.id)
        created = await self.service.create_table(
            chat, who, game, players=players, options=options, is_admin=True
        )
        if created.refusal is not None or created.table is None:
            await self.reply(message, created)
            return
        result = await self.service.start(chat, who, created.table.id, fill_with=QUICK_LEVEL)
        await self.delivery.deliver(result, origin=origin)
        if result.refusal is not None:
            await self.reply(message, result)

    async def deliver_hand(self, message: Message, user: User, table_id: int) -> None:
        """The player's hand of ``table_id`` in this private chat (after the deep link)."""
        who = user_ref(user)
        for table in await self.service.tables_of(who):
            if table.id == table_id:
                result = await self.service.show(ChatRef(PLATFORM, table.chat_id), who, table_id)
                hands: list[Event] = [e for e in result.events if isinstance(e, HandView)]
                await self.delivery.deliver(Result(hands, result.table), origin=None)
                if hands:
                    return
        # A private answer: in the user's own language (/lang), else their client's.
        t = self.renderer.translations(await self.service.user_locale(who))
        await self.delivery.say(where_of_message(message), t.gettext(phrases.NO_HAND))

    async def reply(self, message: Message, result: Result) -> None:
        """Deliver the events; a refusal is said in the chat where the command came."""
        origin = where_of_message(message)
        await self.delivery.deliver(result, origin=origin)
        refusal = result.refusal
        if refusal is not None:
            if message.chat.type != ChatType.PRIVATE:
                # Said in the group: in the group's language, as every public message.
                locale = await self.service.chat_locale(self.chat(message))
                refusal = replace(refusal, locale=locale)
            text = self.renderer.refusal(refusal, limit=MAX_TEXT)
            await self.delivery.say(origin, text)

    def alert(self, result: Result) -> str | None:
        return None if result.refusal is None else self.renderer.refusal(result.refusal)

    async def reply_locale(self, message: Message, user: User) -> str:
        """The language of the adapter's own reply: in a group the chat's (/settings) first,
        in private the user's."""
        private = message.chat.type == ChatType.PRIVATE
        return await self.service.locale_for(self.chat(message), user_ref(user), public=not private)

    @staticmethod
    def style_owner(message: Message) -> str:
        """Whose style: the group's (its topic's) or, in private, the user's own."""
        return chat_key(where_of_message(message))

    async def set_style(self, message: Message, style: str) -> None:
        pictures = self.delivery.pictures
        assert pictures is not None
        await pictures.set_style(style, platform=PLATFORM, owner=self.style_owner(message))

    async def close_left_hands(self, result: Result) -> None:
        """A player left the game (or was kicked): their private hand keeps no move buttons."""
        for event in result.events:
            if not isinstance(event, Announcement) or event.kind != "left":
                continue
            seat = event.data.get("seat")
            info = event.table.seats[seat] if isinstance(seat, int) else None
            if info is None or info.platform != PLATFORM or not info.user_id.isdigit():
                continue
            shown = await self.delivery.book.private(event.table.id, int(info.user_id))
            if shown is None:
                continue
            with contextlib.suppress(TelegramError):
                await self.delivery.messenger.edit_markup(shown.where, shown.message_id, None)


def parse_table_args(args: list[str]) -> tuple[int | None, dict[str, object]]:
    """``["4", "target=21", "napola=on"]`` -> ``(4, {"target": 21, "napola": True})``.

    Only the syntax is read here; names and values are the engine's to judge.
    """
    players: int | None = None
    options: dict[str, object] = {}
    for index, arg in enumerate(args[:12]):
        if index == 0 and arg.isascii() and arg.isdigit() and len(arg) < 3:
            players = int(arg)
            continue
        name, sep, value = arg.partition("=")
        if not sep or not name:
            # Not an option: let the engine's error name the allowed options.
            options[arg] = True
            continue
        options[name.strip().lower()] = _option_value(value.strip())
    return players, options


def _option_value(value: str) -> object:
    lowered = value.lower()
    if lowered in ("on", "true", "yes", "si", "sì"):
        return True
    if lowered in ("off", "false", "no"):
        return False
    if value.isascii() and value.isdigit() and len(value) < 6:
        return int(value)
    return value
