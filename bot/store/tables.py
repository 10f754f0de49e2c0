"""Tables: create, load, list, move to another chat; the members a table lists."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.domain import TableColumns, TableConflict
from bot.store import schema
from bot.store.base import Database
from bot.store.rows import OPEN_STATUSES, TableRow, encode, table_row

__all__ = ["TablesStore", "replace_members"]


class TablesStore:
    """Tables: create, load, list, move to another chat (a part of :class:`bot.store.Store`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def insert_table(self, values: TableColumns, members: Iterable[tuple[str, str]]) -> int:
        """Insert a table; :class:`bot.domain.TableConflict` for a second rematch of a
        table."""
        try:
            async with self.db.engine.begin() as conn:
                result = await conn.execute(schema.tables.insert().values(**encode(values)))
                pk = result.inserted_primary_key
                assert pk is not None
                table_id = int(pk[0])
                await replace_members(conn, table_id, members)
        except sa.exc.IntegrityError as exc:
            raise TableConflict(str(exc.orig or exc)) from exc
        return table_id

    async def rematch_of(self, table_id: int) -> int | None:
        """The id of the table opened as the rematch of ``table_id``, if any."""
        t = schema.tables
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(sa.select(t.c.id).where(t.c.rematch_of == table_id))).first()
        return None if row is None else int(row[0])

    async def load_table(self, table_id: int) -> TableRow | None:
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(schema.tables).where(schema.tables.c.id == table_id))
            ).first()
        return table_row(row) if row is not None else None

    async def table_version(self, table_id: int) -> int | None:
        """The stored version of a table (a cheap check that a process's copy is current)."""
        t = schema.tables
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(sa.select(t.c.version).where(t.c.id == table_id))).first()
        return None if row is None else int(row[0])

    async def open_tables(self, *, platform: str, chat_id: str) -> list[TableRow]:
        t = schema.tables
        query = (
            sa.select(t)
            .where(t.c.platform == platform, t.c.chat_id == chat_id, t.c.status.in_(OPEN_STATUSES))
            .order_by(t.c.id)
        )
        async with self.db.engine.connect() as conn:
            return [table_row(r) for r in await conn.execute(query)]

    async def open_table_versions(self, *, platform: str) -> dict[int, int]:
        """``{table id: version}`` of every open table (lobby or playing) of a platform."""
        t = schema.tables
        query = sa.select(t.c.id, t.c.version).where(
            t.c.platform == platform, t.c.status.in_(OPEN_STATUSES)
        )
        async with self.db.engine.connect() as conn:
            return {int(row[0]): int(row[1]) for row in await conn.execute(query)}

    async def move_chat(self, *, platform: str, old: str, new: str) -> list[int]:
        """The open tables of chat ``old`` now belong to chat ``new`` (a Telegram group that
        became a supergroup has a new id); so do its settings, unless ``new`` has its own.
        Returns the ids of the tables moved."""
        t, c, s = schema.tables, schema.chats, schema.chat_settings
        async with self.db.engine.begin() as conn:
            ids = [
                int(row[0])
                for row in await conn.execute(
                    sa.select(t.c.id).where(
                        t.c.platform == platform,
                        t.c.chat_id == old,
                        t.c.status.in_(OPEN_STATUSES),
                    )
                )
            ]
            if ids:
                await conn.execute(t.update().where(t.c.id.in_(ids)).values(chat_id=new))
            for table in (c, s):
                taken = (
                    await conn.execute(
                        sa.select(sa.func.count())
                        .select_from(table)
                        .where(table.c.platform == platform, table.c.chat_id == new)
                    )
                ).scalar_one()
                if not taken:
                    await conn.execute(
                        table.update()
                        .where(table.c.platform == platform, table.c.chat_id == old)
                        .values(chat_id=new)
                    )
        return ids

    async def user_tables(self, *, platform: str, user_id: str) -> list[TableRow]:
        """The open tables where the user sits, oldest first."""
        t, m = schema.tables, schema.members
        query = (
            sa.select(t)
            .join(m, m.c.table_id == t.c.id)
            .where(m.c.platform == platform, m.c.user_id == user_id, t.c.status.in_(OPEN_STATUSES))
            .order_by(t.c.id)
        )
        async with self.db.engine.connect() as conn:
            return [table_row(r) for r in await conn.execute(query)]

    async def user_table_ids(self, *, platform: str, user_id: str) -> list[int]:
        """The ids of the open tables where the user sits, oldest first (``user_tables``
        without decoding every row: asked on every press of a hand in a private chat)."""
        params = {"platform": platform, "user_id": user_id}
        if self.db.one_hop:
            sql, order = self.db.fast.compiled_once(("<user_table_ids>",), _user_table_ids)
            # Through the pooled connection, not the direct reader: a lobby change in flight
            # (its own transaction) is read after it commits, as before.
            rows = await self.db.fast.read(sql, tuple(params[name] for name in order), here=False)
            if rows is not None:
                return [int(row[0]) for row in rows if row[0] is not None]
        async with self.db.engine.connect() as conn:
            return [int(row[0]) for row in await conn.execute(_user_table_ids(), params)]


def _user_table_ids() -> sa.Select[int]:
    t, m = schema.tables, schema.members
    return (
        sa.select(t.c.id)
        .join(m, m.c.table_id == t.c.id)
        .where(
            m.c.platform == sa.bindparam("platform"),
            m.c.user_id == sa.bindparam("user_id"),
            # Constants in the text: compiled once, with only the user's two parameters.
            t.c.status.in_([sa.literal_column(f"'{status}'") for status in OPEN_STATUSES]),
        )
        .order_by(t.c.id)
    )


async def replace_members(
    conn: AsyncConnection, table_id: int, members: Iterable[tuple[str, str]]
) -> None:
    """The table's members become ``members`` ((platform, user id); repeats count once)."""
    m = schema.members
    await conn.execute(m.delete().where(m.c.table_id == table_id))
    rows = [{"table_id": table_id, "platform": p, "user_id": u} for p, u in dict.fromkeys(members)]
    if rows:
        await conn.execute(m.insert(), rows)
