"""Only the newest state of a message: edits of one message (a player's hand) run one at a time,
and of those waiting only the newest version is sent; an older one arriving late is dropped.

Two results of one table may be delivered at once (two players pressing together, a turn
timer): without this, the hand of a third player could be edited to version 11 and then, by the
slower delivery, back to version 10.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


class Newest:
    """Per key, versioned jobs in version order, coalesced to the newest."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._users: dict[Hashable, int] = {}
        self._newest: dict[Hashable, int] = {}  # the newest version asked for
        self._done: dict[Hashable, int] = {}  # the newest version sent

    async def run(
        self,
        key: Hashable,
        version: int,
        job: Callable[[], Awaitable[T]],
        *,
        always: bool = False,
    ) -> T | None:
        """Run ``job`` (the message at ``version``) after the jobs of ``key`` already running;
        ``None`` without running it when a newer version was asked for or sent meanwhile
        (``always``: run it anyway, in order, e.g. to answer the player's own press)."""
        self._newest[key] = max(version, self._newest.get(key, version))
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                stale = version < self._newest[key] or version < self._done.get(key, version)
                if stale and not always:
                    return None
                outcome = await job()
                self._done[key] = max(version, self._done.get(key, version))
                return outcome
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._locks[key]

    def forget(self, predicate: Callable[[Hashable], bool]) -> None:
        """Drop what is known of the keys ``predicate`` selects (a closed table's hands)."""
        for known in (self._newest, self._done):
            for key in [k for k in known if predicate(k)]:
                del known[key]
