"""The SQL behind the adapters' key/value state (migration 0004, table ``adapter_state``): the
interface is :class:`bot.domain.AdapterState`. On SQLite a write joins the group
commit of the moves' saves and a read takes no thread hop (:mod:`bot.store.group_commit`)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Mapping

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from bot.domain import check_key
from bot.domain.records import JSON
from bot.store import schema
from bot.store.base import Database
from bot.store.rows import StoreError, dumps

__all__ = ["AdapterStateStore"]


class AdapterStateStore:
    """The adapters' key/value state in SQL (a part of :class:`bot.store.Store`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Writes waiting for their group commit, by key.
        self._state_writes: dict[tuple[str, str, str, int], asyncio.Future[bool | None]] = {}

    async def state_get(self, *, platform: str, kind: str, scope: str, table_id: int = 0) -> JSON:
        params = {"platform": platform, "kind": kind, "scope": scope, "table_id": table_id}
        writing = self._state_writes.get((platform, kind, scope, table_id))
        if writing is not None:
            # Another task's write of this entry is on its way to the next commit: read after
            # it, as the single pooled connection used to order them.
            await asyncio.wait([writing])
        if self.db.one_hop:
            # The adapters read an entry for every message they edit: one hop, not five.
            sql, order = self.db.fast.compiled_once(("<state_get>",), _state_get)
            rows = await self.db.fast.read(sql, tuple(params[name] for name in order))
            if rows is not None:
                return json.loads(str(rows[0][0])) if rows else None
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(_state_get(), params)).first()
        return None if row is None else json.loads(row[0])

    async def state_put(
        self, value: object, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        """Insert or replace one entry (the last writer wins: entries are hints, not records)."""
        check_key(platform=platform, kind=kind, scope=scope, table_id=table_id)
        values = {"value": dumps(value), "updated_at": time.time()}
        if self.db.one_hop:
            # Written with the next group commit (see bot.store.group_commit): one hop, shared.
            sql, order = self.db.fast.compiled_once(("<state_put>",), _state_upsert)
            params = {"platform": platform, "kind": kind, "scope": scope, "table_id": table_id}
            args = tuple({**params, **values}[name] for name in order)

            def op(cursor: sqlite3.Cursor) -> bool:
                cursor.execute(sql, args)
                return True

            entry = (platform, kind, scope, table_id)
            future = self.db.fast.enqueue(op)
            self._state_writes[entry] = future
            try:
                done = await future
            finally:
                if self._state_writes.get(entry) is future:
                    del self._state_writes[entry]
            if done is not None:
                return
        # Ordered per entry within this process, as on the group commit: a put waits for the
        # previous put of its entry (the last issued wins) and a read waits for both.
        entry = (platform, kind, scope, table_id)
        previous = self._state_writes.get(entry)
        mine: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        self._state_writes[entry] = mine
        try:
            if previous is not None:
                await asyncio.wait([previous])
            await self._state_put_now(
                values, platform=platform, kind=kind, scope=scope, table_id=table_id
            )
        finally:
            mine.set_result(True)
            if self._state_writes.get(entry) is mine:
                del self._state_writes[entry]

    async def _state_put_now(
        self, values: Mapping[str, object], *, platform: str, kind: str, scope: str, table_id: int
    ) -> None:
        a = schema.adapter_state
        key = (
            a.c.platform == platform,
            a.c.kind == kind,
            a.c.scope == scope,
            a.c.table_id == table_id,
        )
        for _attempt in range(3):  # bounded: another process may insert the same key meanwhile
            try:
                async with self.db.engine.begin() as conn:
                    updated = await conn.execute(a.update().where(*key).values(**values))
                    if updated.rowcount == 0:
                        await conn.execute(
                            a.insert().values(
                                platform=platform,
                                kind=kind,
                                scope=scope,
                                table_id=table_id,
                                **values,
                            )
                        )
                return
            except sa.exc.IntegrityError:
                continue
        raise StoreError(f"could not write adapter state {kind} {scope} {table_id}")

    async def state_delete(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        a = schema.adapter_state
        async with self.db.engine.begin() as conn:
            await conn.execute(
                a.delete().where(
                    a.c.platform == platform,
                    a.c.kind == kind,
                    a.c.scope == scope,
                    a.c.table_id == table_id,
                )
            )

    async def state_of_table(
        self, *, platform: str, kind: str, table_id: int
    ) -> list[tuple[str, JSON]]:
        """Every ``(scope, value)`` of one kind for a table (e.g. its players' hand messages)."""
        a = schema.adapter_state
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(a.c.scope, a.c.value)
                    .where(a.c.platform == platform, a.c.table_id == table_id, a.c.kind == kind)
                    .order_by(a.c.scope)
                )
            ).all()
        return [(str(row[0]), json.loads(row[1])) for row in rows]

    async def state_forget_table(self, *, platform: str, table_id: int) -> None:
        a = schema.adapter_state
        async with self.db.engine.begin() as conn:
            await conn.execute(a.delete().where(a.c.platform == platform, a.c.table_id == table_id))


def _state_get() -> sa.Select[str]:
    a = schema.adapter_state
    return sa.select(a.c.value).where(
        a.c.platform == sa.bindparam("platform"),
        a.c.kind == sa.bindparam("kind"),
        a.c.scope == sa.bindparam("scope"),
        a.c.table_id == sa.bindparam("table_id"),
    )


def _state_upsert() -> sa.ClauseElement:
    """Insert or replace one adapter state entry, in one statement (SQLite's upsert)."""
    a = schema.adapter_state
    columns = ("platform", "kind", "scope", "table_id", "value", "updated_at")
    stmt = sqlite_insert(a).values({c: sa.bindparam(c) for c in columns})
    return stmt.on_conflict_do_update(
        index_elements=[a.c.platform, a.c.kind, a.c.scope, a.c.table_id],
        set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
    )
