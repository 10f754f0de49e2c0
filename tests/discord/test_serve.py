"""``bot.discord.serve(app)`` as the composition root calls it, and the CLI sync, against the
fake Discord: connect, play a command, stop on ``app.stop``; sync only when changed."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

import bot.discord
from bot.app import App
from bot.cli.compose import build_app
from bot.config import Settings
from bot.discord.app import (
    DM_USERS_FILE,
    MESSAGES_FILE,
    SYNC_FILE,
    import_legacy_files,
    sync_commands_cli,
)
from bot.service import (
    ChatRef,
    ComputerPlayers,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
from bot.store import Store
from tests.fakes.discord_api import FakeDiscord, StoredMessage


async def _app(tmp_path: Path, token: str) -> tuple[App, Store]:
    store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}")
    await store.upgrade()
    service = TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(),
        timers=TimerSettings(reminder=0),
    )
    settings = Settings(discord_token=SecretStr(token), data_dir=tmp_path)  # type: ignore[call-arg]
    return build_app(settings, store=store, service=service, stop=asyncio.Event()), store


async def test_serve_connects_plays_and_stops(fake: FakeDiscord, tmp_path: Path) -> None:
    app, store = await _app(tmp_path, fake.token)
    alice = fake.add_user("alice")
    try:
        task = asyncio.create_task(bot.discord.serve(app))
        await fake.wait_until(lambda: fake.identifies == 1 and bool(fake.global_commands), 10)
        assert "discord" in app.deliveries
        await asyncio.sleep(0.2)  # READY, then the guild (guild_ready_timeout is 2 s by default)
        record = await fake.slash(alice, "scopa", computers=1)
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        assert (tmp_path / SYNC_FILE).exists() and not (tmp_path / MESSAGES_FILE).exists()
        # the table message is indexed in the database (migration 0004), not in a file
        table_id = int(record.original.custom_ids()[0].split(":", 1)[0])
        entry = await store.state_get(platform="discord", kind="table", scope="", table_id=table_id)
        assert entry is not None and entry["message_id"] == record.original.id
        app.stop.set()
        await asyncio.wait_for(task, 10)
    finally:
        await store.close()
    assert fake.command_overwrites == 1


async def test_cli_sync_only_when_changed(fake: FakeDiscord, tmp_path: Path) -> None:
    assert await sync_commands_cli(fake.token, tmp_path) is True
    assert await sync_commands_cli(fake.token, tmp_path) is False
    assert await sync_commands_cli(fake.token, tmp_path, force=True) is True
    assert fake.command_overwrites == 2 and fake.identifies == 0


def test_cli_needs_a_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.discord.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["sync"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


async def test_legacy_json_files_move_into_the_store(tmp_path: Path) -> None:
    store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}")
    await store.upgrade()
    try:
        (tmp_path / MESSAGES_FILE).write_text('{"7": 700, "8": 800}', encoding="utf-8")
        (tmp_path / DM_USERS_FILE).write_text('{"42": 1}', encoding="utf-8")
        assert await import_legacy_files(store, tmp_path) == 3
        assert await import_legacy_files(store, tmp_path) == 0  # renamed: read once
        entry = await store.state_get(platform="discord", kind="table", scope="", table_id=8)
        assert entry == {"message_id": 800, "picture": None}
        assert await store.state_get(platform="discord", kind="dm", scope="42") is True
        assert not (tmp_path / MESSAGES_FILE).exists()
    finally:
        await store.close()


async def test_a_stop_right_after_a_press_waits_for_the_messages_it_started(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM just after "My hand" was answered: the new hand is shown and the old one deleted
    before the HTTP session closes (no ``Session is closed``, no ``Connector is closed``)."""
    caplog.set_level(logging.WARNING)
    app, store = await _app(tmp_path, fake.token)
    alice = fake.add_user("alice")
    try:
        task = asyncio.create_task(bot.discord.serve(app))
        await fake.wait_until(lambda: fake.identifies == 1 and bool(fake.global_commands), 10)
        await asyncio.sleep(0.2)  # READY, then the guild
        record = await fake.slash(alice, "scopa", computers=1)
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        table = record.original
        assert table is not None
        start = await fake.click(alice, table, _action(table, "@start"))
        await start.wait_for(lambda r: "@hand" in str(fake.messages[table.id].custom_ids()))
        first = await fake.click(alice, fake.messages[table.id], _action(table, "@hand"))
        await first.wait_for(lambda r: any(m.ephemeral for m in r.followups))
        old_hand = first.followups[-1].id
        # the hand the start showed is gone: one hand message left
        await fake.wait_until(lambda: sum(m.ephemeral for m in fake.messages.values()) == 1, 10)
        # Discord is slow to delete the old hand: the stop comes while that call is out.
        slow = fake.hold("DELETE", r"/webhooks/\d+/[^/]+/messages/\d+")
        again = await fake.click(alice, fake.messages[table.id], _action(table, "@hand"))
        await again.wait_answer()
        await asyncio.wait_for(slow.arrived.wait(), 10)
        app.stop.set()
        await asyncio.sleep(0.3)
        slow.release.set()
        await asyncio.wait_for(task, 15)
        assert any(m.ephemeral for m in again.followups)  # the new hand
        assert old_hand not in fake.messages  # and the old one deleted, before the close
        # A turn timer's result arriving after the close is not sent over the closed session.
        table_id = int(table.custom_ids()[0].split(":", 1)[0])
        late = await app.service.show(
            ChatRef("discord", str(fake.channel_id)),
            UserRef("discord", str(alice.id), "alice"),
            table_id,
        )
        assert late.events
        await app.deliveries["discord"](late)
    finally:
        await store.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], errors


def _action(message: StoredMessage, action: str) -> str:
    return next(c for c in message.custom_ids() if c.split(":", 2)[2] == action)
