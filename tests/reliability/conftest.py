"""Reliability fixtures: the database URL (SQLite always; PostgreSQL when TAVOLO_TEST_PG_URL is
set, and with CI set a missing PostgreSQL fails instead of skipping), shared with tests/store."""

from __future__ import annotations

from tests.store import conftest as store_fixtures

db_url = store_fixtures.db_url
