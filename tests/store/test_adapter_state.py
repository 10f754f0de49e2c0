"""Adapter state (migration 0004): the database and the in-memory implementation agree."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.store import Store
from bot.store.adapter_state import AdapterState, MemoryState


@pytest.fixture(params=["database", "statements", "memory"])
async def state(request: pytest.FixtureRequest, db_url: str) -> AsyncIterator[AdapterState]:
    """The database on SQLite's one-hop paths (reads in one driver call, writes in the group
    commit), statement by statement (PostgreSQL's path), and in memory."""
    if request.param == "memory":
        yield MemoryState()
        return
    store = Store.open(db_url)
    store._one_hop = request.param == "database" and store.is_sqlite
    await store.upgrade()
    try:
        yield store
    finally:
        await store.close()


async def test_put_get_replace_delete(state: AdapterState) -> None:
    key: dict[str, Any] = {
        "platform": "telegram",
        "kind": "public",
        "scope": "-100:7",
        "table_id": 3,
    }
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


async def test_puts_made_together_all_land_and_the_last_for_a_key_wins(
    state: AdapterState,
) -> None:
    # Issued at once, these share group commits on SQLite; each caller returns once written.
    puts = [
        state.state_put(
            {"n": n}, platform="telegram", kind="hand", scope=str(n % 5), table_id=n % 3
        )
        for n in range(60)
    ]
    await asyncio.gather(*puts)
    for scope in range(5):
        for table_id in range(3):
            last = max(n for n in range(60) if n % 5 == scope and n % 3 == table_id)
            found = await state.state_get(
                platform="telegram", kind="hand", scope=str(scope), table_id=table_id
            )
            assert found == {"n": last}


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


async def test_rating_history_oldest_first_per_family(db_url: str) -> None:
    import sqlalchemy as sa

    from bot.store import schema

    store = Store.open(db_url)
    await store.upgrade()
    try:
        async with store.engine.begin() as conn:
            for table_id, family, at in (
                (1, "scopa", 30.0),
                (2, "scala40", 20.0),
                (3, "scopa", 10.0),
            ):
                await conn.execute(
                    sa.insert(schema.tables).values(
                        id=table_id,
                        platform="telegram",
                        chat_id="c",
                        game=family,
                        family=family,
                        players=2,
                        options="{}",
                        status="finished",
                        creator="u",
                        seats="[]",
                        seed=1,
                        version=1,
                        created_at=at,
                        updated_at=at,
                    )
                )
                await conn.execute(
                    sa.insert(schema.results).values(
                        table_id=table_id,
                        platform="telegram",
                        chat_id="c",
                        game=family,
                        family=family,
                        winner_side=0,
                        multiplier=1,
                        data="{}",
                        finished_at=at,
                    )
                )
                await conn.execute(
                    sa.insert(schema.rating_changes).values(
                        table_id=table_id,
                        scope="global",
                        platform="telegram",
                        user_id="u",
                        mu_before=25.0,
                        sigma_before=8.0,
                        mu_after=25.0 + at,
                        sigma_after=1.0,
                    )
                )
        history = await store.rating_history(platform="telegram", user_id="u", family="scopa")
        assert history == [(10.0, 32.0), (30.0, 52.0)]
        assert await store.rating_history(platform="telegram", user_id="x", family="scopa") == []
    finally:
        await store.close()


async def test_a_read_started_during_another_tasks_write_sees_it(state: AdapterState) -> None:
    # The Discord handler posts a table message, then keeps its id; a press arriving meanwhile
    # must find it (the single pooled connection used to order them; the group commit and the
    # direct reader must too).
    key: dict[str, Any] = {"platform": "discord", "kind": "table", "scope": "", "table_id": 5}
    write = asyncio.create_task(state.state_put({"message_id": 77}, **key))
    await asyncio.sleep(0)  # the write is queued, not yet committed
    assert await state.state_get(**key) == {"message_id": 77}
    await write
