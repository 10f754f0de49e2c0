"""The one-off commands: database maintenance, export, replay and import of games, the health
check, Discord's command upload and the simulations."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.cli.compose import build_service, open_store
from bot.config import Settings
from bot.domain.records import JSON, JSONObject
from bot.observability import check_database
from bot.service import archive, default_registry
from bot.store import Store

__all__ = [
    "db_copy",
    "db_upgrade",
    "discord_sync",
    "export",
    "health",
    "import_file",
    "replay",
    "replay_export",
    "simulate",
]


async def db_upgrade(settings: Settings) -> int:
    """``db upgrade``: apply the migrations."""
    store = await open_store(settings)
    await store.close()
    print("database is up to date")
    return 0


def db_copy(settings: Settings, command: str, path: str) -> int:
    """``db backup PATH`` / ``db restore PATH`` for the SQLite database (PostgreSQL has pg_dump)."""
    from bot.store.backup import BackupError, backup_sqlite, restore_sqlite

    if settings.database_url:
        print("tavolo: db backup/restore is for SQLite; use pg_dump/pg_restore", file=sys.stderr)
        return 2
    database = settings.sqlite_path
    try:
        if command == "backup":
            written = backup_sqlite(database, path)
            print(f"backed up {database} to {written}")
        else:
            restored = restore_sqlite(path, database)
            print(f"restored {restored} from {path}")
    except (BackupError, OSError) as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 1
    return 0


async def export(settings: Settings, table_id: int) -> int:
    """``export-game``: print a table's move log, seed and rules as JSON."""
    store = await open_store(settings)
    try:
        service = build_service(settings, store, timers=False)
        try:
            data = await service.export_game(table_id)
        except Exception:
            print(f"tavolo: no table {table_id}", file=sys.stderr)
            return 1
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    finally:
        await store.close()


def simulate(argv: Sequence[str]) -> int:
    """``simulate``: ``bot.simulate``'s own command line."""
    try:
        module = importlib.import_module("bot.simulate")
    except ImportError as exc:
        if exc.name not in ("bot.simulate", None):
            raise
        print(
            "tavolo: simulate is not available in this build (the module bot.simulate is missing)",
            file=sys.stderr,
        )
        return 2
    return int(module.main(list(argv)))


def discord_sync(settings: Settings, *, force: bool) -> int:
    """``discord sync-commands``: upload the slash commands if they changed (or ``force``)."""
    if settings.discord_token is None:
        print("tavolo: DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    from bot.discord.app import sync_commands_cli

    synced = asyncio.run(
        sync_commands_cli(settings.discord_token.get_secret_value(), settings.data_dir, force=force)
    )
    print("synced" if synced else "unchanged: not synced")
    return 0


def replay(file: str) -> int:
    """Replay an exported move log with the engine; print the final score."""
    try:
        summary = replay_export(_read_document(file, not_object=NOT_REPLAYABLE))
    except (OSError, ValueError) as exc:
        print(f"tavolo: cannot replay {file}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if summary["matches_record"] is not False else 1


def replay_export(data: Mapping[str, JSON]) -> Mapping[str, object]:
    """The final state of an export-game document replayed with the engine: ``ValueError``
    naming the move when one is illegal. ``matches_record`` is whether the replayed outcome
    agrees with the stored result (None when the game had none)."""
    return archive.replay(data, default_registry()).summary


async def import_file(settings: Settings, file: str, *, chat_id: str | None) -> int:
    """Check, replay and store an exported game (one transaction); one line either way."""
    try:
        document = _read_document(file, not_object=NOT_IMPORTABLE)
    except (OSError, ValueError) as exc:
        print(f"tavolo: cannot import {file}: {exc}", file=sys.stderr)
        return 1
    store = await open_store(settings)
    try:
        service = build_service(settings, store, timers=True)
        try:
            done = await service.import_game(document, chat_id=chat_id)
        except archive.GameFileError as exc:
            print(f"tavolo: cannot import {file}: {exc}", file=sys.stderr)
            return 1
    finally:
        await store.close()
    if not done.created:
        print(f"already imported as table {done.table_id}: nothing written")
    else:
        rated = len({(c.platform, c.user_id) for c in done.rating_changes})
        print(
            f"imported as table {done.table_id} ({done.status}"
            + (f", {rated} player rating(s) updated)" if done.status == "finished" else ")")
        )
    return 0


# A JSON file that is not an object, in the words of archive.replay's and archive.read's checks.
NOT_REPLAYABLE = "not an export-game document (no move list)"
NOT_IMPORTABLE = "not an export-game document (not a JSON object)"


def _read_document(file: str, *, not_object: str) -> JSONObject:
    """An export-game document: a JSON file (``-`` = standard input) holding an object;
    ``ValueError`` saying it is not JSON, or ``not_object``."""
    text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    try:
        document: JSON = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise ValueError(not_object)
    return document


async def health(settings: Settings) -> int:
    """The database answers; with METRICS_PORT (else WEB_PORT) set, the running process says it
    is healthy."""
    try:
        store = Store.open(settings.url, sqlite_synchronous=settings.sqlite_synchronous)
        try:
            await asyncio.wait_for(check_database(store), 10)
        finally:
            await store.close()
    except Exception as exc:
        print(f"unhealthy: database: {type(exc).__name__}", file=sys.stderr)
        return 1
    port, host = settings.metrics_port, settings.metrics_listen
    if not port and settings.web_port:
        port, host = settings.web_port, settings.web_listen
    if port:
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        url = f"http://{host}:{port}/health"
        try:
            body = await asyncio.to_thread(_fetch, url)
        except (OSError, urllib.error.URLError) as exc:
            print(f"unhealthy: {url}: {exc}", file=sys.stderr)
            return 1
        print(body)
        return 0
    print("healthy: database ok")
    return 0


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode())
