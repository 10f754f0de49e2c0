"""Tavolo's command line and composition root: the ``tavolo`` console script and ``python -m bot``
(``bot/__main__.py`` only calls :func:`main`).

Everything is built here and injected: settings -> store (migrated) -> service -> renderer ->
front ends. ``tavolo run`` (the default) serves the configured bots, or, with no Telegram/Discord
token, starts terminal play.

Adapters plug in through one function each: ``bot.telegram.serve(app)`` and
``bot.discord.serve(app)``, ``async`` and running until ``app.stop`` is set, where ``app`` is an
:class:`App` (settings, service, renderer, stop event). An adapter registers a delivery function
with ``app.deliver_to(platform, fn)`` so that events produced by the turn timers (which run
here, once per process) reach its platform: ``fn(result)`` is awaited for every timer result
whose table is on that platform.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import importlib
import io
import json
import logging
import os
import signal
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from bot.config import BadSetting, Settings, load_settings
from bot.observability import (
    Metrics,
    ObservedService,
    check_database,
    configure_logging,
    live_tables,
    serve_http,
)
from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import (
    ComputerPlayers,
    Result,
    TableService,
    TimerSettings,
    UserRef,
    archive,
    default_registry,
)
from bot.service.players import default_processes
from bot.store import Store, StoreError

logger = logging.getLogger("bot")

Delivery = Callable[[Result], Awaitable[None]]


@dataclass
class App:
    """What the composition root hands to every front end."""

    settings: Settings
    service: TableService
    renderer: Renderer
    stop: asyncio.Event
    deliveries: dict[str, Delivery] = field(default_factory=dict)

    def deliver_to(self, platform: str, fn: Delivery) -> None:
        self.deliveries[platform] = fn


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_program(),
        description="Tavolo: Scopa, Scopone, Scala 40 and Briscola on Telegram, Discord or in the "
        "terminal. With no command: serve the bots whose tokens are set, or, with no token, "
        "play in the terminal (the saved game, else Scopa). Settings come from the environment "
        "and .env (see .env.example).",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="with no command and no token: deal a new Scopa game instead of resuming the saved "
        "one (play GAME --new: another game)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser(
        "run",
        help="serve the Telegram/Discord bots whose tokens are set; with no token, play in "
        "the terminal (the default command)",
    )
    play = sub.add_parser(
        "play",
        help="play in the terminal against the computer (resumes the saved game)",
        description="Play in the terminal against computer players. The game is saved after "
        "every move: quitting and running again resumes it.",
        epilog="At the table: type the number of a move, or the move as it is shown (7♦); "
        "h shows the game's help, v the table, q quits; Ctrl-C and Ctrl-D leave too. The "
        "language is the system's (LANG), or DEFAULT_LOCALE (it, en) when set.",
    )
    play.add_argument(
        "game",
        nargs="?",
        default=None,
        help="scopa, scopone, scientifico, scala40, briscola or chiamata (default: the saved "
        "game, else scopa)",
    )
    play.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of players at the table, you included (default: the game's usual "
        "number: Scopa 2, Scopone 4, Scala 40 2, Briscola 2, chiamata 5)",
    )
    play.add_argument(
        "--level",
        choices=("easy", "medium", "hard"),
        default="easy",
        help="strength of the computer players (default: easy)",
    )
    play.add_argument(
        "--new", action="store_true", help="abandon the saved game and deal a new one"
    )
    play.add_argument(
        "--name",
        default=None,
        help="your name at the table (asked on the first run, then remembered)",
    )
    sub.add_parser(
        "simulate",
        help="computer-vs-computer games for measuring the computer players "
        f"({_program()} simulate --help: its options)",
        add_help=False,
    )
    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    db_sub.add_parser("upgrade", help="apply the database migrations (also done at start-up)")
    backup = db_sub.add_parser(
        "backup",
        help="copy the SQLite database to PATH while the bot runs (SQLite's online backup)",
    )
    backup.add_argument("path", help="the backup file to write")
    restore = db_sub.add_parser(
        "restore", help="replace the SQLite database with the backup at PATH (stop the bot first)"
    )
    restore.add_argument("path", help="the backup file to restore")
    export = sub.add_parser(
        "export-game", help="print a game's move log, seed and rules as JSON (replayable)"
    )
    export.add_argument("table_id", type=int)
    replay = sub.add_parser(
        "replay",
        help="replay an exported game (export-game's JSON) with the engine and print the result",
        description="Load a move log written by export-game, replay every move with the rules "
        "engine and print the final score; exit 1 if a move is illegal or the result differs "
        "from the one recorded.",
    )
    replay.add_argument("file", help="the JSON file ('-' = standard input)")
    imported = sub.add_parser(
        "import",
        help="store a game written by export-game in this database, as a table of its own",
        description="Check a file written by export-game (its digest, every field) and replay "
        "every move with the rules engine, then store the game in the configured database in "
        "one transaction, under a new table id, in the same chat and with the same players. "
        "A finished game counts in the results, leaderboards and ratings once; an ongoing "
        "game can be resumed here. A game already in the database is not imported again. "
        "Ratings move in import order: import several games in the order they were played. "
        "Exit 0 when imported or already there; 1, with one line saying why and nothing "
        "written, when refused.",
    )
    imported.add_argument("file", help="the JSON file ('-' = standard input)")
    imported.add_argument(
        "--chat",
        metavar="CHAT_ID",
        default=None,
        help="store the game in this chat of the same platform instead of the file's (e.g. a "
        "Telegram group that became a supergroup and got a new id)",
    )
    discord = sub.add_parser("discord", help="Discord maintenance")
    discord_sub = discord.add_subparsers(
        dest="discord_command", metavar="DISCORD_COMMAND", required=True
    )
    sync = discord_sub.add_parser(
        "sync-commands",
        help="upload the slash commands if they changed since the last upload",
    )
    sync.add_argument("--force", action="store_true", help="upload even if unchanged")
    sub.add_parser(
        "health",
        help="exit 0 if the database answers and (with METRICS_PORT set) the running "
        "process's /health says ok; the Docker HEALTHCHECK",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["simulate"]:
        # Everything after the word is bot.simulate's own command line (its --help too).
        return _simulate(arguments[1:])
    args = build_parser().parse_args(arguments)
    try:
        settings = load_settings()
    except BadSetting as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 2
    command = args.command or "run"
    serving = command == "run" and settings.has_bot_token
    configure_logging(
        # Only a serving bot logs its progress: at the keyboard, and for one-off commands
        # (export-game, db...), only warnings interrupt, unless LOG_LEVEL asks for more.
        settings.log_level or ("INFO" if serving else "WARNING"),
        settings.log_format,
        secrets=_secrets(settings),
    )
    try:
        if command == "db" and args.db_command in ("backup", "restore"):
            return _db_copy(settings, args.db_command, args.path)
        if command == "db":
            return asyncio.run(_db_upgrade(settings))
        if command == "export-game":
            return asyncio.run(_export(settings, args.table_id))
        if command == "replay":
            return _replay(args.file)
        if command == "import":
            return asyncio.run(_import(settings, args.file, chat_id=args.chat))
        if command == "health":
            return asyncio.run(_health(settings))
        if command == "discord":
            return _discord_sync(settings, force=args.force)
        if command == "play":
            return _at_the_keyboard(
                _play(
                    settings,
                    args.game,
                    players=args.players,
                    level=args.level,
                    new=args.new,
                    name=args.name,
                ),
                process=argv is None,
            )
        if not settings.has_bot_token:
            logger.info("no TELEGRAM_TOKEN or DISCORD_TOKEN: playing in the terminal")
            return _at_the_keyboard(
                _play(settings, None, players=None, level="easy", new=args.new, name=None),
                process=argv is None,
            )
        return asyncio.run(_serve(settings))
    except StoreError as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _at_the_keyboard(play: Coroutine[Any, Any, int], *, process: bool) -> int:
    """Run terminal play; Ctrl-C ends it with 130. As the process's own command line
    (``process``), leave at once when it ends: every move is committed, the database closed and
    the last words printed, and tearing the interpreter down can take the best part of a second
    on a busy machine while the player waits for their prompt back."""
    try:
        code = asyncio.run(play)
    except KeyboardInterrupt:
        code = 130
    if process:
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os._exit(code)
    return code


async def _open_store(settings: Settings) -> Store:
    store = Store.open(settings.url, sqlite_synchronous=settings.sqlite_synchronous)
    try:
        await store.upgrade()
    except Exception as exc:
        await store.close()
        raise StoreError(f"cannot open the database: {type(exc).__name__}: {exc}") from exc
    return store


def _service(settings: Settings, store: Store, *, timers: bool, processes: int = 0) -> TableService:
    return TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(processes=processes),
        timers=TimerSettings(
            reminder=settings.turn_reminder_seconds if timers else 0.0,
            autoplay=settings.turn_timeout_seconds,
            takeover_after=settings.idle_turns_before_takeover,
            takeover_level=settings.takeover_level,
            claim_lease=settings.timer_lease_seconds,
            chat_timers=timers,
            lobby=settings.lobby_timeout,
        ),
        default_locale=settings.default_locale,
        cache_size=settings.max_cached_tables,
        season=settings.season,
    )


async def _db_upgrade(settings: Settings) -> int:
    store = await _open_store(settings)
    await store.close()
    print("database is up to date")
    return 0


def _db_copy(settings: Settings, command: str, path: str) -> int:
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


async def _export(settings: Settings, table_id: int) -> int:
    store = await _open_store(settings)
    try:
        service = _service(settings, store, timers=False)
        try:
            data = await service.export_game(table_id)
        except Exception:
            print(f"tavolo: no table {table_id}", file=sys.stderr)
            return 1
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    finally:
        await store.close()


async def _play(
    settings: Settings,
    game: str | None,
    *,
    players: int | None,
    level: str,
    new: bool,
    name: str | None,
) -> int:
    from bot.terminal import DaemonThreads, LineReader, TerminalPlay

    # A computer still thinking when the player presses Ctrl-C must not hold the exit.
    asyncio.get_running_loop().set_default_executor(DaemonThreads())
    for stream in (sys.stdin, sys.stdout):
        # A byte the terminal's encoding cannot read, or a suit it cannot show, is replaced
        # rather than ending the game (a decode error would read as the end of input).
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    store = await _open_store(settings)
    try:
        # No timers at the keyboard: the player may think as long as they like.
        service = _service(settings, store, timers=False)
        renderer = Renderer(Catalogs(default=settings.default_locale))
        user_id = _login()
        locale = terminal_locale(settings, os.environ)
        user = UserRef("terminal", user_id, name or user_id, locale)
        names = _NameBook(store, user_id) if name is None else None
        terminal = TerminalPlay(
            service,
            renderer,
            user=user,
            read=LineReader(sys.stdin).readline,
            out=sys.stdout,
            resume_command=_program(),
            names=names,
            ask_name=sys.stdin.isatty(),
        )
        if name is not None:
            await _NameBook(store, user_id).put(name)
        return await terminal.run(game, players=players, level=level, new=new)
    finally:
        await store.close()


class _NameBook:
    """The terminal player's name, kept in the store between runs."""

    def __init__(self, store: Store, user_id: str) -> None:
        self.store = store
        self.user_id = user_id

    async def get(self) -> str | None:
        value = await self.store.state_get(platform="terminal", kind="name", scope=self.user_id)
        return str(value) if isinstance(value, str) and value else None

    async def put(self, name: str) -> None:
        await self.store.state_put(name, platform="terminal", kind="name", scope=self.user_id)


def terminal_locale(settings: Settings, environ: Mapping[str, str]) -> str:
    """The terminal's language: DEFAULT_LOCALE when it is set, else the system's (LC_ALL,
    LC_MESSAGES, LANG: Italian for it_*, English for any other language, the default for C)."""
    if "default_locale" in settings.model_fields_set:
        return settings.default_locale
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        language = value.split(".", 1)[0].split("_", 1)[0].lower()
        if language in ("c", "posix"):
            break
        return "it" if language == "it" else "en"
    return settings.default_locale


def _program() -> str:
    """How the player started us, to say how to resume: ``tavolo`` or ``python -m bot``."""
    return "tavolo" if Path(sys.argv[0]).stem == "tavolo" else "python -m bot"


def _login() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "player"


async def _serve(settings: Settings) -> int:
    store = await _open_store(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    metrics = Metrics()
    metrics.gauges["tavolo_live_tables"] = lambda: live_tables(store)
    processes = settings.computer_processes
    inner = _service(
        settings,
        store,
        timers=True,
        processes=default_processes() if processes is None else processes,
    )
    observed = ObservedService(inner, metrics)
    service = cast(TableService, observed)
    app = App(settings, service, Renderer(Catalogs(default=settings.default_locale)), stop)
    adapters = []
    if settings.telegram_token is not None:
        adapters.append("bot.telegram")
    if settings.discord_token is not None:
        adapters.append("bot.discord")
    http: asyncio.Server | None = None
    started = time.time()
    try:
        if settings.metrics_port:

            async def health() -> dict[str, object]:
                try:
                    await check_database(store)
                except Exception as exc:
                    return {"ok": False, "database": type(exc).__name__}
                return {
                    "ok": not stop.is_set(),
                    "database": "ok",
                    "uptime_seconds": round(time.time() - started, 1),
                    "in_flight": observed.in_flight,
                }

            http = await serve_http(
                host=settings.metrics_listen,
                port=settings.metrics_port,
                metrics=metrics,
                health=health,
            )
            logger.info(
                "metrics and health on http://%s:%s/metrics, /health",
                settings.metrics_listen,
                settings.metrics_port,
                extra={"event": "http_started"},
            )
        tasks = []
        for name in adapters:
            try:
                module = importlib.import_module(name)
                serve = module.serve
            except (ImportError, AttributeError) as exc:
                print(f"tavolo: the {name} adapter is not available: {exc}", file=sys.stderr)
                return 2
            tasks.append(asyncio.create_task(serve(app), name=name))
        tasks.append(asyncio.create_task(_timers(app), name="timers"))
        logger.info("serving %s", ", ".join(adapters), extra={"event": "started"})
        await _until_stop_or_failure(stop, tasks)
        await _shut_down(app, observed, tasks)
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        for task in failed:
            logger.error("%s stopped: %r", task.get_name(), task.exception())
        return 1 if failed else 0
    finally:
        if http is not None:
            http.close()
        await inner.computers.aclose()
        await store.close()
        logger.info("database closed", extra={"event": "stopped"})


async def _until_stop_or_failure(stop: asyncio.Event, tasks: list[asyncio.Task[None]]) -> None:
    """Wait for SIGTERM/SIGINT, or for an adapter to die (a bad token, say)."""
    waiter = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    stop.set()


async def _shut_down(app: App, observed: ObservedService, tasks: list[asyncio.Task[None]]) -> None:
    """Graceful stop: the adapters stop taking updates on their own (they watch ``app.stop``),
    the calls in flight finish and commit, and only then is anything cancelled."""
    grace = app.settings.shutdown_grace_seconds
    logger.info("stopping: %d call(s) in flight", observed.in_flight, extra={"event": "stopping"})
    _, pending = await asyncio.wait(tasks, timeout=grace)
    if not await observed.wait_idle(grace):
        logger.warning("%d call(s) still in flight after %.0f s", observed.in_flight, grace)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _timers(app: App) -> None:
    """Fire due turn timers every few seconds and hand the events to the adapters."""
    while not app.stop.is_set():
        try:
            for result in await app.service.fire_due_timers():
                platform = result.table.platform if result.table is not None else None
                deliver = app.deliveries.get(platform or "")
                if deliver is not None:
                    await deliver(result)
        except Exception:
            logger.exception("turn timers failed; retrying")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(app.stop.wait(), app.settings.timer_interval_seconds)


def _secrets(settings: Settings) -> list[str]:
    """Every configured secret, for the log redaction."""
    found = [settings.telegram_token, settings.discord_token, settings.telegram_webhook_secret]
    secrets = [s.get_secret_value() for s in found if s is not None]
    if settings.database_url and "@" in settings.database_url:
        with contextlib.suppress(Exception):
            from sqlalchemy.engine import make_url

            password = make_url(settings.database_url).password
            if password:
                secrets.append(str(password))
    return secrets


def _simulate(argv: Sequence[str]) -> int:
    try:
        simulate = importlib.import_module("bot.simulate")
    except ImportError as exc:
        if exc.name not in ("bot.simulate", None):
            raise
        print(
            "tavolo: simulate is not available in this build (the module bot.simulate is missing)",
            file=sys.stderr,
        )
        return 2
    return int(simulate.main(list(argv)))


def _discord_sync(settings: Settings, *, force: bool) -> int:
    if settings.discord_token is None:
        print("tavolo: DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    from bot.discord.app import sync_commands_cli

    synced = asyncio.run(
        sync_commands_cli(settings.discord_token.get_secret_value(), settings.data_dir, force=force)
    )
    print("synced" if synced else "unchanged: not synced")
    return 0


def _replay(file: str) -> int:
    """Replay an exported move log with the engine; print the final score."""
    try:
        summary = replay_export(_read_json(file))
    except (OSError, ValueError) as exc:
        print(f"tavolo: cannot replay {file}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if summary["matches_record"] is not False else 1


def replay_export(data: dict[str, Any]) -> dict[str, Any]:
    """The final state of an export-game document replayed with the engine: ``ValueError``
    naming the move when one is illegal. ``matches_record`` is whether the replayed outcome
    agrees with the stored result (None when the game had none)."""
    return archive.replay(data, default_registry()).summary


async def _import(settings: Settings, file: str, *, chat_id: str | None) -> int:
    """Check, replay and store an exported game (one transaction); one line either way."""
    try:
        document = _read_json(file)
    except (OSError, ValueError) as exc:
        print(f"tavolo: cannot import {file}: {exc}", file=sys.stderr)
        return 1
    store = await _open_store(settings)
    try:
        service = _service(settings, store, timers=True)
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


def _read_json(file: str) -> Any:
    """A JSON file (``-`` = standard input); ``ValueError`` saying it is not JSON."""
    text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None


async def _health(settings: Settings) -> int:
    """The database answers; with METRICS_PORT set, the running process says it is healthy."""
    try:
        store = Store.open(settings.url, sqlite_synchronous=settings.sqlite_synchronous)
        try:
            await asyncio.wait_for(check_database(store), 10)
        finally:
            await store.close()
    except Exception as exc:
        print(f"unhealthy: database: {type(exc).__name__}", file=sys.stderr)
        return 1
    if settings.metrics_port:
        host = settings.metrics_listen
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        url = f"http://{host}:{settings.metrics_port}/health"
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
