"""``tavolo web``: the web table on 127.0.0.1 for one local player against the computer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TextIO

from aiohttp import web

from bot.config import Settings

__all__ = ["serve_local"]

logger = logging.getLogger(__name__)


async def serve_local(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    name: str | None = None,
    locale: str | None = None,
    out: TextIO = sys.stdout,
    stop: asyncio.Event | None = None,
) -> int:
    """Serve the web table for a local player (no platform identity) until Ctrl-C or
    ``stop``; print the address to open. Games are saved in the configured database."""
    from bot.cli.compose import build_service, open_store
    from bot.cli.keyboard import login
    from bot.render import Renderer
    from bot.render.i18n import Catalogs
    from bot.web.server import WebConfig, WebTable, build_web_app

    store = await open_store(settings)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    service = build_service(settings, store, timers=False)
    renderer = Renderer(Catalogs(default=settings.default_locale))
    config = WebConfig(local=True, local_name=name or login(), local_locale=locale)
    web_table = WebTable(service, renderer, config)
    runner = web.AppRunner(build_web_app(web_table), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            print(f"tavolo: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
            return 2
        bound = runner.addresses[0][1] if runner.addresses else port
        if host not in ("127.0.0.1", "::1", "localhost"):
            print(
                f"tavolo: warning: listening on {host}: anyone who reaches it plays as you",
                file=sys.stderr,
            )
        print(f"Tavolo web table: http://{host}:{bound}/app/", file=out, flush=True)
        await stop.wait()
        return 0
    finally:
        await runner.cleanup()
        await service.computers.aclose()
        await store.close()
