"""Service events -> Telegram messages, each in its place.

* Lobby and table views (to a chat) edit the table's message in place; a new one is posted when
  the old one has scrolled too far up. Short button-less announcements of a table ("Scopa!",
  "the cards are dealt") are folded into that message instead of being posted on their own.
* Hands (to a user) edit the player's private message in place. When Telegram refuses a private
  message (403: the user never opened the bot), the table's chat gets, once, a deep-link button
  that opens the private chat; ``/start`` from it delivers the hand. The refusal is remembered
  (in the adapter state, with a copy in memory) so the next hands and notices do not knock again;
  ``/start`` clears it, and after ``retry_blocked_after`` seconds the next hand tries anyway (the
  user may have opened the chat some other way).
* Everything else is posted as a new message.

With pictures on (``IMAGES``), a table, a hand and the /stats reply are photo messages whose
caption is the text view (past 1024 characters: the picture alone, the text under it). A changed
picture is swapped in place with ``editMessageMedia``; an unchanged one only gets its caption and
keyboard edited, and a picture uploaded once is sent again by Telegram's file id. Message ids and
file ids live in the adapter state (the store), so restarts and other processes share them.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.error import (
    BadRequest,
    ChatMigrated,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.render import SELECT, Renderer, selection_of
from bot.render import Message as Rendered
from bot.render.images import RenderedImage
from bot.render.pictures import Pictures
from bot.service import (
    Announcement,
    ChatRef,
    Event,
    GameOver,
    HandView,
    LobbyView,
    Result,
    Stats,
    TableEvent,
    TableInfo,
    TableService,
    TableView,
    TurnNotice,
    decode_button,
)
from bot.telegram import phrases
from bot.telegram.book import Blocked, MessageBook, Shown
from bot.telegram.ids import PLATFORM, deep_link, hand_payload, where_of
from bot.telegram.limiter import PRIORITY, Priority
from bot.telegram.messenger import BlockedError, Messenger, Where

if TYPE_CHECKING:
    from bot.telegram.inline import InlinePlay

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

# Announcements that only say what the table message shows next; folded into it.
_FOLDED = frozenset({"scopa", "started", "timeout", "taken_back"})
# Button actions drawn on a table's public message / on a player's private hand message.
_PUBLIC_ACTIONS = ("@join", "@leave", "@start", "@fill", "@ai", "@seat", "@hand", "@rematch")
# Telegram's caption limit: a longer text goes as a text message under its picture.
CAPTION_LIMIT = 1024
# Uploaded pictures remembered as "digest -> Telegram file id" (in memory, and in the adapter
# state under this kind, so other processes reuse them).
_FILE_IDS = 1024
FILE = "file"
# A call Telegram failed (5xx, a timeout, a network error, a 429 past the limiter's retries)
# is tried again after each of these waits (seconds), then given up.
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
# A table whose message gave up is delivered anew (every view) once after this many seconds.
RESYNC_AFTER = 30.0
# A call that timed out (or was in flight when a process died) may still be done by Telegram
# this many seconds later, over a newer state: the table is delivered once more after it.
LATE_CALLS = 12.0
# How long messages wait for the answer to the press that caused them (it is always sent).
GATE_TIMEOUT = 20.0
# How long a finished table waits for its players' lanes before clearing their buttons.
CLOSE_WAIT = 30.0
# A player's view is healed (sent again after a stale press) at most this often (seconds).
HEAL_EVERY = 1.0
# A refused private chat is tried again after this many seconds.
RETRY_BLOCKED_AFTER = 600.0
# A refusal remembered in memory is checked against the adapter state (another process may have
# seen the user's /start) at most this often.
RECHECK_BLOCKED_AFTER = 30.0


def _per_table(result: Result) -> list[Result]:
    """The result split by the table its events are about, in the order the tables first
    appear (events about no table go with the result's own table)."""
    own = result.table.id if result.table is not None else None
    order: list[int | None] = []
    events: dict[int | None, list[Event]] = {}
    infos: dict[int | None, TableInfo | None] = {own: result.table}
    for event in result.events:
        info = getattr(event, "table", None)
        key = info.id if isinstance(info, TableInfo) else own
        if key not in events:
            order.append(key)
            events[key] = []
        events[key].append(event)
        if isinstance(info, TableInfo) and key != own:
            infos[key] = info  # the latest state of that table among the events
    if len(order) <= 1:
        return [result]
    return [Result(events[key], infos.get(key), result.refusal) for key in order]


def _asked_hands(events: list[Event]) -> tuple[list[Event], frozenset[int]]:
    """A "My hand" press shows the asker the table and their hand, privately: the hand message
    already shows the table's cards, so the table copy is left out (it would be a new message at
    every press, burying the hand). Returns the events to deliver and the users who asked."""
    hands = {
        int(e.audience.id) for e in events if isinstance(e, HandView) and e.audience.kind == "user"
    }
    asked = frozenset(
        int(e.audience.id)
        for e in events
        if isinstance(e, TableView) and e.audience.kind == "user" and int(e.audience.id) in hands
    )
    if not asked:
        return events, asked
    kept = [
        e
        for e in events
        if not (
            isinstance(e, TableView) and e.audience.kind == "user" and int(e.audience.id) in asked
        )
    ]
    return kept, asked


def _closes(event: Event) -> bool:
    """The table's last event: its hands lose their buttons after it."""
    return isinstance(event, GameOver) or (
        isinstance(event, Announcement) and event.kind == "abandoned"
    )


def _lane_of(event: Event) -> int:
    """The Telegram chat an event goes to (a group's topics share the group's lane)."""
    if event.audience.kind == "chat":
        return where_of(event.audience.id).chat_id
    return int(event.audience.id)


def _retry_seconds(error: RetryAfter) -> float:
    """Telegram's ``retry_after`` in seconds (PTB keeps it as a timedelta)."""
    wait = getattr(error, "_retry_after", None)
    if isinstance(wait, datetime.timedelta):
        return wait.total_seconds()
    with contextlib.suppress(TypeError, ValueError):
        return float(error.retry_after)  # type: ignore[arg-type]
    return 1.0


def _name(item: _Item) -> str:
    return type(item.event).__name__


def keyboard(rendered: Rendered) -> InlineKeyboardMarkup | None:
    """The renderer's button rows as an inline keyboard (``None`` when there are none)."""
    rows = [
        [InlineKeyboardButton(button.label, callback_data=button.data) for button in row]
        for row in rendered.buttons
        if row
    ]
    return InlineKeyboardMarkup(rows) if rows else None


class Ticket:
    """The delivery of one result: ``await ticket.wait()`` returns once every message of it is
    out (or was given up, or replaced by a newer state of the same message)."""

    def __init__(self) -> None:
        self._left = 0
        self._done = asyncio.Event()
        self._done.set()

    def add(self) -> None:
        self._left += 1
        self._done.clear()

    def finish(self) -> None:
        self._left -= 1
        if self._left <= 0:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    async def wait(self) -> None:
        await self._done.wait()


@dataclass(eq=False)
class _Close:
    """The table is over: its hands lose their buttons and its messages are forgotten."""

    table_id: int
    table: TableInfo | None = None  # the table as it ended (inline play clears its mention)


@dataclass(eq=False)
class _Item:
    """One message to put in place (or a table to close), waiting in its lane."""

    event: Event | _Close
    origin: Where | None
    extra: list[str] = field(default_factory=list)
    asked: bool = False  # a hand the player asked for: surfaced at the bottom of the chat
    gates: list[asyncio.Event] = field(default_factory=list)
    tickets: list[Ticket] = field(default_factory=list)
    attempts: int = 0

    @property
    def key(self) -> tuple[str, str] | None:
        """Items with the same key show the same message: only the newest is worth sending."""
        event = self.event
        if isinstance(event, TableView | LobbyView):
            return ("table", event.audience.id)
        if isinstance(event, HandView):
            return ("hand", event.audience.id)
        if isinstance(event, TurnNotice):
            return ("notice", event.audience.id)
        return None

    @property
    def version(self) -> int:
        return self.event.table.version if isinstance(self.event, TableEvent) else 0

    def absorb(self, other: _Item) -> None:
        """Take over ``other`` (the same message): the newer state, everyone's waits."""
        if other.version >= self.version:
            self.event = other.event
            self.origin = other.origin or self.origin
        self.extra += other.extra
        self.asked = self.asked or other.asked
        self.gates += other.gates
        self.tickets += other.tickets
        other.tickets = []

    def finish(self) -> None:
        for ticket in self.tickets:
            ticket.finish()
        self.tickets = []

    @property
    def priority(self) -> Priority:
        event = self.event
        if isinstance(event, _Close):
            return Priority.CLEANUP
        if isinstance(event, HandView) and event.seat == event.table.current_seat:
            return Priority.TURN
        return Priority.GROUP if event.audience.kind == "chat" else Priority.PRIVATE


@dataclass(eq=False)
class _Lane:
    """The messages of one table to one Telegram chat, in order, one call at a time."""

    items: deque[_Item] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None

    @property
    def idle(self) -> bool:
        return self.task is None and not self.items

    def add(self, item: _Item) -> None:
        """Queue ``item``; a pending item for the same message takes it over instead (the
        one in flight is not touched: it is already on its way)."""
        key = item.key
        if key is not None:
            for pending in self.items:
                if pending.key == key:
                    pending.absorb(item)
                    return
        self.items.append(item)


@dataclass(eq=False)
class _Outbox:
    """A table's lanes, one per chat its messages go to."""

    table_id: int
    lanes: dict[int, _Lane] = field(default_factory=dict)
    version: int = 0  # the newest version submitted
    closed: bool = False

    @property
    def idle(self) -> bool:
        return all(lane.idle for lane in self.lanes.values())


class Delivery:
    """Puts rendered events on Telegram; remembers which message shows what.

    A table's results go out through its outbox: one lane per chat (the group, each player's
    private chat), each sending one call at a time, so a hand is never held up behind the
    group's flood limit. While a call waits, newer states of the same message replace the
    pending one (only the newest is sent). A call Telegram fails is retried with backoff; when
    a table's lanes are all done, the version delivered is recorded in the adapter state, so
    a restart delivers anew every table whose last delivery is not known to have succeeded.
    """

    def __init__(
        self,
        *,
        bot: Callable[[], Bot],
        renderer: Renderer,
        book: MessageBook,
        pictures: Pictures | None = None,
        retry_blocked_after: float = RETRY_BLOCKED_AFTER,
        clock: Callable[[], float] = time.time,
        views: Callable[[int], Awaitable[Result]] | None = None,
        service: TableService | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        resync_after: float = RESYNC_AFTER,
    ) -> None:
        # A getter, not a Bot: the Application (and its bot) is built after the adapter.
        self._bot = bot
        self._renderer = renderer
        self.book = book
        self.pictures = pictures
        self._retry_blocked_after = retry_blocked_after
        self.clock = clock
        self._file_ids: OrderedDict[str, str] = OrderedDict()
        # Refused private chats seen by this process: user id -> (mark, when last checked
        # against the adapter state). Users not in it are assumed reachable.
        self._blocked: dict[int, tuple[Blocked, float]] = {}
        # Every view of a table as it stands (the service's ``views``): to heal after a failure.
        self._views = views if views is not None or service is None else service.views
        # To move a group's tables when Telegram says it became a supergroup.
        self._service = service
        self._retry_delays = retry_delays
        self._resync_after = resync_after
        self._outboxes: dict[int, _Outbox] = {}
        # Tables with a message given up since their last full delivery: not recorded as
        # delivered until a resync went through.
        self._failed: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sleepers: set[asyncio.Task[None]] = set()
        self._closing = False
        self._healed: dict[tuple[int, int], float] = {}
        self._migrated: set[tuple[int, int]] = set()
        self._resyncs: set[int] = set()
        self._unsettled: set[int] = set()
        # Inline play (bot.telegram.inline), set once built: its hooks decide the group's
        # "My cards" button, which hands go privately and the turn mentions.
        self.inline: InlinePlay | None = None

    @property
    def messenger(self) -> Messenger:
        return Messenger(self._bot())

    async def say(
        self, where: Where, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None:
        """Post a text; ``None`` if Telegram refused (a private chat never opened), or refuses
        that private chat as far as we know."""
        private = where.chat_id > 0  # Telegram: users' (private chats') ids are positive
        if private and await self._is_blocked(where.chat_id):
            return None
        try:
            message_id = await self.messenger.send(where, text, markup)
        except BlockedError:
            if private:
                await self._refused(where.chat_id)
            return None
        if private and where.chat_id in self._blocked:
            await self.unblocked(where.chat_id)  # a retry got through: the chat is open now
        self.book.saw(where.chat_id, message_id)
        return message_id

    async def deliver(self, result: Result, *, origin: Where | None) -> None:
        """Deliver the events of a result in order and wait until they are out.
        ``origin``: where the request came from."""
        if result.table is None:
            async with self.book.batch():
                events, asked = _asked_hands(list(result.events))
                if self.inline is not None:
                    self.inline.plan(events)
                await self._deliver_chain(events, origin=origin, asked=asked)
            return
        await self.submit(result, origin=origin).wait()

    def submit(
        self, result: Result, *, origin: Where | None, gate: asyncio.Event | None = None
    ) -> Ticket:
        """Queue the events of a table's result in its lanes and return at once.

        ``gate``: the messages wait until it is set (the press they answer is answered first).
        A result about several tables (a new table replacing a stale lobby closes the old one)
        goes to each table's lanes: one table's close must not drop another's messages.
        """
        ticket = Ticket()
        parts = _per_table(result)
        if len(parts) <= 1:
            return self._submit(result, origin=origin, gate=gate, ticket=ticket)
        for part in parts:
            self._submit(part, origin=origin, gate=gate, ticket=ticket)
        return ticket

    def _submit(
        self,
        result: Result,
        *,
        origin: Where | None,
        gate: asyncio.Event | None,
        ticket: Ticket,
    ) -> Ticket:
        table = result.table
        if self._closing:
            # Stopping: what is not out yet is delivered anew at the next start.
            return ticket
        if table is None:
            if result.events:
                ticket.add()
                self._spawn(self._deliver_loose(result, origin, ticket), self._tasks)
            return ticket
        outbox = self._outboxes.get(table.id)
        if outbox is None:
            outbox = self._outboxes[table.id] = _Outbox(table.id)
        outbox.version = max(outbox.version, table.version)
        events, asked = _asked_hands(list(result.events))
        if self.inline is not None:
            self.inline.plan(events)
        gates = [gate] if gate is not None and not gate.is_set() else []
        if any(_closes(e) for e in events):
            outbox.closed = True
            self._drop_private(outbox)
        folded: dict[str, list[str]] = {}
        touched: list[tuple[Priority, int]] = []
        for index, event in enumerate(events):
            if isinstance(event, Announcement) and self._foldable(event, events[index + 1 :]):
                folded.setdefault(event.audience.id, []).append(self._renderer.render(event).text)
                continue
            extra = folded.pop(event.audience.id, []) if isinstance(event, TableView) else []
            lane_id = _lane_of(event)
            surfaced = event.audience.kind == "user" and int(event.audience.id) in asked
            item = _Item(event, origin, extra, surfaced, list(gates), [ticket])
            ticket.add()
            touched.append((item.priority, lane_id))
            self._lane(outbox, lane_id).add(item)
            if _closes(event):
                ticket.add()
                close = _Item(_Close(table.id, table), None, gates=list(gates), tickets=[ticket])
                self._lane(outbox, lane_id).add(close)
        # The most urgent lane first: the hand of the player whose turn it is.
        for _, lane_id in sorted(touched):
            lane = outbox.lanes[lane_id]
            if lane.task is None and lane.items:
                lane.task = self._spawn(self._run_lane(outbox, lane_id, lane), self._tasks)
        return ticket

    def _lane(self, outbox: _Outbox, lane_id: int) -> _Lane:
        lane = outbox.lanes.get(lane_id)
        if lane is None:
            lane = outbox.lanes[lane_id] = _Lane()
        return lane

    @staticmethod
    def _drop_private(outbox: _Outbox) -> None:
        """The game is over: hands and notices still waiting would only bring buttons back."""
        for lane in outbox.lanes.values():
            kept: deque[_Item] = deque()
            for item in lane.items:
                if isinstance(item.event, HandView | TurnNotice):
                    item.finish()
                else:
                    kept.append(item)
            lane.items = kept

    def _spawn(self, work: Awaitable[None], tasks: set[asyncio.Task[None]]) -> asyncio.Task[None]:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    async def _deliver_loose(self, result: Result, origin: Where | None, ticket: Ticket) -> None:
        try:
            await self.deliver(result, origin=origin)
        except Exception:
            logger.exception("delivery failed")
        finally:
            ticket.finish()

    async def _run_lane(self, outbox: _Outbox, lane_id: int, lane: _Lane) -> None:
        """Send the lane's items one at a time; when the whole table is done, record it."""
        try:
            while True:
                while lane.items:
                    item = lane.items.popleft()
                    try:
                        for gate in item.gates:
                            with contextlib.suppress(TimeoutError):
                                await asyncio.wait_for(gate.wait(), GATE_TIMEOUT)
                        item.gates = []
                        again = await self._attempt(outbox, lane_id, lane, item)
                    except BaseException:
                        item.finish()  # cancelled (stopping): nobody waits for it any more
                        raise
                    if not again:
                        item.finish()
                others = [other for other in outbox.lanes.values() if other is not lane]
                if all(other.idle for other in others):
                    await self._record(outbox)
                if not lane.items:
                    break
        finally:
            lane.task = None
            if self._closing:
                while lane.items:
                    lane.items.popleft().finish()
            if outbox.idle and self._outboxes.get(outbox.table_id) is outbox:
                del self._outboxes[outbox.table_id]

    async def _record(self, outbox: _Outbox) -> None:
        """Every message of the table up to ``outbox.version`` is out: say so in the store."""
        table_id = outbox.table_id
        if outbox.closed or table_id in self._failed or table_id in self._unsettled:
            return
        if self._closing:
            return
        try:
            await self.book.keep_delivered(table_id, outbox.version)
        except Exception as error:
            logger.warning("could not record the delivery of table %s: %s", table_id, error)

    async def _attempt(self, outbox: _Outbox, lane_id: int, lane: _Lane, item: _Item) -> bool:
        """Deliver one item; ``True`` when it went back to the lane (or into a newer item of
        the same message) for another try."""
        token = PRIORITY.set(item.priority)
        try:
            async with self.book.batch():
                if isinstance(item.event, _Close):
                    await self._close_table(outbox, lane, item.event.table_id, item.event.table)
                else:
                    asked = frozenset({lane_id}) if item.asked else frozenset()
                    await self._deliver_one(
                        item.event, origin=item.origin, extra=item.extra, asked=asked
                    )
        except BlockedError as error:
            logger.info("chat %s cannot be written to", error.chat_id)
        except ChatMigrated as error:
            # The group became a supergroup: its tables follow it there (and this message).
            if self._service is not None:
                self._spawn(self.migrated(self._service, lane_id, error.new_chat_id), self._tasks)
        except BadRequest as error:
            logger.warning("could not deliver %s: %s", _name(item), error)
        except (NetworkError, RetryAfter) as error:
            return await self._retry(outbox, lane, item, error)
        except TelegramError as error:
            # One message Telegram refuses must not keep the others (the hands) from going.
            logger.warning("could not deliver %s: %s", _name(item), error)
        except Exception:
            logger.exception("delivery of %s failed", _name(item))
        finally:
            PRIORITY.reset(token)
        return False

    async def _retry(self, outbox: _Outbox, lane: _Lane, item: _Item, error: TelegramError) -> bool:
        """Try a failed call again after a wait; give up after the last wait, and deliver the
        whole table anew a while later."""
        if item.attempts >= len(self._retry_delays):
            logger.warning(
                "giving up on %s of table %s after %d tries: %s",
                _name(item),
                outbox.table_id,
                item.attempts + 1,
                error,
            )
            self._failed.add(outbox.table_id)
            self._resync_later(outbox.table_id)
            return False
        delay = self._retry_delays[item.attempts]
        if isinstance(error, TimedOut):
            # Telegram may still do the call, late, over a newer state sent meanwhile: the
            # table's views go once more when that can no longer happen.
            self._resync_later(outbox.table_id, after=LATE_CALLS)
        if isinstance(error, RetryAfter):
            delay = max(delay, _retry_seconds(error))
        item.attempts += 1
        logger.info("%s of table %s failed (%s): retrying in %.1f s",
                    _name(item), outbox.table_id, error, delay)  # fmt: skip
        await asyncio.sleep(delay)
        key = item.key
        newer = next((i for i in lane.items if key is not None and i.key == key), None)
        if newer is not None:
            # A newer state of the same message came meanwhile: it goes instead.
            newer.extra = item.extra + newer.extra
            newer.asked = newer.asked or item.asked
            newer.tickets += item.tickets
            item.tickets = []
        else:
            lane.items.appendleft(item)
        return True

    def _resync_later(self, table_id: int, *, after: float | None = None) -> None:
        """Deliver every view of the table anew ``after`` seconds (once, however often asked
        meanwhile)."""
        views = self._views
        if views is None or self._closing or table_id in self._resyncs:
            return
        self._resyncs.add(table_id)
        # Not recorded as delivered until then: if this process dies first, the next start
        # delivers it anew (a late call may still land over what this one sent).
        self._unsettled.add(table_id)
        wait = self._resync_after if after is None else after

        async def resync() -> None:
            try:
                await asyncio.sleep(wait)
            finally:
                self._resyncs.discard(table_id)
                self._unsettled.discard(table_id)
            self._failed.discard(table_id)
            result = await views(table_id)
            if result.table is not None and result.table.status in ("lobby", "playing"):
                self.submit(result, origin=None)

        self._spawn(resync(), self._sleepers)

    async def _close_table(
        self, outbox: _Outbox, lane: _Lane, table_id: int, table: TableInfo | None = None
    ) -> None:
        others = [o.task for o in outbox.lanes.values() if o is not lane and o.task is not None]
        if others:
            await asyncio.wait(others, timeout=CLOSE_WAIT)
        await self._close_hands(table_id)
        if self.inline is not None and table is not None:
            await self.inline.table_closed(table)
        await self.book.forget_table(table_id)
        self._failed.discard(table_id)

    async def redeliver(self, versions: dict[int, int]) -> int:
        """After a restart: every open table (``{table id: version}``) whose delivery is not
        recorded up to its version is delivered anew, every view. Returns how many."""
        views = self._views
        if views is None:
            return 0
        count = 0
        for table_id, version in sorted(versions.items()):
            if self._closing:
                break
            delivered = await self.book.delivered(table_id)
            if delivered is not None and delivered >= version:
                continue
            try:
                result = await views(table_id)
            except Exception:
                logger.exception("could not load table %s to deliver it anew", table_id)
                continue
            if result.table is not None and result.events:
                logger.info("table %s: delivering anew (version %s, delivered %s)",
                            table_id, version, delivered)  # fmt: skip
                self.submit(result, origin=None)
                # A call the killed process had in flight may still land, late, over this:
                # once more when it can no longer.
                self._resync_later(table_id, after=LATE_CALLS)
                count += 1
        return count

    async def heal(self, shown: Result, *, user_id: int) -> None:
        """After a stale or refused press: the presser's hand again, and the table's message
        when it shows an older version (``shown``: the service's ``show(public=True)``). At
        most once a second per player and table, whatever a client repeats."""
        table = shown.table
        if table is None:
            return
        now = time.monotonic()
        key = (user_id, table.id)
        if now - self._healed.get(key, -HEAL_EVERY) < HEAL_EVERY:
            return
        self._healed[key] = now
        if len(self._healed) > 4096:
            self._healed = {k: t for k, t in self._healed.items() if now - t < HEAL_EVERY}
        events: list[Event] = []
        for event in shown.events:
            if isinstance(event, HandView) and int(event.audience.id) == user_id:
                events.append(event)
            elif isinstance(event, TableView | LobbyView) and event.audience.kind == "chat":
                where = where_of(event.audience.id)
                public = await self.book.public(table.id, where)
                if public is None or public.version < table.version:
                    events.append(event)
        if events:
            self.submit(Result(events, table), origin=None)

    async def migrated(self, service: TableService, old: int, new: int) -> None:
        """Chat ``old`` is now ``new`` (a group became a supergroup; Telegram says so in both
        chats, and in an error when the bot writes to the old id): its open tables follow,
        and their messages are posted in the new chat."""
        if (old, new) in self._migrated:
            return
        self._migrated.add((old, new))
        result = await service.move_chat(ChatRef(PLATFORM, str(old)), str(new))
        if result.events:
            logger.info("chat %s became %s: its tables moved", old, new)
        for event in result.events:
            if isinstance(event, TableEvent):
                self.submit(Result([event], event.table), origin=None)

    def start_redelivery(self, versions: Awaitable[dict[int, int]]) -> None:
        """``redeliver`` in the background (the bot answers updates meanwhile)."""

        async def run() -> None:
            try:
                await self.redeliver(await versions)
            except Exception:
                logger.exception("redelivery after the restart failed")

        self._spawn(run(), self._tasks)

    async def settled(self, *, rounds: int = 100) -> None:
        """Wait until nothing is being delivered (tests; bounded)."""
        for _ in range(rounds):
            tasks = set(self._tasks)
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def close(self, *, grace: float = 2.0) -> None:
        """Stop: deliveries under way get ``grace`` seconds, then are cancelled (a table left
        behind is delivered anew at the next start); waiting resyncs are cancelled at once."""
        self._closing = True
        for task in list(self._sleepers):
            task.cancel()
        tasks = set(self._tasks)
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
        await asyncio.gather(*self._tasks, *self._sleepers, return_exceptions=True)

    async def _deliver_chain(
        self, events: list[Event], *, origin: Where | None, asked: frozenset[int] = frozenset()
    ) -> None:
        folded: dict[int, list[str]] = {}
        for index, event in enumerate(events):
            try:
                if isinstance(event, Announcement) and self._foldable(event, events[index + 1 :]):
                    folded.setdefault(event.table.id, []).append(self._renderer.render(event).text)
                    continue
                extra = folded.pop(event.table.id, []) if isinstance(event, TableView) else []
                await self._deliver_one(event, origin=origin, extra=extra, asked=asked)
            except BlockedError as error:
                logger.info("chat %s cannot be written to", error.chat_id)
            except TelegramError as error:
                # One message Telegram refuses must not keep the others (the hands) from going.
                logger.warning("could not deliver %s: %s", type(event).__name__, error)
            if isinstance(event, GameOver) or (
                isinstance(event, Announcement) and event.kind == "abandoned"
            ):
                await self._close_hands(event.table.id)
                if self.inline is not None:
                    await self.inline.table_closed(event.table)
                await self.book.forget_table(event.table.id)

    async def _close_hands(self, table_id: int) -> None:
        """The table is over: its hands lose their buttons, so nobody presses into the void."""
        for shown in await self.book.private_of(table_id):
            try:
                await self.messenger.edit_markup(shown.where, shown.message_id, None)
            except TelegramError as error:
                logger.info("could not clear the buttons of a hand: %s", error)

    async def unblocked(self, user_id: int) -> None:
        """The user opened the private chat: hands go there again (in every process)."""
        self._blocked.pop(user_id, None)
        await self.book.unblock(user_id)

    async def refuses_private(self, user_id: int) -> bool:
        """Whether the user's private chat is known to refuse messages."""
        return await self._is_blocked(user_id)

    async def _is_blocked(self, user_id: int) -> bool:
        """Whether the user's private chat is known to refuse messages (and not due a retry)."""
        known = self._blocked.get(user_id)
        if known is None:
            return False
        mark, checked = known
        now = self.clock()
        if now - checked > RECHECK_BLOCKED_AFTER:
            stored = await self.book.blocked(user_id)
            if stored is None:  # cleared by a /start another process served
                del self._blocked[user_id]
                return False
            mark = stored
            self._blocked[user_id] = (mark, now)
        return now - mark.at < self._retry_blocked_after

    async def _refused(self, user_id: int) -> Blocked:
        """Telegram refused a private message: remember it, in the same spell as before if any."""
        now = self.clock()
        known = self._blocked.get(user_id)
        previous = known[0] if known is not None else await self.book.blocked(user_id)
        token = previous.token if previous is not None else uuid.uuid4().hex
        mark = Blocked(token, now)
        self._blocked[user_id] = (mark, now)
        await self.book.keep_blocked(user_id, mark)
        return mark

    async def learn(self, message: Message, data: str, *, user_id: int) -> None:
        """A press on ``message`` tells which message shows a table (re-learned after a restart)."""
        try:
            button = decode_button(data)
        except ValueError:
            return
        public = button.action.startswith(_PUBLIC_ACTIONS)
        if message.chat.type == "private":
            # "@hand" is ambiguous in private (a hand's "Back", or a quick game's "My hand").
            hand = not public and message.chat.id == user_id
            if hand and await self.book.private(button.table_id, user_id) is None:
                # A photo message stays one: its picture is replaced in place later.
                shown = Shown(Where(user_id), message.message_id, photo=bool(message.photo))
                await self.book.keep_private(button.table_id, user_id, shown)
        elif public:
            thread = message.message_thread_id if message.is_topic_message else None
            where = Where(message.chat.id, thread if message.chat.is_forum else None)
            if await self.book.public(button.table_id, where) is None:
                shown = Shown(where, message.message_id, photo=bool(message.photo))
                await self.book.keep_public(button.table_id, shown)

    # --- one event ---------------------------------------------------------------------------

    def _foldable(self, event: Announcement, rest: list[Event]) -> bool:
        if event.kind not in _FOLDED or event.audience.kind != "chat":
            return False
        return any(
            isinstance(e, TableView)
            and e.table.id == event.table.id
            and e.audience == event.audience
            for e in rest
        )

    async def _deliver_one(
        self,
        event: Event,
        *,
        origin: Where | None,
        extra: list[str],
        asked: frozenset[int] = frozenset(),
    ) -> None:
        if (
            isinstance(event, HandView)
            and event.table.family == "scala40"
            and (event.focus is None or event.focus.startswith(SELECT))
        ):
            # On a phone Scala 40 is played by tapping cards: the hand starts with an empty
            # selection, and each tap comes back (as a "?#<mask>" press) with the new one.
            event = replace(event, focus=event.focus or SELECT + "0")
        rendered = self._renderer.render(event)
        text = "\n".join([rendered.text, *extra]) if extra else rendered.text
        markup = keyboard(rendered)
        if self.inline is not None and isinstance(event, TableView):
            markup = self.inline.table_markup(event, markup)
        if event.audience.kind == "chat":
            where = where_of(event.audience.id)
            if isinstance(event, LobbyView | TableView):
                image = None
                if isinstance(event, TableView) and self.pictures is not None:
                    image = await self.pictures.table(event)
                await self._show_table(event, where, text, markup, image)
                if self.inline is not None and isinstance(event, TableView):
                    await self.inline.table_shown(event)
            else:
                await self._say_event(event, where, text, markup)
            return
        user_id = int(event.audience.id)
        if isinstance(event, HandView):
            if self.inline is not None and not await self.inline.private_hand(
                event,
                user_id,
                asked=user_id in asked or (origin is not None and origin.chat_id == user_id),
            ):
                return  # the player plays inline, from the group
            image = None
            if self.pictures is not None:
                selected = selection_of(event.focus, len(getattr(event.view, "hand", ())))
                image = await self.pictures.hand(event, selected=selected)
            # Surfaced only when asked from elsewhere (the group): a press in the private chat
            # itself ("« Back" on the hand) edits the hand where it is.
            surface = user_id in asked and (origin is None or origin.chat_id != user_id)
            await self._show_hand(event, user_id, text, markup, image, asked=surface)
        elif isinstance(event, TurnNotice):
            if self.inline is None or not await self.inline.turn_notice(event, user_id):
                await self._notice(event, user_id, text)
        elif (
            await self._say_event(event, Where(user_id), text, markup) is None
            and origin is not None
            and not self._shown_in(event, origin)
        ):
            # Not secret (rules, stats): say it where it was asked.
            await self._say_event(event, origin, text, markup)

    @staticmethod
    def _shown_in(event: Event, where: Where) -> bool:
        """A table or lobby view asked for from its own chat: the table message there shows it
        already (a "My hand" press by a user whose private chat is refused would otherwise post
        a copy of the table in the group at every press)."""
        return (
            isinstance(event, TableView | LobbyView)
            and where_of(event.table.chat_id).chat_id == where.chat_id
        )

    async def _say_event(
        self, event: Event, where: Where, text: str, markup: InlineKeyboardMarkup | None
    ) -> int | None:
        """A new message; the /stats one with its rating chart when pictures are on."""
        image = None
        if isinstance(event, Stats) and self.pictures is not None:
            image = await self.pictures.stats(event)
        if image is None:
            return await self.say(where, text, markup)
        try:
            shown = await self._post(where, 0, text, markup, image)
        except BlockedError:
            return None
        self.book.saw(where.chat_id, shown.message_id)
        return shown.message_id

    async def _show_table(
        self,
        event: TableEvent,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None = None,
    ) -> None:
        if self.inline is not None and await self.inline.table_with_mention(
            event, where, text, markup, image
        ):
            return  # posted anew with the turn's mention
        shown = await self.book.public(event.table.id, where)
        version = event.table.version
        if shown is not None and version < shown.version:
            return  # a newer view is already showing
        if shown is not None and self.book.scrolled_away(shown):
            shown_now = await self._post(where, version, text, markup, image)
        else:
            shown_now = await self._put(where, shown, version, text, markup, image)
        if shown is not None and shown_now.message_id != shown.message_id and markup is not None:
            # The old copy's buttons would only confuse: the new message has them.
            await self.messenger.edit_markup(where, shown.message_id, None)
        await self.book.keep_public(event.table.id, shown_now)

    async def _show_hand(
        self,
        event: HandView,
        user_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None = None,
        *,
        asked: bool = False,
    ) -> None:
        """Edit the player's hand message in place; when the player asked for it ("My hand")
        and other messages came after it in the private chat, post it anew at the bottom (the
        old one loses its buttons)."""
        table_id = event.table.id
        if await self._is_blocked(user_id):
            await self._offer_link(event, user_id, self._blocked[user_id][0])
            return
        shown = await self.book.private(table_id, user_id)
        if shown is not None and event.table.version < shown.version:
            return
        try:
            if asked and shown is not None and self.book.newer_than(shown):
                shown_now = await self._post(
                    Where(user_id), event.table.version, text, markup, image
                )
            else:
                shown_now = await self._put(
                    Where(user_id), shown, event.table.version, text, markup, image
                )
        except BlockedError:
            await self._offer_link(event, user_id, await self._refused(user_id))
            return
        if user_id in self._blocked:
            await self.unblocked(user_id)  # a retry got through: the chat is open now
        if shown is not None and shown_now.message_id != shown.message_id:
            # Posted anew (asked for, or a picture replaced by a text): the old copy's buttons
            # would only confuse.
            with contextlib.suppress(TelegramError):
                await self.messenger.edit_markup(Where(user_id), shown.message_id, None)
        await self.book.keep_private(table_id, user_id, shown_now)

    # --- one message, with or without its picture --------------------------------------------

    async def _put(
        self,
        where: Where,
        shown: Shown | None,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown:
        """Edit ``shown`` in place when it can show this, else post anew; what shows it now."""
        if shown is not None:
            edited = await self._edit(shown, version, text, markup, image)
            if edited is not None:
                return edited
        return await self._post(where, version, text, markup, image)

    async def _edit(
        self,
        shown: Shown,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown | None:
        """``None`` when ``shown`` cannot become this message (a text cannot turn into a photo
        message, nor back): the caller posts a new one."""
        messenger, where = self.messenger, shown.where
        if image is None:
            if shown.photo or shown.companion is not None:
                return None
            if not await messenger.edit(where, shown.message_id, text, markup):
                return None
            return replace(shown, version=version)
        if len(text) <= CAPTION_LIMIT:
            if not shown.photo:
                return None
            if shown.digest == image.digest:
                # The same picture: only the caption and buttons change, nothing is uploaded.
                ok = await messenger.edit_caption(where, shown.message_id, text, markup)
            else:
                ok, file_id = await self._with_photo(
                    image,
                    lambda photo: messenger.edit_photo(
                        where,
                        shown.message_id,
                        photo,
                        filename=image.filename,
                        caption=text,
                        markup=markup,
                    ),
                )
                await self._learn_file(image, file_id)
            return replace(shown, version=version, digest=image.digest) if ok else None
        if shown.photo or shown.companion is None:
            return None
        if shown.digest != image.digest:
            companion = shown.companion
            ok, file_id = await self._with_photo(
                image,
                lambda photo: messenger.edit_photo(
                    where, companion, photo, filename=image.filename
                ),
            )
            await self._learn_file(image, file_id)
            if not ok:
                return None
        if not await messenger.edit(where, shown.message_id, text, markup):
            return None
        return replace(shown, version=version, digest=image.digest)

    async def _post(
        self,
        where: Where,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown:
        messenger = self.messenger
        if image is None:
            message_id = await messenger.send(where, text, markup)
            return Shown(where, message_id, version)
        if len(text) <= CAPTION_LIMIT:
            message_id, file_id = await self._with_photo(
                image,
                lambda photo: messenger.send_photo(
                    where, photo, filename=image.filename, caption=text, markup=markup
                ),
            )
            await self._learn_file(image, file_id)
            return Shown(where, message_id, version, photo=True, digest=image.digest)
        # Too long for a caption: the picture, then the text with the buttons under it.
        companion, file_id = await self._with_photo(
            image, lambda photo: messenger.send_photo(where, photo, filename=image.filename)
        )
        await self._learn_file(image, file_id)
        message_id = await messenger.send(where, text, markup)
        return Shown(where, message_id, version, digest=image.digest, companion=companion)

    async def with_photo(
        self, image: RenderedImage, call: Callable[[bytes | str], Awaitable[_T]]
    ) -> _T:
        """``call`` with the picture's file id or bytes (see ``_with_photo``)."""
        return await self._with_photo(image, call)

    async def learn_file(self, image: RenderedImage, file_id: str | None) -> None:
        """Remember the file id Telegram gave a picture."""
        await self._learn_file(image, file_id)

    async def _with_photo(
        self, image: RenderedImage, call: Callable[[bytes | str], Awaitable[_T]]
    ) -> _T:
        """``call`` with the picture's known file id, or its bytes; a file id Telegram no
        longer accepts is dropped and the bytes are uploaded instead."""
        photo = await self._photo(image)
        if isinstance(photo, bytes):
            return await call(photo)
        try:
            return await call(photo)
        except BadRequest as error:
            if "file" not in error.message.lower():
                raise
            logger.info("file id of picture %s refused: uploading it again", image.digest)
            self._file_ids.pop(image.digest, None)
            return await call(image.data)

    async def _photo(self, image: RenderedImage) -> bytes | str:
        """Telegram's file id when this picture was uploaded before (by any process), else its
        bytes."""
        known = self._file_ids.get(image.digest)
        if known is None:
            stored = await self.book.state.state_get(
                platform=PLATFORM, kind=FILE, scope=image.digest
            )
            known = stored if isinstance(stored, str) else None
        return known or image.data

    async def _learn_file(self, image: RenderedImage, file_id: str | None) -> None:
        if file_id is None or self._file_ids.get(image.digest) == file_id:
            return
        self._file_ids[image.digest] = file_id
        self._file_ids.move_to_end(image.digest)
        while len(self._file_ids) > _FILE_IDS:
            self._file_ids.popitem(last=False)
        await self.book.state.state_put(file_id, platform=PLATFORM, kind=FILE, scope=image.digest)

    async def _offer_link(self, event: HandView, user_id: int, mark: Blocked) -> None:
        """Once per table, player and spell of refusal: a button in the table's chat that opens
        the private chat."""
        if await self.book.linked(event.table.id, user_id) == mark.token:
            return
        bot = self._bot()
        t = self._renderer.translations(event.locale)
        seat = event.table.seats[event.seat]
        name = seat.name if seat is not None else ""
        url = deep_link(bot.username, hand_payload(event.table.id))
        button = InlineKeyboardButton(t.gettext(phrases.OPEN_PRIVATE_BUTTON), url=url)
        text = t.gettext(phrases.OPEN_PRIVATE_CHAT).format(name=name)
        where = where_of(event.table.chat_id)
        if await self.say(where, text, InlineKeyboardMarkup([[button]])) is not None:
            await self.book.keep_linked(event.table.id, user_id, mark.token)

    async def _notice(self, event: TurnNotice, user_id: int, text: str) -> None:
        """A fresh message notifies (an edit does not); the previous notice is removed."""
        if await self._is_blocked(user_id):
            return
        table_id = event.table.id
        old = await self.book.notice(table_id, user_id)
        message_id = await self.say(Where(user_id), text)
        if message_id is None:
            return
        await self.book.keep_notice(table_id, user_id, message_id)
        if old is not None and old != message_id:
            token = PRIORITY.set(Priority.CLEANUP)  # after everybody's hands
            try:
                await self._bot().delete_message(chat_id=user_id, message_id=old)
            except Exception as error:
                logger.debug("could not delete notice %s: %s", old, error)
            finally:
                PRIORITY.reset(token)
