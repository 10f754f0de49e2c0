"""Delivery's healing: tables delivered anew after a restart, a stale press, a moved chat.

After a restart each message of every open table (the table message, each player's hand, the
turn notice of the player to move) is compared with the table's version, and each one behind it
is delivered anew, whichever of them the stopped process had sent; until a table is compared,
nothing of it is recorded as delivered. A stale press gets the presser's view again; a group
that became a supergroup takes its tables along. (A call Telegram failed is retried by the
lanes, ``bot.telegram.lanes``.)

``Healing`` is given the lanes it submits to and the message book it compares with;
``bot.telegram.delivery.Delivery`` holds it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from bot.service import (
    ChatRef,
    Event,
    HandView,
    LobbyView,
    Result,
    TableEvent,
    TableService,
    TableView,
    TurnNotice,
)
from bot.telegram.book import Delivered, MessageBook
from bot.telegram.ids import PLATFORM, where_of
from bot.telegram.lanes import Lanes
from bot.telegram.outbox import Item

logger = logging.getLogger(__name__)

# A player's view is healed (sent again after a stale press) at most this often (seconds).
HEAL_EVERY = 1.0


class Healing:
    """Redelivery after a restart, healing after a stale press, tables following their chat."""

    def __init__(
        self,
        *,
        lanes: Lanes,
        book: MessageBook,
        restart_views: Callable[[int], Awaitable[Result]] | None,
    ) -> None:
        self._lanes = lanes
        self._book = book
        # Every view of a table as it stands with the turn notice of the player to move: what
        # a restart compares (none: nothing is compared, everything is recorded at once).
        self._restart_views = restart_views
        if restart_views is not None:
            # From the first update on, until ``start_redelivery`` knows the open tables (lest
            # a press healed meanwhile record a table as delivered).
            lanes.hold_records()
        self._healed: dict[tuple[int, int], float] = {}
        self._migrated: set[tuple[int, int]] = set()

    async def redeliver(self, versions: dict[int, int]) -> int:
        """After a restart: each message of every open table (``{table id: version}``) that is
        not known current at the table's version is delivered anew, at the version now current.
        Returns how many tables needed it."""
        views = self._restart_views
        if views is None:
            self._lanes.checking(())
            return 0
        self._lanes.checking(versions)
        count = 0
        for table_id, version in sorted(versions.items()):
            if self._lanes.closing:
                break
            try:
                count += await self._heal_messages(table_id, version, views)
            except Exception:
                logger.exception("could not deliver table %s anew", table_id)
            finally:
                self._lanes.checked(table_id)
        return count

    async def _heal_messages(
        self, table_id: int, version: int, views: Callable[[int], Awaitable[Result]]
    ) -> int:
        """Deliver anew the table's messages behind its version (1), or none (0)."""
        delivered = await self._book.delivery(table_id)
        if delivered is not None and delivered.whole >= version:
            return 0
        result = await views(table_id)
        table = result.table
        if table is None:
            return 0
        behind: list[Event] = []
        keys: set[str] = set()
        for event in result.events:
            key = Item(event, None).message
            if key is not None:
                keys.add(key)
                if await self._shown_at(event, key, delivered) < table.version:
                    behind.append(event)
        if delivered is not None and set(delivered.behind) - keys:
            # Messages that are no more (a player who left, a chat that moved): forgotten.
            kept = {k: v for k, v in delivered.behind.items() if k in keys}
            await self._book.keep_delivered(table_id, Delivered(delivered.version, kept))
        if not behind:
            if delivered is None or delivered.version < table.version:
                await self._book.keep_delivered(table_id, Delivered(table.version))
            return 0
        logger.info("table %s: %d message(s) behind version %s delivered anew",
                    table_id, len(behind), table.version)  # fmt: skip
        self._lanes.submit(Result(behind, table), origin=None)
        # A call the killed process had in flight may still land, late, over this: once
        # more when it can no longer.
        self._lanes.resync_later(table_id, late=True)
        return 1

    async def _shown_at(self, event: Event, key: str, delivered: Delivered | None) -> int:
        """The newest version the message of ``event`` is known to be current at."""
        known = 0 if delivered is None else delivered.of(key)
        if not isinstance(event, TableEvent):
            return known
        table_id = event.table.id
        if isinstance(event, HandView):
            shown = await self._book.private(table_id, int(event.audience.id))
            return max(known, 0 if shown is None else shown.version)
        if isinstance(event, TableView | LobbyView) and event.audience.kind == "chat":
            public = await self._book.public(table_id, where_of(event.audience.id))
            return max(known, 0 if public is None else public.version)
        if isinstance(event, TurnNotice):
            noticed = await self._book.notice_version(table_id, int(event.audience.id))
            return max(known, noticed)
        return known

    async def heal(self, shown: Result, *, user_id: int) -> None:
        """After a stale or refused press: the presser's hand again, and the table's message
        when it shows an older version (``shown``: the service's ``show(public=True)``). At
        most once a second per player and table, whatever a client repeats."""
        table = shown.table
        if table is None:
            return
        now = time.monotonic()
        key = (user_id, table.id)
        if now - self._healed.get(key, -HEAL_EVERY) < HEAL_EVERY:
            return
        self._healed[key] = now
        if len(self._healed) > 4096:
            self._healed = {k: t for k, t in self._healed.items() if now - t < HEAL_EVERY}
        events: list[Event] = []
        for event in shown.events:
            if isinstance(event, HandView) and int(event.audience.id) == user_id:
                events.append(event)
            elif isinstance(event, TableView | LobbyView) and event.audience.kind == "chat":
                where = where_of(event.audience.id)
                public = await self._book.public(table.id, where)
                if public is None or public.version < table.version:
                    events.append(event)
        if events:
            self._lanes.submit(Result(events, table), origin=None)

    async def migrated(self, service: TableService, old: int, new: int) -> None:
        """Chat ``old`` is now ``new`` (a group became a supergroup; Telegram says so in both
        chats, and in an error when the bot writes to the old id): its open tables follow,
        and their messages are posted in the new chat."""
        if (old, new) in self._migrated:
            return
        self._migrated.add((old, new))
        result = await service.move_chat(ChatRef(PLATFORM, str(old)), str(new))
        if result.events:
            logger.info("chat %s became %s: its tables moved", old, new)
        for event in result.events:
            if isinstance(event, TableEvent):
                self._lanes.submit(Result([event], event.table), origin=None)

    def start_redelivery(self, versions: Awaitable[dict[int, int]]) -> None:
        """``redeliver`` in the background (the bot answers updates meanwhile; nothing is
        recorded as delivered until the open tables are known, and each is compared)."""
        self._lanes.hold_records()

        async def run() -> None:
            try:
                await self.redeliver(await versions)
            except Exception:
                logger.exception("redelivery after the restart failed")
                self._lanes.checking(())

        self._lanes.background(run())
