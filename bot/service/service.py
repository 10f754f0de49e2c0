"""The table service: :class:`TableService`, one async method per use case (see the package
docstring).

``TableService`` is composed, not inherited: it makes the tables (``core.TableCore``: the live
tables' cache, locks, loading, ``table()`` to find one and hold its lock, the compare-and-set
``save``, the snapshot ``info``; holding ``locales.Languages``) and the use-case objects, each
given the tables (and the turns) in its constructor: ``turns.Turns`` (``service.turns``: the
deal, a move committed and announced, the computers' turns, deadlines, results, ``after``
closing a call), ``play.Play`` (a move, a card's choices, taking a seat back, abandoning, a
rematch), ``viewing.Viewing`` (showing tables, the views afresh, ``/rules``, the lists),
``lobby.Lobby``, ``transfer.Transfer`` (export and import), ``chat_settings.SettingsMenu``,
``boards.Boards``. It offers their use cases under their names (the front ends call
``service.join(...)``, ``service.play(...)``), and keeps here what joins them: a button press
dispatched by its action, ``/kick``, a chat's new id, the timer loop.

Every use case is a :func:`~bot.service.usecase.use_case`: a refusal raised in it is the
answer, in the asker's language. Modules of functions handed the tables or turns: ``seats``
(leaving a game, ``/kick``), ``lobby_timer`` (a lobby's expiry), ``timers`` (a claimed turn
timer fired), ``archive`` (the export document), ``announcements`` and ``briscola`` (what the
chat hears of a move).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from bot.domain import Action, TableStore, Verb
from bot.domain.events import ChatRef, Event, Result, TableInfo, UserRef
from bot.service import seats as seating
from bot.service.boards import Boards
from bot.service.chat_settings import SettingsMenu
from bot.service.core import TableCore
from bot.service.games import Registry
from bot.service.lobby import Lobby
from bot.service.play import Play
from bot.service.players import ComputerPlayers
from bot.service.tables import Refused
from bot.service.timers import TimerSettings, fire_timer
from bot.service.transfer import Imported, Transfer
from bot.service.turns import Turns
from bot.service.usecase import use_case
from bot.service.viewing import Viewing

logger = logging.getLogger(__name__)

__all__ = ["Imported", "Refused", "TableService", "TimerSettings"]


class TableService:
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
        self.tables = tables = TableCore(
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
        self.store = store
        self.registry = registry
        self.computers = computers
        self.languages = tables.languages
        self.ratings = tables.ratings
        self.turns = Turns(tables)
        self.viewing = Viewing(tables, self.turns)
        self.playing = Play(tables, self.turns, self.viewing)
        self.lobby = Lobby(tables, self.turns)
        self.settings_menu = SettingsMenu(tables)
        self.boards = Boards(tables)
        self.transfer = Transfer(tables, self.turns)
        self._lobbies_dated = False  # fire_due_timers dates old lobbies once per process
        # The tables' listeners and lookups the front ends use.
        self.add_table_listener = tables.add_table_listener
        self.remove_table_listener = tables.remove_table_listener
        self.live = tables.live
        # The use cases of the parts, under their names.
        self.set_language = self.languages.set_language
        self.chat_hint = self.languages.chat_hint
        self.chat_locale = self.languages.chat_locale
        self.user_locale = self.languages.user_locale
        self.locale_for = self.languages.locale_for
        self.play = self.playing.play
        self.catch_up = self.playing.catch_up
        self.take_back = self.playing.take_back
        self.abandon = self.playing.abandon
        self.rematch = self.playing.rematch
        self.show = self.viewing.show
        self.views = self.viewing.views
        self.current = self.viewing.current
        self.rules = self.viewing.rules
        self.open_tables = self.viewing.open_tables
        self.tables_of = self.viewing.tables_of
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

    @property
    def clock(self) -> Callable[[], float]:
        """The service's clock (UNIX seconds), the tables' own; settable in tests."""
        return self.tables.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.tables.clock = clock

    @property
    def timers(self) -> TimerSettings:
        return self.tables.timers

    @use_case
    async def press(
        self,
        chat: ChatRef,
        user: UserRef,
        data: str | Action,
        *,
        is_admin: bool | Callable[[ChatRef], Awaitable[bool]] = False,
        private: bool = False,
    ) -> Result:
        """A button press: ``data`` is the :class:`bot.domain.Action` pressed, or its encoding
        ``<table>:<version>:<action>`` as made by the renderer.

        Actions: a move string; ``?<card>`` (show that card's capture choices); ``@join``,
        ``@leave`` (a lobby, or the game: the computer takes the seat), ``@quit`` (the hand asks
        "leave the game?"), ``@start``, ``@fill.<level>``, ``@ai.<level>``, ``@seat.<n>``,
        ``@back`` (take a seat back from the computer), ``@hand``, ``@rematch``, ``@abandon``,
        ``@kick.<seat>`` (the creator or an admin: ``is_admin`` says, a bool or a coroutine
        function of the table's chat, asked only then).

        ``private``: the button was pressed in the user's private chat (a hand sent there, on
        Telegram or as a Discord DM): it plays at the table's own chat when the user sits at
        the open table (``TableCore.seated_chat``)."""
        try:
            action = data if isinstance(data, Action) else Action.decode(data)
        except ValueError:
            raise Refused("bad_button") from None
        # A button newer than this process's copy: another process sharing the database
        # changed the table since. It is read afresh before the press is judged.
        self.tables.seen(action.table_id, action.version)
        if private:
            chat = await self.tables.seated_chat(action.table_id, user, chat)
        admin = is_admin if isinstance(is_admin, bool) else functools.partial(is_admin, chat)
        run = self._verbs(chat, user, action, admin).get(action.verb)
        if run is None:
            raise Refused("bad_button")
        return await run()

    def _verbs(
        self,
        chat: ChatRef,
        user: UserRef,
        action: Action,
        is_admin: bool | Callable[[], Awaitable[bool]],
    ) -> dict[Verb, Callable[[], Awaitable[Result]]]:
        """The use case of each verb a button may carry, for this press."""
        tid, version, arg = action.table_id, action.version, action.arg
        return {
            Verb.FOCUS: lambda: self.playing.focus(chat, user, tid, version=version, card=arg),
            Verb.QUIT: lambda: seating.ask(self.turns, chat, user, tid),
            Verb.MOVE: lambda: self.play(chat, user, tid, version=version, move=arg),
            Verb.JOIN: lambda: self.join(chat, user, tid),
            Verb.LEAVE: lambda: self.leave(chat, user, tid),
            Verb.START: lambda: self.start(chat, user, tid),
            Verb.FILL: lambda: self.start(chat, user, tid, fill_with=arg or "easy"),
            Verb.AI: lambda: self.add_computer(chat, user, arg or "easy", tid),
            Verb.SEAT: lambda: self.choose_seat(chat, user, action.number, table_id=tid),
            Verb.BACK: lambda: self.take_back(chat, user, tid),
            Verb.HAND: lambda: self.show(chat, user, tid),
            Verb.REMATCH: lambda: self.rematch(chat, user, tid),
            Verb.ABANDON: lambda: self.abandon(chat, user, tid),
            Verb.KICK: lambda: self.kick(
                chat, user, seat=action.number, table_id=tid, is_admin=is_admin
            ),
        }

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
            self.tables.forget(table_id)
        self.languages.forget_chat(chat.platform, chat.chat_id)
        self.languages.forget_chat(chat.platform, new_chat_id)
        events: list[Event] = []
        table: TableInfo | None = None
        for table_id in moved:
            result = await self.views(table_id)
            events.extend(e for e in result.events if e.audience.kind == "chat")
            table = result.table or table
        return Result(events, table if len(moved) == 1 else None)

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
                result = await fire_timer(self.turns, claim, moment)
            except Refused:
                continue
            if result is not None:
                results.append(result)
        return results
