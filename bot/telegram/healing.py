"""Delivery's healing: a failed call tried again, and tables delivered anew.

A call Telegram fails (5xx, a timeout, a network error, a 429 past the limiter's retries) is
retried with backoff; past the last try the table's every view is delivered anew a while later.
After a restart each message of every open table (the table message, each player's hand, the
turn notice of the player to move) is compared with the table's version, and each one behind it
is delivered anew, whichever of them the stopped process had sent; until a table is compared,
nothing of it is recorded as delivered. A stale press gets the presser's view again; a group
that became a supergroup takes its tables along.

``Healing`` is a part of ``bot.telegram.delivery.Delivery``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
from collections.abc import Awaitable, Callable

from telegram.error import RetryAfter, TelegramError, TimedOut

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
from bot.telegram.book import Delivered
from bot.telegram.ids import PLATFORM, where_of
from bot.telegram.lanes import Item, Lane, Lanes, Outbox, item_name

logger = logging.getLogger(__name__)

# A call Telegram failed (5xx, a timeout, a network error, a 429 past the limiter's retries)
# is tried again after each of these waits (seconds), then given up.
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
# A table whose message gave up is delivered anew (every view) once after this many seconds.
RESYNC_AFTER = 30.0
# A call that timed out (or was in flight when a process died) may still be done by Telegram
# this many seconds later, over a newer state: the table is delivered once more after it.
LATE_CALLS = 12.0
# A player's view is healed (sent again after a stale press) at most this often (seconds).
HEAL_EVERY = 1.0


def retry_seconds(error: RetryAfter) -> float:
    """Telegram's ``retry_after`` in seconds (PTB keeps it as a timedelta)."""
    wait = getattr(error, "_retry_after", None)
    if isinstance(wait, datetime.timedelta):
        return wait.total_seconds()
    with contextlib.suppress(TypeError, ValueError):
        return float(error.retry_after)  # type: ignore[arg-type]
    return 1.0


class Healing(Lanes):
    """Retries, resyncs, redelivery after a restart, healing after a stale press."""

    _retry_delays: tuple[float, ...]
    _resync_after: float
    # Every view of a table as it stands (the service's ``views``): to heal after a failure.
    _views: Callable[[int], Awaitable[Result]] | None
    # The same with the turn notice of the player to move: what a restart compares.
    _restart_views: Callable[[int], Awaitable[Result]] | None
    _healed: dict[tuple[int, int], float]
    _migrated: set[tuple[int, int]]
    _resyncs: set[int]

    async def _retry(self, outbox: Outbox, lane: Lane, item: Item, error: TelegramError) -> bool:
        """Try a failed call again after a wait; give up after the last wait, and deliver the
        whole table anew a while later."""
        if item.attempts >= len(self._retry_delays):
            logger.warning(
                "giving up on %s of table %s after %d tries: %s",
                item_name(item),
                outbox.table_id,
                item.attempts + 1,
                error,
            )
            self._failed.add(outbox.table_id)
            self._resync_later(outbox.table_id)
            return False
        delay = self._retry_delays[item.attempts]
        if isinstance(error, TimedOut):
            # Telegram may still do the call, late, over a newer state sent meanwhile: the
            # table's views go once more when that can no longer happen.
            self._resync_later(outbox.table_id, after=LATE_CALLS)
        if isinstance(error, RetryAfter):
            delay = max(delay, retry_seconds(error))
        item.attempts += 1
        logger.info("%s of table %s failed (%s): retrying in %.1f s",
                    item_name(item), outbox.table_id, error, delay)  # fmt: skip
        await asyncio.sleep(delay)
        key = item.key
        newer = next((i for i in lane.items if key is not None and i.key == key), None)
        if newer is not None:
            # A newer state of the same message came meanwhile: it goes instead.
            newer.extra = item.extra + newer.extra
            newer.asked = newer.asked or item.asked
            newer.tickets += item.tickets
            item.tickets = []
        else:
            lane.items.appendleft(item)
        return True

    def _resync_later(self, table_id: int, *, after: float | None = None) -> None:
        """Deliver every view of the table anew ``after`` seconds (once, however often asked
        meanwhile)."""
        views = self._views
        if views is None or self._closing or table_id in self._resyncs:
            return
        self._resyncs.add(table_id)
        # Not recorded as delivered until then: if this process dies first, the next start
        # delivers it anew (a late call may still land over what this one sent).
        self._unsettled.add(table_id)
        wait = self._resync_after if after is None else after

        async def resync() -> None:
            try:
                await asyncio.sleep(wait)
            finally:
                self._resyncs.discard(table_id)
                self._unsettled.discard(table_id)
            self._failed.discard(table_id)
            result = await views(table_id)
            if result.table is not None and result.table.status in ("lobby", "playing"):
                self.submit(result, origin=None)

        self._spawn(resync(), self._sleepers)

    async def redeliver(self, versions: dict[int, int]) -> int:
        """After a restart: each message of every open table (``{table id: version}``) that is
        not known current at the table's version is delivered anew, at the version now current.
        Returns how many tables needed it."""
        views = self._restart_views
        if views is None:
            self._unchecked = set()
            return 0
        unchecked = self._unchecked = set(versions)
        count = 0
        for table_id, version in sorted(versions.items()):
            if self._closing:
                break
            try:
                count += await self._heal_messages(table_id, version, views)
            except Exception:
                logger.exception("could not deliver table %s anew", table_id)
            finally:
                unchecked.discard(table_id)
        return count

    async def _heal_messages(
        self, table_id: int, version: int, views: Callable[[int], Awaitable[Result]]
    ) -> int:
        """Deliver anew the table's messages behind its version (1), or none (0)."""
        delivered = await self.book.delivery(table_id)
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
            await self.book.keep_delivered(table_id, Delivered(delivered.version, kept))
        if not behind:
            if delivered is None or delivered.version < table.version:
                await self.book.keep_delivered(table_id, Delivered(table.version))
            return 0
        logger.info("table %s: %d message(s) behind version %s delivered anew",
                    table_id, len(behind), table.version)  # fmt: skip
        self.submit(Result(behind, table), origin=None)
        # A call the killed process had in flight may still land, late, over this: once
        # more when it can no longer.
        self._resync_later(table_id, after=LATE_CALLS)
        return 1

    async def _shown_at(self, event: Event, key: str, delivered: Delivered | None) -> int:
        """The newest version the message of ``event`` is known to be current at."""
        known = 0 if delivered is None else delivered.of(key)
        if not isinstance(event, TableEvent):
            return known
        table_id = event.table.id
        if isinstance(event, HandView):
            shown = await self.book.private(table_id, int(event.audience.id))
            return max(known, 0 if shown is None else shown.version)
        if isinstance(event, TableView | LobbyView) and event.audience.kind == "chat":
            public = await self.book.public(table_id, where_of(event.audience.id))
            return max(known, 0 if public is None else public.version)
        if isinstance(event, TurnNotice):
            noticed = await self.book.notice_version(table_id, int(event.audience.id))
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
                public = await self.book.public(table.id, where)
                if public is None or public.version < table.version:
                    events.append(event)
        if events:
            self.submit(Result(events, table), origin=None)

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
                self.submit(Result([event], event.table), origin=None)

    def start_redelivery(self, versions: Awaitable[dict[int, int]]) -> None:
        """``redeliver`` in the background (the bot answers updates meanwhile; nothing is
        recorded as delivered until the open tables are known, and each is compared)."""
        self._unchecked = None

        async def run() -> None:
            try:
                await self.redeliver(await versions)
            except Exception:
                logger.exception("redelivery after the restart failed")
                self._unchecked = set()

        self._spawn(run(), self._tasks)
