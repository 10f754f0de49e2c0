"""One message, with or without its picture: posted, or edited in place.

A picture goes with its text as its caption; past Telegram's caption limit the picture goes
alone and the text (with the buttons) right under it, its *companion*. A changed picture is
swapped in place with ``editMessageMedia``; an unchanged one only gets its caption and keyboard
edited, and a picture uploaded once is sent again by Telegram's file id (``PhotoFiles``).

``Writer`` is a part given to ``bot.telegram.delivery.Delivery``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from telegram import Bot, InlineKeyboardMarkup

from bot.render.images import RenderedImage
from bot.telegram.book import Shown
from bot.telegram.messenger import Messenger, Where
from bot.telegram.photo_files import PhotoFiles

# Telegram's caption limit: a longer text goes as a text message under its picture.
CAPTION_LIMIT = 1024


class Writer:
    """Posts a message or edits one in place, its picture sent again by file id when known."""

    def __init__(self, *, bot: Callable[[], Bot], photo_files: PhotoFiles) -> None:
        # A getter, not a Bot: the Application (and its bot) is built after the adapter.
        self._bot = bot
        self.photo_files = photo_files

    @property
    def messenger(self) -> Messenger:
        return Messenger(self._bot())

    @staticmethod
    def fits_caption(text: str) -> bool:
        """Whether ``text`` goes as its picture's caption (else under it)."""
        return len(text) <= CAPTION_LIMIT

    async def put(
        self,
        where: Where,
        shown: Shown | None,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown:
        """Edit ``shown`` in place when it can show this, else post anew; what shows it now."""
        if shown is not None:
            edited = await self.edit(shown, version, text, markup, image)
            if edited is not None:
                return edited
        return await self.post(where, version, text, markup, image)

    async def edit(
        self,
        shown: Shown,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown | None:
        """Edit ``shown`` in place; ``None`` when ``shown`` cannot become this message (a text
        cannot turn into a photo message, nor back): the caller posts a new one."""
        messenger, where = self.messenger, shown.where
        if image is None:
            if shown.photo or shown.companion is not None:
                return None
            if not await messenger.edit(where, shown.message_id, text, markup):
                return None
            return replace(shown, version=version)
        if self.fits_caption(text):
            if not shown.photo:
                return None
            if shown.digest == image.digest:
                # The same picture: only the caption and buttons change, nothing is uploaded.
                ok = await messenger.edit_caption(where, shown.message_id, text, markup)
            else:
                ok, file_id = await self.photo_files.with_photo(
                    image,
                    lambda photo: messenger.edit_photo(
                        where,
                        shown.message_id,
                        photo,
                        filename=image.filename,
                        caption=text,
                        markup=markup,
                    ),
                )
                await self.photo_files.learn_file(image, file_id)
            return replace(shown, version=version, digest=image.digest) if ok else None
        if shown.photo or shown.companion is None:
            return None
        if shown.digest != image.digest:
            companion = shown.companion
            ok, file_id = await self.photo_files.with_photo(
                image,
                lambda photo: messenger.edit_photo(
                    where, companion, photo, filename=image.filename
                ),
            )
            await self.photo_files.learn_file(image, file_id)
            if not ok:
                return None
        if not await messenger.edit(where, shown.message_id, text, markup):
            return None
        return replace(shown, version=version, digest=image.digest)

    async def post(
        self,
        where: Where,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown:
        """Post a new message; what shows it."""
        messenger = self.messenger
        if image is None:
            message_id = await messenger.send(where, text, markup)
            return Shown(where, message_id, version)
        if self.fits_caption(text):
            message_id, file_id = await self.photo_files.with_photo(
                image,
                lambda photo: messenger.send_photo(
                    where, photo, filename=image.filename, caption=text, markup=markup
                ),
            )
            await self.photo_files.learn_file(image, file_id)
            return Shown(where, message_id, version, photo=True, digest=image.digest)
        # Too long for a caption: the picture, then the text with the buttons under it.
        companion, file_id = await self.photo_files.with_photo(
            image, lambda photo: messenger.send_photo(where, photo, filename=image.filename)
        )
        await self.photo_files.learn_file(image, file_id)
        message_id = await messenger.send(where, text, markup)
        return Shown(where, message_id, version, digest=image.digest, companion=companion)
