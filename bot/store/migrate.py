"""Alembic migrations run programmatically over the store's async engine."""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

logger = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (idempotent)."""

    def run(connection: Connection) -> None:
        if connection.dialect.name == "sqlite":
            # Python's sqlite3 runs DDL outside any transaction unless one was begun
            # explicitly: a process killed mid-migration then left tables without the
            # alembic_version stamp, and every later start failed on "table already exists".
            # An explicit BEGIN makes the whole upgrade one transaction (SQLite DDL is
            # transactional), committed by engine.begin() below.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        command.upgrade(alembic_config(connection), revision)

    async with engine.begin() as conn:
        await conn.run_sync(run)
    logger.info("database schema at %s", revision)
