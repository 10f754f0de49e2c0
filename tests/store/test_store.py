"""The store on real databases: migrations match the schema, compare-and-set saves."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.domain import Seat, dumps
from bot.store import MoveRow, Store, StoreError, TableUpdate
from bot.store.schema import metadata


def table_values(**over: object) -> dict[str, object]:
    values: dict[str, object] = {
        "platform": "telegram",
        "chat_id": "c",
        "game": "scopa",
        "family": "scopa",
        "players": 2,
        "options": {"target": 11},
        "status": "playing",
        "creator": "u",
        "seats": [None, None],
        "state": {"x": 1},
        "state_version": 1,
        "seed": 42,
        "version": 1,
        "deadline": None,
        "deadline_kind": None,
        "rematch_of": None,
        "created_at": 1.0,
        "updated_at": 1.0,
    }
    values.update(over)
    return values


async def test_migrations_create_exactly_the_schema(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        await store.upgrade()  # idempotent

        def diff(conn: sa.Connection) -> list[object]:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))

        async with store.engine.connect() as conn:
            assert await conn.run_sync(diff) == []
    finally:
        await store.close()


@pytest.mark.parametrize("one_hop", [True, False])
async def test_compare_and_set(db_url: str, one_hop: bool) -> None:
    """Both write paths: SQLite's group commit in one driver call, and statement by statement
    (PostgreSQL, or an aiosqlite without the worker handle)."""
    store = Store.open(db_url)
    store._one_hop = one_hop and store.is_sqlite
    try:
        await store.upgrade()
        table_id = await store.insert_table(table_values(), [("telegram", "u")])
        move = MoveRow(table_id=table_id, version=1, seat=0, move="7D", actor="human", at=2.0)
        first = await store.save(
            TableUpdate(
                table_id=table_id, expected_version=1, values={"state": {"x": 2}}, move=move
            )
        )
        assert first is not None and first.version == 2
        # A second save on the old version matches nothing and writes nothing.
        assert (
            await store.save(
                TableUpdate(
                    table_id=table_id, expected_version=1, values={"state": {"x": 3}}, move=move
                )
            )
            is None
        )
        row = await store.load_table(table_id)
        assert row is not None and row.version == 2 and row.state == {"x": 2}
        assert [m.move for m in await store.moves(table_id)] == ["7D"]
        assert [r.id for r in await store.user_tables(platform="telegram", user_id="u")] == [
            table_id
        ]
        assert await store.user_table_ids(platform="telegram", user_id="u") == [table_id]
        assert await store.user_table_ids(platform="telegram", user_id="nobody") == []
        assert [r.id for r in await store.open_tables(platform="telegram", chat_id="c")] == [
            table_id
        ]
        # Timers: due tables, and a reminder moves the deadline without a new version.
        await store.save(
            TableUpdate(
                table_id=table_id,
                expected_version=2,
                values={"deadline": 10.0, "deadline_kind": "remind"},
            )
        )
        assert await store.due_tables(9.0) == []
        assert await store.due_tables(10.0) == [table_id]
        assert await store.move_deadline(
            table_id, version=3, kind="remind", deadline=20.0, new_kind="autoplay"
        )
        assert not await store.move_deadline(
            table_id, version=3, kind="remind", deadline=30.0, new_kind="autoplay"
        )
        row = await store.load_table(table_id)
        assert row is not None and (row.version, row.deadline) == (3, 20.0)
    finally:
        await store.close()


async def test_chat_and_user_settings(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        assert (await store.chat(platform="telegram", chat_id="c")).max_open_tables == 1
        await store.set_chat(platform="telegram", chat_id="c", locale="en", max_open_tables=3)
        await store.set_chat(platform="telegram", chat_id="c", locale="it", max_open_tables=3)
        chat = await store.chat(platform="telegram", chat_id="c")
        assert (chat.locale, chat.max_open_tables) == ("it", 3)
        assert await store.user_locale(platform="telegram", user_id="u") is None
        await store.set_user_locale(platform="telegram", user_id="u", name="U", locale="en")
        assert await store.user_locale(platform="telegram", user_id="u") == "en"
    finally:
        await store.close()


async def test_a_loaded_table_hands_out_typed_seats(db_url: str) -> None:
    """The seats come back typed (``TableRow.seats``), an older document without the optional
    keys included; saved, each seat is written as its document (``Seat.to_dict``), so the
    column of a seat the service wrote reads the same bytes as before."""
    ada = Seat(platform="telegram", user_id="7", name="Ada", away=True, level="hard")
    docs = [{"platform": "ai", "user_id": "easy", "name": "CPU-easy"}, None, ada.to_dict()]
    seats_column = sa.text("SELECT seats FROM tables WHERE id = :id")
    store = Store.open(db_url)
    try:
        await store.upgrade()
        table_id = await store.insert_table(
            table_values(players=3, seats=docs), [("telegram", "7")]
        )
        row = await store.load_table(table_id)
        assert row is not None
        assert row.seats == [Seat(platform="ai", user_id="easy", name="CPU-easy"), None, ada]
        assert ada.plays_computer and not ada.computer
        async with store.engine.connect() as conn:
            column = (await conn.execute(seats_column, {"id": table_id})).scalar_one()
        assert column == dumps(docs)
        seats = [row.seats[0], Seat(platform="telegram", user_id="8", name="Bea"), ada]
        saved = await store.save(
            TableUpdate(table_id=table_id, expected_version=1, values={"seats": seats})
        )
        assert saved is not None
        async with store.engine.connect() as conn:
            column = (await conn.execute(seats_column, {"id": table_id})).scalar_one()
        assert column == (
            '[{"platform":"ai","user_id":"easy","name":"CPU-easy","level":null,"away":false,'
            '"idle":0,"hint":null},{"platform":"telegram","user_id":"8","name":"Bea",'
            '"level":null,"away":false,"idle":0,"hint":null},{"platform":"telegram",'
            '"user_id":"7","name":"Ada","level":"hard","away":true,"idle":0,"hint":null}]'
        )
        reloaded = await store.load_table(table_id)
        assert reloaded is not None and reloaded.seats == seats
    finally:
        await store.close()


def test_bad_url() -> None:
    with pytest.raises(StoreError):
        Store.open("nosuchdb://x")


async def test_migration_0002_keeps_saved_tables_loadable(db_url: str) -> None:
    from bot.store.migrate import upgrade

    store = Store.open(db_url)
    try:
        await upgrade(store.engine, "0001")
        values = table_values(version=7)
        del values["state_version"]
        async with store.engine.begin() as conn:
            from bot.store import _encode
            from bot.store.schema import tables

            columns = {c.name for c in tables.columns} - {"state_version"}
            insert = sa.insert(sa.table("tables", *(sa.column(c) for c in columns)))
            await conn.execute(insert.values(**_encode(values)))
        await store.upgrade()
        rows = await store.open_tables(platform="telegram", chat_id="c")
        assert [(r.version, r.state_version, r.state) for r in rows] == [(7, 7, {"x": 1})]
    finally:
        await store.close()


async def test_group_commit_answers_each_save(tmp_path: object) -> None:
    """Saves racing into one SQLite group commit: each gets its own compare-and-set answer."""
    import asyncio

    store = Store.open(f"sqlite+aiosqlite:///{tmp_path}/g.sqlite3")
    try:
        await store.upgrade()
        ids = [await store.insert_table(table_values(chat_id=f"c{i}"), []) for i in range(6)]
        updates = [
            TableUpdate(
                table_id=tid,
                expected_version=1 if i % 2 == 0 else 5,
                values={"state": {"n": i}},
                move=MoveRow(table_id=tid, version=1, seat=0, move="7D", actor="human", at=1.0),
            )
            for i, tid in enumerate(ids)
        ]
        results = await asyncio.gather(*(store.save(u) for u in updates))
        assert [r is not None for r in results] == [True, False] * 3
        for i, tid in enumerate(ids):
            row = await store.load_table(tid)
            assert row is not None
            assert (row.version, row.state) == ((2, {"n": i}) if i % 2 == 0 else (1, {"x": 1}))
            assert len(await store.moves(tid)) == (1 if i % 2 == 0 else 0)
        # A failing save (the move's version already used) does not sink the others.
        dup = MoveRow(table_id=ids[0], version=1, seat=0, move="7D", actor="human", at=1.0)
        bad = TableUpdate(table_id=ids[0], expected_version=2, values={"state": {"n": 9}}, move=dup)
        good = TableUpdate(
            table_id=ids[1],
            expected_version=1,
            values={"state": {"n": 1}},
            move=MoveRow(table_id=ids[1], version=1, seat=0, move="7D", actor="human", at=1.0),
        )
        outcome = await asyncio.gather(store.save(bad), store.save(good), return_exceptions=True)
        assert isinstance(outcome[0], Exception) and outcome[1] is not None
        row = await store.load_table(ids[0])
        assert row is not None and row.version == 2  # the failed save changed nothing
    finally:
        await store.close()
