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
  anyway; one connection avoids busy-waiting between our own connections). A move's save there is
  group-committed in one call into aiosqlite's worker thread (:mod:`bot.store.group_commit`, the
  one module that relies on aiosqlite's private attributes, and falls back to the ordinary path
  without them).

The parts of :class:`Store`, one module each: :mod:`~bot.store.tables` (create, load, list),
:mod:`~bot.store.games` (the compare-and-set save, timers, moves, results),
:mod:`~bot.store.ratings` (a finished game's rating update, leaderboards),
:mod:`~bot.store.settings` (chats, users, per-chat settings), :mod:`~bot.store.adapter_state_sql`
(the adapters' key/value state), :mod:`~bot.store.archive` (imported games); the values they
exchange are in :mod:`~bot.store.rows`, the URL and engine set-up in :mod:`~bot.store.connect`.
"""

from __future__ import annotations

from bot.store.adapter_state_sql import AdapterStateMixin
from bot.store.archive import ArchiveMixin
from bot.store.connect import open_engine
from bot.store.connect import sqlite_url as sqlite_url
from bot.store.games import GamesMixin
from bot.store.ratings import RatingsMixin
from bot.store.rows import OPEN_STATUSES as OPEN_STATUSES
from bot.store.rows import (
    ChatRow,
    DueTimer,
    Finish,
    MoveRow,
    Participant,
    RatingChange,
    RatingRow,
    StoreError,
    TableRow,
    TableUpdate,
    dumps,
    encode,
    game_origin,
)
from bot.store.rows import RateFunction as RateFunction
from bot.store.rows import SaveResult as SaveResult
from bot.store.settings import SettingsMixin
from bot.store.tables import TablesMixin

# Also importable from here, as before the split: OPEN_STATUSES, RateFunction, SaveResult,
# sqlite_url (``X as X`` imports above) and _encode.
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

_encode = encode  # the tests encode a row written by hand


class Store(TablesMixin, GamesMixin, ArchiveMixin, SettingsMixin, AdapterStateMixin, RatingsMixin):
    """The database behind the service. Build with :meth:`open`; close with :meth:`close`."""

    @classmethod
    def open(cls, url: str, *, sqlite_synchronous: str = "NORMAL") -> Store:
        """A store for a SQLAlchemy async URL (``sqlite+aiosqlite:///...``,
        ``postgresql+asyncpg://...``; plain ``sqlite://`` / ``postgresql://`` are upgraded)."""
        engine, reader_path = open_engine(url, sqlite_synchronous=sqlite_synchronous)
        return cls(engine, reader_path=reader_path)

    async def close(self) -> None:
        """Finish the commit in flight (its callers are waiting for it), then disconnect."""
        await self._fast.close()
        await self.engine.dispose()

    async def upgrade(self) -> None:
        """Apply the Alembic migrations up to the newest (idempotent)."""
        from bot.store.migrate import upgrade

        await upgrade(self.engine)
