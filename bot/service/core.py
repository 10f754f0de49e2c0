"""The table service's core: its parts, and the tables it holds in memory.

:class:`TableCore` is the base of :class:`bot.service.TableService`, the tables every
use-case object is given: the cache of live tables (loaded from the store, replayed from the
last snapshot, dropped when another process sharing the database moved a table on), a lock
per table, finding the
table a command means, the compare-and-set save, and the :class:`TableInfo` snapshot every
event carries. The use cases are objects given it, one module per concern (``turns``,
``lobby``, ``transfer``, ``chat_settings``, ``boards``), and ``service``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

from bot.domain import (
    OPEN_STATUSES,
    Finish,
    MoveRow,
    SaveResult,
    TableStore,
    TableUpdate,
    TableValues,
)
from bot.domain.events import (
    Audience,
    ChatRef,
    Event,
    EventHead,
    SeatInfo,
    TableChange,
    TableInfo,
    UserRef,
)
from bot.service import seasons
from bot.service.games import Registry
from bot.service.locales import Languages
from bot.service.players import ComputerPlayers
from bot.service.ratings import Ratings
from bot.service.settings import SettingsKeeper
from bot.service.tables import Live, Refused, seat_index
from bot.service.timers import TimerSettings

__all__ = ["MAX_TABLE_ID", "TableCore"]

logger = logging.getLogger(__name__)

MAX_TABLE_ID = 2**63  # table ids are 64-bit signed integers in SQLite and PostgreSQL


class TableCore:
    """The parts of the service (store, game kinds, computer players, timers, clock, seeds,
    ratings, settings) and the live tables: cache, locks, loading, finding, saving."""

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
        self.store = store
        self.languages = Languages(
            store, default_locale=default_locale, locales=locales, hints_kept=cache_size
        )
        self.registry = registry
        self.computers = computers
        self.timers = timers or TimerSettings()
        self.clock = clock
        self.seeds = seeds or (lambda: random.SystemRandom().getrandbits(31))
        self.ratings = Ratings()
        self._cache: OrderedDict[int, Live] = OrderedDict()
        self._cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.kept_settings = SettingsKeeper(store)
        if season not in seasons.LENGTHS:
            raise ValueError(f"season must be one of {', '.join(seasons.LENGTHS)}: {season!r}")
        self.season = season  # how long a leaderboard season lasts (bot.service.seasons)
        self._table_listeners: list[Callable[[TableChange], None]] = []

    def add_table_listener(self, listener: Callable[[TableChange], None]) -> None:
        """``listener(change)`` is called, synchronously and in order, for every new version of
        a table this process commits (a move: once per move, the computers' one by one). It
        must not block or raise; it copies what it needs (the change is immutable)."""
        self._table_listeners.append(listener)

    def remove_table_listener(self, listener: Callable[[TableChange], None]) -> None:
        if listener in self._table_listeners:
            self._table_listeners.remove(listener)

    def changed(self, live: Live, events: Iterable[Event] = ()) -> None:
        """Tell the table listeners that ``live`` is at a new version."""
        if not self._table_listeners:
            return
        change = TableChange(
            table=self.info(live),
            game=live.game,
            events=tuple(events),
            rematch_of=live.row.rematch_of,
        )
        for listener in list(self._table_listeners):
            try:
                listener(change)
            except Exception:
                logger.exception("a table listener failed on table %s", live.row.id)

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock of a table: hold it to read, change and save the table."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[table_id] = lock
        return lock

    def remember(self, live: Live) -> None:
        self._cache[live.row.id] = live
        self._cache.move_to_end(live.row.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def forget(self, table_id: int) -> None:
        self._cache.pop(table_id, None)

    def seen(self, table_id: int, version: int) -> None:
        """A front end showed ``version`` of the table (a button pressed): a copy here older
        than that is forgotten, as another process sharing the database changed the table
        since; it is read afresh when next asked for."""
        cached = self._cache.get(table_id)
        if cached is not None and version > cached.row.version:
            self.forget(table_id)

    async def refresh(self, table_id: int) -> None:
        """Forget this process's copy of a table when the database holds a newer version
        (another process sharing it moved the table on): what is shown is then current. A
        stale press is healed with ``show``, so it must never answer with an old hand."""
        cached = self._cache.get(table_id)
        if cached is None:
            return
        stored = await self.store.table_version(table_id)
        if stored is not None and stored > cached.row.version:
            self.forget(table_id)

    async def live(self, table_id: int) -> Live:
        live = self._cache.get(table_id)
        if live is not None:
            self._cache.move_to_end(table_id)
            return live
        return await self.reload(table_id)

    async def reload(self, table_id: int) -> Live:
        if not 0 < table_id < MAX_TABLE_ID:
            # A forged id (button data, custom id, deep link) beyond the databases' 64-bit
            # integers made the driver raise OverflowError instead of a refusal.
            raise Refused("no_table")
        row = await self.store.load_table(table_id)
        if row is None:
            self.forget(table_id)
            raise Refused("no_table")
        kind = self.registry.get(row.game)
        if kind is None:
            raise Refused("unknown_game", game=row.game)
        game = kind.load(row.state) if row.state is not None else None
        if game is not None:
            # The moves after the last snapshot replay to the row's version, not beyond: the
            # moves are read after the row, and another process may have committed in between
            # (a state ahead of its version judged presses on the wrong turn).
            for move in await self.store.moves(table_id, since=row.state_version):
                if move.version >= row.version:
                    break
                game = game.play(move.move)
        row.state = None  # the live game is the state; keep memory small
        live = Live(row, kind, game)
        self.remember(live)
        return live

    def check_chat(self, live: Live, chat: ChatRef) -> None:
        if (live.row.platform, live.row.chat_id) != (chat.platform, chat.chat_id):
            raise Refused("no_table")

    async def find(
        self, chat: ChatRef, user: UserRef, table_id: int | None, *, lobby: bool
    ) -> Live:
        """The table meant: by id, else the user's table in this chat, else the chat's newest."""
        if table_id is not None:
            live = await self.live(table_id)
            self.check_chat(live, chat)
            return live
        rows = await self.store.open_tables(platform=chat.platform, chat_id=chat.chat_id)
        if not lobby:
            rows = [r for r in rows if r.status == "playing"]
        if not rows:
            raise Refused("no_table")
        mine = [r for r in rows if seat_index(r, user) is not None]
        chosen = (mine or rows)[-1]
        return await self.live(chosen.id)

    def table(
        self, chat: ChatRef, user: UserRef, table_id: int | None, *, lobby: bool = False
    ) -> _Locked:
        return _Locked(self, chat, user, table_id, lobby)

    async def seated_chat(self, table_id: int, user: UserRef, chat: ChatRef) -> ChatRef:
        """The chat a press in the user's private chat plays at: the table's own when the table
        is open and the user sits at it (a hand sent to a private chat or a DM), else ``chat``
        (where the press is then judged, and refused, as any other)."""
        try:
            live = await self.live(table_id)
        except Refused:
            return chat
        row = live.row
        if row.status not in OPEN_STATUSES or seat_index(row, user) is None:
            return chat
        return ChatRef(row.platform, row.chat_id)

    async def check_room(self, chat: ChatRef) -> None:
        settings = await self.store.chat(platform=chat.platform, chat_id=chat.chat_id)
        open_now = await self.store.open_tables(platform=chat.platform, chat_id=chat.chat_id)
        if len(open_now) >= settings.max_open_tables:
            raise Refused("too_many_tables", table=open_now[-1].id)

    async def save(
        self,
        live: Live,
        values: TableValues,
        *,
        members: list[tuple[str, str]] | None = None,
        move: MoveRow | None = None,
        finish: Finish | None = None,
        notify: bool = True,
    ) -> SaveResult | None:
        """Compare-and-set the table's row; ``None`` when another change came first. The table
        listeners hear of the new version here, unless the caller tells them itself once the
        live table holds it (``notify=False``; a move always does)."""
        update = TableUpdate(
            table_id=live.row.id,
            expected_version=live.row.version,
            values=values,
            move=move,
            members=members,
            finish=finish,
        )
        saved = await self.store.save(update)
        if saved is None:
            self.forget(live.row.id)
            return None
        live.row.version = saved.version
        if notify and move is None:
            self.changed(live)
        return saved

    def info(self, live: Live) -> TableInfo:
        """The snapshot of the table; seats and status only change with a new version."""
        cached = live.info
        if cached is not None and cached.version == live.row.version:
            return cached
        live.info = self.build_info(live)
        return live.info

    def build_info(self, live: Live) -> TableInfo:
        row = live.row
        seats = tuple(
            SeatInfo(
                seat=i,
                name=s.name,
                platform=s.platform,
                user_id=s.user_id,
                computer=s.computer,
                level=s.level if s.plays_computer else None,
                away=s.away,
                left=s.left,
            )
            if s is not None
            else None
            for i, s in enumerate(row.seats)
        )
        return TableInfo(
            id=row.id,
            platform=row.platform,
            chat_id=row.chat_id,
            game=row.game,
            family=row.family,
            status=row.status,
            version=row.version,
            players=row.players,
            options=row.options,
            seats=seats,
            creator=row.creator,
            current_seat=live.game.current_player if live.game is not None else None,
            teams=live.kind.teams(row.players),
        )

    async def chat_head(self, live: Live, info: TableInfo | None = None) -> EventHead:
        row = live.row
        return {
            "audience": Audience("chat", row.platform, row.chat_id),
            "locale": await self.languages.table_locale(row),
            "table": info or self.info(live),
        }


class _Locked:
    """``async with service.table(...) as live``: find the table and hold its lock."""

    def __init__(
        self, service: TableCore, chat: ChatRef, user: UserRef, table_id: int | None, lobby: bool
    ) -> None:
        self.service, self.chat, self.user = service, chat, user
        self.table_id, self.lobby = table_id, lobby
        self.lock: asyncio.Lock | None = None

    async def __aenter__(self) -> Live:
        live = await self.service.find(self.chat, self.user, self.table_id, lobby=self.lobby)
        self.lock = self.service.lock(live.row.id)
        await self.lock.acquire()
        try:
            # The table may have changed while we waited for the lock.
            return await self.service.live(live.row.id)
        except BaseException:
            self.lock.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        assert self.lock is not None
        self.lock.release()
