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

:class:`Store` is composed, not inherited: it owns the database (:class:`~bot.store.base.Database`:
the engine and SQLite's fast path) and gives it to its parts, one module each, whose methods it
offers as its own (the interface the service needs is :class:`bot.domain.TableStore`):
:mod:`~bot.store.tables` (create, load, list),
:mod:`~bot.store.games` (the compare-and-set save, timers, moves, results),
:mod:`~bot.store.ratings` (a finished game's rating update, leaderboards),
:mod:`~bot.store.settings` (chats, users, per-chat settings), :mod:`~bot.store.adapter_state_sql`
(the adapters' key/value state), :mod:`~bot.store.archive` (imported games); the values they
exchange are in :mod:`~bot.store.rows`, the URL and engine set-up in :mod:`~bot.store.connect`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.domain.records import JSON, JSONObject, TableColumns
from bot.store.adapter_state_sql import AdapterStateStore
from bot.store.archive import ArchiveStore
from bot.store.base import Database
from bot.store.connect import open_engine
from bot.store.connect import sqlite_url as sqlite_url
from bot.store.games import GamesStore
from bot.store.ratings import RatingsStore
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
from bot.store.settings import SettingsStore
from bot.store.tables import TablesStore

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


class Store:
    """The database behind the service. Build with :meth:`open`; close with :meth:`close`.

    One object owning the database, given to its parts (:attr:`tables`, :attr:`games`,
    :attr:`ratings`, :attr:`settings`, :attr:`adapter_state`, :attr:`archive`); the methods
    below are theirs, offered here so a caller holds one store."""

    def __init__(self, engine: AsyncEngine, *, reader_path: str | None = None) -> None:
        self.db = Database(engine, reader_path=reader_path)
        self.tables = TablesStore(self.db)
        self.games = GamesStore(self.db)
        self.ratings = RatingsStore(self.db)
        self.settings = SettingsStore(self.db)
        self.adapter_state = AdapterStateStore(self.db)
        self.archive = ArchiveStore(self.db)

    @classmethod
    def open(cls, url: str, *, sqlite_synchronous: str = "NORMAL") -> Store:
        """A store for a SQLAlchemy async URL (``sqlite+aiosqlite:///...``,
        ``postgresql+asyncpg://...``; plain ``sqlite://`` / ``postgresql://`` are upgraded)."""
        engine, reader_path = open_engine(url, sqlite_synchronous=sqlite_synchronous)
        return cls(engine, reader_path=reader_path)

    @property
    def engine(self) -> AsyncEngine:
        return self.db.engine

    @property
    def is_sqlite(self) -> bool:
        return self.db.is_sqlite

    @property
    def _one_hop(self) -> bool:
        """Whether SQLite's fast path is in use (tests turn it off to run the ordinary one)."""
        return self.db.one_hop

    @_one_hop.setter
    def _one_hop(self, value: bool) -> None:
        self.db.one_hop = value

    async def close(self) -> None:
        """Finish the commit in flight (its callers are waiting for it), then disconnect."""
        await self.db.fast.close()
        await self.db.engine.dispose()

    async def upgrade(self) -> None:
        """Apply the Alembic migrations up to the newest (idempotent)."""
        from bot.store.migrate import upgrade

        await upgrade(self.db.engine)

    # tables: bot.store.tables
    async def insert_table(self, values: TableColumns, members: Iterable[tuple[str, str]]) -> int:
        return await self.tables.insert_table(values, members)

    async def rematch_of(self, table_id: int) -> int | None:
        return await self.tables.rematch_of(table_id)

    async def load_table(self, table_id: int) -> TableRow | None:
        return await self.tables.load_table(table_id)

    async def table_version(self, table_id: int) -> int | None:
        return await self.tables.table_version(table_id)

    async def open_tables(self, *, platform: str, chat_id: str) -> list[TableRow]:
        return await self.tables.open_tables(platform=platform, chat_id=chat_id)

    async def open_table_versions(self, *, platform: str) -> dict[int, int]:
        return await self.tables.open_table_versions(platform=platform)

    async def move_chat(self, *, platform: str, old: str, new: str) -> list[int]:
        return await self.tables.move_chat(platform=platform, old=old, new=new)

    async def user_tables(self, *, platform: str, user_id: str) -> list[TableRow]:
        return await self.tables.user_tables(platform=platform, user_id=user_id)

    async def user_table_ids(self, *, platform: str, user_id: str) -> list[int]:
        return await self.tables.user_table_ids(platform=platform, user_id=user_id)

    # games: bot.store.games
    async def save(self, update: TableUpdate) -> SaveResult | None:
        return await self.games.save(update)

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        return await self.games.due_tables(now, limit)

    async def date_lobbies(self, seconds: float) -> int:
        return await self.games.date_lobbies(seconds)

    async def claim_due(self, now: float, *, lease: float, limit: int = 100) -> list[DueTimer]:
        return await self.games.claim_due(now, lease=lease, limit=limit)

    async def move_deadline(
        self, table_id: int, *, version: int, kind: str, deadline: float, new_kind: str
    ) -> bool:
        return await self.games.move_deadline(
            table_id, version=version, kind=kind, deadline=deadline, new_kind=new_kind
        )

    async def moves(self, table_id: int, *, since: int = 0) -> list[MoveRow]:
        return await self.games.moves(table_id, since=since)

    async def result(self, table_id: int) -> JSONObject | None:
        return await self.games.result(table_id)

    # archive: bot.store.archive
    async def import_table(
        self,
        values: TableColumns,
        *,
        members: Iterable[tuple[str, str]],
        moves: Sequence[MoveRow],
        finish: Finish | None,
    ) -> tuple[int, bool, list[RatingChange]]:
        return await self.archive.import_table(values, members=members, moves=moves, finish=finish)

    async def table_of_origin(self, values: TableColumns) -> int | None:
        return await self.archive.table_of_origin(values)

    # settings: bot.store.settings
    async def chat(self, *, platform: str, chat_id: str) -> ChatRow:
        return await self.settings.chat(platform=platform, chat_id=chat_id)

    async def set_chat(
        self, *, platform: str, chat_id: str, locale: str | None, max_open_tables: int
    ) -> None:
        return await self.settings.set_chat(
            platform=platform, chat_id=chat_id, locale=locale, max_open_tables=max_open_tables
        )

    async def user_locale(self, *, platform: str, user_id: str) -> str | None:
        return await self.settings.user_locale(platform=platform, user_id=user_id)

    async def set_user_locale(
        self, *, platform: str, user_id: str, name: str, locale: str | None
    ) -> None:
        return await self.settings.set_user_locale(
            platform=platform, user_id=user_id, name=name, locale=locale
        )

    async def chat_settings(self, *, platform: str, chat_id: str) -> JSONObject:
        return await self.settings.chat_settings(platform=platform, chat_id=chat_id)

    async def set_chat_setting(
        self, value: object, *, platform: str, chat_id: str, key: str
    ) -> None:
        return await self.settings.set_chat_setting(
            value, platform=platform, chat_id=chat_id, key=key
        )

    async def set_option_sources(self, table_id: int, sources: dict[str, str]) -> None:
        return await self.settings.set_option_sources(table_id, sources)

    async def option_sources(self, table_id: int) -> dict[str, str]:
        return await self.settings.option_sources(table_id)

    # adapter_state: bot.store.adapter_state_sql
    async def state_get(self, *, platform: str, kind: str, scope: str, table_id: int = 0) -> JSON:
        return await self.adapter_state.state_get(
            platform=platform, kind=kind, scope=scope, table_id=table_id
        )

    async def state_put(
        self, value: object, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        return await self.adapter_state.state_put(
            value, platform=platform, kind=kind, scope=scope, table_id=table_id
        )

    async def state_delete(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        return await self.adapter_state.state_delete(
            platform=platform, kind=kind, scope=scope, table_id=table_id
        )

    async def state_of_table(
        self, *, platform: str, kind: str, table_id: int
    ) -> list[tuple[str, JSON]]:
        return await self.adapter_state.state_of_table(
            platform=platform, kind=kind, table_id=table_id
        )

    async def state_forget_table(self, *, platform: str, table_id: int) -> None:
        return await self.adapter_state.state_forget_table(platform=platform, table_id=table_id)

    # ratings: bot.store.ratings
    async def rating_history(
        self, *, platform: str, user_id: str, family: str, scope: str = "global", limit: int = 500
    ) -> list[tuple[float, float]]:
        return await self.ratings.rating_history(
            platform=platform, user_id=user_id, family=family, scope=scope, limit=limit
        )

    async def leaderboard(
        self, *, scope: str, family: str, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        return await self.ratings.leaderboard(
            scope=scope, family=family, limit=limit, offset=offset
        )

    async def player_ratings(self, *, platform: str, user_id: str) -> list[RatingRow]:
        return await self.ratings.player_ratings(platform=platform, user_id=user_id)

    async def rank(self, *, scope: str, family: str, ordinal: float) -> int:
        return await self.ratings.rank(scope=scope, family=family, ordinal=ordinal)
