"""Adapter state (migration 0004): the database and the in-memory implementation agree."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from bot.store.adapter_state import AdapterState, MemoryState


@pytest.fixture(params=["database", "memory"])
async def state(request: pytest.FixtureRequest, db_url: str) -> AsyncIterator[AdapterState]:
    if request.param == "memory":
        yield MemoryState()
        return
    store = Store.open(db_url)
    await store.upgrade()
    try:
        yield store
    finally:
        await store.close()


async def test_put_get_replace_delete(state: AdapterState) -> None:
    key = {"platform": "telegram", "kind": "public", "scope": "-100:7", "table_id": 3}
    assert await state.state_get(**key) is None
    await state.state_put({"message_id": 10, "version": 2}, **key)
    assert await state.state_get(**key) == {"message_id": 10, "version": 2}
    await state.state_put({"message_id": 11, "version": 5}, **key)  # last writer wins
    assert await state.state_get(**key) == {"message_id": 11, "version": 5}
    # other keys are other entries
    assert await state.state_get(**{**key, "kind": "hand"}) is None
    assert await state.state_get(**{**key, "table_id": 4}) is None
    await state.state_delete(**key)
    assert await state.state_get(**key) is None


async def test_a_tables_entries_listed_and_forgotten_together(state: AdapterState) -> None:
    for user in ("1", "2"):
        await state.state_put(
            {"message_id": int(user)}, platform="telegram", kind="hand", scope=user, table_id=9
        )
    await state.state_put("piacentine", platform="telegram", kind="style", scope="-100")
    await state.state_put(
        {"message_id": 5}, platform="discord", kind="table", scope="c", table_id=9
    )
    hands = await state.state_of_table(platform="telegram", kind="hand", table_id=9)
    assert sorted(hands) == [("1", {"message_id": 1}), ("2", {"message_id": 2})]
    await state.state_forget_table(platform="telegram", table_id=9)
    assert await state.state_of_table(platform="telegram", kind="hand", table_id=9) == []
    # another platform's entries of the same table id, and entries of no table, stay
    assert await state.state_get(platform="discord", kind="table", scope="c", table_id=9)
    assert await state.state_get(platform="telegram", kind="style", scope="-100") == "piacentine"


@pytest.mark.parametrize(
    "key",
    [
        {"platform": "", "kind": "k", "scope": "s", "table_id": 0},
        {"platform": "telegram", "kind": "k" * 17, "scope": "s", "table_id": 0},
        {"platform": "telegram", "kind": "k", "scope": "s" * 97, "table_id": 0},
        {"platform": "telegram", "kind": "k", "scope": "s", "table_id": -1},
    ],
)
async def test_bad_keys_are_clear_errors(state: AdapterState, key: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="adapter state"):
        await state.state_put(1, **key)  # type: ignore[arg-type]
