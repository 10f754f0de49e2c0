"""Running the Discord bot inside Tavolo's one process (the composition root, ``bot.cli``, calls
``serve`` with the process's one :class:`bot.app.App`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from bot.discord.activity import CoalescedEdits, channel_guild_lookup
from bot.discord.bot import TavoloBot, sync_commands_once
from bot.discord.endpoint import point_library_at
from bot.discord.handler import DM_WISH, PLATFORM, TABLE_MESSAGE, FileIdMap, ServiceHandler
from bot.discord.sync import FileSyncState
from bot.service.ports import AdapterState

if TYPE_CHECKING:
    from bot.app import App
    from bot.config import Settings

logger = logging.getLogger(__name__)

SYNC_FILE = "discord-commands.sha256"
# Where the table-message index and DM wishes lived before the store kept them (migration 0004):
# read once into the store, then renamed so they are not read again.
MESSAGES_FILE = "discord-table-messages.json"
DM_USERS_FILE = "discord-dm-users.json"


class BotOptions(TypedDict, total=False):
    """How :func:`build_bot` builds this process's bot (see :func:`shard_options`)."""

    sync_on_start: bool
    shard_id: int
    shard_count: int


def build_bot(
    app: App,
    *,
    sync_on_start: bool = True,
    shard_id: int | None = None,
    shard_count: int | None = None,
) -> TavoloBot:
    """The bot for an ``App`` (service, renderer, settings, adapter state, pictures): its handler
    also receives the turn timers' results for Discord tables. ``shard_id`` of ``shard_count``:
    the shard this process is (``sync_on_start``: it uploads the slash commands)."""
    handler = ServiceHandler(
        app.service,
        app.renderer,
        state=app.state,
        pictures=app.pictures,
        presence=app.presence,
    )
    bot = TavoloBot(
        handler=handler,
        sync_state=FileSyncState(app.settings.data_dir / SYNC_FILE),
        sync_on_start=sync_on_start,
        shard_id=shard_id,
        shard_count=shard_count,
    )
    handler.bind(bot)
    # The web table as an Activity: its launch button (only when this process serves the web
    # table; who has a table open is in the process's presence: no mention for them).
    handler.activity = app.settings.activity_button and app.web is not None
    if app.web is not None:
        handler.table_edits = CoalescedEdits(app.settings.web_group_edit_seconds)
        if app.web.config.discord is not None:
            app.web.config.discord.channels.guild_of = channel_guild_lookup(bot)
    app.deliver_to(PLATFORM, handler.deliver)
    return bot


async def import_legacy_files(state: AdapterState, data_dir: Path) -> int:
    """Move the JSON files of earlier versions into the adapter state; returns entries moved."""
    moved = 0
    for name, kind in ((MESSAGES_FILE, TABLE_MESSAGE), (DM_USERS_FILE, DM_WISH)):
        path = data_dir / name
        if not path.exists():
            continue
        for key, value in FileIdMap(path).items():
            if kind == TABLE_MESSAGE:
                entry = {"message_id": value, "picture": None}
                await state.state_put(entry, platform=PLATFORM, kind=kind, scope="", table_id=key)
            else:
                await state.state_put(True, platform=PLATFORM, kind=kind, scope=str(key))
            moved += 1
        path.replace(path.with_name(path.name + ".imported"))
    if moved:
        logger.info("moved %s Discord entries from files into the database", moved)
    return moved


async def serve(app: App) -> None:
    """Connect to Discord and serve until ``app.stop`` is set (or the task is cancelled)."""
    token = app.settings.discord_token
    if token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    await import_legacy_files(app.state, app.settings.data_dir)
    await point_library_at(app.settings.discord_api_url, token.get_secret_value())
    bot = build_bot(app, **shard_options(app.settings))
    handler = bot.handler
    assert isinstance(handler, ServiceHandler)
    try:
        await bot.login(token.get_secret_value())
        connection = asyncio.create_task(bot.connect(reconnect=True), name="discord-gateway")
        stopping = asyncio.create_task(app.stop.wait(), name="discord-stop")
        try:
            done, _ = await asyncio.wait(
                {connection, stopping}, return_when=asyncio.FIRST_COMPLETED
            )
            if connection in done:
                connection.result()  # a fatal gateway error (a bad token...) surfaces here
        finally:
            # No new interaction is read from here on; those under way still send their
            # messages (the hand, the old hand's removal, an error reply) over the session.
            for task in (connection, stopping):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await finish_in_flight(handler, app.settings.shutdown_grace_seconds)
    finally:
        handler.closing = True
        await bot.close()


async def finish_in_flight(handler: ServiceHandler, grace: float) -> None:
    """Wait (at most ``grace`` seconds) for the interactions and deliveries under way."""
    if handler.in_flight.count:
        logger.info("Discord: waiting for %d interaction(s) under way", handler.in_flight.count)
    if not await handler.in_flight.wait_idle(grace):
        logger.warning(
            "Discord: %d interaction(s) still under way after %.0f s; closing anyway",
            handler.in_flight.count,
            grace,
        )


def shard_options(settings: Settings) -> BotOptions:
    """discord.py's sharding options from DISCORD_SHARD_COUNT / DISCORD_SHARD_ID: this process
    is one shard (only shard 0 uploads the slash commands)."""
    count = settings.discord_shard_count
    shard_id = settings.discord_shard_id
    if count is None or shard_id is None:
        return {}
    return {"shard_id": shard_id, "shard_count": count, "sync_on_start": shard_id == 0}


async def sync_commands_cli(token: str, data_dir: Path, *, force: bool = False) -> bool:
    """``python -m bot.discord sync``: upload the slash commands if they changed since the
    last sync (or ``force``), over REST only (no gateway connection)."""
    return await sync_commands_once(
        token, sync_state=FileSyncState(data_dir / SYNC_FILE), force=force
    )
