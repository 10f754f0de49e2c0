"""Delivery's lanes: when each message of a table goes out, in what order, and tried again.

A table's results go out through its outbox: one lane per Telegram chat its messages go to (the
group, each player's private chat), each sending one call at a time, so a hand is never held up
behind the group's flood limit. While a call waits, newer states of the same message replace the
pending one (only the newest is sent). When a table's lanes are all done, what was delivered
is recorded in the adapter state, per message (``bot.telegram.book.Delivered``: the version
every message is current at, and the messages a call was given up for); after a restart
``bot.telegram.healing`` delivers anew each message that is behind. A turn notice is checked
against the newest state of its table when its turn comes to be sent: a notice of a turn that
has passed meanwhile is dropped.

A call Telegram fails (5xx, a timeout, a network error, a 429 past the limiter's retries) is
retried with backoff (``RetryPolicy``); past the last try the table's every view is delivered
anew a while later, and nothing of the table is recorded as delivered until then.

The items, lanes and outboxes it works on are ``bot.telegram.outbox``'s. ``Lanes`` is given a
``Placer`` (``bot.telegram.delivery.Delivery``), which puts each item in place;
``bot.telegram.healing.Healing`` is given the lanes, and submits what it delivers anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from telegram.error import (
    BadRequest,
    ChatMigrated,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.render import Renderer
from bot.service import (
    Announcement,
    Event,
    HandView,
    LobbyView,
    Result,
    TableInfo,
    TableView,
    TurnNotice,
)
from bot.telegram.book import Delivered, MessageBook
from bot.telegram.limiter import PRIORITY, Priority
from bot.telegram.messenger import BlockedError, Where
from bot.telegram.outbox import (
    Close,
    Item,
    Lane,
    Outbox,
    Ticket,
    asked_hands,
    closes,
    foldable,
    item_name,
    lane_of,
    per_table,
)

logger = logging.getLogger(__name__)

# How long messages wait for the answer to the press that caused them (it is always sent).
GATE_TIMEOUT = 20.0
# How long a finished table waits for its players' lanes before clearing their buttons.
CLOSE_WAIT = 30.0
# A call Telegram failed (5xx, a timeout, a network error, a 429 past the limiter's retries)
# is tried again after each of these waits (seconds), then given up.
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
# A table whose message gave up is delivered anew (every view) once after this many seconds.
RESYNC_AFTER = 30.0
# A call that timed out (or was in flight when a process died) may still be done by Telegram
# this many seconds later, over a newer state: the table is delivered once more after it.
LATE_CALLS = 12.0


def retry_seconds(error: RetryAfter) -> float:
    """Telegram's ``retry_after`` in seconds (PTB keeps it as a timedelta)."""
    wait = getattr(error, "_retry_after", None)
    if isinstance(wait, datetime.timedelta):
        return wait.total_seconds()
    with contextlib.suppress(TypeError, ValueError):
        return float(error.retry_after)  # type: ignore[arg-type]
    return 1.0


@dataclass(frozen=True)
class RetryPolicy:
    """How a failed call is tried again: after each of ``delays`` (seconds), then given up and
    the table's every view delivered anew ``resync_after`` seconds later; after a call that
    timed out, once more ``late_calls`` seconds later (Telegram may still do it, late)."""

    delays: tuple[float, ...] = RETRY_DELAYS
    resync_after: float = RESYNC_AFTER
    late_calls: float = LATE_CALLS


class Placer(Protocol):
    """What the lanes ask of the delivery (``bot.telegram.delivery.Delivery``): to put each
    item in its place."""

    def plan(self, events: Sequence[Event]) -> None:
        """A table's result is about to be queued (inline play plans its turn mentions)."""

    async def place(
        self, event: Event, *, origin: Where | None, extra: list[str], asked: frozenset[int]
    ) -> None:
        """Put one event in its place (``extra``: announcements folded into a table view;
        ``asked``: the users who asked for their hand, surfaced at the bottom of the chat)."""

    async def deliver(self, result: Result, *, origin: Where | None) -> None:
        """Deliver a result about no table, in order."""

    async def close_table(self, table_id: int, table: TableInfo | None) -> None:
        """The table is over: its hands lose their buttons (and its copies are closed)."""

    async def chat_migrated(self, old: int, new: int) -> None:
        """Telegram refused a call: chat ``old`` is now ``new``."""


class Lanes:
    """The outboxes of the tables being delivered, the tasks that empty their lanes, the
    retries of the calls Telegram failed, and the record of what was delivered."""

    def __init__(
        self,
        *,
        placer: Placer,
        book: MessageBook,
        renderer: Renderer,
        views: Callable[[int], Awaitable[Result]] | None = None,
        retry: RetryPolicy = RetryPolicy(),
    ) -> None:
        self._placer = placer
        self._book = book
        self._renderer = renderer
        # Every view of a table as it stands (the service's ``views``): to resync after a
        # failure (none: a message given up stays behind until the next restart).
        self._views = views
        self._retry_policy = retry
        self._outboxes: dict[int, Outbox] = {}
        # Tables with a message given up since their last full delivery: not recorded as
        # delivered until a resync went through.
        self._failed: set[int] = set()
        # Tables waiting for a resync (a late call may still land): not recorded until then.
        self._unsettled: set[int] = set()
        self._resyncs: set[int] = set()
        # Tables open when this process started whose messages the restart has not compared
        # with their version yet (``None``: which tables is not known yet): nothing is recorded
        # of them until then, lest a partial delivery (a healed press) pass for the whole table.
        self._unchecked: set[int] | None = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sleepers: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def closing(self) -> bool:
        """Stopping: nothing more is queued (it is delivered anew at the next start)."""
        return self._closing

    # --- what a restart has not compared yet is not recorded ---------------------------------

    def hold_records(self) -> None:
        """Record nothing as delivered until ``checking`` says which tables a restart compares."""
        self._unchecked = None

    def checking(self, tables: Iterable[int]) -> None:
        """``tables`` are compared by the restart (each recorded once ``checked``); the others
        are recorded as usual."""
        self._unchecked = set(tables)

    def checked(self, table_id: int) -> None:
        """The restart compared the table's messages with its version."""
        if self._unchecked is not None:
            self._unchecked.discard(table_id)

    # --- queueing ------------------------------------------------------------------------------

    def submit(
        self, result: Result, *, origin: Where | None, gate: asyncio.Event | None = None
    ) -> Ticket:
        """Queue the events of a table's result in its lanes and return at once.

        ``gate``: the messages wait until it is set (the press they answer is answered first).
        A result about several tables (a new table replacing a stale lobby closes the old one)
        goes to each table's lanes: one table's close must not drop another's messages.
        """
        ticket = Ticket()
        parts = per_table(result)
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
                self.background(self._deliver_loose(result, origin, ticket))
            return ticket
        outbox = self._outboxes.get(table.id)
        if outbox is None:
            outbox = self._outboxes[table.id] = Outbox(table.id)
        outbox.saw(table)
        events, asked = asked_hands(list(result.events))
        self._placer.plan(events)
        gates = [gate] if gate is not None and not gate.is_set() else []
        if any(closes(e) for e in events):
            outbox.closed = True
            abandoned = any(isinstance(e, Announcement) and e.kind == "abandoned" for e in events)
            self._drop_private(outbox, views=abandoned)
        folded: dict[str, list[str]] = {}
        touched: list[tuple[Priority, int]] = []
        for index, event in enumerate(events):
            if isinstance(event, Announcement) and foldable(event, events[index + 1 :]):
                folded.setdefault(event.audience.id, []).append(self._renderer.render(event).text)
                continue
            extra = folded.pop(event.audience.id, []) if isinstance(event, TableView) else []
            lane_id = lane_of(event)
            surfaced = event.audience.kind == "user" and int(event.audience.id) in asked
            item = Item(event, origin, extra, surfaced, list(gates), [ticket])
            ticket.add()
            touched.append((item.priority, lane_id))
            self._lane(outbox, lane_id).add(item)
            if closes(event):
                ticket.add()
                close = Item(Close(table.id, table), None, gates=list(gates), tickets=[ticket])
                self._lane(outbox, lane_id).add(close)
        # The most urgent lane first: the hand of the player whose turn it is.
        for _, lane_id in sorted(touched):
            lane = outbox.lanes[lane_id]
            if lane.task is None and lane.items:
                lane.task = self._spawn(self._run_lane(outbox, lane_id, lane), self._tasks)
        return ticket

    def _lane(self, outbox: Outbox, lane_id: int) -> Lane:
        lane = outbox.lanes.get(lane_id)
        if lane is None:
            lane = outbox.lanes[lane_id] = Lane()
        return lane

    @staticmethod
    def _drop_private(outbox: Outbox, *, views: bool = False) -> None:
        """The game is over: hands and notices still waiting would only bring buttons back;
        so would the table views still waiting when it was abandoned (``views``: its close
        shows the table closed, without spending the group's budget on them first)."""
        dropped = (HandView, TurnNotice, TableView, LobbyView) if views else (HandView, TurnNotice)
        for lane in outbox.lanes.values():
            kept: deque[Item] = deque()
            for item in lane.items:
                if isinstance(item.event, dropped):
                    item.finish()
                else:
                    kept.append(item)
            lane.items = kept

    def background(self, work: Awaitable[None]) -> None:
        """Run ``work`` beside the lanes: waited for by ``settled``, given the grace of
        ``close``."""
        self._spawn(work, self._tasks)

    def _spawn(self, work: Awaitable[None], tasks: set[asyncio.Task[None]]) -> asyncio.Task[None]:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    async def _deliver_loose(self, result: Result, origin: Where | None, ticket: Ticket) -> None:
        try:
            await self._placer.deliver(result, origin=origin)
        except Exception:
            logger.exception("delivery failed")
        finally:
            ticket.finish()

    # --- sending ---------------------------------------------------------------------------------

    async def _run_lane(self, outbox: Outbox, lane_id: int, lane: Lane) -> None:
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

    async def _record(self, outbox: Outbox) -> None:
        """Every message of the table up to ``outbox.version`` is out, save those a call was
        given up for: say so in the store."""
        table_id = outbox.table_id
        if outbox.closed or table_id in self._failed or table_id in self._unsettled:
            return
        if self._closing or self._unchecked is None or table_id in self._unchecked:
            return
        try:
            before = await self._book.delivery(table_id)
            behind: dict[str, int] = {}
            if before is not None:
                # Messages still behind from before, unless put in place since.
                behind = {k: v for k, v in before.behind.items() if k not in outbox.sent}
            for key in outbox.behind:
                known = 0 if before is None else before.of(key)
                behind[key] = max(known, outbox.sent.get(key, 0))
            await self._book.keep_delivered(table_id, Delivered(outbox.version, behind))
        except Exception as error:
            logger.warning("could not record the delivery of table %s: %s", table_id, error)

    def turn_passed(self, notice: TurnNotice) -> bool:
        """A turn notice whose turn is over by the newest state of its table submitted here:
        never sent (the player may have moved already, and the next player has theirs)."""
        outbox = self._outboxes.get(notice.table.id)
        return outbox is not None and outbox.turn_passed(notice)

    async def _attempt(self, outbox: Outbox, lane_id: int, lane: Lane, item: Item) -> bool:
        """Deliver one item; ``True`` when it went back to the lane (or into a newer item of
        the same message) for another try."""
        token = PRIORITY.set(item.priority)
        done = False
        try:
            async with self._book.batch():
                if isinstance(item.event, Close):
                    await self._close_table(outbox, lane, item.event.table_id, item.event.table)
                elif isinstance(item.event, TurnNotice) and outbox.turn_passed(item.event):
                    logger.debug("table %s: a notice of a past turn dropped", outbox.table_id)
                else:
                    asked = frozenset({lane_id}) if item.asked else frozenset()
                    await self._placer.place(
                        item.event, origin=item.origin, extra=item.extra, asked=asked
                    )
            done = True
        except BlockedError as error:
            logger.info("chat %s cannot be written to", error.chat_id)
            done = True  # nothing to deliver anew: the chat is closed to the bot
        except ChatMigrated as error:
            # The group became a supergroup: its tables follow it there (and this message).
            done = True
            self.background(self._placer.chat_migrated(lane_id, error.new_chat_id))
        except BadRequest as error:
            logger.warning("could not deliver %s: %s", item_name(item), error)
        except (NetworkError, RetryAfter) as error:
            if await self._retry(outbox, lane, item, error):
                return True
        except TelegramError as error:
            # One message Telegram refuses must not keep the others (the hands) from going.
            logger.warning("could not deliver %s: %s", item_name(item), error)
        except Exception:
            logger.exception("delivery of %s failed", item_name(item))
        finally:
            PRIORITY.reset(token)
        message = item.message
        if message is not None:
            if done:
                outbox.sent[message] = max(outbox.sent.get(message, 0), item.version)
                outbox.behind.discard(message)
            else:
                outbox.behind.add(message)
        return False

    async def _close_table(
        self, outbox: Outbox, lane: Lane, table_id: int, table: TableInfo | None = None
    ) -> None:
        others = [o.task for o in outbox.lanes.values() if o is not lane and o.task is not None]
        if others:
            await asyncio.wait(others, timeout=CLOSE_WAIT)
        await self._placer.close_table(table_id, table)
        await self._book.forget_table(table_id)
        self._failed.discard(table_id)

    # --- retries ---------------------------------------------------------------------------------

    async def _retry(self, outbox: Outbox, lane: Lane, item: Item, error: TelegramError) -> bool:
        """Try a failed call again after a wait; give up after the last wait, and deliver the
        whole table anew a while later."""
        delays = self._retry_policy.delays
        if item.attempts >= len(delays):
            logger.warning(
                "giving up on %s of table %s after %d tries: %s",
                item_name(item),
                outbox.table_id,
                item.attempts + 1,
                error,
            )
            self._failed.add(outbox.table_id)
            self.resync_later(outbox.table_id)
            return False
        delay = delays[item.attempts]
        if isinstance(error, TimedOut):
            # Telegram may still do the call, late, over a newer state sent meanwhile: the
            # table's views go once more when that can no longer happen.
            self.resync_later(outbox.table_id, late=True)
        if isinstance(error, RetryAfter):
            delay = max(delay, retry_seconds(error))
        item.attempts += 1
        logger.info("%s of table %s failed (%s): retrying in %.1f s",
                    item_name(item), outbox.table_id, error, delay)  # fmt: skip
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

    def resync_later(self, table_id: int, *, late: bool = False) -> None:
        """Deliver every view of the table anew a while later (``late``: once a call that may
        still be in flight can no longer land; once, however often asked meanwhile)."""
        views = self._views
        if views is None or self._closing or table_id in self._resyncs:
            return
        self._resyncs.add(table_id)
        # Not recorded as delivered until then: if this process dies first, the next start
        # delivers it anew (a late call may still land over what this one sent).
        self._unsettled.add(table_id)
        policy = self._retry_policy
        wait = policy.late_calls if late else policy.resync_after

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

    # --- the end ---------------------------------------------------------------------------------

    def delivering(self, table_id: int) -> bool:
        """Whether messages of the table are queued or on their way."""
        return table_id in self._outboxes

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
