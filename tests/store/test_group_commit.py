"""SQLite's fast path (bot.store.group_commit): used with the installed aiosqlite, and the
ordinary path, with the same answers, when aiosqlite lacks the private attributes it reads."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.store import MoveRow, Store, TableUpdate, group_commit
from tests.store.test_store import table_values

KEY: dict[str, Any] = {"platform": "telegram", "kind": "hand", "scope": "u1", "table_id": 1}


def _update(table_id: int, expected: int, n: int) -> TableUpdate:
    move = MoveRow(table_id=table_id, version=expected, seat=0, move="7D", actor="human", at=1.0)
    return TableUpdate(
        table_id=table_id, expected_version=expected, values={"state": {"n": n}}, move=move
    )


async def _play(store: Store) -> None:
    """Saves (racing, with one stale), adapter state and lookups, checked against the truth."""
    await store.upgrade()
    first = await store.insert_table(table_values(chat_id="a"), [("telegram", "u1")])
    second = await store.insert_table(table_values(chat_id="b"), [("telegram", "u1")])
    saved = await asyncio.gather(
        store.save(_update(first, 1, 1)),
        store.save(_update(second, 5, 2)),  # stale: the table is at version 1
        store.state_put({"message_id": 7}, **KEY),
    )
    assert [s is not None for s in saved[:2]] == [True, False]
    assert await store.state_get(**KEY) == {"message_id": 7}
    assert await store.user_table_ids(platform="telegram", user_id="u1") == [first, second]
    row = await store.load_table(first)
    assert row is not None and (row.version, row.state) == (2, {"n": 1})
    row = await store.load_table(second)
    assert row is not None and (row.version, row.state) == (1, {"x": 1})
    assert [m.move for m in await store.moves(first)] == ["7D"]
    assert await store.moves(second) == []


async def test_the_installed_aiosqlite_exposes_the_worker(tmp_path: Path) -> None:
    """If an upgrade of aiosqlite renamed what the fast path reads, this fails (the store would
    still work, statement by statement, but slower: see the module's docstring)."""
    store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'w.sqlite3'}")
    try:
        async with store.engine.connect() as conn:
            raw = (await conn.get_raw_connection()).dbapi_connection
            assert raw is not None
            assert group_commit.worker_of(raw.driver_connection) is not None
        await _play(store)
        assert store._one_hop
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("attribute", "name"),
    [
        ("RUN_ATTRIBUTE", "_no_such_attribute"),
        ("CONNECTION_ATTRIBUTE", "_no_such_attribute"),
        # Present, but not a sqlite3.Connection (aiosqlite's queue of calls).
        ("CONNECTION_ATTRIBUTE", "_tx"),
    ],
)
async def test_falls_back_without_the_private_attributes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    attribute: str,
    name: str,
) -> None:
    """Another aiosqlite version, as far as the fast path can tell: the store answers the same,
    statement by statement, and says so once in the log."""
    monkeypatch.setattr(group_commit, attribute, name)
    store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'f.sqlite3'}")
    try:
        assert store._one_hop
        with caplog.at_level(logging.INFO, logger=group_commit.__name__):
            await _play(store)
        assert not store._one_hop
        told = [r for r in caplog.records if "without a worker handle" in r.getMessage()]
        assert len(told) == 1
    finally:
        await store.close()


def test_worker_of_refuses_what_is_not_aiosqlite() -> None:
    import sqlite3

    class SyncRun:
        def __init__(self) -> None:
            self._connection = sqlite3.connect(":memory:")

        def _execute(self, fn: Any, *args: Any) -> Any:
            return fn(*args)

    assert group_commit.worker_of(None) is None
    assert group_commit.worker_of(object()) is None
    sync = SyncRun()
    try:
        assert group_commit.worker_of(sync) is None  # a coroutine is awaited: not this one
    finally:
        sync._connection.close()
