"""``tavolo play``: a game in the terminal against computer players, saved after every move."""

from __future__ import annotations

import asyncio
import getpass
import io
import logging
import os
import sys
from collections.abc import Coroutine, Mapping
from typing import Any

from bot.cli.compose import build_service, open_store
from bot.cli.parser import program
from bot.config import Settings
from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import UserRef
from bot.service.ports import AdapterState

__all__ = ["at_the_keyboard", "login", "play", "terminal_locale"]


def at_the_keyboard(session: Coroutine[Any, Any, int], *, process: bool) -> int:
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
    """Play ``game`` (``None``: the saved one, else Scopa) on the configured database."""
    from bot.terminal import DaemonThreads, LineReader, TerminalPlay

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
        names = _NameBook(store, user_id) if name is None else None
        terminal = TerminalPlay(
            service,
            renderer,
            user=user,
            read=LineReader(sys.stdin).readline,
            out=sys.stdout,
            resume_command=program(),
            names=names,
            ask_name=sys.stdin.isatty(),
        )
        if name is not None:
            await _NameBook(store, user_id).put(name)
        return await terminal.run(game, players=players, level=level, new=new)
    finally:
        await store.close()


class _NameBook:
    """The terminal player's name, kept in the adapter state (the store) between runs."""

    def __init__(self, state: AdapterState, user_id: str) -> None:
        self.state = state
        self.user_id = user_id

    async def get(self) -> str | None:
        value = await self.state.state_get(platform="terminal", kind="name", scope=self.user_id)
        return str(value) if isinstance(value, str) and value else None

    async def put(self, name: str) -> None:
        await self.state.state_put(name, platform="terminal", kind="name", scope=self.user_id)


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
