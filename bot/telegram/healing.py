"""Delivery's healing: a failed call tried again, and tables delivered anew.

A call Telegram fails (5xx, a timeout, a network error, a 429 past the limiter's retries) is
retried with backoff; past the last try the table's every view is delivered anew a while later.
After a restart every open table whose last delivery is not known to have gone out is delivered
anew; a stale press gets the presser's view again; a group that became a supergroup takes its
tables along.

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
)
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
        """After a restart: every open table (``{table id: version}``) whose delivery is not
        recorded up to its version is delivered anew, every view. Returns how many."""
        views = self._views
        if views is None:
            return 0
        count = 0
        for table_id, version in sorted(versions.items()):
            if self._closing:
                break
            delivered = await self.book.delivered(table_id)
            if delivered is not None and delivered >= version:
                continue
            try:
                result = await views(table_id)
            except Exception:
                logger.exception("could not load table %s to deliver it anew", table_id)
                continue
            if result.table is not None and result.events:
                logger.info("table %s: delivering anew (version %s, delivered %s)",
                            table_id, version, delivered)  # fmt: skip
                self.submit(result, origin=None)
                # A call the killed process had in flight may still land, late, over this:
                # once more when it can no longer.
                self._resync_later(table_id, after=LATE_CALLS)
                count += 1
        return count

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
        """``redeliver`` in the background (the bot answers updates meanwhile)."""

        async def run() -> None:
            try:
                await self.redeliver(await versions)
            except Exception:
                logger.exception("redelivery after the restart failed")

        self._spawn(run(), self._tasks)
