"""Database fixtures: every store/service test runs on SQLite (a temporary file) and, when
``TAVOLO_TEST_PG_URL`` is set (``.ci/run`` sets it), on PostgreSQL too. With ``CI`` set and no
PostgreSQL URL the PostgreSQL cases fail instead of being skipped. Under pytest-xdist each worker
has a database of its own on that server (``tavolo_test_gw1``, ...), created on first use."""

from __future__ import annotations

import functools
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

PG_ENV = "TAVOLO_TEST_PG_URL"

store_urls = ["sqlite", "postgresql"]


def worker_pg_url() -> str | None:
    """The PostgreSQL URL for this test process: ``TAVOLO_TEST_PG_URL`` itself, or under
    pytest-xdist a database of the worker's own beside it (the tests wipe their schema)."""
    url = os.environ.get(PG_ENV)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    return _worker_database(url, worker)


def _on_postgres(url: str, work: Callable[[Any], Awaitable[None]]) -> None:
    """Run ``work(connection)`` on the database of the SQLAlchemy URL ``url`` (asyncpg)."""
    import asyncio

    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await work(conn)
        finally:
            await conn.close()

    asyncio.run(run())


@functools.cache
def _worker_database(url: str, worker: str) -> str:
    base, _, name = url.rpartition("/")
    own = f"{name}_{worker}"

    async def create(conn: Any) -> None:
        if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", own):
            await conn.execute(f'CREATE DATABASE "{own}"')

    _on_postgres(url, create)
    return f"{base}/{own}"


def _reset_postgres(url: str) -> None:
    """A clean public schema, so each test starts from an empty database."""

    async def reset(conn: Any) -> None:
        await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")

    _on_postgres(url, reset)


@pytest.fixture(params=store_urls)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}"
        return
    url = worker_pg_url()
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {PG_ENV} is not: PostgreSQL tests cannot run")
        pytest.skip(f"{PG_ENV} not set: no PostgreSQL")
    _reset_postgres(url)
    yield url
