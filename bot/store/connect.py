"""From a database URL to a SQLAlchemy async engine: SQLite (aiosqlite) with its pragmas and one
pooled connection, or PostgreSQL (asyncpg) with a pool."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store.rows import StoreError

__all__ = ["async_url", "open_engine", "sqlite_url"]


def sqlite_url(data_dir: Path) -> str:
    """The default database: a file under the data directory."""
    return f"sqlite+aiosqlite:///{(data_dir / 'tavolo.sqlite3').resolve()}"


def async_url(url: str) -> str:
    """The URL with its async driver (plain ``sqlite://`` / ``postgresql://`` are upgraded)."""
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    return url


def open_engine(url: str, *, sqlite_synchronous: str) -> tuple[AsyncEngine, str | None]:
    """The engine for ``url``, and the path of its SQLite file when a second connection may read
    it directly (a plain file: not in memory, no URI options), else ``None``."""
    url = async_url(url)
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
    return engine, reader_path


def _sqlite_pragmas(engine: AsyncEngine, *, synchronous: str) -> None:
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise StoreError(
            f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous}"
        )

    @sa.event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: object) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
