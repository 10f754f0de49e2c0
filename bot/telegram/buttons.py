"""Telegram button presses -> service calls, each answered at once; its messages follow.

A press is answered before anything it causes is delivered (``Press.gate``); a stale or refused
press sends the presser's view again (healing), and game-picker, deck-style and settings buttons
are answered here without a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.domain import Action, Verb
from bot.service import ChatRef, Result, UserRef
from bot.service.settings import SETTINGS_PREFIX
from bot.telegram.handling import PICKER_PREFIX, STYLE_PREFIX, Handling, user_ref, where_of_message
from bot.telegram.ids import PLATFORM, where_of
from bot.telegram.settings_menu import is_chat_admin

logger = logging.getLogger(__name__)

# Refusals that mean the presser's buttons are behind the table: their hand is sent again.
HEALED = frozenset({"stale", "not_your_turn", "illegal_move", "conflict"})


class Press:
    """What follows the answer to a press: the gate its messages wait behind, and the work
    done once it is answered (learning the pressed message, or healing a stale view)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.learn: Callable[[], Awaitable[None]] | None = None
        self.heal: Callable[[], Awaitable[None]] | None = None

    async def release(self) -> None:
        try:
            if self.learn is not None:
                await self.learn()
        except Exception:
            logger.exception("could not note the pressed message")
        finally:
            self.gate.set()
        if self.heal is not None:
            try:
                await self.heal()
            except Exception:
                logger.exception("could not send the presser's view again")


class Buttons:
    """The handler of every inline button."""

    def __init__(self, ground: Handling) -> None:
        self._ground = ground

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An inline button: one service call, answered at once; its messages follow."""
        query = update.callback_query
        if query is None:
            return
        press = Press()
        alert: str | None = None
        try:
            alert = await self._press(query, press)
        finally:
            try:
                await query.answer(text=alert, show_alert=alert is not None)
            except TelegramError as error:
                # Too late (over 15 s) or answered twice: nothing the user can still see.
                logger.info("answerCallbackQuery failed: %s", error)
            finally:
                await press.release()

    async def _press(self, query: CallbackQuery, press: Press) -> str | None:
        """Handle a press; returns the alert to show, if any. A table's messages are queued
        behind ``press.gate`` (opened once the press is answered)."""
        message = query.message if isinstance(query.message, Message) else None
        data = query.data or ""
        user = user_ref(query.from_user)
        if message is not None:
            self._ground.delivery.book.saw(message.chat.id, message.message_id)
        if data.startswith(PICKER_PREFIX) and message is not None:
            game = data.removeprefix(PICKER_PREFIX)
            if message.chat.type == ChatType.PRIVATE:
                await self._ground.open_table(message, query.from_user, game, [])
                return None
            result = await self._ground.service.create_table(
                self._ground.chat(message),
                user,
                game,
                is_admin=lambda: is_chat_admin(message.get_bot(), message.chat, query.from_user.id),
            )
            await self._ground.delivery.deliver(result, origin=where_of_message(message))
            return self._ground.alert(result)
        if data.startswith(STYLE_PREFIX) and message is not None:
            return await self._press_style(message, query.from_user, data)
        if data.startswith(SETTINGS_PREFIX) and message is not None:
            return await self._ground.settings_menu.press(
                message,
                query.from_user,
                data,
                chat=self._ground.chat(message),
                where=where_of_message(message),
            )
        # The one decoding of a table's button (a forged one goes to the service as it came,
        # to be refused in the presser's language).
        try:
            action: Action | None = Action.decode(data)
        except ValueError:
            action = None
        # Where the button is; a hand in the private chat plays at its table's own chat, which
        # the service finds (``private``).
        chat = ChatRef(PLATFORM, user.user_id) if message is None else self._ground.chat(message)
        private = message is not None and message.chat.type == ChatType.PRIVATE
        bot = query.get_bot()
        result = await self._ground.service.press(
            chat,
            user,
            data if action is None else action,
            # Asked only for a press that needs it (@kick), of the table's own chat.
            is_admin=lambda table_chat: is_chat_admin(
                bot, _telegram_chat(table_chat), query.from_user.id
            ),
            private=private,
        )
        origin = None if message is None else where_of_message(message)
        if result.ok:
            if action is not None:
                press.learn = functools.partial(
                    self._after_press, result, message, action, query.from_user.id
                )
            self._ground.delivery.submit(result, origin=origin, gate=press.gate)
        elif action is not None and result.refusal is not None and result.refusal.code in HEALED:
            press.heal = functools.partial(self._heal, message, user, action.table_id)
        return self._ground.alert(result)

    async def _heal(self, message: Message | None, user: UserRef, table_id: int) -> None:
        """A stale or refused press: the presser's hand (and the table, if its message is
        behind) is sent again, so nobody is left with buttons of a past turn (a rare path: a
        hand's table chat is looked up here, not on every press)."""
        chat = await self._chat_of_press(message, user, table_id)
        shown = await self._ground.service.show(chat, user, table_id, public=True)
        if shown.ok:
            await self._ground.delivery.heal(shown, user_id=int(user.user_id))

    async def _press_style(self, message: Message, user: User, data: str) -> str | None:
        """A deck-style button: set it, and say so in the button's message."""
        pictures = self._ground.delivery.pictures
        style = data.removeprefix(STYLE_PREFIX)
        t_locale = await self._ground.reply_locale(message, user)
        if pictures is None or style not in pictures.style_choices():
            return self._ground.renderer.notice("style_off", t_locale) if pictures is None else None
        await self._ground.set_style(message, style)
        text = self._ground.renderer.notice("style_set", t_locale).format(
            style=pictures.style_label(style, t_locale)
        )
        await self._ground.delivery.messenger.edit(
            where_of_message(message), message.message_id, text
        )
        return None

    async def _chat_of_press(
        self, message: Message | None, user: UserRef, table_id: int
    ) -> ChatRef:
        """The table's chat: where the button is, or, for a hand in private, the table's own."""
        if message is None:
            return ChatRef(PLATFORM, user.user_id)
        here = self._ground.chat(message)
        if message.chat.type != ChatType.PRIVATE:
            return here
        for table in await self._ground.service.tables_of(user):
            if table.id == table_id:
                return ChatRef(PLATFORM, table.chat_id)
        return here

    async def _after_press(
        self, result: Result, message: Message | None, action: Action, user_id: int
    ) -> None:
        """Once a press is answered: the pressed message noted, and a leaver's hands closed (a
        hand's own "leave" confirmation keeps no buttons)."""
        if message is not None:
            await self._ground.delivery.learn(message, action, user_id=user_id)
        await self._ground.close_left_hands(result)
        if (
            message is not None
            and action.verb is Verb.LEAVE
            and message.chat.type == ChatType.PRIVATE
        ):
            with contextlib.suppress(TelegramError):
                await self._ground.delivery.messenger.edit_markup(
                    where_of_message(message), message.message_id, None
                )


def _telegram_chat(chat: ChatRef) -> Chat:
    """The Telegram chat of a table's chat id, enough to ask who administers it (a user's id
    is positive: a private chat; a group's is negative)."""
    where = where_of(chat.chat_id)
    kind = ChatType.PRIVATE if where.chat_id > 0 else ChatType.SUPERGROUP
    return Chat(where.chat_id, kind)
