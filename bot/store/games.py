"""Games in play: the compare-and-set save of a move, the timers, the move log, the result."""

from __future__ import annotations

import json

import sqlalchemy as sa

from bot.domain.records import JSONObject
from bot.store import schema
from bot.store.base import Database
from bot.store.ratings import finish_game
from bot.store.rows import (
    OPEN_STATUSES,
    DueTimer,
    MoveRow,
    RatingChange,
    SaveResult,
    TableUpdate,
    encode,
)
from bot.store.tables import replace_members

__all__ = ["GamesStore"]


class GamesStore:
    """Games in play: the compare-and-set save, the timers, the move log, the result (a part
    of :class:`bot.store.Store`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(self, update: TableUpdate) -> SaveResult | None:
        """Apply ``update`` in one transaction if the table is still at ``expected_version``.

        Returns ``None`` (and writes nothing) when another writer got there first.
        """
        t = schema.tables
        new_version = update.expected_version + 1
        values = encode(update.values)
        values["version"] = new_version
        if self.db.one_hop and update.finish is None and update.members is None:
            done = await self.db.fast.save(update, values)
            if done is not None:
                return SaveResult(new_version) if done else None
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                t.update()
                .where(t.c.id == update.table_id, t.c.version == update.expected_version)
                .values(**values)
            )
            if result.rowcount != 1:
                return None
            if update.move is not None:
                move = update.move
                await conn.execute(
                    schema.moves.insert().values(
                        table_id=move.table_id,
                        version=move.version,
                        seat=move.seat,
                        move=move.move,
                        actor=move.actor,
                        at=move.at,
                    )
                )
            if update.members is not None:
                await replace_members(conn, update.table_id, update.members)
            changes: list[RatingChange] = []
            if update.finish is not None:
                changes = await finish_game(conn, update.table_id, update.finish)
        return SaveResult(new_version, changes)

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        """Ids of playing tables whose timer deadline has passed, most overdue first."""
        t = schema.tables
        query = (
            sa.select(t.c.id)
            .where(t.c.deadline.is_not(None), t.c.deadline <= now, t.c.status == "playing")
            .order_by(t.c.deadline)
            .limit(limit)
        )
        async with self.db.engine.connect() as conn:
            return [int(r[0]) for r in await conn.execute(query)]

    async def date_lobbies(self, seconds: float) -> int:
        """Give every lobby without an expiry one ``seconds`` after its last change (lobbies
        opened before lobbies expired, or while expiry was off); the version stays, so nobody's
        buttons go stale. The number of lobbies dated."""
        t = schema.tables
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                t.update()
                .where(t.c.status == "lobby", t.c.deadline.is_(None))
                .values(deadline=t.c.updated_at + seconds, deadline_kind="lobby")
            )
        return int(result.rowcount or 0)

    async def claim_due(self, now: float, *, lease: float, limit: int = 100) -> list[DueTimer]:
        """Claim the due timers of open tables (turn timers, lobby expiry) for this process,
        most overdue first.

        The claim pushes each claimed deadline ``lease`` seconds on (the version stays, so the
        player's buttons stay valid): another process sharing the database does not see the
        timer as due while this one fires it, and if this process dies the timer comes due again
        once the lease runs out. On PostgreSQL the rows are read ``FOR UPDATE SKIP LOCKED``, so
        processes claiming at the same moment take disjoint rows instead of waiting for each
        other; on SQLite (one writer at a time) each claim is a compare-and-set in a plain
        transaction.
        """
        t = schema.tables
        query = (
            sa.select(t.c.id, t.c.version, t.c.deadline, t.c.deadline_kind)
            # Turn timers of playing tables, and the expiry of lobbies nobody started.
            .where(
                t.c.deadline.is_not(None),
                t.c.deadline <= now,
                t.c.status.in_(OPEN_STATUSES),
            )
            .order_by(t.c.deadline)
            .limit(limit)
        )
        if not self.db.is_sqlite:
            query = query.with_for_update(skip_locked=True)
        claimed: list[DueTimer] = []
        async with self.db.engine.begin() as conn:
            for r in list(await conn.execute(query)):
                # Compare-and-set on what was read: on SQLite the read above takes no lock, so
                # another process may have claimed (or a move re-timed) the row since; its
                # write lock serialises these updates and the loser's matches no row.
                result = await conn.execute(
                    t.update()
                    .where(t.c.id == r.id, t.c.version == r.version, t.c.deadline == r.deadline)
                    .values(deadline=now + lease)
                )
                if result.rowcount == 1:
                    claimed.append(
                        DueTimer(
                            table_id=int(r.id),
                            version=int(r.version),
                            deadline=float(r.deadline),
                            kind=str(r.deadline_kind),
                        )
                    )
        return claimed

    async def move_deadline(
        self, table_id: int, *, version: int, kind: str, deadline: float, new_kind: str
    ) -> bool:
        """Move a timer on (reminder sent -> autoplay deadline) without a new version, so the
        player's buttons stay valid; compare-and-set on version and timer kind, so one process
        only sends the reminder."""
        t = schema.tables
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                t.update()
                .where(t.c.id == table_id, t.c.version == version, t.c.deadline_kind == kind)
                .values(deadline=deadline, deadline_kind=new_kind)
            )
        return bool(result.rowcount == 1)

    async def moves(self, table_id: int, *, since: int = 0) -> list[MoveRow]:
        """The table's moves played on versions >= ``since``, in order."""
        mv = schema.moves
        query = (
            sa.select(mv)
            .where(mv.c.table_id == table_id, mv.c.version >= since)
            .order_by(mv.c.version)
        )
        async with self.db.engine.connect() as conn:
            return [MoveRow(**dict(r._mapping)) for r in await conn.execute(query)]

    async def result(self, table_id: int) -> JSONObject | None:
        r = schema.results
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(sa.select(r).where(r.c.table_id == table_id))).first()
        if row is None:
            return None
        out = dict(row._mapping)
        out["data"] = json.loads(out["data"])
        return out
