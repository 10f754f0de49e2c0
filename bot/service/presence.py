"""Who is looking at the game right now, so a turn mention goes only to players who are not.

A mention is a notification: for a player who is at the table, pressing buttons, it is noise
(and on Telegram it costs a group request). Every front end marks a player as looking whenever
they interact (a button, a command, an inline choice; the web table when its page reports the
player there), and asks :meth:`Presence.looking` before mentioning them for their turn: a player
who interacted within ``idle_after`` seconds is looking, and their hand, edited with "Your turn",
is in front of them already. A player with the web table open on a table (a connected page:
``connect``/``disconnect``) is looking at that table for as long as the page stays open.

One instance per process (the composition root's ``App.presence``), in memory: a player seen by
another process of the same bot is mentioned as if away, which errs on the side of notifying.
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Callable

__all__ = ["DEFAULT_IDLE_AFTER", "Presence"]

# Seconds without an interaction after which a player is no longer taken to be looking.
DEFAULT_IDLE_AFTER = 60.0


class Presence:
    """When each player last interacted (``seen``), and whether they are looking now."""

    def __init__(
        self,
        *,
        idle_after: float = DEFAULT_IDLE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if idle_after < 0:
            raise ValueError("idle_after must be >= 0")
        self.idle_after = idle_after
        self.clock = clock
        self._seen: OrderedDict[tuple[str, str], float] = OrderedDict()
        # Open web pages per (platform, user, table), and per table.
        self._pages: Counter[tuple[str, str, int]] = Counter()
        self._tables: Counter[int] = Counter()

    def seen(self, platform: str, user_id: str) -> None:
        """The player interacted just now."""
        now = self.clock()
        key = (platform, user_id)
        self._seen[key] = now
        self._seen.move_to_end(key)
        # The oldest first: those idle for good are dropped, so memory follows the active.
        while self._seen:
            oldest, at = next(iter(self._seen.items()))
            if now - at < self.idle_after:
                break
            del self._seen[oldest]

    def looking(self, platform: str, user_id: str, table: int | None = None) -> bool:
        """Whether the player interacted within the last ``idle_after`` seconds, or has
        ``table`` open in a web page."""
        if table is not None and self.on_page(platform, user_id, table):
            return True
        at = self._seen.get((platform, user_id))
        return at is not None and self.clock() - at < self.idle_after

    def connect(self, platform: str, user_id: str, table: int) -> None:
        """A page showing ``table`` to the player opened."""
        self._pages[(platform, user_id, table)] += 1
        self._tables[table] += 1

    def disconnect(self, platform: str, user_id: str, table: int) -> None:
        """A page showing ``table`` to the player closed."""
        key = (platform, user_id, table)
        if self._pages[key] > 0:
            self._pages[key] -= 1
            self._tables[table] -= 1
        if self._pages[key] <= 0:
            del self._pages[key]
        if self._tables[table] <= 0:
            del self._tables[table]

    def on_page(self, platform: str, user_id: str, table: int) -> bool:
        """Whether the player has ``table`` open in a web page."""
        return self._pages.get((platform, user_id, table), 0) > 0

    def watched(self, table: int) -> bool:
        """Whether any web page shows ``table``."""
        return self._tables.get(table, 0) > 0
