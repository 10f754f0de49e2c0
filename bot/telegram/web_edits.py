"""The group's table message held back while web pages show the table.

While pages show a table and the player to move is one of them (or a computer), its group
message is edited at most once every ``web.coalesce`` seconds: the newest view waits for its
turn, then goes through the lanes. A player to move who follows the group (inline, buttons) gets
the group's message at once.

``HeldEdits`` is a part given to ``bot.telegram.delivery.Delivery``, given the lanes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.service import Result, TableEvent, TableView
from bot.telegram.lanes import Lanes
from bot.telegram.web_links import WebLinks

# How many tables' last edit times are kept (the oldest forgotten first).
REMEMBERED = 10_000


class HeldEdits:
    """The newest table view held back per table, and when each table message was edited."""

    def __init__(self, *, lanes: Lanes, clock: Callable[[], float]) -> None:
        self._lanes = lanes
        self._clock = clock
        self._held: dict[int, TableView] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._edited_at: dict[int, float] = {}

    def holds(self, table_id: int) -> bool:
        """Whether a view of the table waits for its turn."""
        return table_id in self._held

    def hold(self, web: WebLinks, event: TableEvent) -> bool:
        """Whether ``event`` waits (True: held, it goes out later through the lanes)."""
        if not isinstance(event, TableView) or event.table.status != "playing":
            return False
        if self._lanes.closing:
            return False
        table_id = event.table.id
        if not web.watched(table_id):
            return False
        current = event.table.current_seat
        seat = event.table.seats[current] if current is not None else None
        if (
            seat is not None
            and not seat.plays_as_computer
            and not (seat.user_id.isdigit() and web.looking(int(seat.user_id), table_id))
        ):
            return False  # the player to move follows the group's message: it goes now
        wait = self._edited_at.get(table_id, -1e18) + web.coalesce - self._clock()
        if wait <= 0:
            return False
        held = self._held.get(table_id)
        if held is None or held.table.version < event.table.version:
            self._held[table_id] = event
        if table_id not in self._tasks:
            self._tasks[table_id] = asyncio.create_task(self._release(table_id, wait))
        return True

    async def _release(self, table_id: int, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            self._tasks.pop(table_id, None)
        event = self._held.pop(table_id, None)
        if event is not None and not self._lanes.closing:
            self._lanes.submit(Result([event], event.table), origin=None)

    def edited(self, event: TableEvent) -> None:
        """The table message now shows ``event``: a view held back that is no newer is dropped."""
        table_id = event.table.id
        held = self._held.get(table_id)
        if held is not None and held.table.version <= event.table.version:
            self._held.pop(table_id, None)
            task = self._tasks.pop(table_id, None)
            if task is not None:
                task.cancel()
        self._edited_at[table_id] = self._clock()
        while len(self._edited_at) > REMEMBERED:
            self._edited_at.pop(next(iter(self._edited_at)))

    def release_all(self) -> list[TableView]:
        """Stopping: the views held back, to go out now; nothing is held any more."""
        held = list(self._held.values())
        for task in list(self._tasks.values()):
            task.cancel()
        self._held.clear()
        self._tasks.clear()
        self._edited_at.clear()
        return held
