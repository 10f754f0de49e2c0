"""Reliability fixtures: the database URL (SQLite always; PostgreSQL when TAVOLO_TEST_PG_URL is
set, and with CI set a missing PostgreSQL fails instead of skipping), shared with tests/store."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakes.telegram_api import FakeBotApi
from tests.store import conftest as store_fixtures

db_url = store_fixtures.db_url


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    """A fake Telegram Bot API server on 127.0.0.1."""
    async with FakeBotApi() as server:
        yield server
