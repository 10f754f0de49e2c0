"""Database fixtures: every store/service test runs on SQLite (a temporary file) and, when
``TAVOLO_TEST_PG_URL`` is set (``.ci/run`` sets it), on PostgreSQL too. With ``CI`` set and no
PostgreSQL URL the PostgreSQL cases fail instead of being skipped."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_ENV = "TAVOLO_TEST_PG_URL"

store_urls = ["sqlite", "postgresql"]


def _reset_postgres(url: str) -> None:
    """A clean public schema, so each test starts from an empty database."""
    import asyncio

    import asyncpg

    async def reset() -> None:
        dsn = url.replace("postgresql+asyncpg://", "postgresql://")
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")
        finally:
            await conn.close()

    asyncio.run(reset())


@pytest.fixture(params=store_urls)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}"
        return
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {PG_ENV} is not: PostgreSQL tests cannot run")
        pytest.skip(f"{PG_ENV} not set: no PostgreSQL")
    _reset_postgres(url)
    yield url
