"""Telegram's flood limits, kept before the calls are made, with the urgent calls first.

Telegram allows a bot about 30 messages a second overall and 20 a minute in one group; past
that it answers 429 with ``retry_after``. PTB's ``AIORateLimiter`` throttles with leaky buckets
(a burst of 20 in a group, then one every 3 s) and serves its waiters in arrival order, so a
player's hand waited behind the edits of other groups' tables. ``PacedRateLimiter`` keeps the
limits as sliding windows (never more than ``group_rate`` calls in any ``group_period``
seconds of one group, nor ``overall_rate`` in any ``overall_period``), and when calls must wait
for the overall window it lets them through by ``Priority`` (the answer to a press is never
limited: it names no chat), then in arrival order. Below it ``AIORateLimiter`` (with its own
buckets off) still retries a 429 after ``retry_after``, ``max_retries`` times.

The delivery sets the priority of the calls it makes in the ``PRIORITY`` context variable.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from enum import IntEnum
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

logger = logging.getLogger(__name__)

__all__ = ["PRIORITY", "PacedRateLimiter", "Priority"]


class Priority(IntEnum):
    """Lower goes first when the overall limit makes calls wait."""

    TURN = 0  # the hand of the player whose turn it is
    PRIVATE = 1  # other hands, turn notices, replies
    GROUP = 2  # table messages and announcements in groups
    CLEANUP = 3  # removing an old notice, old buttons


PRIORITY: ContextVar[Priority] = ContextVar("tavolo_telegram_priority", default=Priority.PRIVATE)

# Telegram's documented limits (core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-
# avoid-this), with a margin for the time between a call leaving here and reaching Telegram.
OVERALL_RATE = 30
OVERALL_PERIOD = 1.1
GROUP_RATE = 20
GROUP_PERIOD = 61.0

Callback = Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]]


class _Window:
    """The send times of the last ``period`` seconds, at most ``rate`` of them."""

    __slots__ = ("period", "rate", "times")

    def __init__(self, rate: int, period: float) -> None:
        self.rate, self.period = rate, period
        self.times: deque[float] = deque()

    def wait(self, now: float) -> float:
        """Seconds until one more call fits (0: now)."""
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()
        if len(self.times) < self.rate:
            return 0.0
        return self.times[0] + self.period - now

    def note(self, now: float) -> None:
        self.times.append(now)


class PacedRateLimiter(BaseRateLimiter[int]):
    """Sliding-window flood limits with priorities; 429 retries by ``AIORateLimiter``."""

    def __init__(
        self,
        *,
        overall_rate: int = OVERALL_RATE,
        overall_period: float = OVERALL_PERIOD,
        group_rate: int = GROUP_RATE,
        group_period: float = GROUP_PERIOD,
        max_retries: int = 3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner = AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=max_retries)
        self._overall = _Window(overall_rate, overall_period) if overall_rate > 0 else None
        self._group_rate, self._group_period = group_rate, group_period
        self._groups: dict[int | str, _Window] = {}
        self._group_locks: dict[int | str, asyncio.Lock] = {}
        self._clock = clock
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pump: asyncio.TimerHandle | None = None

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None
        for _, _, waiter in self._waiters:
            if not waiter.done():
                waiter.cancel()
        self._waiters.clear()
        await self._inner.shutdown()

    async def process_request(
        self,
        callback: Callback,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat_id = data.get("chat_id")
        if chat_id is not None:
            group = _group_of(chat_id)
            if group is not None and self._group_rate > 0:
                await self._group_slot(group)
            else:
                await self._overall_slot(PRIORITY.get())
        return await self._inner.process_request(
            callback, args, kwargs, endpoint, data, rate_limit_args
        )

    async def _group_slot(self, group: int | str) -> None:
        """One call at a time per group waits for the group's window, then the overall one."""
        lock = self._group_locks.get(group)
        if lock is None:
            lock = self._group_locks[group] = asyncio.Lock()
        window = self._groups.get(group)
        if window is None:
            window = self._groups[group] = _Window(self._group_rate, self._group_period)
        async with lock:
            while (delay := window.wait(self._clock())) > 0:
                await asyncio.sleep(delay)
            await self._overall_slot(PRIORITY.get())
            window.note(self._clock())
        self._forget_idle_groups()

    def _forget_idle_groups(self) -> None:
        if len(self._groups) <= 1024:
            return
        now = self._clock()
        for key, window in list(self._groups.items()):
            lock = self._group_locks.get(key)
            if window.wait(now) == 0 and not window.times and not (lock and lock.locked()):
                self._groups.pop(key, None)
                self._group_locks.pop(key, None)

    async def _overall_slot(self, priority: int) -> None:
        window = self._overall
        if window is None:
            return
        now = self._clock()
        if not self._waiters and window.wait(now) == 0:
            window.note(now)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._order), waiter))
        self._schedule(0.0)
        await waiter

    def _schedule(self, delay: float) -> None:
        if self._pump is None:
            self._pump = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        """Let the most urgent waiters through while the overall window has room."""
        self._pump = None
        window = self._overall
        assert window is not None
        while self._waiters:
            now = self._clock()
            delay = window.wait(now)
            if delay > 0:
                self._schedule(delay)
                return
            _, _, waiter = heapq.heappop(self._waiters)
            if waiter.done():  # its caller gave up (cancelled)
                continue
            window.note(now)
            waiter.set_result(None)


def _group_of(chat_id: object) -> int | str | None:
    """The group or channel a chat id names (negative ids, ``@username``); ``None`` for a
    private chat."""
    if isinstance(chat_id, str):
        try:
            chat_id = int(chat_id)
        except ValueError:
            return chat_id
    if isinstance(chat_id, int) and chat_id < 0:
        return chat_id
    return None
