"""Versions announced between processes through PostgreSQL ``LISTEN/NOTIFY``: a page connected
to one ``python -m bot run`` process sees the moves made through another.

Each process NOTIFYs ``tavolo_tables`` with ``"<table>:<version>"`` after every version it
commits (its own table listener), and LISTENs on one connection of its own (asyncpg's
``add_listener``): a version of a table that one of its pages watches, newer than the one it
holds, is read back from the service (which reads through to the database) and pushed. No
broker of our own: PostgreSQL carries the announcement; SQLite stays one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Protocol

from bot.service import TableChange, TableService
from bot.web.hub import Hub


class _Listening(Protocol):
    """What is used of an ``asyncpg.Connection`` (asyncpg ships no types)."""

    def get_server_pid(self) -> int: ...

    def add_listener(
        self, channel: str, callback: Callable[[object, int, str, str], None]
    ) -> Awaitable[None]: ...

    def add_termination_listener(self, callback: Callable[[object], None]) -> None: ...

    def is_closed(self) -> bool: ...

    def execute(self, query: str, *args: object) -> Awaitable[str]: ...

    def close(self) -> Awaitable[None]: ...


__all__ = ["CHANNEL", "PgAnnouncer", "asyncpg_dsn"]

logger = logging.getLogger(__name__)

CHANNEL = "tavolo_tables"
QUEUE = 10_000  # announcements waiting to be sent; past it, the oldest matter least


def asyncpg_dsn(url: str) -> str | None:
    """The asyncpg DSN of a PostgreSQL SQLAlchemy URL; ``None`` for any other database."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if not parsed.drivername.startswith("postgresql"):
        return None
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


class PgAnnouncer:
    """Announce this process's versions, and push the other processes' to this hub."""

    def __init__(self, service: TableService, hub: Hub, dsn: str) -> None:
        self.service = service
        self.hub = hub
        self.dsn = dsn
        self._conn: _Listening | None = None
        self._pid: int | None = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE)
        self._tasks: set[asyncio.Task[None]] = set()
        self._wanted: dict[int, int] = {}  # the newest version heard of, per table fetched
        self.received = 0  # announcements of other processes acted upon (tests, metrics)
        self._closed = False

    async def start(self) -> None:
        await self._connect()
        self.service.add_table_listener(self._changed)
        self._spawn(self._sender())

    async def _connect(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        conn: _Listening = await asyncpg.connect(self.dsn)
        self._conn = conn
        self._pid = conn.get_server_pid()
        await conn.add_listener(CHANNEL, self._heard)
        conn.add_termination_listener(self._lost)

    def _lost(self, _conn: object) -> None:
        """The listening connection closed (PostgreSQL restarted, the network): listen again."""
        if self._closed:
            return
        logger.warning("the LISTEN connection closed: reconnecting")
        self._spawn(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.5
        for _ in range(1000):
            if self._closed:
                return
            try:
                await self._connect()
            except Exception as exc:
                logger.warning("LISTEN again failed (%s): retrying in %.0f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
                continue
            logger.info("listening again for other processes' table versions")
            # What the other processes announced meanwhile is lost: the watched tables are read.
            for table in list(self.hub.watched):
                self._wanted.setdefault(table, 0)
                self._spawn(self._fetch(table))
            return

    async def close(self) -> None:
        self._closed = True
        self.service.remove_table_listener(self._changed)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    def _spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _changed(self, change: TableChange) -> None:
        payload = f"{change.table.id}:{change.table.version}"
        if self._outbox.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self._outbox.get_nowait()
        self._outbox.put_nowait(payload)

    async def _sender(self) -> None:
        while True:
            payload = await self._outbox.get()
            try:
                if self._conn is None or self._conn.is_closed():
                    raise ConnectionError("not connected")
                await self._conn.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
            except Exception as exc:
                logger.warning("could not announce a table version: %s", exc)
                await asyncio.sleep(1.0)

    def _heard(self, _conn: object, pid: int, _channel: str, payload: str) -> None:
        if pid == self._pid:
            return  # our own
        table_text, _, version_text = payload.partition(":")
        if not table_text.isdigit() or not version_text.isdigit():
            return
        table, version = int(table_text), int(version_text)
        if table not in self.hub.watched:
            return
        known = self.hub.version_of(table)
        if known is not None and known >= version:
            return
        fetching = table in self._wanted
        self._wanted[table] = max(version, self._wanted.get(table, 0))
        if not fetching:
            self._spawn(self._fetch(table))

    async def _fetch(self, table: int) -> None:
        """Read the table until this process holds the newest version heard of (bounded)."""
        try:
            for _ in range(10):
                wanted = self._wanted[table]
                current = await self.service.current(table)
                if current is None:
                    return
                self.received += 1
                self.hub.table_changed(current)
                if current.table.version >= self._wanted[table] or wanted == self._wanted[table]:
                    return
        finally:
            self._wanted.pop(table, None)
