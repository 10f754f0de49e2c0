"""Fixtures: a fake Bot API server on 127.0.0.1 and settings pointing the real PTB at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.telegram.settings import TelegramSettings
from tests.fakes.telegram_api import FakeBotApi


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as server:
        yield server


@pytest.fixture
def settings(api: FakeBotApi) -> TelegramSettings:
    return TelegramSettings(token=api.token, api_url=api.url, poll_timeout=2, max_retries=3)
