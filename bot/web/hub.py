"""The hub: every new version of a table pushed to the pages watching it, each seeing its own.

The service tells the hub of each version it commits (``TableService.add_table_listener``:
one call per version, a computer's moves one by one); versions committed by another process
arrive through :mod:`bot.web.notify` (PostgreSQL ``LISTEN/NOTIFY``) and are read back from the
service. Each connection has its own queue and sender task: a slow page never holds the others
back, and a page that falls too far behind is closed (it reconnects and resumes). Successive
versions reach one page ``pace`` seconds apart, so the computers' moves can be followed; the
first version after a quiet spell goes at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.render import Message, Renderer
from bot.service import TableChange, TableInfo
from bot.service.presence import Presence
from bot.web.state import SharedKey, Viewer, build_state, event_texts, seat_of

__all__ = ["Connection", "Hub"]

logger = logging.getLogger(__name__)

HISTORY = 64  # versions kept per table for pages that resume
MAX_QUEUE = 256  # frames waiting for one page before it is dropped (it resumes)
LOG_LINES = 8  # the recent announcements a page gets with its first state
RECENT_TABLES = 2000  # tables whose recent announcements are kept

Send = Callable[[str], Awaitable[None]]
Frame = dict[str, object]  # a JSON frame to send (docs/web-protocol.md)
Item = TableChange | Frame | None
StyleFor = Callable[[TableInfo, Viewer], Awaitable[str]]


@dataclass(eq=False)
class Connection:
    """One page's WebSocket: who looks, the table watched, what waits to be sent."""

    viewer: Viewer
    send: Send
    table: int | None = None
    version: int = 0  # the last version sent
    deck: str = ""
    # (kind, item): a "frame" to send as is, a "first" or "change" to render, a "close".
    queue: asyncio.Queue[tuple[str, Item]] = field(default_factory=asyncio.Queue)
    sender: asyncio.Task[None] | None = None
    closed: bool = False


@dataclass
class _Feed:
    history: deque[TableChange] = field(default_factory=lambda: deque(maxlen=HISTORY))
    watchers: set[Connection] = field(default_factory=set)


class Hub:
    """Connections by table, the recent versions of each watched table, and the pushes."""

    def __init__(
        self,
        renderer: Renderer,
        *,
        style_for: StyleFor,
        presence: Presence | None = None,
        pace: float = 0.7,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.renderer = renderer
        self.style_for = style_for
        self.presence = presence or Presence()
        self.pace = pace
        self.clock = clock
        self._feeds: dict[int, _Feed] = {}
        # The public messages of recent versions, rendered once for all the pages of a table.
        self._shared: OrderedDict[SharedKey, Message] = OrderedDict()
        self._recent: OrderedDict[int, deque[TableChange]] = OrderedDict()
        self.pushed = 0  # state frames sent (metrics)
        # Seconds from a version's commit (the listener's call) to its frame written to each
        # page, the newest first out (metrics, benchmarks).
        self.push_seconds: deque[float] = deque(maxlen=100_000)
        self._committed_at: OrderedDict[tuple[int, int], float] = OrderedDict()

    # -- the service's side ------------------------------------------------------------------

    def table_changed(self, change: TableChange) -> None:
        """The service's table listener: keep the version, queue it for every watcher."""
        table = change.table.id
        if change.rematch_of is not None and change.rematch_of in self._feeds:
            # Those still looking at the finished game are told where the rematch is.
            for conn in list(self._feeds[change.rematch_of].watchers):
                self._put(
                    conn, "frame", {"type": "rematch", "table": change.rematch_of, "to": table}
                )
        if change.events:
            # What the chat heard lately, for a page that opens the table later (a reload).
            recent = self._recent.get(table)
            if recent is None:
                recent = self._recent[table] = deque(maxlen=LOG_LINES)
            recent.append(change)
            self._recent.move_to_end(table)
            while len(self._recent) > RECENT_TABLES:
                self._recent.popitem(last=False)
        feed = self._feeds.get(table)
        if feed is None:
            return  # nobody watches it here
        if feed.history and feed.history[-1].table.version >= change.table.version:
            return  # already known (a NOTIFY of our own commit, say)
        feed.history.append(change)
        self._committed_at[(table, change.table.version)] = self.clock()
        while len(self._committed_at) > 10_000:
            self._committed_at.popitem(last=False)
        for conn in list(feed.watchers):
            self._put(conn, "change", change)

    @property
    def watched(self) -> set[int]:
        return set(self._feeds)

    def version_of(self, table: int) -> int | None:
        feed = self._feeds.get(table)
        return feed.history[-1].table.version if feed and feed.history else None

    # -- the pages' side ---------------------------------------------------------------------

    def open(self, viewer: Viewer, send: Send) -> Connection:
        conn = Connection(viewer, send)
        conn.sender = asyncio.create_task(self._sender(conn), name="web-sender")
        return conn

    async def close(self, conn: Connection) -> None:
        conn.closed = True
        self._unwatch(conn)
        if conn.sender is not None:
            conn.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await conn.sender

    async def watch(self, conn: Connection, current: TableChange, since: int | None) -> None:
        """Start sending ``current``'s table to ``conn``: the versions after ``since`` still
        kept, one by one, or else the current one."""
        self._unwatch(conn)
        table = current.table
        conn.table = table.id
        try:
            conn.deck = await self.style_for(table, conn.viewer)
        except Exception:
            logger.warning("table %s: the deck style could not be read", table.id, exc_info=True)
            conn.deck = "francesi" if table.family == "scala40" else "napoletane"
        feed = self._feeds.setdefault(table.id, _Feed())
        if not feed.history or feed.history[-1].table.version < table.version:
            feed.history.append(current)
        feed.watchers.add(conn)
        self.presence.connect(conn.viewer.platform, conn.viewer.user_id, table.id)
        self._presence_changed(table.id)
        latest = feed.history[-1]
        backlog = [c for c in feed.history if since is not None and c.table.version > since]
        contiguous = (
            since is not None
            and backlog
            and backlog[0].table.version == since + 1
            and all(b.table.version == a.table.version + 1 for a, b in itertools.pairwise(backlog))
        )
        if since is not None and since >= latest.table.version:
            conn.version = since
            self._put(
                conn,
                "frame",
                {"type": "uptodate", "table": table.id, "version": latest.table.version},
            )
            return
        first = backlog if contiguous else [latest]
        self._put(conn, "first", first[0])
        for change in first[1:]:
            self._put(conn, "change", change)

    def _unwatch(self, conn: Connection) -> None:
        if conn.table is None:
            return
        table = conn.table
        feed = self._feeds.get(table)
        conn.table = None
        self.presence.disconnect(conn.viewer.platform, conn.viewer.user_id, table)
        if feed is None:
            return
        feed.watchers.discard(conn)
        if not feed.watchers:
            del self._feeds[table]
        else:
            self._presence_changed(table)

    def _presence_changed(self, table: int) -> None:
        feed = self._feeds.get(table)
        if feed is None or not feed.history:
            return
        seats = sorted(self._connected(feed.history[-1].table))
        for conn in list(feed.watchers):
            self._put(conn, "frame", {"type": "presence", "table": table, "connected": seats})

    def _connected(self, table: TableInfo) -> frozenset[int]:
        return frozenset(
            s.seat
            for s in table.seats
            if s is not None
            and not s.computer
            and self.presence.on_page(s.platform, s.user_id, table.id)
        )

    def _put(self, conn: Connection, kind: str, item: Item) -> None:
        if conn.closed:
            return
        if conn.queue.qsize() >= MAX_QUEUE:
            logger.info("a page fell %d frames behind: dropped (it resumes)", MAX_QUEUE)
            conn.closed = True
            conn.queue.put_nowait(("close", None))
            return
        conn.queue.put_nowait((kind, item))

    def state_frame(self, conn: Connection, change: TableChange, *, first: bool) -> Frame:
        table = change.table
        shared: dict[SharedKey, Message] = {}
        for kind in ("lobby", "table"):
            key = (kind, table.id, table.version, conn.viewer.locale)
            if key in self._shared:
                shared[key] = self._shared[key]
        state = build_state(
            self.renderer,
            change,
            conn.viewer,
            deck=conn.deck,
            connected=self._connected(table),
            shared=shared,
        )
        for key, message in shared.items():
            self._shared[key] = message
        while len(self._shared) > 2048:
            self._shared.popitem(last=False)
        frame: Frame = {
            "type": "state",
            "table": table.id,
            "version": table.version,
            "state": state,
            "events": event_texts(self.renderer, change.events, conn.viewer.locale),
        }
        if first:
            log: list[str] = []
            for old in self._recent.get(table.id, ()):
                if old.table.version <= table.version:
                    log.extend(event_texts(self.renderer, old.events, conn.viewer.locale))
            frame["log"] = log[-LOG_LINES:]
        return frame

    async def _sender(self, conn: Connection) -> None:
        try:
            await self._send_loop(conn)
        except (ConnectionError, RuntimeError) as exc:
            # The page went away mid-send: its handler closes the connection.
            logger.debug("a page's socket failed: %s", exc)
            conn.closed = True

    async def _send_loop(self, conn: Connection) -> None:
        last = -1e9
        while True:
            kind, item = await conn.queue.get()
            if kind == "close":
                with contextlib.suppress(Exception):
                    await conn.send(json.dumps({"type": "error", "reason": "behind"}))
                return
            if kind == "frame":
                await conn.send(json.dumps(item, ensure_ascii=False))
                continue
            if not isinstance(item, TableChange):
                continue
            change = item
            if conn.table != change.table.id:
                continue
            if kind == "change" and change.table.version <= conn.version:
                continue
            if kind == "change" and self.pace > 0:
                wait = last + self.pace - self.clock()
                if wait > 0:
                    await asyncio.sleep(wait)
            try:
                frame = self.state_frame(conn, change, first=kind == "first")
            except Exception:
                logger.exception(
                    "table %s: the state of version %s failed",
                    change.table.id,
                    change.table.version,
                )
                continue
            conn.version = change.table.version
            await conn.send(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))
            self.pushed += 1
            last = self.clock()
            committed = self._committed_at.get((change.table.id, change.table.version))
            if committed is not None and kind == "change":
                self.push_seconds.append(last - committed)

    def seat(self, conn: Connection) -> int | None:
        """The seat ``conn``'s viewer plays at its table now."""
        if conn.table is None:
            return None
        feed = self._feeds.get(conn.table)
        if feed is None or not feed.history:
            return None
        return seat_of(feed.history[-1].table, conn.viewer)
