"""A whole game imported at once (``tavolo import``), recognised across databases by its origin
(:func:`bot.domain.game_origin`), so a second import of it writes nothing."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.domain import TableColumns
from bot.store import schema
from bot.store.base import Database
from bot.store.ratings import finish_game
from bot.store.rows import Finish, MoveRow, RatingChange, encode, game_origin, table_row
from bot.store.tables import replace_members

__all__ = ["ArchiveStore"]

logger = logging.getLogger(__name__)


class ArchiveStore:
    """Imported games (a part of :class:`bot.store.Store`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def import_table(
        self,
        values: TableColumns,
        *,
        members: Iterable[tuple[str, str]],
        moves: Sequence[MoveRow],
        finish: Finish | None,
    ) -> tuple[int, bool, list[RatingChange]]:
        """Insert a whole game at once (``tavolo import``): the table (``values`` carries its
        ``origin``), its members, its move log and, for a finished game, the result and rating
        updates a live finish writes (the same :func:`bot.store.ratings.finish_game`), in one
        transaction.

        Returns ``(table_id, True, changes)``; when the database already holds the game (an
        earlier import with the same origin, or the native table it was exported from),
        ``(that table's id, False, [])`` and nothing is written. ``moves`` carry table id 0:
        the new table's id replaces it.
        """
        origin = str(values["origin"])
        try:
            async with self.db.engine.begin() as conn:
                existing = await _table_of_origin(conn, origin, values)
                if existing is not None:
                    return existing, False, []
                result = await conn.execute(schema.tables.insert().values(**encode(values)))
                pk = result.inserted_primary_key
                assert pk is not None
                table_id = int(pk[0])
                await replace_members(conn, table_id, members)
                if moves:
                    await conn.execute(
                        schema.moves.insert(),
                        [
                            {
                                "table_id": table_id,
                                "version": m.version,
                                "seat": m.seat,
                                "move": m.move,
                                "actor": m.actor,
                                "at": m.at,
                            }
                            for m in moves
                        ],
                    )
                changes = await finish_game(conn, table_id, finish) if finish is not None else []
        except sa.exc.IntegrityError:
            # Another import of the same game committed between our check and our insert
            # (the unique origin index); anything else is a real error.
            async with self.db.engine.connect() as conn:
                existing = await _table_of_origin(conn, origin, values)
            if existing is None:
                raise
            logger.info("import of %s lost the race to table %s", origin, existing)
            return existing, False, []
        return table_id, True, changes

    async def table_of_origin(self, values: TableColumns) -> int | None:
        """The table holding the game of an import's ``values`` (see :meth:`import_table`)."""
        async with self.db.engine.connect() as conn:
            return await _table_of_origin(conn, str(values["origin"]), values)


async def _table_of_origin(
    conn: AsyncConnection, origin: str, values: Mapping[str, object]
) -> int | None:
    """The table holding the game ``origin``: imported with it, or the native table whose
    derived origin it is (an export imported back into its own database)."""
    t = schema.tables
    row = (await conn.execute(sa.select(t.c.id).where(t.c.origin == origin))).first()
    if row is not None:
        return int(row[0])
    # The chat is left out of the search: an import may have moved the game to another chat.
    candidates = await conn.execute(
        sa.select(t).where(
            t.c.origin.is_(None),
            t.c.game == values["game"],
            t.c.seed == values["seed"],
            t.c.created_at == values["created_at"],
        )
    )
    for candidate in candidates:
        native = table_row(candidate)
        if game_origin(native) == origin:
            return native.id
    return None
