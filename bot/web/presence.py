"""Who is looking at a table right now: the players with the web table open (a connected
WebSocket). Small on purpose: the chat adapters ask it whether a player needs a mention for
their turn, and whether the group's table message must be edited at once. (A platform-neutral
"is the player looking" notion may replace it; this is the web table's own.)"""

from __future__ import annotations

from collections import Counter

__all__ = ["Presence"]


class Presence:
    """Counts of open pages per (platform, user, table), in this process."""

    def __init__(self) -> None:
        self._pages: Counter[tuple[str, str, int]] = Counter()
        self._tables: Counter[int] = Counter()

    def connect(self, platform: str, user_id: str, table: int) -> None:
        self._pages[(platform, user_id, table)] += 1
        self._tables[table] += 1

    def disconnect(self, platform: str, user_id: str, table: int) -> None:
        key = (platform, user_id, table)
        if self._pages[key] > 0:
            self._pages[key] -= 1
            self._tables[table] -= 1
        if self._pages[key] <= 0:
            del self._pages[key]
        if self._tables[table] <= 0:
            del self._tables[table]

    def looking(self, platform: str, user_id: str, table: int) -> bool:
        """Whether the user has the table open in a page."""
        return self._pages.get((platform, user_id, table), 0) > 0

    def watched(self, table: int) -> bool:
        """Whether any page shows the table."""
        return self._tables.get(table, 0) > 0
