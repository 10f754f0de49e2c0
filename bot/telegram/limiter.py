"""Telegram's flood limits, kept before the calls are made, with the urgent calls first.

Telegram allows a bot about 30 messages a second overall and 20 a minute in one group; past
that it answers 429 with ``retry_after``. PTB's ``AIORateLimiter`` throttles with leaky buckets
(a burst of 20 in a group, then one every 3 s) and serves its waiters in arrival order, so a
player's hand waited behind the edits of other groups' tables. ``PacedRateLimiter`` keeps the
limits as sliding windows (never more than ``group_rate`` calls in any ``group_period``
seconds of one group, nor ``overall_rate`` in any ``overall_period``), and when calls must wait
for the overall window it lets them through by ``Priority`` (the answer to a press is never
limited: it names no chat; a read about a group, ``getChatMember``, takes none of its window),
each by a deadline: when it came plus an allowance per priority, so a table edit is never
starved by a stream of hands. Below it ``AIORateLimiter`` (with its own
buckets off) still retries a 429 after ``retry_after``, ``max_retries`` times.

The delivery sets the priority of the calls it makes in the ``PRIORITY`` context variable.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum

from telegram.error import NetworkError
from telegram.ext import AIORateLimiter, BaseRateLimiter

logger = logging.getLogger(__name__)

__all__ = ["PRIORITY", "GroupRoom", "PacedRateLimiter", "Priority", "Stopping"]


class Priority(IntEnum):
    """Lower goes first when the overall limit makes calls wait."""

    TURN = 0  # the hand of the player whose turn it is
    PRIVATE = 1  # other hands, turn notices, replies
    GROUP = 2  # table messages and announcements in groups
    CLEANUP = 3  # removing an old notice, old buttons


# When calls wait for the overall window, each goes by a deadline: the time it came plus its
# priority's allowance (seconds). The urgent go first, and a table edit still goes at most
# about a second after the hands that came after it: never starved by a stream of hands.
ALLOWANCE = {Priority.TURN: 0.0, Priority.PRIVATE: 0.25, Priority.GROUP: 1.0, Priority.CLEANUP: 2.0}


PRIORITY: ContextVar[Priority] = ContextVar("tavolo_telegram_priority", default=Priority.PRIVATE)

# Telegram's documented limits (core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-
# avoid-this), with a margin for the time between a call leaving here and reaching Telegram.
OVERALL_RATE = 30
OVERALL_PERIOD = 1.05
GROUP_RATE = 20
GROUP_PERIOD = 61.0
# How often a group's call waiting for calls in flight looks again (seconds).
POLL = 0.05
# Calls that only read (getChatMember, getChat...): not counted in a group's window.
READS = ("get",)

# What a Bot API call answers (PTB's ``JSONDict``), and the call the limiter lets through.
Reply = bool | dict[str, object] | list[dict[str, object]]
Callback = Callable[..., Coroutine[object, object, Reply]]


class Stopping(NetworkError):
    """The bot is stopping: a call that would wait for a group's window is not made (the
    updates in hand must finish, and the HTTP clients close, before the process exits)."""


@dataclass(frozen=True)
class GroupRoom:
    """A group's window now: ``free`` calls fit at once, ``waiting``: a call waits for it (or is
    being let through), ``next_in``: seconds until one more call fits when none does."""

    free: int
    waiting: bool
    next_in: float


class _Window:
    """At most ``rate`` calls in any ``period`` seconds, counted where Telegram might see
    them: a call holds its place from the moment it is let through until ``period`` seconds
    after its answer came back (it reached Telegram somewhere in between, so a late call on
    a busy machine cannot squeeze two windows' worth into one of Telegram's)."""

    __slots__ = ("in_flight", "period", "rate", "times")

    def __init__(self, rate: int, period: float) -> None:
        self.rate, self.period = rate, period
        self.times: deque[float] = deque()  # when the answers of finished calls came
        self.in_flight = 0

    def wait(self, now: float) -> float | None:
        """Seconds until one more call fits (0: now; ``None``: when a call in flight ends)."""
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()
        if len(self.times) + self.in_flight < self.rate:
            return 0.0
        if not self.times:
            return None
        return self.times[0] + self.period - now

    def take(self) -> None:
        self.in_flight += 1

    def done(self, now: float) -> None:
        self.in_flight -= 1
        self.times.append(now)

    @property
    def idle(self) -> bool:
        return not self.times and not self.in_flight


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
        self._waiters: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pump: asyncio.TimerHandle | None = None
        self._stopping = asyncio.Event()

    def stop_waiting(self) -> None:
        """Stopping: calls waiting for a group's window (up to a minute) give up with
        ``Stopping``, those that may go at once still go."""
        self._stopping.set()

    async def initialize(self) -> None:
        self._stopping.clear()  # (started again after a stop)
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
        args: object,
        kwargs: dict[str, object],
        endpoint: str,
        data: dict[str, object],
        rate_limit_args: int | None,
    ) -> Reply:
        taken: list[_Window] = []
        chat_id = data.get("chat_id")
        if chat_id is not None:
            group = _group_of(chat_id)
            # Reading about a group (getChatMember: is the presser an admin?) puts nothing in
            # it: only the overall limit counts it, and a /abandon does not wait a minute.
            if group is not None and self._group_rate > 0 and not endpoint.startswith(READS):
                await self._group_slot(group, taken)
            else:
                await self._overall_slot(PRIORITY.get(), taken)
        try:
            return await self._inner.process_request(
                callback, args, kwargs, endpoint, data, rate_limit_args
            )
        finally:
            if taken:
                now = self._clock()
                for window in taken:
                    window.done(now)
                if self._waiters:
                    self._schedule(0.0)

    async def _group_slot(self, group: int | str, taken: list[_Window]) -> None:
        """One call at a time per group waits for the group's window, then the overall one."""
        lock = self._group_locks.get(group)
        if lock is None:
            lock = self._group_locks[group] = asyncio.Lock()
        window = self._groups.get(group)
        if window is None:
            window = self._groups[group] = _Window(self._group_rate, self._group_period)
        async with lock:
            while (delay := window.wait(self._clock())) != 0:
                if self._stopping.is_set():
                    raise Stopping(f"stopping: no room in the window of group {group}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), POLL if delay is None else delay)
            await self._overall_slot(PRIORITY.get(), taken)
            window.take()
            taken.append(window)
        self._forget_idle_groups()

    def group_room(self, chat_id: object) -> GroupRoom | None:
        """How much of a group's window is free now (``None``: not a group, or no group
        limit): inline play sends its deletions when they delay nothing a player waits for."""
        group = _group_of(chat_id)
        if group is None or self._group_rate <= 0:
            return None
        lock = self._group_locks.get(group)
        waiting = lock is not None and lock.locked()
        window = self._groups.get(group)
        if window is None:
            return GroupRoom(self._group_rate, waiting, 0.0)
        now = self._clock()
        delay = window.wait(now)  # (drops the calls older than the window)
        free = max(0, window.rate - len(window.times) - window.in_flight)
        return GroupRoom(free, waiting, POLL if delay is None else delay)

    def _forget_idle_groups(self) -> None:
        if len(self._groups) <= 1024:
            return
        now = self._clock()
        for key, window in list(self._groups.items()):
            lock = self._group_locks.get(key)
            if window.wait(now) == 0 and window.idle and not (lock and lock.locked()):
                self._groups.pop(key, None)
                self._group_locks.pop(key, None)

    async def _overall_slot(self, priority: int, taken: list[_Window]) -> None:
        window = self._overall
        if window is None:
            return
        if not self._waiters and window.wait(self._clock()) == 0:
            window.take()
            taken.append(window)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        deadline = self._clock() + ALLOWANCE.get(Priority(priority), 1.0)
        heapq.heappush(self._waiters, (deadline, next(self._order), waiter))
        self._schedule(0.0)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                window.done(self._clock())  # let through, then cancelled: give it back
            raise
        taken.append(window)

    def _schedule(self, delay: float) -> None:
        if self._pump is None:
            self._pump = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        """Let the most urgent waiters through while the overall window has room."""
        self._pump = None
        window = self._overall
        assert window is not None
        while self._waiters:
            delay = window.wait(self._clock())
            if delay is None:
                return  # the next call to end schedules another round
            if delay > 0:
                self._schedule(delay)
                return
            _, _, waiter = heapq.heappop(self._waiters)
            if waiter.done():  # its caller gave up (cancelled)
                continue
            window.take()
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
