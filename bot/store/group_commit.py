"""SQLite's fast path: a move's save in one call into aiosqlite's worker thread, group-committed,
and small reads with no thread hop at all. The one place that touches aiosqlite's internals.

Why. Through SQLAlchemy's async layer every statement on aiosqlite costs three hops into its
worker thread (cursor, execute, close), plus begin and commit; each hop hands the GIL over and
back, and on a busy machine waits for the scheduler. The profile of ``benchmarks/load_telegram.py``
(see ``benchmarks/README.md``, "What the profile showed") found aiosqlite's
``SimpleQueue.put_nowait`` at 0.9-2.2 ms of wall time per call, the largest single item, with 39
calls per move. With this path a move's save is one call, shared by every save that arrives
while a commit is in flight, and an adapter-state write joins the same commit: 39 -> 3 calls per
move, the bot's CPU per move 32-40 -> 9-12 ms, 2-4x the moves per second (those figures are for
this path together with the adapter-state batching of the Telegram delivery). The service
benchmark (``benchmarks/service.py``) reaches about 2,000 moves/s with 32 clients where the
statement-by-statement saves, before this path, snapshots and shared views, made 141.

What it relies on. aiosqlite has no public way to run a function on its worker thread, so
:meth:`GroupCommit._on_worker` reaches, through SQLAlchemy's public
``AdaptedConnection.driver_connection`` (the ``aiosqlite.Connection``), for two private
attributes of ``aiosqlite.Connection``, named by :data:`RUN_ATTRIBUTE` and
:data:`CONNECTION_ATTRIBUTE`:

* ``_execute(fn, *args)``: a coroutine that queues ``fn(*args)`` for the worker thread and
  returns its result (every public method of aiosqlite is built on it);
* ``_connection``: the ``sqlite3.Connection`` the worker thread owns (used only on that thread,
  inside ``fn``).

Checked against aiosqlite 0.22.1 (where ``Connection`` holds its worker ``Thread``; the tests
here run on it) and 0.19.0, the lower bound in ``pyproject.toml`` (where ``Connection`` is itself
the ``Thread``): both have the two attributes with that meaning.

The fallback. When either attribute is missing or not what is expected (``_execute`` not a
coroutine function, ``_connection`` not a ``sqlite3.Connection``: another aiosqlite version),
:meth:`GroupCommit._on_worker` logs it once, turns the fast path off for the process
(:attr:`GroupCommit.enabled`) and answers ``None``; every caller then takes the ordinary
statement-by-statement path through SQLAlchemy, as on PostgreSQL. Nothing is written twice: a
batch whose worker call is refused has run none of its statements
(``tests/store/test_group_commit.py`` covers it).

Every statement is still SQLAlchemy Core's, compiled once for the SQLite dialect; each save keeps
its own compare-and-set (its UPDATE's row count) inside a savepoint, and every caller is answered
only after the commit, so an acknowledged move is as durable as on the ordinary path.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from typing import TypeAlias, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema
from bot.store.rows import TableUpdate

__all__ = ["CONNECTION_ATTRIBUTE", "RUN_ATTRIBUTE", "GroupCommit", "worker_of"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

#: The private coroutine of ``aiosqlite.Connection`` that runs a function on its worker thread.
RUN_ATTRIBUTE = "_execute"
#: The private ``sqlite3.Connection`` of ``aiosqlite.Connection``, owned by its worker thread.
CONNECTION_ATTRIBUTE = "_connection"

# op(cursor) runs one save's statements on the worker thread: True if its compare-and-set held.
Op = Callable[[sqlite3.Cursor], bool]
# A value as SQLite hands it back, and a row of them.
SQLiteValue: TypeAlias = int | float | str | bytes | None
SQLiteRow: TypeAlias = tuple[SQLiteValue, ...]


def worker_of(
    driver: object,
) -> tuple[Callable[..., Awaitable[object]], sqlite3.Connection] | None:
    """``(run, connection)`` of an ``aiosqlite.Connection``: ``await run(fn, connection)`` calls
    ``fn(connection)`` on its worker thread. ``None`` when this aiosqlite does not have them."""
    run = getattr(driver, RUN_ATTRIBUTE, None)
    connection = getattr(driver, CONNECTION_ATTRIBUTE, None)
    if not inspect.iscoroutinefunction(run) or not isinstance(connection, sqlite3.Connection):
        return None
    return run, connection


def positional(stmt: sa.ClauseElement, engine: AsyncEngine) -> tuple[str, tuple[str, ...]]:
    """SQL text and parameter order of a Core statement, for the dialect's qmark style."""
    compiled = stmt.compile(dialect=engine.dialect)
    order = tuple(getattr(compiled, "positiontup", None) or ())  # a SQLCompiler's
    return str(compiled), order


class GroupCommit:
    """The fast path of one SQLite store; :attr:`enabled` is False on PostgreSQL, and turns
    False for good when the driver has no worker handle (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, *, reader_path: str | None = None) -> None:
        self.engine = engine
        self.enabled = engine.dialect.name == "sqlite"
        # The statements of the fast path, compiled once per key (e.g. a save's column set).
        self._compiled: dict[tuple[str, ...], tuple[str, tuple[str, ...]]] = {}
        self._pending: list[tuple[Op, asyncio.Future[bool | None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        # A SQLite file's small reads run right here, on a connection of the event loop's
        # thread (see read); None: through the driver only.
        self.reader_path = reader_path
        self._reader: sqlite3.Connection | None = None

    async def close(self) -> None:
        """Finish the commit in flight (its callers are waiting for it); close the reader."""
        if self._flusher is not None and not self._flusher.done():
            await self._flusher
        self.reader_path = None
        if self._reader is not None:
            with contextlib.suppress(sqlite3.Error):
                self._reader.close()
            self._reader = None

    async def save(self, update: TableUpdate, values: Mapping[str, object]) -> bool | None:
        """A move's save (``values``: the table's columns, encoded, with the new version),
        group-committed: saves that arrive while a commit is in flight are written together in
        the next one, in one call into aiosqlite's worker. Whether its compare-and-set held;
        ``None`` when the driver exposes no worker (the caller then takes the ordinary path).
        """
        update_sql, update_order = self._table_update(tuple(sorted(values)))
        params = {**values, "_id": update.table_id, "_expected": update.expected_version}
        update_args = tuple(params[name] for name in update_order)
        move_args: tuple[object, ...] | None = None
        insert_sql = ""
        if update.move is not None:
            insert_sql, insert_order = self._move_insert()
            move = update.move
            move_values = {
                "table_id": move.table_id,
                "version": move.version,
                "seat": move.seat,
                "move": move.move,
                "actor": move.actor,
                "at": move.at,
            }
            move_args = tuple(move_values[name] for name in insert_order)

        def op(cursor: sqlite3.Cursor) -> bool:
            cursor.execute(update_sql, update_args)
            ok = bool(cursor.rowcount == 1)
            if ok and move_args is not None:
                cursor.execute(insert_sql, move_args)
            return ok

        return await self.enqueue(op)

    def enqueue(self, op: Op) -> asyncio.Future[bool | None]:
        """Run ``op(cursor)`` in the next group commit (its own savepoint): its outcome once
        committed, ``None`` when the driver exposes no worker (``op`` did not run)."""
        future: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return future

    async def _flush(self) -> None:
        # Yield once before each commit: the callers woken by the last commit are ready to
        # run and usually save again at once, so they join this batch instead of the next.
        await asyncio.sleep(0)
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                outcomes = await self._write_batch(batch)
            except BaseException as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if not future.done():
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
            await asyncio.sleep(0)

    async def _write_batch(
        self, batch: list[tuple[Op, asyncio.Future[bool | None]]]
    ) -> list[bool | BaseException | None]:
        def work(sqlite_conn: sqlite3.Connection) -> list[bool | BaseException | None]:
            results: list[bool | BaseException | None] = []
            # Explicit BEGIN/COMMIT: the driver must not open transactions of its own.
            previous = sqlite_conn.isolation_level
            sqlite_conn.isolation_level = None
            cursor = sqlite_conn.cursor()
            try:
                cursor.execute("BEGIN")
                for op, _future in batch:
                    cursor.execute("SAVEPOINT one_save")
                    try:
                        ok = op(cursor)
                    except Exception as exc:
                        cursor.execute("ROLLBACK TO one_save")
                        results.append(exc)
                    else:
                        results.append(ok)
                    cursor.execute("RELEASE one_save")
                sqlite_conn.commit()
            except BaseException:
                sqlite_conn.rollback()
                raise
            finally:
                cursor.close()
                sqlite_conn.isolation_level = previous
            return results

        done = await self._on_worker(work)
        return [None] * len(batch) if done is None else done

    async def read(
        self, sql: str, args: tuple[object, ...], *, here: bool = True
    ) -> list[SQLiteRow] | None:
        """The rows of one small SELECT (a read needs no transaction: SQLite reads the last
        commit); ``None`` when neither fast way is possible.

        Read right here when the database is a file: a lookup by key takes microseconds, while
        a call into aiosqlite's worker thread hands the GIL over and back, which on a loaded
        machine costs milliseconds (the load benchmark's profile). Else one call into the
        worker.
        """
        if not self.enabled:
            return None
        rows = self._read_here(sql, args) if here else None
        if rows is not None:
            return rows

        def work(sqlite_conn: sqlite3.Connection) -> list[SQLiteRow]:
            cursor = sqlite_conn.cursor()
            try:
                cursor.execute(sql, args)
                return list(cursor.fetchall())
            finally:
                cursor.close()

        return await self._on_worker(work)

    def _read_here(self, sql: str, args: tuple[object, ...]) -> list[SQLiteRow] | None:
        """``sql`` on this thread's read-only connection; ``None`` if it cannot (then the worker
        reads: a lock held longer than a moment, another thread, a closed store)."""
        if self.reader_path is None:
            return None
        try:
            if self._reader is None:
                # Autocommit: each SELECT sees the last commit. WAL readers never wait for the
                # writer; the short busy timeout only covers WAL recovery and the like.
                self._reader = sqlite3.connect(self.reader_path, timeout=0.05, isolation_level=None)
                self._reader.execute("PRAGMA query_only=ON")
            return self._reader.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            logger.debug("direct read failed (%s): through the driver", error)
            return None

    async def _on_worker(self, work: Callable[[sqlite3.Connection], _T]) -> _T | None:
        """``work(sqlite3_connection)`` in one call into aiosqlite's worker thread, with the
        pooled connection checked out; ``None`` when the driver exposes no worker."""
        async with self.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            handle = worker_of(getattr(raw.dbapi_connection, "driver_connection", None))
            if handle is None:
                if self.enabled:
                    logger.info(
                        "aiosqlite without a worker handle (%s, %s): saving statement by statement",
                        RUN_ATTRIBUTE,
                        CONNECTION_ATTRIBUTE,
                    )
                self.enabled = False
                return None
            run, sqlite_conn = handle
            # run(fn, connection) returns what fn returned.
            return cast(_T, await run(work, sqlite_conn))

    def compiled_once(
        self, key: tuple[str, ...], build: Callable[[], sa.ClauseElement]
    ) -> tuple[str, tuple[str, ...]]:
        """SQL text and parameter order of the statement ``build()`` makes, compiled once."""
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = positional(build(), self.engine)
        return found

    def _table_update(self, columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        def build() -> sa.ClauseElement:
            t = schema.tables
            return (
                t.update()
                .where(t.c.id == sa.bindparam("_id"), t.c.version == sa.bindparam("_expected"))
                .values({c: sa.bindparam(c) for c in columns})
            )

        return self.compiled_once(columns, build)

    def _move_insert(self) -> tuple[str, tuple[str, ...]]:
        def build() -> sa.ClauseElement:
            m = schema.moves
            return m.insert().values({c.name: sa.bindparam(c.name) for c in m.columns})

        return self.compiled_once(("<move>",), build)
