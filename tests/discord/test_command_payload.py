"""The slash commands as Discord receives them are pinned: names, options, descriptions, choices,
permissions and Italian localizations, in order, both from the serving bot and from the CLI's
REST-only sync. A change here is a change users see (and a re-sync on the next start): make it
on purpose, then write the new payload with ``python -m tests.discord.test_command_payload``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.discord.bot import TavoloBot, sync_commands_once
from bot.discord.handler import ServiceHandler
from bot.discord.sync import MemorySyncState, tree_fingerprint
from bot.render import Renderer
from bot.service import ComputerPlayers, TableService, TimerSettings, default_registry
from bot.store import Store
from tests.discord.conftest import running
from tests.fakes.discord_api import FakeDiscord

PAYLOAD = Path(__file__).with_name("command_payload.json")
# The fingerprint of the pinned commands: a deployed bot that synced them does not sync again.
FINGERPRINT = "e98d6f18945987bd9a08319a9222485a3144236b3167fe2d1439566e3ccc7b64"
# What the fake adds to each stored command (Discord's ids and version).
ASSIGNED = ("id", "application_id", "version")


def uploaded(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The commands of the last sync, as the bot sent them."""
    return [{k: v for k, v in c.items() if k not in ASSIGNED} for c in fake.global_commands]


def pinned() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = json.loads(PAYLOAD.read_text(encoding="utf-8"))
    return loaded


async def test_the_serving_bot_uploads_the_pinned_commands(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}")
    await store.upgrade()
    try:
        service = TableService(
            store,
            registry=default_registry(),
            computers=ComputerPlayers(),
            timers=TimerSettings(reminder=0),
        )
        handler = ServiceHandler(service, Renderer(), state=store)
        bot = TavoloBot(handler=handler, sync_state=MemorySyncState(), guild_ready_timeout=0.05)
        handler.bind(bot)
        async with running(bot, fake):
            assert fake.command_overwrites == 1
            served = uploaded(fake)
            fingerprint = await tree_fingerprint(bot.tree)
    finally:
        await store.close()
    assert served == pinned()
    assert fingerprint == FINGERPRINT


async def test_the_cli_sync_uploads_the_pinned_commands(fake: FakeDiscord) -> None:
    state = MemorySyncState()
    assert await sync_commands_once(fake.token, **_cli_kwargs(state)) is True
    assert uploaded(fake) == pinned()


def _cli_kwargs(state: MemorySyncState) -> dict[str, Any]:
    return {"sync_state": state}


async def _write() -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        import pytest

        with pytest.MonkeyPatch.context() as patch:
            fake.patch_client_urls(patch)
            await sync_commands_once(fake.token, **_cli_kwargs(MemorySyncState()))
        text = json.dumps(uploaded(fake), indent=1, ensure_ascii=False, sort_keys=True)
        PAYLOAD.write_text(text + "\n", encoding="utf-8")
    finally:
        await fake.stop()


if __name__ == "__main__":
    asyncio.run(_write())
