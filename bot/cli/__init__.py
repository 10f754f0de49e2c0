"""Tavolo's command line and composition root: the ``tavolo`` console script and ``python -m bot``
(``bot/__main__.py`` only calls :func:`main`).

Everything is built here and injected: settings -> store (migrated) -> service -> renderer,
adapter state and pictures -> front ends (:mod:`bot.cli.compose`, the one place that builds
them). ``tavolo run`` (the default) serves the configured bots (:mod:`bot.cli.serving`), or, with
no Telegram/Discord token, starts terminal play (:mod:`bot.cli.keyboard`); the one-off commands
are in :mod:`bot.cli.admin`, the arguments and their ``--help`` in :mod:`bot.cli.parser`.

Adapters get one typed :class:`bot.app.App` (settings, service, renderer, stop event, adapter
state, pictures) in their ``serve(app)``; see :mod:`bot.cli.serving`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Sequence

from bot.app import App, Delivery
from bot.cli import admin
from bot.cli.admin import replay_export
from bot.cli.compose import secrets
from bot.cli.keyboard import at_the_keyboard, play, terminal_locale
from bot.cli.parser import build_parser
from bot.cli.serving import serve
from bot.cli.serving import timer_loop as _timers
from bot.config import BadSetting, load_settings
from bot.observability import configure_logging
from bot.store import StoreError

__all__ = [
    "App",
    "Delivery",
    "_timers",
    "build_parser",
    "main",
    "replay_export",
    "terminal_locale",
]

logger = logging.getLogger("bot")


def main(argv: Sequence[str] | None = None) -> int:
    """The ``tavolo`` command (``argv``: its arguments; none: the process's own)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["simulate"]:
        # Everything after the word is bot.simulate's own command line (its --help too).
        return admin.simulate(arguments[1:])
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
        secrets=secrets(settings),
    )
    try:
        if command == "db" and args.db_command in ("backup", "restore"):
            return admin.db_copy(settings, args.db_command, args.path)
        if command == "db":
            return asyncio.run(admin.db_upgrade(settings))
        if command == "export-game":
            return asyncio.run(admin.export(settings, args.table_id))
        if command == "replay":
            return admin.replay(args.file)
        if command == "import":
            return asyncio.run(admin.import_file(settings, args.file, chat_id=args.chat))
        if command == "health":
            return asyncio.run(admin.health(settings))
        if command == "discord":
            return admin.discord_sync(settings, force=args.force)
        if command == "web":
            from bot.web.local import serve_local

            return asyncio.run(
                serve_local(
                    settings,
                    host=args.host,
                    port=args.port,
                    name=args.name,
                    locale=terminal_locale(settings, os.environ),
                )
            )
        if command == "play":
            return at_the_keyboard(
                play(
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
            return at_the_keyboard(
                play(settings, None, players=None, level="easy", new=args.new, name=None),
                process=argv is None,
            )
        return asyncio.run(serve(settings))
    except StoreError as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
