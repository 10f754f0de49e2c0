"""The table service: :class:`TableService`, one async method per use case (see the package
docstring).

``TableService`` is the tables (``core.TableCore``: the live tables' cache, locks, loading,
``table()`` to find one and hold its lock, the compare-and-set ``save``, the snapshot ``info``;
given ``locales.Languages``) and the facade of the use-case objects it is composed of, each
given the tables in its constructor: ``turns.Turns`` (``service.turns``: the deal, a move
committed and announced, the computers' turns, deadlines, results, ``after`` closing a call),
``lobby.Lobby``, ``transfer.Transfer`` (export and import), ``chat_settings.SettingsMenu``,
``boards.Boards``; their use cases are delegated here under the same names.

Here are the use cases of a table in play: a move, a button press, taking a seat back,
abandoning, a rematch, showing and listing tables, the timer loop. Modules of functions handed
the tables or turns: ``seats`` (leaving a game, ``/kick``), ``lobby_timer`` (a lobby's
expiry), ``timers`` (a claimed turn timer fired), ``archive`` (the export document),
``announcements`` and ``briscola`` (what the chat hears of a move).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.domain import Action, JSONObject, TableConflict, TableStore, Verb
from bot.service import seats as seating
from bot.service.boards import Boards
from bot.service.chat_settings import SettingsMenu
from bot.service.core import TableCore
from bot.service.events import (
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
from bot.service.games import Registry
from bot.service.lobby import Lobby
from bot.service.players import ComputerPlayers
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
from bot.service.timers import TimerSettings, fire_timer
from bot.service.transfer import Imported, Transfer
from bot.service.turns import Turns

logger = logging.getLogger(__name__)

__all__ = ["Imported", "Refused", "TableService", "TimerSettings"]


class TableService(TableCore):
    """Tables in chats: lobby, seats, moves, computer turns, timers, results, ratings.

    Every method is a use case, takes platform-neutral ids and returns a :class:`Result`.
    ``clock`` returns UNIX seconds; ``seeds`` draws a new game's seed (both injectable for tests).
    """

    def __init__(
        self,
        store: TableStore,
        *,
        registry: Registry,
        computers: ComputerPlayers,
        timers: TimerSettings | None = None,
        default_locale: str = "it",
        locales: Sequence[str] = ("it", "en"),
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], int] | None = None,
        cache_size: int = 5000,
        season: str = "month",
    ) -> None:
        super().__init__(
            store,
            registry=registry,
            computers=computers,
            timers=timers,
            default_locale=default_locale,
            locales=locales,
            clock=clock,
            seeds=seeds,
            cache_size=cache_size,
            season=season,
        )
        self.turns = Turns(self)
        self.lobby = Lobby(self, self.turns)
        self.settings_menu = SettingsMenu(self)
        self.boards = Boards(self)
        self.transfer = Transfer(self, self.turns)
        # The use cases of the parts, delegated (same names and signatures as before).
        self.set_language = self.languages.set_language
        self.chat_hint = self.languages.chat_hint
        self.chat_locale = self.languages.chat_locale
        self.user_locale = self.languages.user_locale
        self.locale_for = self.languages.locale_for
        self.create_table = self.lobby.create_table
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_computer = self.lobby.add_computer
        self.choose_seat = self.lobby.choose_seat
        self.start = self.lobby.start
        self.chat_settings = self.settings_menu.chat_settings
        self.settings_view = self.settings_menu.settings_view
        self.change_setting = self.settings_menu.change_setting
        self.pictures_on = self.settings_menu.pictures_on
        self.set_max_open_tables = self.settings_menu.set_max_open_tables
        self.leaderboard = self.boards.leaderboard
        self.stats = self.boards.stats
        self.export_game = self.transfer.export_game
        self.import_game = self.transfer.import_game

    # ------------------------------------------------------------------ playing --------------

    async def play(
        self, chat: ChatRef, user: UserRef, table_id: int, *, version: int, move: str
    ) -> Result:
        """Play ``move`` (a move string) for the user at ``version``; computers answer."""
        try:
            async with self.lock(table_id):
                live = await self.live(table_id)
                self.check_chat(live, chat)
                for attempt in range(2):
                    if version > live.row.version and not attempt:
                        # The player saw a newer version than this process's copy: another
                        # process sharing the database moved since. Catch up, then judge.
                        live = await self.reload(table_id)
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
                        raise Refused(
                            "illegal_move", str(exc), move=move, **rule_text(exc)
                        ) from exc
                    call = Call(caller=(user.platform, user.user_id))
                    before = self.turns.snapshot(live)
                    seat_doc = row.seats[seat]
                    assert seat_doc is not None
                    seats_changed = seat_doc["idle"] != 0
                    if seats_changed:
                        row.seats[seat] = dict(seat_doc, idle=0)
                    if await self.turns.commit_move(
                        call, live, seat, move, game, actor="human", seats_changed=seats_changed
                    ):
                        await self.turns.computer_turns(call, live)
                        await self.turns.after(call, live, before)
                        return Result(call.events, self.info(live))
                    # Another process moved first: reload and check the request again.
                    live = await self.reload(table_id)
                    if attempt:
                        raise Refused("conflict")
                raise Refused("conflict")
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def catch_up(self, chat: ChatRef, user: UserRef, table_id: int) -> Result:
        """Play the computers' turns left over at the user's table (a process stopped while they
        thought: the terminal, which runs no turn timers, on Ctrl-C); then, like ``play``, the
        moves' events. A table where no computer is to move answers with no events."""
        try:
            async with self.lock(table_id):
                live = await self.live(table_id)
                self.check_chat(live, chat)
                row = live.row
                if seat_index(row, user) is None:
                    raise Refused("not_seated")
                seat = live.started.current_player if row.status == "playing" else None
                if seat is None or not plays_computer(row.seats[seat]):
                    return Result([], self.info(live))
                call = Call(caller=(user.platform, user.user_id))
                before = self.turns.snapshot(live)
                await self.turns.computer_turns(call, live)
                await self.turns.after(call, live, before)
                return Result(call.events, self.info(live))
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def press(  # noqa: C901 - one branch per verb of the action codec (bot.domain.Action)
        self,
        chat: ChatRef,
        user: UserRef,
        data: str,
        *,
        is_admin: bool | Callable[[], Awaitable[bool]] = False,
    ) -> Result:
        """A button press: ``data`` is ``<table>:<version>:<action>`` as made by the renderer
        (decoded by :class:`bot.domain.Action`).

        Actions: a move string; ``?<card>`` (show that card's capture choices); ``@join``,
        ``@leave`` (a lobby, or the game: the computer takes the seat), ``@quit`` (the hand asks
        "leave the game?"), ``@start``, ``@fill.<level>``, ``@ai.<level>``, ``@seat.<n>``,
        ``@back`` (take a seat back from the computer), ``@hand``, ``@rematch``, ``@abandon``,
        ``@kick.<seat>`` (the creator or an admin: ``is_admin`` says, a bool or a coroutine
        function asked only then)."""
        try:
            action = Action.decode(data)
        except ValueError:
            return await self.languages.refusal(Refused("bad_button"), chat, user)
        tid, verb = action.table_id, action.verb
        cached = self._cache.get(tid)
        if cached is not None and action.version > cached.row.version:
            # The button is newer than this process's copy: another process sharing the
            # database changed the table since. Read it afresh before judging the press.
            self.forget(tid)
        if verb is Verb.FOCUS:
            return await self._focus(chat, user, tid, version=action.version, card=action.arg)
        if verb is Verb.QUIT:
            return await seating.ask(self.turns, chat, user, tid)
        if verb is Verb.MOVE:
            return await self.play(chat, user, tid, version=action.version, move=action.arg)
        if verb is Verb.JOIN:
            return await self.join(chat, user, tid)
        if verb is Verb.LEAVE:
            return await self.leave(chat, user, tid)
        if verb is Verb.START:
            return await self.start(chat, user, tid)
        if verb is Verb.FILL:
            return await self.start(chat, user, tid, fill_with=action.arg or "easy")
        if verb is Verb.AI:
            return await self.add_computer(chat, user, action.arg or "easy", tid)
        if verb is Verb.SEAT:
            return await self.choose_seat(chat, user, action.number, table_id=tid)
        if verb is Verb.BACK:
            return await self.take_back(chat, user, tid)
        if verb is Verb.HAND:
            return await self.show(chat, user, tid)
        if verb is Verb.REMATCH:
            return await self.rematch(chat, user, tid)
        if verb is Verb.ABANDON:
            return await self.abandon(chat, user, tid)
        if verb is Verb.KICK:
            return await self.kick(chat, user, seat=action.number, table_id=tid, is_admin=is_admin)
        return await self.languages.refusal(Refused("bad_button"), chat, user)

    async def _focus(
        self, chat: ChatRef, user: UserRef, table_id: int, *, version: int, card: str
    ) -> Result:
        """A press on a card with several captures: the player's hand again, offering that
        card's choices only (``HandView.focus``)."""
        try:
            live = await self.live(table_id)
            if version > live.row.version:
                live = await self.reload(table_id)  # another process moved since: catch up
            self.check_chat(live, chat)
            seat = seat_index(live.row, user)
            if seat is None or not present(live.row, seat):
                raise Refused("not_seated")
            if live.row.status != "playing":
                raise Refused("not_playing")
            if version != live.row.version:
                raise Refused("stale", version=live.row.version)
            info = self.info(live)
            hand = await self.turns.hand(live, seat, info)
            return Result([replace(hand, focus=card)], info)
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def kick(
        self,
        chat: ChatRef,
        user: UserRef,
        *,
        target: UserRef | None = None,
        seat: int | None = None,
        table_id: int | None = None,
        is_admin: bool | Callable[[], Awaitable[bool]] = False,
    ) -> Result:
        """Remove a seated player (``target`` or ``seat``): from a lobby, or from a game in
        progress as if they left. The table's creator or a chat admin only; with no target the
        players to choose from come back as buttons (``bot.service.seats``)."""
        return await seating.kick(
            self.turns, chat, user, target=target, seat=seat, table_id=table_id, is_admin=is_admin
        )

    async def take_back(self, chat: ChatRef, user: UserRef, table_id: int | None = None) -> Result:
        """A player whose seat a computer took over plays again."""
        try:
            async with self.table(chat, user, table_id) as live:
                row = live.row
                if row.status != "playing":
                    raise Refused("not_playing")
                seat = seat_index(row, user)
                if seat is None:
                    raise Refused("not_seated")
                doc = row.seats[seat]
                assert doc is not None
                if not doc["away"]:
                    raise Refused("not_away")
                if doc.get("left") and not await seating.may_rejoin(self, row.id, row.platform):
                    raise Refused("no_return")
                before = self.turns.snapshot(live)
                row.seats[seat] = dict(doc, away=False, idle=0, left=False)
                call = Call()
                values = {"seats": row.seats, "updated_at": self.clock()}
                if not await self.save(live, values):
                    raise Refused("conflict")
                call.events.append(
                    Announcement(
                        **await self.chat_head(live), kind="taken_back", data={"seat": seat}
                    )
                )
                await self.turns.after(call, live, before, force_hands={seat})
                return Result(call.events, self.info(live))
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def abandon(
        self, chat: ChatRef, user: UserRef, table_id: int | None = None, *, is_admin: bool = False
    ) -> Result:
        """Close a table without a result: by its creator or a chat admin."""
        try:
            async with self.table(chat, user, table_id, lobby=True) as live:
                row = live.row
                if row.status not in ("lobby", "playing"):
                    raise Refused("not_playing")
                if user.user_id != row.creator and not is_admin:
                    raise Refused("not_creator")
                row.status = "abandoned"
                values = {
                    "status": "abandoned",
                    "deadline": None,
                    "deadline_kind": None,
                    "updated_at": self.clock(),
                }
                if not await self.save(live, values):
                    raise Refused("conflict")
                call = Call()
                head = await self.chat_head(live)
                call.events.append(Announcement(**head, kind="abandoned", data={"by": user.name}))
                self.forget(live.row.id)
                return Result(call.events, self.info(live))
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def rematch(self, chat: ChatRef, user: UserRef, table_id: int) -> Result:
        """A new game with the same seats and options, dealt at once (any seated player)."""
        try:
            async with self.lock(table_id):
                return await self._rematch(chat, user, table_id)
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def _rematch(self, chat: ChatRef, user: UserRef, table_id: int) -> Result:
        live = await self.live(table_id)
        self.check_chat(live, chat)
        old = live.row
        if old.status != "finished":
            raise Refused("not_playing")
        if seat_index(old, user) is None:
            raise Refused("not_seated")
        existing = await self.store.rematch_of(table_id)
        if existing is None:
            await self.check_room(chat)
            now = self.clock()
            seats = [dict(s, away=False, idle=0) if s is not None else None for s in old.seats]
            values = lobby_row(
                platform=old.platform,
                chat_id=old.chat_id,
                game=old.game,
                family=old.family,
                players=old.players,
                options=old.options,
                creator=user.user_id,
                seats=seats,
                seed=self.seeds(),
                rematch_of=old.id,
                now=now,
            )
            humans = [(s["platform"], s["user_id"]) for s in seats if s is not None and is_human(s)]
            try:
                new_id = await self.store.insert_table(values, humans)
            except TableConflict:
                existing = await self.store.rematch_of(table_id)
            else:
                sources = await self.store.option_sources(old.id)
                if sources:
                    await self.store.set_option_sources(new_id, sources)
                rejoin = await seating.may_rejoin(self, old.id, old.platform)
                await seating.set_rejoin(self, new_id, old.platform, rejoin)
                async with self.lock(new_id):
                    new = await self.live(new_id)
                    call = Call(caller=(user.platform, user.user_id))
                    await self.turns.deal(call, new, list(new.row.seats))
                    return Result(call.events, self.info(new))
        # Someone (maybe in another process) pressed "rematch" first: show that table.
        if existing is None:
            raise Refused("conflict")
        return await self.show(chat, user, existing, public=True)

    # ------------------------------------------------------------------ showing --------------

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
        try:
            if table_id is not None:
                await self.refresh(table_id)
            live = await self.find(chat, user, table_id, lobby=True)
            call = Call()
            audience = (
                Audience("chat", chat.platform, chat.chat_id)
                if public
                else Audience("user", user.platform, user.user_id)
            )
            locale = await (
                self.languages.table_locale(live.row)
                if public
                else self.languages.locale_of_user(user, live.row)
            )
            info = self.info(live)
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
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    async def views(self, table_id: int, *, notice: bool = False) -> Result:
        """Every view of a table as it stands: the lobby or the table for its chat, and each
        human player's hand (an adapter delivers them anew after a lost message or a crash);
        with ``notice``, the turn notice of the human player to move (after a crash an adapter
        cannot tell whether it went out). A table that is gone or closed gives only the public
        view, or nothing."""
        try:
            live = await self.live(table_id)
        except Refused as r:
            return Result(
                refusal=Refusal(r.code, self.languages.default_locale, r.detail, dict(r.params))
            )
        info = self.info(live)
        head = await self.chat_head(live, info)
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
            if notice and current is not None and self._notified(doc):
                events.append(await self.turns.turn_notice(live, current, info))
        return Result(events, info)

    @staticmethod
    def _notified(doc: dict[str, Any] | None) -> bool:
        """Whether the seat's player gets turn notices (a human not away, still seated)."""
        return doc is not None and is_human(doc) and not doc["away"] and not doc.get("left")

    async def current(self, table_id: int) -> TableChange | None:
        """The table as it stands now (``None``: no such table), as the table listeners hear
        of it: what a page that starts watching a table is sent first. Read through to the
        database when another process moved the table on."""
        try:
            await self.refresh(table_id)
            live = await self.live(table_id)
        except Refused:
            return None
        return TableChange(table=self.info(live), game=live.game, rematch_of=live.row.rematch_of)

    async def table_versions(self, platform: str) -> dict[int, int]:
        """``{table id: version}`` of the platform's open tables (lobbies and games)."""
        return await self.store.open_table_versions(platform=platform)

    async def move_chat(self, chat: ChatRef, new_chat_id: str) -> Result:
        """The chat got a new id (a Telegram group became a supergroup): its open tables and
        settings go with it. Returns the public views of the tables moved, for the new chat
        (a table that was there is shown as well)."""
        if not new_chat_id or new_chat_id == chat.chat_id:
            return Result()
        moved = await self.store.move_chat(
            platform=chat.platform, old=chat.chat_id, new=new_chat_id
        )
        for table_id in moved:
            self.forget(table_id)
        self.languages.forget_chat(chat.platform, chat.chat_id)
        self.languages.forget_chat(chat.platform, new_chat_id)
        events: list[Event] = []
        table: TableInfo | None = None
        for table_id in moved:
            result = await self.views(table_id)
            events.extend(e for e in result.events if e.audience.kind == "chat")
            table = result.table or table
        return Result(events, table if len(moved) == 1 else None)

    async def rules(self, chat: ChatRef, user: UserRef, table_id: int | None = None) -> Result:
        """The rule options of the chat's table (an Announcement of kind "rules" to the user)."""
        try:
            live = await self.find(chat, user, table_id, lobby=True)
            info = self.info(live)
            sources: JSONObject = dict(await self.store.option_sources(live.row.id))
            event = Announcement(
                audience=Audience("user", user.platform, user.user_id),
                locale=await self.languages.locale_of_user(user, live.row),
                table=info,
                kind="rules",
                data={
                    "options": dict(live.row.options),
                    # Where each option came from: "chat" (/settings), "command" (the table's
                    # own command); an option not named is the game's default.
                    "sources": sources,
                    # The service's own table options (not the game's rules).
                    "table": {
                        seating.REJOIN: await seating.may_rejoin(
                            self, live.row.id, live.row.platform
                        )
                    },
                },
            )
            return Result([event], info)
        except Refused as r:
            return await self.languages.refusal(r, chat, user)

    # ------------------------------------------------------------------ timers ---------------

    async def fire_due_timers(self, now: float | None = None, *, limit: int = 100) -> list[Result]:
        """Fire every due turn timer: a reminder first, then the computer plays the idle
        player's turn (and takes the seat over after ``takeover_after`` idle turns). Deadlines
        live in the database, so this works after a restart; call it every few seconds."""
        moment = self.clock() if now is None else now
        results: list[Result] = []
        if not self._lobbies_dated:
            # Once per process: lobbies left without an expiry (opened by an older version, or
            # while LOBBY_TIMEOUT was 0) get one, so none stays open for ever.
            self._lobbies_dated = True
            if self.timers.lobby > 0:
                dated = await self.store.date_lobbies(self.timers.lobby)
                if dated:
                    logger.info("%d lobbies without an expiry now expire", dated)
        # Claimed, not just read: with several processes on one database each timer fires in
        # exactly one of them (the claim is a row lock plus a lease; see Store.claim_due).
        claims = await self.store.claim_due(moment, lease=self.timers.claim_lease, limit=limit)
        for claim in claims:
            try:
                result = await fire_timer(self, claim, moment)
            except Refused:
                continue
            if result is not None:
                results.append(result)
        return results

    # ------------------------------------------------------------------ listing --------------

    async def open_tables(self, chat: ChatRef) -> list[TableInfo]:
        """The chat's tables in the lobby or playing, oldest first."""
        rows = await self.store.open_tables(platform=chat.platform, chat_id=chat.chat_id)
        out = []
        for row in rows:
            live = await self.live(row.id)
            out.append(self.info(live))
        return out

    async def tables_of(self, user: UserRef) -> list[TableInfo]:
        """The open tables where the user sits (any chat of the platform), oldest first."""
        out = []
        ids = await self.store.user_table_ids(platform=user.platform, user_id=user.user_id)
        for table_id in ids:
            out.append(self.info(await self.live(table_id)))
        return out
