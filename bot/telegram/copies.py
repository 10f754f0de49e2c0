"""The old copies of a table message, closed with an abandoned table.

A table message that scrolled too far up is posted anew below; the old copy stays in its chat
(without its buttons) and is noted in the adapter state. When the table is closed without an
end (``/abandon``), every copy still showing it open is edited to the closed table.

``TableCopies`` is a part given to ``bot.telegram.delivery.Delivery``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram.error import TelegramError

from bot.render import Renderer
from bot.service import Audience, ChatRef, LobbyView, Result, TableInfo, TableService, TableView
from bot.telegram.book import MessageBook, Shown
from bot.telegram.ids import PLATFORM, chat_key, where_of
from bot.telegram.writer import Writer

logger = logging.getLogger(__name__)

# Adapter-state kind: the old copies of a table message left in its chat (posted anew below
# them), ``[Shown.to_json(), ...]`` per chat; the latest MAX_COPIES are closed with the table.
COPIES = "copies"
MAX_COPIES = 20


class TableCopies:
    """Notes the old copies of a table message, and closes them with the table."""

    def __init__(
        self,
        *,
        book: MessageBook,
        writer: Writer,
        renderer: Renderer,
        views: Callable[[int], Awaitable[Result]] | None,
        service: TableService | None,
        hurry: Callable[[int], None],
    ) -> None:
        self._book = book
        self._writer = writer
        self._renderer = renderer
        # Every view of a table as it stands: the closed table's last state.
        self._views = views
        # The chat's language, when the table's views cannot be read.
        self._service = service
        # The chat's deletions waiting for the budget may go now (inline play's).
        self._hurry = hurry

    async def keep(self, table_id: int, shown: Shown) -> None:
        """An old copy of a table message stays in its chat (the table was posted anew below
        it): noted, so closing the table closes it too."""
        scope = chat_key(shown.where)
        try:
            found = await self._book.state.state_get(
                platform=PLATFORM, kind=COPIES, scope=scope, table_id=table_id
            )
            copies = [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []
            copies = [*copies, shown.to_json()][-MAX_COPIES:]
            await self._book.state.state_put(
                copies, platform=PLATFORM, kind=COPIES, scope=scope, table_id=table_id
            )
        except Exception as error:
            logger.warning("could not note an old copy of table %s: %s", table_id, error)

    async def close(self, table: TableInfo) -> None:
        """A table closed without an end (``/abandon``): every copy of its message in its
        chat that still shows it open is edited to the closed table, without buttons, and the
        chat's deletions waiting for the budget (old copies, turn mentions, posted moves, all
        with buttons) go now. Before the table's adapter state is forgotten."""
        if table.status != "abandoned":
            return
        try:
            await self._close_each_copy(table)
        except Exception as error:
            # (the table's adapter state is forgotten after this in any case)
            logger.warning("could not close the copies of table %s: %s", table.id, error)

    async def _close_each_copy(self, table: TableInfo) -> None:
        try:
            where = where_of(table.chat_id)
        except ValueError:
            return
        scope = chat_key(where)
        found = await self._book.state.state_get(
            platform=PLATFORM, kind=COPIES, scope=scope, table_id=table.id
        )
        copies = [
            copy
            for entry in (found if isinstance(found, list) else [])
            if (copy := Shown.from_json(entry)) is not None
        ]
        current = await self._book.public(table.id, where)
        # The current message first, then the copies from the newest (the most in sight).
        ordered = [current, *reversed(copies)]
        live = [c for c in ordered if c is not None and c.version < table.version]
        messenger = self._writer.messenger
        if live:
            text = await self._closed_text(table)
            short = (
                text
                if self._writer.fits_caption(text)
                else await self._closed_text(table, full=False)
            )
            for copy in live:
                try:
                    if copy.photo:
                        await messenger.edit_caption(where, copy.message_id, short, None)
                    else:
                        await messenger.edit(where, copy.message_id, text, None)
                except TelegramError as error:
                    logger.info("could not close a copy of table %s: %s", table.id, error)
        self._hurry(where.chat_id)

    async def _closed_text(self, table: TableInfo, *, full: bool = True) -> str:
        """The table message of a closed table: its last state saying it was closed (a lobby,
        or not ``full``: only that it was closed)."""
        if full and self._views is not None and table.status == "abandoned":
            try:
                views = await self._views(table.id)
            except Exception as error:
                logger.info("could not read the closed table %s: %s", table.id, error)
            else:
                for event in views.events:
                    if isinstance(event, TableView) and event.audience.kind == "chat":
                        return self._renderer.render(event).text
        locale = None
        if self._service is not None:
            locale = await self._service.chat_locale(ChatRef(PLATFORM, table.chat_id))
        audience = Audience("chat", PLATFORM, table.chat_id)
        lobby = LobbyView(audience=audience, locale=locale or "it", table=table)
        return self._renderer.render(lobby).text
