"""Showing tables: a table to a user or its chat (with the user's hand), every view of a table
afresh (an adapter healing lost messages), the table as it stands for a page starting to watch
it, the rule options of a table, the tables of a chat or of a user.

:class:`Viewing` is given the tables and the turns (which build a seat's hand and turn notice).
"""

from __future__ import annotations

from bot.domain import JSONObject, Seat
from bot.domain.events import (
    Announcement,
    Audience,
    ChatRef,
    Event,
    LobbyView,
    Refusal,
    Result,
    TableChange,
    TableInfo,
    TableView,
    UserRef,
)
from bot.service import seats as seating
from bot.service.core import TableCore
from bot.service.tables import Call, Refused, is_human, present, seat_index
from bot.service.turns import Turns
from bot.service.usecase import use_case

__all__ = ["Viewing"]


class Viewing:
    """The use cases that show tables (see the module docstring)."""

    def __init__(self, tables: TableCore, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns

    @use_case
    async def show(
        self,
        chat: ChatRef,
        user: UserRef,
        table_id: int | None = None,
        *,
        public: bool = False,
    ) -> Result:
        """The table for the user: the public view (to the chat when ``public``, else privately
        — spectating) and, for a seated player, their hand ("My hand")."""
        tables = self.tables
        if table_id is not None:
            await tables.refresh(table_id)
        live = await tables.find(chat, user, table_id, lobby=True)
        call = Call()
        audience = (
            Audience("chat", chat.platform, chat.chat_id)
            if public
            else Audience("user", user.platform, user.user_id)
        )
        locale = await (
            tables.languages.table_locale(live.row)
            if public
            else tables.languages.locale_of_user(user, live.row)
        )
        info = tables.info(live)
        if live.row.status == "lobby":
            call.events.append(LobbyView(audience=audience, locale=locale, table=info))
            return Result(call.events, info)
        if live.game is None:  # a lobby abandoned before it started: no game to show
            raise Refused("not_playing")
        call.events.append(
            TableView(audience=audience, locale=locale, table=info, view=live.view(None))
        )
        seat = seat_index(live.row, user)
        if seat is not None and live.row.status == "playing" and present(live.row, seat):
            call.events.append(await self.turns.hand(live, seat, info))
        return Result(call.events, info)

    async def views(self, table_id: int, *, notice: bool = False) -> Result:
        """Every view of a table as it stands: the lobby or the table for its chat, and each
        human player's hand (an adapter delivers them anew after a lost message or a crash);
        with ``notice``, the turn notice of the human player to move (after a crash an adapter
        cannot tell whether it went out). A table that is gone or closed gives only the public
        view, or nothing."""
        tables = self.tables
        try:
            live = await tables.live(table_id)
        except Refused as r:
            return Result(
                refusal=Refusal(r.code, tables.languages.default_locale, r.detail, dict(r.params))
            )
        info = tables.info(live)
        head = await tables.chat_head(live, info)
        if live.row.status == "lobby":
            return Result([LobbyView(**head)], info)
        if live.game is None:
            return Result([], info)
        events: list[Event] = [TableView(**head, view=live.view(None))]
        if live.row.status == "playing":
            for seat, doc in enumerate(live.row.seats):
                if doc is not None and is_human(doc):
                    events.append(await self.turns.hand(live, seat, info))
            current = live.started.current_player
            doc = None if current is None else live.row.seats[current]
            if notice and current is not None and _notified(doc):
                events.append(await self.turns.turn_notice(live, current, info))
        return Result(events, info)

    async def current(self, table_id: int) -> TableChange | None:
        """The table as it stands now (``None``: no such table), as the table listeners hear
        of it: what a page that starts watching a table is sent first. Read through to the
        database when another process moved the table on."""
        tables = self.tables
        try:
            await tables.refresh(table_id)
            live = await tables.live(table_id)
        except Refused:
            return None
        return TableChange(table=tables.info(live), game=live.game, rematch_of=live.row.rematch_of)

    @use_case
    async def rules(self, chat: ChatRef, user: UserRef, table_id: int | None = None) -> Result:
        """The rule options of the chat's table (an Announcement of kind "rules" to the user)."""
        tables = self.tables
        live = await tables.find(chat, user, table_id, lobby=True)
        info = tables.info(live)
        sources: JSONObject = dict(await tables.store.option_sources(live.row.id))
        event = Announcement(
            audience=Audience("user", user.platform, user.user_id),
            locale=await tables.languages.locale_of_user(user, live.row),
            table=info,
            kind="rules",
            data={
                "options": dict(live.row.options),
                # Where each option came from: "chat" (/settings), "command" (the table's
                # own command); an option not named is the game's default.
                "sources": sources,
                # The service's own table options (not the game's rules).
                "table": {
                    seating.REJOIN: await seating.may_rejoin(tables, live.row.id, live.row.platform)
                },
            },
        )
        return Result([event], info)

    async def open_tables(self, chat: ChatRef) -> list[TableInfo]:
        """The chat's tables in the lobby or playing, oldest first."""
        rows = await self.tables.store.open_tables(platform=chat.platform, chat_id=chat.chat_id)
        return [self.tables.info(await self.tables.live(row.id)) for row in rows]

    async def tables_of(self, user: UserRef) -> list[TableInfo]:
        """The open tables where the user sits (any chat of the platform), oldest first."""
        store = self.tables.store
        ids = await store.user_table_ids(platform=user.platform, user_id=user.user_id)
        return [self.tables.info(await self.tables.live(table_id)) for table_id in ids]


def _notified(seat: Seat | None) -> bool:
    """Whether the seat's player gets turn notices (a human not away, still seated)."""
    return seat is not None and is_human(seat) and not seat.away and not seat.left
