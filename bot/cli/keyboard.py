"""``tavolo play``: a game in the terminal against computer players, saved after every move."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import io
import logging
import os
import sys
from collections.abc import Coroutine, Mapping
from pathlib import Path

import platformdirs

from bot.cli.compose import build_service, open_store
from bot.cli.parser import program
from bot.config import Settings
from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import UserRef
from bot.service.ports import AdapterState

__all__ = ["at_the_keyboard", "login", "play", "terminal_data", "terminal_locale"]

# The folder of terminal play's data inside the user's data directory (platformdirs).
APP_NAME = "tavolo"


def at_the_keyboard(session: Coroutine[object, None, int], *, process: bool) -> int:
    """Run terminal play; Ctrl-C ends it with 130. As the process's own command line
    (``process``), leave at once when it ends: every move is committed, the database closed and
    the last words printed, and tearing the interpreter down can take the best part of a second
    on a busy machine while the player waits for their prompt back."""
    try:
        code = asyncio.run(session)
    except KeyboardInterrupt:
        code = 130
    if process:
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os._exit(code)
    return code


async def play(
    settings: Settings,
    game: str | None,
    *,
    players: int | None,
    level: str,
    new: bool,
    name: str | None,
) -> int:
    """Play ``game`` (``None``: the saved one, else Scopa) on terminal play's database: the
    configured one when DATA_DIR or DATABASE_URL is set, else the user's data directory."""
    from bot.terminal import DaemonThreads, LineReader, TerminalPlay

    configured = settings
    settings = terminal_data(settings)
    # The save of an earlier version (data/ under the current folder) is never lost in silence.
    earlier = configured.sqlite_path if settings is not configured else None
    if earlier is not None and not earlier.exists():
        earlier = None

    # A computer still thinking when the player presses Ctrl-C must not hold the exit.
    asyncio.get_running_loop().set_default_executor(DaemonThreads())
    for stream in (sys.stdin, sys.stdout):
        # A byte the terminal's encoding cannot read, or a suit it cannot show, is replaced
        # rather than ending the game (a decode error would read as the end of input).
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    store = await open_store(settings)
    try:
        # No timers at the keyboard: the player may think as long as they like.
        service = build_service(settings, store, timers=False)
        renderer = Renderer(Catalogs(default=settings.default_locale))
        user_id = login()
        locale = terminal_locale(settings, os.environ)
        user = UserRef("terminal", user_id, name or user_id, locale)
        names = _Kept(store, user_id, "name") if name is None else None
        terminal = TerminalPlay(
            service,
            renderer,
            user=user,
            read=LineReader(sys.stdin).readline,
            out=sys.stdout,
            resume_command=program(),
            names=names,
            ask_name=sys.stdin.isatty(),
            last_table=_Kept(store, user_id, "last_table"),
            saved_in=None if settings.database_url else str(settings.sqlite_path.resolve()),
            typed_ahead=_discard_typed_ahead if sys.stdin.isatty() else None,
            earlier_save=str(earlier.parent.resolve()) if earlier is not None else None,
        )
        if name is not None:
            await _Kept(store, user_id, "name").put(name)
        return await terminal.run(game, players=players, level=level, new=new)
    finally:
        await store.close()


def terminal_data(settings: Settings) -> Settings:
    """Terminal play's settings: its SQLite file in the user's data directory
    (``~/.local/share/tavolo`` on Linux, as platformdirs says; XDG_DATA_HOME is honoured), so
    that the saved game does not depend on the current folder; a DATA_DIR or DATABASE_URL set
    in the environment or .env wins. The bots keep DATA_DIR's default (``data/``)."""
    if settings.database_url or "data_dir" in settings.model_fields_set:
        return settings
    folder = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return settings.model_copy(update={"data_dir": folder})


def _discard_typed_ahead() -> None:
    """Drop the keys typed but not yet read (a terminal's own input queue)."""
    try:
        import termios  # POSIX only
    except ImportError:
        return
    with contextlib.suppress(OSError, ValueError, termios.error):  # no terminal after all
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


class _Kept:
    """One value of the terminal player's (their name, the table last played), kept in the
    adapter state (the store) between runs."""

    def __init__(self, state: AdapterState, user_id: str, kind: str) -> None:
        self.state = state
        self.user_id = user_id
        self.kind = kind

    async def get(self) -> str | None:
        value = await self.state.state_get(platform="terminal", kind=self.kind, scope=self.user_id)
        return str(value) if isinstance(value, str) and value else None

    async def put(self, value: str) -> None:
        await self.state.state_put(value, platform="terminal", kind=self.kind, scope=self.user_id)


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


def login() -> str:
    """The player's id at the terminal: their login name."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "player"
