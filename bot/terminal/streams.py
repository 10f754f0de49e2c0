"""The terminal's input and threads: lines read in daemon threads, and an executor of daemon
threads for the event loop, so that Ctrl-C never waits for Enter or for a computer thinking."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Callable
from typing import ParamSpec, TextIO, TypeVar

__all__ = ["DaemonThreads", "LineReader"]

_P = ParamSpec("_P")
_T = TypeVar("_T")


class LineReader:
    """Lines of a text stream, each read in a daemon thread: Ctrl-C never waits for Enter, and
    a pending read never keeps the process alive."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    async def readline(self) -> str | None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()

        def deliver(line: str | None) -> None:
            if not future.done():
                future.set_result(line)

        def work() -> None:
            try:
                line = self.stream.readline()
            except (OSError, ValueError):
                line = ""
            with contextlib.suppress(RuntimeError):  # the loop is closed: the player left
                loop.call_soon_threadsafe(deliver, line or None)

        threading.Thread(target=work, name="tavolo-stdin", daemon=True).start()
        return await future


class DaemonThreads(concurrent.futures.ThreadPoolExecutor):
    """An executor whose every call runs in a daemon thread of its own, for the event loop of
    terminal play: a computer still thinking when the player presses Ctrl-C is abandoned (its
    move was never committed) instead of holding the process until it has chosen. (asyncio
    takes only a ThreadPoolExecutor as the default; its pool of non-daemon threads is unused.)"""

    def submit(
        self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> concurrent.futures.Future[_T]:
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the awaiting coroutine
                future.set_exception(exc)

        threading.Thread(target=work, name="tavolo-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: the threads are daemons."""
