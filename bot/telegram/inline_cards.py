"""Card pictures for inline answers: each card drawn small, uploaded once, reused by file id.

An inline answer can only show a picture Telegram already has (a cached photo, by file id) or one
at a public URL; the bot serves no URLs, so it uploads each card's picture once into a chat of
its own choosing, ``TELEGRAM_MEDIA_CHAT`` (a private channel or group where the bot may post, or
the owner's private chat with the bot), and keeps the file id in the adapter state (kind
``cardfile``, scope ``<style>:<card>``), shared by restarts and processes. Without a media chat,
or with ``IMAGES=off`` (or a chat that turned pictures off), answers are plain articles.

A missing picture never delays an answer (Telegram waits about ten seconds for it): the answer
goes as articles and the upload runs beside it, so the next answer has the picture.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from telegram import Bot, InputFile
from telegram.error import TelegramError

from bot.render.images import get_style
from bot.render.images.renderer import encode
from bot.render.pictures import Pictures
from bot.service import TableInfo
from bot.service.ports import AdapterState
from bot.telegram.ids import PLATFORM
from engine.cards import Card, parse_card

logger = logging.getLogger(__name__)

CARD_FILE = "cardfile"
# Pixels across one card: small, as a result's picture is shown small.
CARD_WIDTH = 96
_KEPT = 2048


class CardPhotos:
    """``file_id(card, table)``: the Telegram file id of a card's picture in the table's style,
    or ``None`` (not uploaded yet: the upload starts; or pictures are off)."""

    def __init__(
        self,
        *,
        pictures: Pictures,
        bot: Callable[[], Bot],
        state: AdapterState,
        media_chat: int,
        width: int = CARD_WIDTH,
    ) -> None:
        self._pictures = pictures
        self._bot = bot
        self._state = state
        self._media_chat = media_chat
        self._width = width
        self._known: dict[str, str] = {}
        self._uploading: dict[str, asyncio.Task[None]] = {}

    async def file_id(self, card: object, table: TableInfo) -> str | None:
        pictures = self._pictures
        if not pictures.enabled or not await pictures.wanted(table):
            return None
        try:
            parsed = card if isinstance(card, Card) else parse_card(str(card))
        except ValueError:
            return None
        style = await pictures.style_for(table, table.chat_id)
        key = f"{style}:{_code(parsed)}"
        known = self._known.get(key)
        if known is not None:
            return known
        stored = await self._state.state_get(platform=PLATFORM, kind=CARD_FILE, scope=key)
        if isinstance(stored, str):
            self._keep(key, stored)
            return stored
        if key not in self._uploading:
            task = asyncio.get_running_loop().create_task(self._upload(key, style, parsed))
            self._uploading[key] = task
            task.add_done_callback(lambda _: self._uploading.pop(key, None))
        return None

    async def close(self) -> None:
        """Wait for the uploads under way (bounded: a few seconds each)."""
        if self._uploading:
            await asyncio.gather(*self._uploading.values(), return_exceptions=True)

    async def _upload(self, key: str, style: str, card: Card) -> None:
        try:
            data = await asyncio.to_thread(self._draw, style, card)
            message = await self._bot().send_photo(
                chat_id=self._media_chat,
                photo=InputFile(data, filename=f"{key.replace(':', '-')}.png"),
                disable_notification=True,
            )
        except (TelegramError, ValueError) as error:
            logger.warning("could not upload the picture of %s: %s", key, error)
            return
        if not message.photo:
            return
        file_id = message.photo[-1].file_id
        self._keep(key, file_id)
        await self._state.state_put(file_id, platform=PLATFORM, kind=CARD_FILE, scope=key)

    def _draw(self, style: str, card: Card) -> bytes:
        sprites = self._pictures.images.sprites
        return encode(sprites.sprite(get_style(style), card, self._width), "png")

    def _keep(self, key: str, file_id: str) -> None:
        if len(self._known) >= _KEPT:
            self._known.clear()
        self._known[key] = file_id


def _code(card: Card) -> str:
    """A card's key: its rank and suit (jokers by deck: they are drawn red or black)."""
    return f"J{card.deck}" if card.is_joker else f"{card.rank}{card.suit}"
