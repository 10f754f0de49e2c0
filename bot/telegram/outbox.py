"""A table's outbox: its results split into items, one lane per Telegram chat.

The data the lanes (``bot.telegram.lanes``) work on: an ``Item`` is one message to put in place
(or a table to close), a ``Lane`` the items of one table to one chat in order, an ``Outbox`` a
table's lanes with what was sent of it, a ``Ticket`` the delivery of one result. Newer states of
the same message take over the pending one (``Lane.add``); a turn notice knows when its turn has
passed (``Outbox.turn_passed``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

from bot.service import (
    Announcement,
    Event,
    GameOver,
    HandView,
    LobbyView,
    Result,
    TableEvent,
    TableInfo,
    TableView,
    TurnNotice,
)
from bot.telegram.book import message_key
from bot.telegram.ids import where_of
from bot.telegram.limiter import Priority
from bot.telegram.messenger import Where

# Announcements that only say what the table message shows next; folded into it.
FOLDED = frozenset({"scopa", "started", "timeout", "taken_back"})


def per_table(result: Result) -> list[Result]:
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


def asked_hands(events: list[Event]) -> tuple[list[Event], frozenset[int]]:
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


def closes(event: Event) -> bool:
    """The table's last event: its hands lose their buttons after it."""
    return isinstance(event, GameOver) or (
        isinstance(event, Announcement) and event.kind == "abandoned"
    )


def lane_of(event: Event) -> int:
    """The Telegram chat an event goes to (a group's topics share the group's lane)."""
    if event.audience.kind == "chat":
        return where_of(event.audience.id).chat_id
    return int(event.audience.id)


def item_name(item: Item) -> str:
    return type(item.event).__name__


def foldable(event: Announcement, rest: list[Event]) -> bool:
    """A short announcement the table message shown next in the same chat takes in."""
    if event.kind not in FOLDED or event.audience.kind != "chat":
        return False
    return any(
        isinstance(e, TableView) and e.table.id == event.table.id and e.audience == event.audience
        for e in rest
    )


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
class Close:
    """The table is over: its hands lose their buttons and its messages are forgotten."""

    table_id: int
    table: TableInfo | None = None  # the table as it ended (inline play clears its mention)


@dataclass(eq=False)
class Item:
    """One message to put in place (or a table to close), waiting in its lane."""

    event: Event | Close
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
    def message(self) -> str | None:
        """The message it shows, as named in the record of what was delivered."""
        key = self.key
        return None if key is None else message_key(*key)

    @property
    def version(self) -> int:
        return self.event.table.version if isinstance(self.event, TableEvent) else 0

    def absorb(self, other: Item) -> None:
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
        if isinstance(event, Close):
            return Priority.CLEANUP
        if isinstance(event, HandView) and event.seat == event.table.current_seat:
            return Priority.TURN
        return Priority.GROUP if event.audience.kind == "chat" else Priority.PRIVATE


@dataclass(eq=False)
class Lane:
    """The messages of one table to one Telegram chat, in order, one call at a time."""

    items: deque[Item] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None

    @property
    def idle(self) -> bool:
        return self.task is None and not self.items

    def add(self, item: Item) -> None:
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
class Outbox:
    """A table's lanes, one per chat its messages go to."""

    table_id: int
    lanes: dict[int, Lane] = field(default_factory=dict)
    version: int = 0  # the newest version submitted
    closed: bool = False
    # The table as the newest result submitted left it, and the version from which its
    # current seat has been to move (as far as the results seen tell; 0: not known).
    table: TableInfo | None = None
    turn_since: int = 0
    # Per message (``Item.message``): the newest version put in place, and the messages whose
    # last call was given up.
    sent: dict[str, int] = field(default_factory=dict)
    behind: set[str] = field(default_factory=set)

    def saw(self, table: TableInfo) -> None:
        """A result about the table at ``table.version`` was submitted."""
        self.version = max(self.version, table.version)
        newest = self.table
        if newest is None or table.version > newest.version:
            if newest is not None and table.current_seat != newest.current_seat:
                self.turn_since = table.version
            self.table = table

    def turn_passed(self, notice: TurnNotice) -> bool:
        """Whether the turn ``notice`` tells of is over by the newest state submitted."""
        newest = self.table
        if newest is None or newest.version <= notice.table.version:
            return False
        return (
            newest.status != "playing"
            or newest.current_seat != notice.seat
            or self.turn_since > notice.table.version
        )

    @property
    def idle(self) -> bool:
        return all(lane.idle for lane in self.lanes.values())
