"""The interactions and deliveries the handler is working on, so a stop can wait for them.

discord.py runs each interaction in its own task; a press goes on after its acknowledgement
(the service call, then the messages: the hand edited, the old hand deleted, an error reply).
Closing the client under them would cut those messages off (``Session is closed``), so
``serve`` stops reading the gateway, waits here until the work in hand is done (bounded by
``SHUTDOWN_GRACE_SECONDS``), and only then closes the HTTP session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class InFlight:
    """A count of the work in progress, and a way to wait until there is none."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def count(self) -> int:
        return self._count

    @contextlib.asynccontextmanager
    async def track(self) -> AsyncIterator[None]:
        """Count the work done inside the block."""
        self._count += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._count -= 1
            if not self._count:
                self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is in progress (at most ``timeout`` s); False if some still is."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return not self._count
