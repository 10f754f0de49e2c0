"""Tavolo's composition root: ``python -m bot`` and the ``tavolo`` console script.

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
import json
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot.config import BadSetting, Settings, load_settings
from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import (
    ComputerPlayers,
    Result,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
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
        prog="tavolo",
        description="Tavolo: Scopa, Scopone and Scala 40 on Telegram, Discord or in the "
        "terminal. Settings come from the environment and .env (see .env.example).",
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
    )
    play.add_argument(
        "game",
        nargs="?",
        default="scopa",
        help="scopa, scopone, scientifico or scala40 (default: scopa)",
    )
    play.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of seats (default: the game's usual number)",
    )
    play.add_argument(
        "--level",
        choices=("easy", "medium", "hard"),
        default="easy",
        help="strength of the computer players (default: easy)",
    )
    play.add_argument("--new", action="store_true", help="abandon the saved game, start anew")
    play.add_argument("--name", default=None, help="your name at the table")
    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    db_sub.add_parser("upgrade", help="apply the database migrations (also done at start-up)")
    export = sub.add_parser(
        "export-game", help="print a game's move log, seed and rules as JSON (replayable)"
    )
    export.add_argument("table_id", type=int)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()
    except BadSetting as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 2
    command = args.command or "run"
    playing = command == "play" or (command == "run" and not settings.has_bot_token)
    logging.basicConfig(
        # At the keyboard only warnings interrupt the game, unless LOG_LEVEL asks for more.
        level=settings.log_level or ("WARNING" if playing else "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        if command == "db":
            return asyncio.run(_db_upgrade(settings))
        if command == "export-game":
            return asyncio.run(_export(settings, args.table_id))
        if command == "play":
            return asyncio.run(
                _play(
                    settings,
                    args.game,
                    players=args.players,
                    level=args.level,
                    new=args.new,
                    name=args.name,
                )
            )
        if not settings.has_bot_token:
            logger.info("no TELEGRAM_TOKEN or DISCORD_TOKEN: playing in the terminal")
            return asyncio.run(
                _play(settings, "scopa", players=None, level="easy", new=False, name=None)
            )
        return asyncio.run(_serve(settings))
    except StoreError as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


async def _open_store(settings: Settings) -> Store:
    store = Store.open(settings.url, sqlite_synchronous=settings.sqlite_synchronous)
    try:
        await store.upgrade()
    except Exception as exc:
        await store.close()
        raise StoreError(f"cannot open the database: {type(exc).__name__}: {exc}") from exc
    return store


def _service(settings: Settings, store: Store, *, timers: bool) -> TableService:
    return TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(),
        timers=TimerSettings(
            reminder=settings.turn_reminder_seconds if timers else 0.0,
            autoplay=settings.turn_timeout_seconds,
            takeover_after=settings.idle_turns_before_takeover,
            takeover_level=settings.takeover_level,
        ),
        default_locale=settings.default_locale,
        cache_size=settings.max_cached_tables,
    )


async def _db_upgrade(settings: Settings) -> int:
    store = await _open_store(settings)
    await store.close()
    print("database is up to date")
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
    game: str,
    *,
    players: int | None,
    level: str,
    new: bool,
    name: str | None,
) -> int:
    from bot.terminal import TerminalPlay

    store = await _open_store(settings)
    try:
        # No timers at the keyboard: the player may think as long as they like.
        service = _service(settings, store, timers=False)
        renderer = Renderer(Catalogs(default=settings.default_locale))
        user_id = _login()
        user = UserRef("terminal", user_id, name or user_id, settings.default_locale)
        terminal = TerminalPlay(service, renderer, user=user, read=_readline, out=sys.stdout)
        return await terminal.run(game, players=players, level=level, new=new)
    finally:
        await store.close()


def _login() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "player"


def _readline() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


async def _serve(settings: Settings) -> int:
    store = await _open_store(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    service = _service(settings, store, timers=True)
    app = App(settings, service, Renderer(Catalogs(default=settings.default_locale)), stop)
    adapters = []
    if settings.telegram_token is not None:
        adapters.append("bot.telegram")
    if settings.discord_token is not None:
        adapters.append("bot.discord")
    try:
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
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return 0
    finally:
        await store.close()


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


if __name__ == "__main__":
    raise SystemExit(main())
