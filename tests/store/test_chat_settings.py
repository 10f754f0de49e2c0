"""Per-chat settings and table option sources in the store (migration 0007), on real databases."""

from __future__ import annotations

import pytest

from bot.store import Store
from tests.store.test_store import table_values


async def test_chat_settings_round_trip_per_chat(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        assert await store.chat_settings(platform="telegram", chat_id="-1") == {}
        await store.set_chat_setting(30, platform="telegram", chat_id="-1", key="timer")
        await store.set_chat_setting(False, platform="telegram", chat_id="-1", key="pictures")
        await store.set_chat_setting(16, platform="telegram", chat_id="-1", key="scopa.target")
        await store.set_chat_setting(60, platform="telegram", chat_id="-1", key="timer")
        await store.set_chat_setting("admins", platform="discord", chat_id="-1", key="open")
        assert await store.chat_settings(platform="telegram", chat_id="-1") == {
            "timer": 60,
            "pictures": False,
            "scopa.target": 16,
        }
        # Another chat (or the same id on another platform) has its own.
        assert await store.chat_settings(platform="telegram", chat_id="-2") == {}
        assert await store.chat_settings(platform="discord", chat_id="-1") == {"open": "admins"}
        await store.set_chat_setting(None, platform="telegram", chat_id="-1", key="timer")
        assert "timer" not in await store.chat_settings(platform="telegram", chat_id="-1")
        with pytest.raises(ValueError):
            await store.set_chat_setting(1, platform="telegram", chat_id="-1", key="x" * 65)
    finally:
        await store.close()


async def test_settings_survive_a_new_store(db_url: str) -> None:
    first = Store.open(db_url)
    await first.upgrade()
    await first.set_chat_setting(300, platform="telegram", chat_id="g", key="timer")
    await first.close()
    second = Store.open(db_url)
    try:
        await second.upgrade()
        assert await second.chat_settings(platform="telegram", chat_id="g") == {"timer": 300}
    finally:
        await second.close()


async def test_option_sources(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        table_id = await store.insert_table(table_values(), [("telegram", "u")])
        assert await store.option_sources(table_id) == {}
        await store.set_option_sources(table_id, {"target": "chat", "napola": "command"})
        assert await store.option_sources(table_id) == {"target": "chat", "napola": "command"}
        await store.set_option_sources(table_id, {"target": "command"})
        assert await store.option_sources(table_id) == {"target": "command"}
    finally:
        await store.close()
