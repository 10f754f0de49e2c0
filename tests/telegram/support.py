"""Helpers shared by the Telegram tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram.ext import AIORateLimiter

from bot.telegram.app import TelegramRunner


def fast_rate_limiter() -> AIORateLimiter:
    """PTB's limiter with the flood limits off but its RetryAfter retries on.

    A game sends more than Telegram's 20 group messages a minute; the fake server does not
    mind, and the tests must not wait minutes for the limiter.
    """
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)


@asynccontextmanager
async def running(runner: TelegramRunner) -> AsyncIterator[TelegramRunner]:
    """Start the runner and always stop it, so no poller outlives its test."""
    await runner.start()
    try:
        yield runner
    finally:
        await runner.stop()
