"""Pictures sent again by Telegram's file id instead of their bytes.

A picture uploaded once gets a file id from Telegram; it is remembered as "digest -> file id"
(in memory, and in the adapter state so other processes and restarts reuse it), and a file id
Telegram no longer accepts is dropped and the bytes uploaded again.

``PhotoFiles`` is a part given to ``bot.telegram.delivery.Delivery``.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest

from bot.render.images import RenderedImage
from bot.telegram.book import MessageBook
from bot.telegram.ids import PLATFORM

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

# Uploaded pictures remembered as "digest -> Telegram file id" (in memory, and in the adapter
# state under this kind, so other processes reuse them).
_FILE_IDS = 1024
FILE = "file"


class PhotoFiles:
    """The file ids of the pictures this process (or another) uploaded."""

    def __init__(self, book: MessageBook) -> None:
        self.book = book
        self._file_ids: OrderedDict[str, str] = OrderedDict()

    async def with_photo(
        self, image: RenderedImage, call: Callable[[bytes | str], Awaitable[_T]]
    ) -> _T:
        """``call`` with the picture's known file id, or its bytes; a file id Telegram no
        longer accepts is dropped and the bytes are uploaded instead."""
        photo = await self._photo(image)
        if isinstance(photo, bytes):
            return await call(photo)
        try:
            return await call(photo)
        except BadRequest as error:
            if "file" not in error.message.lower():
                raise
            logger.info("file id of picture %s refused: uploading it again", image.digest)
            self._file_ids.pop(image.digest, None)
            return await call(image.data)

    async def _photo(self, image: RenderedImage) -> bytes | str:
        """Telegram's file id when this picture was uploaded before (by any process), else its
        bytes."""
        known = self._file_ids.get(image.digest)
        if known is None:
            stored = await self.book.state.state_get(
                platform=PLATFORM, kind=FILE, scope=image.digest
            )
            known = stored if isinstance(stored, str) else None
        return known or image.data

    async def learn_file(self, image: RenderedImage, file_id: str | None) -> None:
        """Remember the file id Telegram gave a picture."""
        if file_id is None or self._file_ids.get(image.digest) == file_id:
            return
        self._file_ids[image.digest] = file_id
        self._file_ids.move_to_end(image.digest)
        while len(self._file_ids) > _FILE_IDS:
            self._file_ids.popitem(last=False)
        await self.book.state.state_put(file_id, platform=PLATFORM, kind=FILE, scope=image.digest)
