"""The store speaks the service's port: a second rematch of a table is a ``TableConflict`` (the
service's own error), not the database library's, and nothing of it is written."""

from __future__ import annotations

import pytest

from bot.service.ports import TableConflict
from bot.store import Store
from tests.store.test_store import table_values


async def test_a_second_rematch_is_a_table_conflict(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        old = await store.insert_table(table_values(status="finished"), [("telegram", "u")])
        first = await store.insert_table(table_values(rematch_of=old), [("telegram", "u")])
        with pytest.raises(TableConflict):
            await store.insert_table(table_values(rematch_of=old), [("telegram", "v")])
        assert await store.rematch_of(old) == first
        assert await store.user_table_ids(platform="telegram", user_id="v") == []
    finally:
        await store.close()
