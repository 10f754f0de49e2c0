"""Sending and editing messages, with Telegram's answers turned into plain outcomes.

Flood limits are kept (and a 429 retried) by ``bot.telegram.limiter`` below this layer; here
"message is not modified" counts as success, a private chat the user never opened (403) is
reported as such, and a message that can no longer be edited is reported so the caller can post
a new one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto, Message
from telegram.error import BadRequest, Forbidden

logger = logging.getLogger(__name__)

_NOT_MODIFIED = "message is not modified"
# Edits that can never succeed: the caller should post a fresh message instead.
_GONE = (
    "message to edit not found",
    "message can't be edited",
    "there is no text in the message to edit",
    "message_id_invalid",
    "there is no media in the message to edit",
    "there is no caption in the message to edit",
)


def _file_id(message: Message) -> str | None:
    """The file id of a photo message's largest size (Telegram keeps the upload under it)."""
    return message.photo[-1].file_id if message.photo else None


class BlockedError(Exception):
    """The user has not opened a private chat with the bot (or blocked it): Telegram's 403."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"cannot write to chat {chat_id}")
        self.chat_id = chat_id


@dataclass(frozen=True)
class Where:
    """A place messages go: a chat, and in forum groups the topic (thread) inside it."""

    chat_id: int
    thread_id: int | None = None

    @property
    def is_private(self) -> bool:
        return self.chat_id > 0


class Messenger:
    """Thin wrapper over ``telegram.Bot`` for the few calls the adapter makes."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot

    async def send(
        self, where: Where, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int:
        """Post a message; returns its id. Raises ``BlockedError`` on 403."""
        try:
            message = await self._bot.send_message(
                chat_id=where.chat_id,
                text=text,
                reply_markup=markup,
                message_thread_id=where.thread_id,
            )
        except Forbidden:
            raise BlockedError(where.chat_id) from None
        return message.message_id

    async def send_photo(
        self,
        where: Where,
        photo: bytes | str,
        *,
        filename: str = "tavolo.png",
        caption: str | None = None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> tuple[int, str | None]:
        """Post a picture: ``bytes`` are uploaded, a ``str`` is a file id Telegram already has.

        Returns the message id and the picture's file id (reused for the same picture later).
        Raises ``BlockedError`` on 403.
        """
        try:
            message = await self._bot.send_photo(
                chat_id=where.chat_id,
                photo=InputFile(photo, filename=filename) if isinstance(photo, bytes) else photo,
                caption=caption,
                reply_markup=markup,
                message_thread_id=where.thread_id,
            )
        except Forbidden:
            raise BlockedError(where.chat_id) from None
        return message.message_id, _file_id(message)

    async def edit_photo(
        self,
        where: Where,
        message_id: int,
        photo: bytes | str,
        *,
        filename: str = "tavolo.png",
        caption: str | None = None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> tuple[bool, str | None]:
        """Replace a photo message's picture and caption (``editMessageMedia``).

        Returns whether it could be edited (``False``: post anew) and the new file id.
        """
        # Raw bytes (not an InputFile): PTB then uploads them as "attach://<name>", the form
        # editMessageMedia requires.
        media = InputMediaPhoto(photo, caption=caption, filename=filename)
        try:
            edited = await self._bot.edit_message_media(
                media=media, chat_id=where.chat_id, message_id=message_id, reply_markup=markup
            )
        except BadRequest as error:
            if not self._recoverable(error, where, message_id):
                raise
            return _NOT_MODIFIED in error.message.lower(), None
        except Forbidden:
            raise BlockedError(where.chat_id) from None
        return True, _file_id(edited) if isinstance(edited, Message) else None

    async def edit_caption(
        self,
        where: Where,
        message_id: int,
        caption: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> bool:
        """Change a photo message's caption and keyboard; ``False`` when it cannot be edited."""
        try:
            await self._bot.edit_message_caption(
                chat_id=where.chat_id, message_id=message_id, caption=caption, reply_markup=markup
            )
        except BadRequest as error:
            if not self._recoverable(error, where, message_id):
                raise
            return _NOT_MODIFIED in error.message.lower()
        except Forbidden:
            raise BlockedError(where.chat_id) from None
        return True

    @staticmethod
    def _recoverable(error: BadRequest, where: Where, message_id: int) -> bool:
        reason = error.message.lower()
        if _NOT_MODIFIED in reason:
            return True
        if any(gone in reason for gone in _GONE):
            logger.info("message %s in %s is gone: %s", message_id, where.chat_id, reason)
            return True
        return False

    async def edit(
        self,
        where: Where,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> bool:
        """Edit a message in place; ``False`` when it cannot be edited any more (post anew).

        Identical content is success: Telegram's "message is not modified" only means that the
        message already shows what we wanted.
        """
        try:
            await self._bot.edit_message_text(
                chat_id=where.chat_id,
                message_id=message_id,
                text=text,
                reply_markup=markup,
            )
        except BadRequest as error:
            reason = error.message.lower()
            if _NOT_MODIFIED in reason:
                return True
            if any(gone in reason for gone in _GONE):
                logger.info("message %s in %s is gone: %s", message_id, where.chat_id, reason)
                return False
            raise
        except Forbidden:
            raise BlockedError(where.chat_id) from None
        return True

    async def edit_markup(
        self, where: Where, message_id: int, markup: InlineKeyboardMarkup | None
    ) -> bool:
        """Change only the keyboard; same outcomes as ``edit``."""
        try:
            await self._bot.edit_message_reply_markup(
                chat_id=where.chat_id, message_id=message_id, reply_markup=markup
            )
        except BadRequest as error:
            reason = error.message.lower()
            if _NOT_MODIFIED in reason:
                return True
            if any(gone in reason for gone in _GONE):
                return False
            raise
        return True

    async def upsert(
        self,
        where: Where,
        message_id: int | None,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> int:
        """Edit ``message_id`` if given and still editable, else post; returns the shown id."""
        if message_id is not None and await self.edit(where, message_id, text, markup):
            return message_id
        return await self.send(where, text, markup)
