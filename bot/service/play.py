"""A table in play: a move, a card's capture choices, catching up on computers' turns left
over, taking a seat back from the computer, abandoning, a rematch.

:class:`Play` is given the tables, the turns and the viewing (a rematch pressed twice shows
the first); every use case is a :func:`use_case` (a
refusal raised in it is the answer) and holds the table's lock while it reads, changes and
saves the table (``TableCore.table``).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.domain import TableConflict, TableRow, TableValues
from bot.domain.events import Announcement, ChatRef, Result, UserRef
from bot.service import seats as seating
from bot.service.core import TableCore
from bot.service.tables import (
    Call,
    Refused,
    is_human,
    lobby_row,
    plays_computer,
    present,
    rule_text,
    seat_index,
)
from bot.service.turns import Turns
from bot.service.usecase import use_case
from bot.service.viewing import Viewing

logger = logging.getLogger(__name__)

__all__ = ["Play"]


class Play:
    """The use cases of a table in play (see the module docstring)."""

    def __init__(self, tables: TableCore, turns: Turns, viewing: Viewing) -> None:
        self.tables = tables
        self.turns = turns
        self.viewing = viewing

    @use_case
    async def play(
        self, chat: ChatRef, user: UserRef, table_id: int, *, version: int, move: str
    ) -> Result:
        """Play ``move`` (a move string) for the user at ``version``; computers answer."""
        tables = self.tables
        async with tables.table(chat, user, table_id) as live:
            for attempt in range(2):
                if version > live.row.version and not attempt:
                    # The player saw a newer version than this process's copy: another
                    # process sharing the database moved since. Catch up, then judge.
                    live = await tables.reload(table_id)
                row = live.row
                if row.status != "playing":
                    raise Refused("not_playing")
                seat = seat_index(row, user)
                if seat is None:
                    raise Refused("not_seated")
                if version != row.version:
                    raise Refused("stale", version=row.version)
                if live.started.current_player != seat or plays_computer(row.seats[seat]):
                    raise Refused("not_your_turn")
                move = move.strip()
                try:
                    game = live.started.play(move)
                except ValueError as exc:
                    raise Refused("illegal_move", str(exc), move=move, **rule_text(exc)) from exc
                call = Call(caller=(user.platform, user.user_id))
                before = self.turns.snapshot(live)
                mover = row.seats[seat]
                assert mover is not None
                seats_changed = mover.idle != 0
                if seats_changed:
                    row.seats[seat] = replace(mover, idle=0)
                if await self.turns.commit_move(
                    call, live, seat, move, game, actor="human", seats_changed=seats_changed
                ):
                    await self.turns.computer_turns(call, live)
                    await self.turns.after(call, live, before)
                    return Result(call.events, tables.info(live))
                # Another process moved first: reload and check the request again.
                live = await tables.reload(table_id)
                if attempt:
                    raise Refused("conflict")
            raise Refused("conflict")

    @use_case
    async def catch_up(self, chat: ChatRef, user: UserRef, table_id: int) -> Result:
        """Play the computers' turns left over at the user's table (a process stopped while they
        thought: the terminal, which runs no turn timers, on Ctrl-C); then, like ``play``, the
        moves' events. A table where no computer is to move answers with no events."""
        async with self.tables.table(chat, user, table_id) as live:
            row = live.row
            if seat_index(row, user) is None:
                raise Refused("not_seated")
            seat = live.started.current_player if row.status == "playing" else None
            if seat is None or not plays_computer(row.seats[seat]):
                return Result([], self.tables.info(live))
            call = Call(caller=(user.platform, user.user_id))
            before = self.turns.snapshot(live)
            await self.turns.computer_turns(call, live)
            await self.turns.after(call, live, before)
            return Result(call.events, self.tables.info(live))

    @use_case
    async def focus(
        self, chat: ChatRef, user: UserRef, table_id: int, *, version: int, card: str
    ) -> Result:
        """A press on a card with several captures: the player's hand again, offering that
        card's choices only (``HandView.focus``)."""
        tables = self.tables
        live = await tables.live(table_id)
        if version > live.row.version:
            live = await tables.reload(table_id)  # another process moved since: catch up
        tables.check_chat(live, chat)
        seat = seat_index(live.row, user)
        if seat is None or not present(live.row, seat):
            raise Refused("not_seated")
        if live.row.status != "playing":
            raise Refused("not_playing")
        if version != live.row.version:
            raise Refused("stale", version=live.row.version)
        info = tables.info(live)
        hand = await self.turns.hand(live, seat, info)
        return Result([replace(hand, focus=card)], info)

    @use_case
    async def take_back(self, chat: ChatRef, user: UserRef, table_id: int | None = None) -> Result:
        """A player whose seat a computer took over plays again."""
        tables = self.tables
        async with tables.table(chat, user, table_id) as live:
            row = live.row
            if row.status != "playing":
                raise Refused("not_playing")
            seat = seat_index(row, user)
            if seat is None:
                raise Refused("not_seated")
            taker = row.seats[seat]
            assert taker is not None
            if not taker.away:
                raise Refused("not_away")
            if taker.left and not await seating.may_rejoin(tables, row.id, row.platform):
                raise Refused("no_return")
            before = self.turns.snapshot(live)
            row.seats[seat] = replace(taker, away=False, idle=0, left=False)
            call = Call()
            values: TableValues = {"seats": row.seats, "updated_at": tables.clock()}
            if not await tables.save(live, values):
                raise Refused("conflict")
            call.events.append(
                Announcement(**await tables.chat_head(live), kind="taken_back", data={"seat": seat})
            )
            await self.turns.after(call, live, before, force_hands={seat})
            return Result(call.events, tables.info(live))

    @use_case
    async def abandon(
        self, chat: ChatRef, user: UserRef, table_id: int | None = None, *, is_admin: bool = False
    ) -> Result:
        """Close a table without a result: by its creator or a chat admin."""
        tables = self.tables
        async with tables.table(chat, user, table_id, lobby=True) as live:
            row = live.row
            if row.status not in ("lobby", "playing"):
                raise Refused("not_playing")
            if user.user_id != row.creator and not is_admin:
                raise Refused("not_creator")
            row.status = "abandoned"
            values: TableValues = {
                "status": "abandoned",
                "deadline": None,
                "deadline_kind": None,
                "updated_at": tables.clock(),
            }
            if not await tables.save(live, values):
                raise Refused("conflict")
            call = Call()
            head = await tables.chat_head(live)
            call.events.append(Announcement(**head, kind="abandoned", data={"by": user.name}))
            tables.forget(live.row.id)
            return Result(call.events, tables.info(live))

    @use_case
    async def rematch(self, chat: ChatRef, user: UserRef, table_id: int) -> Result:
        """A new game with the same seats and options, dealt at once (any seated player); when
        someone (maybe in another process) pressed "rematch" first, that table is shown."""
        tables = self.tables
        async with tables.table(chat, user, table_id) as live:
            old = live.row
            if old.status != "finished":
                raise Refused("not_playing")
            if seat_index(old, user) is None:
                raise Refused("not_seated")
            existing = await tables.store.rematch_of(table_id)
            if existing is None:
                new_id = await self._new_table(chat, user, live.row)
                if new_id is not None:
                    async with tables.lock(new_id):
                        new = await tables.live(new_id)
                        call = Call(caller=(user.platform, user.user_id))
                        await self.turns.deal(call, new, list(new.row.seats))
                        return Result(call.events, tables.info(new))
                existing = await tables.store.rematch_of(table_id)
        if existing is None:
            raise Refused("conflict")
        return await self.viewing.show(chat, user, existing, public=True)

    async def _new_table(self, chat: ChatRef, user: UserRef, old: TableRow) -> int | None:
        """The rematch's lobby row, inserted (``None``: another rematch of ``old`` came first)."""
        tables = self.tables
        await tables.check_room(chat)
        seats = [replace(s, away=False, idle=0) if s is not None else None for s in old.seats]
        values = lobby_row(
            platform=old.platform,
            chat_id=old.chat_id,
            game=old.game,
            family=old.family,
            players=old.players,
            options=old.options,
            creator=user.user_id,
            seats=seats,
            seed=tables.seeds(),
            rematch_of=old.id,
            now=tables.clock(),
        )
        humans = [(s.platform, s.user_id) for s in seats if s is not None and is_human(s)]
        try:
            new_id = await tables.store.insert_table(values, humans)
        except TableConflict:
            return None
        sources = await tables.store.option_sources(old.id)
        if sources:
            await tables.store.set_option_sources(new_id, sources)
        rejoin = await seating.may_rejoin(tables, old.id, old.platform)
        await seating.set_rejoin(tables, new_id, old.platform, rejoin)
        return new_id
