"""Games in and out of the database: ``tavolo export`` / ``tavolo import``.

The document's format, its checks and the replay of its moves are ``bot.service.archive``;
here a table becomes a document (:meth:`Transfer.export_game`) and a document a table of this
database (:meth:`Transfer.import_game`), in one transaction, with the result and rating updates
of a finished game as a live finish writes them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.domain import JSONObject, RatingChange, TableRow, columns
from bot.domain.events import ChatRef
from bot.service import archive
from bot.service.core import MAX_TABLE_ID, TableCore
from bot.service.tables import Live, Refused, is_human, plays_computer
from bot.service.turns import Turns

logger = logging.getLogger(__name__)

__all__ = ["Imported", "Transfer"]


@dataclass(frozen=True, slots=True)
class Imported:
    """What :meth:`TableService.import_game` did: ``created`` False = the game was already
    here (as ``table_id``) and nothing was written."""

    table_id: int
    created: bool
    status: str
    rating_changes: list[RatingChange] = field(default_factory=list)


class Transfer:
    """Export and import of games (see the module docstring), given the tables and turns."""

    def __init__(self, tables: TableCore, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns

    async def export_game(self, table_id: int) -> JSONObject:
        """The table's export-game document (``bot.service.archive``): seats, seed, rules and
        the move log, replayable with the engine and importable into another database."""
        row = await self.tables.store.load_table(table_id) if 0 < table_id < MAX_TABLE_ID else None
        if row is None:
            raise Refused("no_table")
        moves = await self.tables.store.moves(table_id)
        return archive.document(row, moves, await self.tables.store.result(table_id))

    async def import_game(
        self, document: Mapping[str, object], *, chat_id: str | None = None
    ) -> Imported:
        """Store an exported game as a table of this database (``tavolo import``).

        The document is checked and every move replayed first (``archive.read``); then the
        table, its moves and, for a finished game, the result and rating updates of a live
        finish (:meth:`finish`, written by the store's ``_finish``) go in one transaction. An
        ongoing game resumes here: its timers start as after a move. The table gets a new id;
        the platform, the chat (``chat_id`` moves it to another chat of the same platform) and
        the players keep theirs, so per-chat leaderboards count it. A game already here (same
        origin) is not written again: ``Imported.created`` is False. ``archive.GameFileError``
        (one line) when the document, or the game's place here, is refused; nothing is written.
        """
        record = archive.read(document, self.tables.registry)
        chat = record.chat_id if chat_id is None else chat_id.strip()
        if not chat or len(chat) > archive.WIDTHS["chat_id"]:
            raise archive.GameFileError("the chat id must be 1 to 64 characters")
        kind, game = record.kind, record.game
        row = TableRow(
            id=0,
            platform=record.platform,
            chat_id=chat,
            game=kind.name,
            family=kind.family,
            players=record.players,
            options=record.options,
            status=record.status,
            creator=record.creator,
            seats=list(record.seats),
            state=game.to_dict(),
            state_version=record.version,
            seed=record.seed,
            version=record.version,
            deadline=None,
            deadline_kind=None,
            rematch_of=None,
            created_at=record.created_at,
            updated_at=record.updated_at,
            origin=record.origin,
        )
        live = Live(row, kind, game)
        finish = None
        existing = await self.tables.store.table_of_origin(columns(row))
        if existing is None and record.status == "playing":
            # An ongoing game takes a place among the chat's open tables, as a new one would.
            try:
                await self.tables.check_room(ChatRef(record.platform, chat))
            except Refused as r:
                raise archive.GameFileError(
                    f"chat {record.platform}:{chat} already has its limit of open tables "
                    f"(table {r.params['table']} is open): finish or abandon it first"
                ) from None
            seat = game.current_player
            if seat is not None and plays_computer(row.seats[seat]):
                # No move here leads to this computer's turn: the timer loop plays it, at once
                # (and so even with the turn timers off).
                row.deadline, row.deadline_kind = self.tables.clock(), "computer"
            else:
                timer = self.turns.deadline(live, game, None, await self.turns.turn_timer(row))
                row.deadline, row.deadline_kind = timer.get("deadline"), timer.get("deadline_kind")
        if record.status == "finished":
            assert record.finished_at is not None
            finish = self.turns.finish(live, game, record.finished_at)
        humans = [(s.platform, s.user_id) for s in row.seats if s is not None and is_human(s)]
        table_id, created, changes = await self.tables.store.import_table(
            columns(row), members=humans, moves=record.moves, finish=finish
        )
        if not created:
            stored = [(m.seat, m.move) for m in await self.tables.store.moves(table_id)]
            mine = [(m.seat, m.move) for m in record.moves]
            if stored[: len(mine)] != mine:
                raise archive.GameFileError(
                    f"table {table_id} holds this game with another move log: nothing imported"
                )
        if created:
            logger.info(
                "imported %s as table %s (%s, %d moves)",
                record.origin,
                table_id,
                record.status,
                len(record.moves),
                extra={"table_id": table_id, "platform": record.platform},
            )
        else:
            logger.info("%s is table %s already: nothing imported", record.origin, table_id)
        return Imported(table_id, created=created, status=record.status, rating_changes=changes)
