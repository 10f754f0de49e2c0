"""Persistence: SQLAlchemy Core (async) on SQLite (aiosqlite, the default) or PostgreSQL (asyncpg).

One class, :class:`Store`, behind which the service keeps tables, moves, results, ratings and the
per-chat / per-user settings. There is one SQL dialect in the code: SQLAlchemy Core writes it for
both databases; the schema lives in :mod:`bot.store.schema` and is created by the Alembic
migrations in ``bot/store/migrations`` (:meth:`Store.upgrade`, ``tavolo db upgrade``).

Guarantees the service builds on:

* :meth:`Store.save` is one transaction: the table row is updated compare-and-set on its
  ``version`` (``UPDATE ... WHERE id = :id AND version = :expected``), the move row is inserted
  (primary key ``(table_id, version)``), and on a finished game the result and rating updates are
  written, all or nothing. It returns only after the commit, so an acknowledged move is durable.
  Two processes sharing one PostgreSQL can never both apply a move on the same version: the loser's
  ``UPDATE`` matches no row and :meth:`Store.save` returns ``None``.
* :meth:`Store.import_table` writes a whole imported game (table, members, moves, and the result
  and ratings through the same ``_finish`` as a live game's last save) in one transaction, at
  most once per game origin (a unique index; a concurrent second import finds the first).
* SQLite runs in WAL mode through a single pooled connection per process (SQLite has one writer
  anyway; one connection avoids busy-waiting between our own connections).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.store import schema

__all__ = [
    "ChatRow",
    "DueTimer",
    "Finish",
    "MoveRow",
    "Participant",
    "RatingChange",
    "RatingRow",
    "Store",
    "StoreError",
    "TableRow",
    "TableUpdate",
    "dumps",
    "game_origin",
]

logger = logging.getLogger(__name__)

OPEN_STATUSES = ("lobby", "playing")

_T = TypeVar("_T")


class StoreError(RuntimeError):
    """The database cannot be used (bad URL, missing driver, unreachable server)."""


def dumps(value: Any) -> str:
    """Compact JSON, the one encoding of every document column."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def game_origin(row: TableRow) -> str:
    """A game's id across databases: the one stored on an imported table, else derived from
    what never changes once a table exists (its first chat, game, seed, creation time, id)."""
    if row.origin is not None:
        return row.origin
    key = dumps([row.platform, row.chat_id, row.game, row.seed, row.created_at, row.id])
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


@dataclass(slots=True)
class TableRow:
    """One ``tables`` row with its JSON columns decoded."""

    id: int
    platform: str
    chat_id: str
    game: str
    family: str
    players: int
    options: dict[str, Any]
    status: str
    creator: str
    seats: list[dict[str, Any] | None]
    state: dict[str, Any] | None
    state_version: int
    seed: int
    version: int
    deadline: float | None
    deadline_kind: str | None
    rematch_of: int | None
    created_at: float
    updated_at: float
    origin: str | None = None  # set on an imported table (migration 0005)


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveRow:
    table_id: int
    version: int
    seat: int
    move: str
    actor: str  # "human", "computer" (a computer seat or a taken-over one) or "timeout"
    at: float


@dataclass(frozen=True, slots=True)
class ChatRow:
    platform: str
    chat_id: str
    locale: str | None
    max_open_tables: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    scope: str
    family: str
    platform: str
    user_id: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    win_points: int


@dataclass(frozen=True, slots=True)
class Participant:
    """A seat in a finished game, for the rating update.

    ``fixed`` is a (mu, sigma) that is used but never updated nor stored: computer players are
    anchors of known strength, so a computer seated twice in one game is no problem.
    """

    platform: str
    user_id: str
    name: str
    fixed: tuple[float, float] | None = None
    # The player left (or was kicked) mid-game: rated and counted as a loss, whatever their
    # side's result (the computer that took the seat over plays on for the others).
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class RatingChange:
    scope: str
    platform: str
    user_id: str
    name: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    ordinal_before: float
    ordinal_after: float


# rate(teams of (mu, sigma) or None for "new player", ranks) -> teams of (mu, sigma)
RateFunction = Callable[
    [list[list[tuple[float, float] | None]], list[int]], list[list[tuple[float, float]]]
]


@dataclass(slots=True)
class Finish:
    """What a game's last save also writes: its result, and the rating updates in each scope."""

    result: dict[str, Any]
    scopes: Sequence[str]
    teams: list[list[Participant]]
    ranks: list[int]
    multiplier: int
    rate: RateFunction
    ordinal: Callable[[float, float], float]
    initial: tuple[float, float]  # the rating a new player starts from


@dataclass(slots=True, kw_only=True)
class TableUpdate:
    """A compare-and-set update of one table: ``values`` are columns to set (JSON columns as
    Python values); the version becomes ``expected_version + 1``."""

    table_id: int
    expected_version: int
    values: dict[str, Any]
    move: MoveRow | None = None
    members: list[tuple[str, str]] | None = None
    finish: Finish | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DueTimer:
    """A timer claimed by :meth:`Store.claim_due`: the table's version and timer kind then."""

    table_id: int
    version: int
    deadline: float
    kind: str


@dataclass(slots=True)
class SaveResult:
    version: int
    rating_changes: list[RatingChange] = field(default_factory=list)


_JSON_COLUMNS = ("options", "seats", "state")


def _table_row(row: sa.Row[Any]) -> TableRow:
    m = row._mapping
    return TableRow(
        id=m["id"],
        platform=m["platform"],
        chat_id=m["chat_id"],
        game=m["game"],
        family=m["family"],
        players=m["players"],
        options=json.loads(m["options"]),
        status=m["status"],
        creator=m["creator"],
        seats=json.loads(m["seats"]),
        state=json.loads(m["state"]) if m["state"] is not None else None,
        state_version=m["state_version"],
        seed=m["seed"],
        version=m["version"],
        deadline=m["deadline"],
        deadline_kind=m["deadline_kind"],
        rematch_of=m["rematch_of"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        origin=m["origin"],
    )


def _encode(values: dict[str, Any]) -> dict[str, Any]:
    out = dict(values)
    for column in _JSON_COLUMNS:
        if column in out and out[column] is not None:
            out[column] = dumps(out[column])
    return out


def sqlite_url(data_dir: Path) -> str:
    """The default database: a file under the data directory."""
    return f"sqlite+aiosqlite:///{(data_dir / 'tavolo.sqlite3').resolve()}"


class Store:
    """The database behind the service. Build with :meth:`open`; close with :meth:`close`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        # SQLite fast path: the statements of a move's save, compiled once per column set.
        self._compiled: dict[tuple[str, ...], tuple[str, tuple[str, ...]]] = {}
        self._one_hop = self.is_sqlite
        self._pending: list[Any] = []
        self._flusher: asyncio.Task[None] | None = None
        # A SQLite file's small reads run right here, on a connection of the event loop's
        # thread (see _read_one_hop); None: through the driver only.
        self.reader_path: str | None = None
        self._reader: sqlite3.Connection | None = None
        # Adapter-state writes waiting for their group commit, by key.
        self._state_writes: dict[tuple[str, str, str, int], asyncio.Future[bool | None]] = {}

    @classmethod
    def open(cls, url: str, *, sqlite_synchronous: str = "NORMAL") -> Store:
        """A store for a SQLAlchemy async URL (``sqlite+aiosqlite:///...``,
        ``postgresql+asyncpg://...``; plain ``sqlite://`` / ``postgresql://`` are upgraded)."""
        url = _async_url(url)
        reader_path = None
        try:
            if url.startswith("sqlite"):
                parsed = sa.engine.make_url(url)
                path = parsed.database
                if path and path != ":memory:":
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                    # A plain file (no URI options): a second connection sees the same data.
                    reader_path = None if parsed.query else path
                engine = create_async_engine(
                    url,
                    pool_size=1,
                    max_overflow=0,
                    pool_timeout=60,
                    # Every use ends in commit or rollback already: no reset round trip.
                    pool_reset_on_return=None,
                    connect_args={"timeout": 30},
                )
                _sqlite_pragmas(engine, synchronous=sqlite_synchronous)
            else:
                engine = create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as exc:
            raise StoreError(f"cannot use database URL: {exc}") from exc
        store = cls(engine)
        store.reader_path = reader_path
        return store

    async def close(self) -> None:
        """Finish the commit in flight (its callers are waiting for it), then disconnect."""
        if self._flusher is not None and not self._flusher.done():
            await self._flusher
        self.reader_path = None
        if self._reader is not None:
            with contextlib.suppress(sqlite3.Error):
                self._reader.close()
            self._reader = None
        await self.engine.dispose()

    async def upgrade(self) -> None:
        """Apply the Alembic migrations up to the newest (idempotent)."""
        from bot.store.migrate import upgrade

        await upgrade(self.engine)

    # -- tables ------------------------------------------------------------------------------

    async def insert_table(self, values: dict[str, Any], members: Iterable[tuple[str, str]]) -> int:
        """Insert a table; :class:`bot.service.ports.TableConflict` for a second rematch of a
        table."""
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(schema.tables.insert().values(**_encode(values)))
                pk = result.inserted_primary_key
                assert pk is not None
                table_id = int(pk[0])
                await _replace_members(conn, table_id, members)
        except sa.exc.IntegrityError as exc:
            # Imported here, not at the top: bot.service imports this package.
            from bot.service.ports import TableConflict

            raise TableConflict(str(exc.orig or exc)) from exc
        return table_id

    async def import_table(
        self,
        values: dict[str, Any],
        *,
        members: Iterable[tuple[str, str]],
        moves: Sequence[MoveRow],
        finish: Finish | None,
    ) -> tuple[int, bool, list[RatingChange]]:
        """Insert a whole game at once (``tavolo import``): the table (``values`` carries its
        ``origin``), its members, its move log and, for a finished game, the result and rating
        updates a live finish writes (the same :func:`_finish`), in one transaction.

        Returns ``(table_id, True, changes)``; when the database already holds the game (an
        earlier import with the same origin, or the native table it was exported from),
        ``(that table's id, False, [])`` and nothing is written. ``moves`` carry table id 0:
        the new table's id replaces it.
        """
        origin = str(values["origin"])
        try:
            async with self.engine.begin() as conn:
                existing = await _table_of_origin(conn, origin, values)
                if existing is not None:
                    return existing, False, []
                result = await conn.execute(schema.tables.insert().values(**_encode(values)))
                pk = result.inserted_primary_key
                assert pk is not None
                table_id = int(pk[0])
                await _replace_members(conn, table_id, members)
                if moves:
                    await conn.execute(
                        schema.moves.insert(),
                        [
                            {
                                "table_id": table_id,
                                "version": m.version,
                                "seat": m.seat,
                                "move": m.move,
                                "actor": m.actor,
                                "at": m.at,
                            }
                            for m in moves
                        ],
                    )
                changes = await _finish(conn, table_id, finish) if finish is not None else []
        except sa.exc.IntegrityError:
            # Another import of the same game committed between our check and our insert
            # (the unique origin index); anything else is a real error.
            async with self.engine.connect() as conn:
                existing = await _table_of_origin(conn, origin, values)
            if existing is None:
                raise
            logger.info("import of %s lost the race to table %s", origin, existing)
            return existing, False, []
        return table_id, True, changes

    async def table_of_origin(self, values: dict[str, Any]) -> int | None:
        """The table holding the game of an import's ``values`` (see :meth:`import_table`)."""
        async with self.engine.connect() as conn:
            return await _table_of_origin(conn, str(values["origin"]), values)

    async def rematch_of(self, table_id: int) -> int | None:
        """The id of the table opened as the rematch of ``table_id``, if any."""
        t = schema.tables
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(t.c.id).where(t.c.rematch_of == table_id))).first()
        return None if row is None else int(row[0])

    async def load_table(self, table_id: int) -> TableRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(schema.tables).where(schema.tables.c.id == table_id))
            ).first()
        return _table_row(row) if row is not None else None

    async def table_version(self, table_id: int) -> int | None:
        """The stored version of a table (a cheap check that a process's copy is current)."""
        t = schema.tables
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(t.c.version).where(t.c.id == table_id))).first()
        return None if row is None else int(row[0])

    async def open_tables(self, *, platform: str, chat_id: str) -> list[TableRow]:
        t = schema.tables
        query = (
            sa.select(t)
            .where(t.c.platform == platform, t.c.chat_id == chat_id, t.c.status.in_(OPEN_STATUSES))
            .order_by(t.c.id)
        )
        async with self.engine.connect() as conn:
            return [_table_row(r) for r in await conn.execute(query)]

    async def open_table_versions(self, *, platform: str) -> dict[int, int]:
        """``{table id: version}`` of every open table (lobby or playing) of a platform."""
        t = schema.tables
        query = sa.select(t.c.id, t.c.version).where(
            t.c.platform == platform, t.c.status.in_(OPEN_STATUSES)
        )
        async with self.engine.connect() as conn:
            return {int(row[0]): int(row[1]) for row in await conn.execute(query)}

    async def move_chat(self, *, platform: str, old: str, new: str) -> list[int]:
        """The open tables of chat ``old`` now belong to chat ``new`` (a Telegram group that
        became a supergroup has a new id); so do its settings, unless ``new`` has its own.
        Returns the ids of the tables moved."""
        t, c, s = schema.tables, schema.chats, schema.chat_settings
        async with self.engine.begin() as conn:
            ids = [
                int(row[0])
                for row in await conn.execute(
                    sa.select(t.c.id).where(
                        t.c.platform == platform,
                        t.c.chat_id == old,
                        t.c.status.in_(OPEN_STATUSES),
                    )
                )
            ]
            if ids:
                await conn.execute(t.update().where(t.c.id.in_(ids)).values(chat_id=new))
            for table in (c, s):
                taken = (
                    await conn.execute(
                        sa.select(sa.func.count())
                        .select_from(table)
                        .where(table.c.platform == platform, table.c.chat_id == new)
                    )
                ).scalar_one()
                if not taken:
                    await conn.execute(
                        table.update()
                        .where(table.c.platform == platform, table.c.chat_id == old)
                        .values(chat_id=new)
                    )
        return ids

    async def user_tables(self, *, platform: str, user_id: str) -> list[TableRow]:
        """The open tables where the user sits, oldest first."""
        t, m = schema.tables, schema.members
        query = (
            sa.select(t)
            .join(m, m.c.table_id == t.c.id)
            .where(m.c.platform == platform, m.c.user_id == user_id, t.c.status.in_(OPEN_STATUSES))
            .order_by(t.c.id)
        )
        async with self.engine.connect() as conn:
            return [_table_row(r) for r in await conn.execute(query)]

    async def user_table_ids(self, *, platform: str, user_id: str) -> list[int]:
        """The ids of the open tables where the user sits, oldest first (``user_tables``
        without decoding every row: asked on every press of a hand in a private chat)."""
        params = {"platform": platform, "user_id": user_id}
        if self._one_hop:
            sql, order = self._compiled_once(("<user_table_ids>",), _user_table_ids)
            # Through the pooled connection, not the direct reader: a lobby change in flight
            # (its own transaction) is read after it commits, as before.
            rows = await self._read_one_hop(sql, tuple(params[name] for name in order), here=False)
            if rows is not None:
                return [int(row[0]) for row in rows]
        async with self.engine.connect() as conn:
            return [int(row[0]) for row in await conn.execute(_user_table_ids(), params)]

    async def save(self, update: TableUpdate) -> SaveResult | None:
        """Apply ``update`` in one transaction if the table is still at ``expected_version``.

        Returns ``None`` (and writes nothing) when another writer got there first.
        """
        t = schema.tables
        new_version = update.expected_version + 1
        values = _encode(update.values)
        values["version"] = new_version
        if self._one_hop and update.finish is None and update.members is None:
            done = await self._save_one_hop(update, values)
            if done is not None:
                return SaveResult(new_version) if done else None
        async with self.engine.begin() as conn:
            result = await conn.execute(
                t.update()
                .where(t.c.id == update.table_id, t.c.version == update.expected_version)
                .values(**values)
            )
            if result.rowcount != 1:
                return None
            if update.move is not None:
                move = update.move
                await conn.execute(
                    schema.moves.insert().values(
                        table_id=move.table_id,
                        version=move.version,
                        seat=move.seat,
                        move=move.move,
                        actor=move.actor,
                        at=move.at,
                    )
                )
            if update.members is not None:
                await _replace_members(conn, update.table_id, update.members)
            changes: list[RatingChange] = []
            if update.finish is not None:
                changes = await _finish(conn, update.table_id, update.finish)
        return SaveResult(new_version, changes)

    async def _save_one_hop(self, update: TableUpdate, values: dict[str, Any]) -> bool | None:
        """A move's save on SQLite, group-committed: saves that arrive while a commit is in
        flight are written together in the next one, in one call into aiosqlite's worker.

        Through the async driver every statement costs three thread hops (cursor, execute,
        close) plus begin and commit; on a busy machine each hop waits for the scheduler and
        the hops, not SQLite, dominate a move's cost. The statements are still SQLAlchemy
        Core's, compiled once for the SQLite dialect; each save keeps its own compare-and-set
        (its UPDATE's row count) inside a savepoint, and every caller is answered only after
        the commit. Returns ``None`` when the driver does not expose its worker (another
        aiosqlite version): the caller then takes the ordinary path.
        """
        update_sql, update_order = self._statement(tuple(sorted(values)))
        params = {**values, "_id": update.table_id, "_expected": update.expected_version}
        update_args = tuple(params[name] for name in update_order)
        move_args: tuple[Any, ...] | None = None
        insert_sql = ""
        if update.move is not None:
            insert_sql, insert_order = self._move_statement()
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

        def op(cursor: Any) -> bool:
            cursor.execute(update_sql, update_args)
            ok = bool(cursor.rowcount == 1)
            if ok and move_args is not None:
                cursor.execute(insert_sql, move_args)
            return ok

        return await self._group_commit(op)

    async def _group_commit(self, op: Callable[[Any], bool]) -> bool | None:
        """Run ``op(cursor)`` in the next group commit on aiosqlite's worker (its own
        savepoint); its outcome once committed, ``None`` when the driver exposes no worker."""
        return await self._enqueue(op)

    def _enqueue(self, op: Callable[[Any], bool]) -> asyncio.Future[bool | None]:
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

    async def _write_batch(self, batch: list[Any]) -> list[bool | BaseException | None]:
        def work(sqlite_conn: Any) -> list[bool | BaseException | None]:
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

    def _read_here(self, sql: str, args: tuple[Any, ...]) -> list[Any] | None:
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

    async def _on_worker(self, work: Callable[[Any], _T]) -> _T | None:
        """``work(sqlite3_connection)`` in one call into aiosqlite's worker thread, with the
        pooled connection checked out; ``None`` when the driver exposes no worker."""
        async with self.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver = getattr(raw.dbapi_connection, "driver_connection", None)
            run = getattr(driver, "_execute", None)
            sqlite_conn = getattr(driver, "_connection", None)
            if run is None or sqlite_conn is None:
                logger.info("aiosqlite without a worker handle: saving statement by statement")
                self._one_hop = False
                return None
            result: _T = await run(work, sqlite_conn)
            return result

    async def _read_one_hop(
        self, sql: str, args: tuple[Any, ...], *, here: bool = True
    ) -> list[Any] | None:
        """The rows of one small SELECT (a read needs no transaction: SQLite reads the last
        commit); ``None`` when neither fast way is possible.

        Read right here when the database is a file: a lookup by key takes microseconds, while
        a call into aiosqlite's worker thread hands the GIL over and back, which on a loaded
        machine costs milliseconds (the load benchmark's profile). Else one call into the
        worker.
        """
        if not self._one_hop:
            return None
        rows = self._read_here(sql, args) if here else None
        if rows is not None:
            return rows

        def work(sqlite_conn: Any) -> list[Any]:
            cursor = sqlite_conn.cursor()
            try:
                cursor.execute(sql, args)
                return list(cursor.fetchall())
            finally:
                cursor.close()

        return await self._on_worker(work)

    def _statement(self, columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        found = self._compiled.get(columns)
        if found is None:
            t = schema.tables
            stmt = (
                t.update()
                .where(t.c.id == sa.bindparam("_id"), t.c.version == sa.bindparam("_expected"))
                .values({c: sa.bindparam(c) for c in columns})
            )
            found = _positional(stmt, self.engine)
            self._compiled[columns] = found
        return found

    def _compiled_once(
        self, key: tuple[str, ...], build: Callable[[], Any]
    ) -> tuple[str, tuple[str, ...]]:
        """SQL text and parameter order of the statement ``build()`` makes, compiled once."""
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = _positional(build(), self.engine)
        return found

    def _move_statement(self) -> tuple[str, tuple[str, ...]]:
        key = ("<move>",)
        found = self._compiled.get(key)
        if found is None:
            m = schema.moves
            stmt = m.insert().values({c.name: sa.bindparam(c.name) for c in m.columns})
            found = _positional(stmt, self.engine)
            self._compiled[key] = found
        return found

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        """Ids of playing tables whose timer deadline has passed, most overdue first."""
        t = schema.tables
        query = (
            sa.select(t.c.id)
            .where(t.c.deadline.is_not(None), t.c.deadline <= now, t.c.status == "playing")
            .order_by(t.c.deadline)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [int(r[0]) for r in await conn.execute(query)]

    async def claim_due(self, now: float, *, lease: float, limit: int = 100) -> list[DueTimer]:
        """Claim the due timers of open tables (turn timers, lobby expiry) for this process,
        most overdue first.

        The claim pushes each claimed deadline ``lease`` seconds on (the version stays, so the
        player's buttons stay valid): another process sharing the database does not see the
        timer as due while this one fires it, and if this process dies the timer comes due again
        once the lease runs out. On PostgreSQL the rows are read ``FOR UPDATE SKIP LOCKED``, so
        processes claiming at the same moment take disjoint rows instead of waiting for each
        other; on SQLite (one writer at a time) each claim is a compare-and-set in a plain
        transaction.
        """
        t = schema.tables
        query = (
            sa.select(t.c.id, t.c.version, t.c.deadline, t.c.deadline_kind)
            # Turn timers of playing tables, and the expiry of lobbies nobody started.
            .where(
                t.c.deadline.is_not(None),
                t.c.deadline <= now,
                t.c.status.in_(OPEN_STATUSES),
            )
            .order_by(t.c.deadline)
            .limit(limit)
        )
        if not self.is_sqlite:
            query = query.with_for_update(skip_locked=True)
        claimed: list[DueTimer] = []
        async with self.engine.begin() as conn:
            for r in list(await conn.execute(query)):
                # Compare-and-set on what was read: on SQLite the read above takes no lock, so
                # another process may have claimed (or a move re-timed) the row since; its
                # write lock serialises these updates and the loser's matches no row.
                result = await conn.execute(
                    t.update()
                    .where(t.c.id == r.id, t.c.version == r.version, t.c.deadline == r.deadline)
                    .values(deadline=now + lease)
                )
                if result.rowcount == 1:
                    claimed.append(
                        DueTimer(
                            table_id=int(r.id),
                            version=int(r.version),
                            deadline=float(r.deadline),
                            kind=str(r.deadline_kind),
                        )
                    )
        return claimed

    async def move_deadline(
        self, table_id: int, *, version: int, kind: str, deadline: float, new_kind: str
    ) -> bool:
        """Move a timer on (reminder sent -> autoplay deadline) without a new version, so the
        player's buttons stay valid; compare-and-set on version and timer kind, so one process
        only sends the reminder."""
        t = schema.tables
        async with self.engine.begin() as conn:
            result = await conn.execute(
                t.update()
                .where(t.c.id == table_id, t.c.version == version, t.c.deadline_kind == kind)
                .values(deadline=deadline, deadline_kind=new_kind)
            )
        return bool(result.rowcount == 1)

    async def moves(self, table_id: int, *, since: int = 0) -> list[MoveRow]:
        """The table's moves played on versions >= ``since``, in order."""
        mv = schema.moves
        query = (
            sa.select(mv)
            .where(mv.c.table_id == table_id, mv.c.version >= since)
            .order_by(mv.c.version)
        )
        async with self.engine.connect() as conn:
            return [MoveRow(**dict(r._mapping)) for r in await conn.execute(query)]

    async def result(self, table_id: int) -> dict[str, Any] | None:
        r = schema.results
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(r).where(r.c.table_id == table_id))).first()
        if row is None:
            return None
        out = dict(row._mapping)
        out["data"] = json.loads(out["data"])
        return out

    # -- chats and users ---------------------------------------------------------------------

    async def chat(self, *, platform: str, chat_id: str) -> ChatRow:
        c = schema.chats
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(c).where(c.c.platform == platform, c.c.chat_id == chat_id)
                )
            ).first()
        if row is None:
            return ChatRow(platform, chat_id, None, 1)
        return ChatRow(**dict(row._mapping))

    async def _upsert(self, table: sa.Table, key: dict[str, Any], values: dict[str, Any]) -> None:
        """Update the row with this key, or insert it: plain SQL both dialects share."""
        async with self.engine.begin() as conn:
            updated = await conn.execute(
                table.update()
                .where(*(table.c[name] == value for name, value in key.items()))
                .values(**values)
            )
            if updated.rowcount == 0:
                await conn.execute(table.insert().values(**key, **values))

    async def set_chat(
        self, *, platform: str, chat_id: str, locale: str | None, max_open_tables: int
    ) -> None:
        await self._upsert(
            schema.chats,
            {"platform": platform, "chat_id": chat_id},
            {"locale": locale, "max_open_tables": max_open_tables},
        )

    async def user_locale(self, *, platform: str, user_id: str) -> str | None:
        u = schema.users
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(u.c.locale).where(u.c.platform == platform, u.c.user_id == user_id)
                )
            ).first()
        return None if row is None else row[0]

    async def set_user_locale(
        self, *, platform: str, user_id: str, name: str, locale: str | None
    ) -> None:
        await self._upsert(
            schema.users,
            {"platform": platform, "user_id": user_id},
            {"locale": locale, "name": name},
        )

    # -- per-chat settings (migration 0007) ---------------------------------------------------

    async def chat_settings(self, *, platform: str, chat_id: str) -> dict[str, Any]:
        """A chat's own settings, ``{key: value}`` (a setting never changed is absent)."""
        s = schema.chat_settings
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(s.c.key, s.c.value).where(
                        s.c.platform == platform, s.c.chat_id == chat_id
                    )
                )
            ).all()
        return {key: json.loads(value) for key, value in rows}

    async def set_chat_setting(self, value: Any, *, platform: str, chat_id: str, key: str) -> None:
        """Set one setting of a chat; ``None`` removes it (back to the bot's default)."""
        s = schema.chat_settings
        if not key or len(key) > 64:
            raise ValueError(f"a chat setting's key must be 1..64 characters: {key!r}")
        where = (s.c.platform == platform, s.c.chat_id == chat_id, s.c.key == key)
        if value is None:
            async with self.engine.begin() as conn:
                await conn.execute(s.delete().where(*where))
            return
        await self._upsert(
            s,
            {"platform": platform, "chat_id": chat_id, "key": key},
            {"value": dumps(value), "updated_at": time.time()},
        )

    async def set_option_sources(self, table_id: int, sources: dict[str, str]) -> None:
        """Where the table's rule options came from (``{option: "chat" | "command"}``)."""
        await self._upsert(
            schema.table_option_sources, {"table_id": table_id}, {"sources": dumps(sources)}
        )

    async def option_sources(self, table_id: int) -> dict[str, str]:
        """The table's option sources (``{}``: every option is the game's default)."""
        t = schema.table_option_sources
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.c.sources).where(t.c.table_id == table_id))
            ).first()
        if row is None:
            return {}
        found = json.loads(row[0])
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}

    # -- adapter state (bot.service.ports.AdapterState) ----------------------------------------

    async def state_get(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> Any | None:
        params = {"platform": platform, "kind": kind, "scope": scope, "table_id": table_id}
        writing = self._state_writes.get((platform, kind, scope, table_id))
        if writing is not None:
            # Another task's write of this entry is on its way to the next commit: read after
            # it, as the single pooled connection used to order them.
            await asyncio.wait([writing])
        if self._one_hop:
            # The adapters read an entry for every message they edit: one hop, not five.
            sql, order = self._compiled_once(("<state_get>",), _state_get)
            rows = await self._read_one_hop(sql, tuple(params[name] for name in order))
            if rows is not None:
                return json.loads(rows[0][0]) if rows else None
        async with self.engine.connect() as conn:
            row = (await conn.execute(_state_get(), params)).first()
        return None if row is None else json.loads(row[0])

    async def state_put(
        self, value: Any, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        """Insert or replace one entry (the last writer wins: entries are hints, not records)."""
        # Imported here, not at the top: bot.service imports this package.
        from bot.service.ports import check_key

        check_key(platform=platform, kind=kind, scope=scope, table_id=table_id)
        values = {"value": dumps(value), "updated_at": time.time()}
        if self._one_hop:
            # Written with the next group commit (see _save_one_hop): one hop, shared.
            sql, order = self._compiled_once(("<state_put>",), _state_upsert)
            params = {"platform": platform, "kind": kind, "scope": scope, "table_id": table_id}
            args = tuple({**params, **values}[name] for name in order)

            def op(cursor: Any) -> bool:
                cursor.execute(sql, args)
                return True

            entry = (platform, kind, scope, table_id)
            future = self._enqueue(op)
            self._state_writes[entry] = future
            try:
                done = await future
            finally:
                if self._state_writes.get(entry) is future:
                    del self._state_writes[entry]
            if done is not None:
                return
        # Ordered per entry within this process, as on the group commit: a put waits for the
        # previous put of its entry (the last issued wins) and a read waits for both.
        entry = (platform, kind, scope, table_id)
        previous = self._state_writes.get(entry)
        mine: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        self._state_writes[entry] = mine
        try:
            if previous is not None:
                await asyncio.wait([previous])
            await self._state_put_now(
                values, platform=platform, kind=kind, scope=scope, table_id=table_id
            )
        finally:
            mine.set_result(True)
            if self._state_writes.get(entry) is mine:
                del self._state_writes[entry]

    async def _state_put_now(
        self, values: dict[str, Any], *, platform: str, kind: str, scope: str, table_id: int
    ) -> None:
        a = schema.adapter_state
        key = (
            a.c.platform == platform,
            a.c.kind == kind,
            a.c.scope == scope,
            a.c.table_id == table_id,
        )
        for _attempt in range(3):  # bounded: another process may insert the same key meanwhile
            try:
                async with self.engine.begin() as conn:
                    updated = await conn.execute(a.update().where(*key).values(**values))
                    if updated.rowcount == 0:
                        await conn.execute(
                            a.insert().values(
                                platform=platform,
                                kind=kind,
                                scope=scope,
                                table_id=table_id,
                                **values,
                            )
                        )
                return
            except sa.exc.IntegrityError:
                continue
        raise StoreError(f"could not write adapter state {kind} {scope} {table_id}")

    async def state_delete(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        a = schema.adapter_state
        async with self.engine.begin() as conn:
            await conn.execute(
                a.delete().where(
                    a.c.platform == platform,
                    a.c.kind == kind,
                    a.c.scope == scope,
                    a.c.table_id == table_id,
                )
            )

    async def state_of_table(
        self, *, platform: str, kind: str, table_id: int
    ) -> list[tuple[str, Any]]:
        """Every ``(scope, value)`` of one kind for a table (e.g. its players' hand messages)."""
        a = schema.adapter_state
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(a.c.scope, a.c.value)
                    .where(a.c.platform == platform, a.c.table_id == table_id, a.c.kind == kind)
                    .order_by(a.c.scope)
                )
            ).all()
        return [(str(row[0]), json.loads(row[1])) for row in rows]

    async def state_forget_table(self, *, platform: str, table_id: int) -> None:
        a = schema.adapter_state
        async with self.engine.begin() as conn:
            await conn.execute(a.delete().where(a.c.platform == platform, a.c.table_id == table_id))

    # -- ratings -----------------------------------------------------------------------------

    async def rating_history(
        self, *, platform: str, user_id: str, family: str, scope: str = "global", limit: int = 500
    ) -> list[tuple[float, float]]:
        """A player's conservative rating (mu - 3 sigma) after each finished game of a family,
        oldest first: ``(finished_at, rating)`` (the /stats chart)."""
        c, r = schema.rating_changes, schema.results
        query = (
            sa.select(r.c.finished_at, c.c.mu_after, c.c.sigma_after)
            .select_from(c.join(r, r.c.table_id == c.c.table_id))
            .where(
                c.c.platform == platform,
                c.c.user_id == user_id,
                c.c.scope == scope,
                r.c.family == family,
            )
            .order_by(r.c.finished_at.desc())
            .limit(max(1, min(limit, 10_000)))
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(float(row[0]), float(row[1]) - 3 * float(row[2])) for row in reversed(rows)]

    async def leaderboard(
        self, *, scope: str, family: str, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        r = schema.ratings
        query = (
            sa.select(r)
            .where(r.c.scope == scope, r.c.family == family)
            .order_by(r.c.ordinal.desc(), r.c.wins.desc(), r.c.user_id)
            .limit(limit)
            .offset(offset)
        )
        async with self.engine.connect() as conn:
            return [RatingRow(**dict(row._mapping)) for row in await conn.execute(query)]

    async def player_ratings(self, *, platform: str, user_id: str) -> list[RatingRow]:
        r = schema.ratings
        query = (
            sa.select(r)
            .where(r.c.platform == platform, r.c.user_id == user_id)
            .order_by(r.c.family, r.c.scope)
        )
        async with self.engine.connect() as conn:
            return [RatingRow(**dict(row._mapping)) for row in await conn.execute(query)]

    async def rank(self, *, scope: str, family: str, ordinal: float) -> int:
        """1 + how many players of the board have a strictly better conservative rating."""
        r = schema.ratings
        query = (
            sa.select(sa.func.count())
            .select_from(r)
            .where(r.c.scope == scope, r.c.family == family, r.c.ordinal > ordinal)
        )
        async with self.engine.connect() as conn:
            return 1 + int((await conn.execute(query)).scalar_one())


def _state_get() -> Any:
    a = schema.adapter_state
    return sa.select(a.c.value).where(
        a.c.platform == sa.bindparam("platform"),
        a.c.kind == sa.bindparam("kind"),
        a.c.scope == sa.bindparam("scope"),
        a.c.table_id == sa.bindparam("table_id"),
    )


def _user_table_ids() -> Any:
    t, m = schema.tables, schema.members
    return (
        sa.select(t.c.id)
        .join(m, m.c.table_id == t.c.id)
        .where(
            m.c.platform == sa.bindparam("platform"),
            m.c.user_id == sa.bindparam("user_id"),
            # Constants in the text: compiled once, with only the user's two parameters.
            t.c.status.in_([sa.literal_column(f"'{status}'") for status in OPEN_STATUSES]),
        )
        .order_by(t.c.id)
    )


def _state_upsert() -> Any:
    """Insert or replace one adapter state entry, in one statement (SQLite's upsert)."""
    a = schema.adapter_state
    columns = ("platform", "kind", "scope", "table_id", "value", "updated_at")
    stmt = sqlite_insert(a).values({c: sa.bindparam(c) for c in columns})
    return stmt.on_conflict_do_update(
        index_elements=[a.c.platform, a.c.kind, a.c.scope, a.c.table_id],
        set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
    )


def _positional(stmt: Any, engine: AsyncEngine) -> tuple[str, tuple[str, ...]]:
    """SQL text and parameter order of a Core statement, for the dialect's qmark style."""
    compiled = stmt.compile(dialect=engine.dialect)
    order = tuple(compiled.positiontup or ())
    return str(compiled), order


def _async_url(url: str) -> str:
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(engine: AsyncEngine, *, synchronous: str) -> None:
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise StoreError(
            f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous}"
        )

    @sa.event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


async def _table_of_origin(
    conn: AsyncConnection, origin: str, values: dict[str, Any]
) -> int | None:
    """The table holding the game ``origin``: imported with it, or the native table whose
    derived origin it is (an export imported back into its own database)."""
    t = schema.tables
    row = (await conn.execute(sa.select(t.c.id).where(t.c.origin == origin))).first()
    if row is not None:
        return int(row[0])
    # The chat is left out of the search: an import may have moved the game to another chat.
    candidates = await conn.execute(
        sa.select(t).where(
            t.c.origin.is_(None),
            t.c.game == values["game"],
            t.c.seed == values["seed"],
            t.c.created_at == values["created_at"],
        )
    )
    for candidate in candidates:
        native = _table_row(candidate)
        if game_origin(native) == origin:
            return native.id
    return None


async def _replace_members(
    conn: AsyncConnection, table_id: int, members: Iterable[tuple[str, str]]
) -> None:
    m = schema.members
    await conn.execute(m.delete().where(m.c.table_id == table_id))
    rows = [{"table_id": table_id, "platform": p, "user_id": u} for p, u in dict.fromkeys(members)]
    if rows:
        await conn.execute(m.insert(), rows)


async def _finish(conn: AsyncConnection, table_id: int, finish: Finish) -> list[RatingChange]:
    await conn.execute(
        schema.results.insert().values(table_id=table_id, **_encode_result(finish.result))
    )
    r = schema.ratings
    family = finish.result["family"]
    winners = {side for side, rank in enumerate(finish.ranks) if rank == 0}
    changes: list[RatingChange] = []
    people = [p for team in finish.teams for p in team if p.fixed is None]
    for scope in finish.scopes:
        current: dict[tuple[str, str], RatingRow] = {}
        if people:
            query = sa.select(r).where(
                r.c.scope == scope,
                r.c.family == family,
                sa.tuple_(r.c.platform, r.c.user_id).in_([(p.platform, p.user_id) for p in people]),
            )
            if conn.dialect.name == "postgresql":
                # Two games finishing at once for one player must not lose an update.
                query = query.with_for_update()
            for row in await conn.execute(query):
                rr = RatingRow(**dict(row._mapping))
                current[(rr.platform, rr.user_id)] = rr
        before: list[list[tuple[float, float] | None]] = []
        for team in finish.teams:
            side: list[tuple[float, float] | None] = []
            for p in team:
                old = current.get((p.platform, p.user_id))
                side.append(p.fixed or ((old.mu, old.sigma) if old else None))
            before.append(side)
        after = finish.rate(before, finish.ranks)
        # A side with a player who left: that player is rated as if the side came last.
        forfeits = {
            side_index: finish.rate(before, _last(finish.ranks, side_index))[side_index]
            for side_index, team in enumerate(finish.teams)
            if any(p.forfeit and p.fixed is None for p in team)
        }
        for side_index, team in enumerate(finish.teams):
            for i, p in enumerate(team):
                if p.fixed is not None:
                    continue
                won = side_index in winners and not p.forfeit
                if p.forfeit:
                    mu, sigma = forfeits[side_index][i]
                else:
                    mu, sigma = after[side_index][i]
                old = current.get((p.platform, p.user_id))
                b = before[side_index][i]
                mu0, sigma0 = b if b is not None else finish.initial
                ordinal = finish.ordinal(mu, sigma)
                key = {
                    "scope": scope,
                    "family": family,
                    "platform": p.platform,
                    "user_id": p.user_id,
                }
                stats = {
                    "name": p.name,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": ordinal,
                    "games": (old.games if old else 0) + 1,
                    "wins": (old.wins if old else 0) + int(won),
                    "win_points": (old.win_points if old else 0)
                    + (finish.multiplier if won else 0),
                }
                if old is None:
                    await conn.execute(r.insert().values(**key, **stats))
                else:
                    await conn.execute(
                        r.update()
                        .where(*(getattr(r.c, k) == v for k, v in key.items()))
                        .values(**stats)
                    )
                await conn.execute(
                    schema.rating_changes.insert().values(
                        table_id=table_id,
                        scope=scope,
                        platform=p.platform,
                        user_id=p.user_id,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu_after=mu,
                        sigma_after=sigma,
                    )
                )
                changes.append(
                    RatingChange(
                        scope=scope,
                        platform=p.platform,
                        user_id=p.user_id,
                        name=p.name,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu_after=mu,
                        sigma_after=sigma,
                        ordinal_before=finish.ordinal(mu0, sigma0),
                        ordinal_after=ordinal,
                    )
                )
    return changes


def _last(ranks: Sequence[int], side: int) -> list[int]:
    """The ranks with ``side`` alone in last place (a forfeit), the others as they came."""
    worst = max(ranks)
    if ranks[side] == worst and sum(1 for r in ranks if r == worst) == 1:
        return list(ranks)
    return [worst + 1 if i == side else r for i, r in enumerate(ranks)]


def _encode_result(result: dict[str, Any]) -> dict[str, Any]:
    out = dict(result)
    out["data"] = dumps(out["data"])
    return out
