"""Fixtures: a started fake Discord with discord.py pointed at it, and a way to run a client."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator

import discord
import pytest

from tests.fakes.discord_api import FakeDiscord

READY_TIMEOUT = 10.0


@pytest.fixture(autouse=True)
def no_library_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """discord.py logs and swallows exceptions raised in callbacks: make them fail the test."""
    caplog.set_level(logging.WARNING, logger="discord")
    yield
    errors = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith(("discord", "bot.discord")) and r.levelno >= logging.ERROR
    ]
    assert errors == [], errors


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    server.patch_client_urls(monkeypatch)
    try:
        yield server
    finally:
        await server.stop()
    assert server.violations == [], f"Discord would have refused: {server.violations}"


@contextlib.asynccontextmanager
async def running(client: discord.Client, fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """Log ``client`` in to the fake, connect it, wait for READY, and close it afterwards."""
    await client.login(fake.token)
    task = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), READY_TIMEOUT)
        yield client
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
            await asyncio.wait_for(task, READY_TIMEOUT)
