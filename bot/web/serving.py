"""The web table in ``python -m bot run`` (``WEB_PORT`` set): the same process, the same
service, the adapters' deliveries; ``/metrics`` and ``/health`` on the same server."""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

from aiohttp import web

from bot.observability import CONTENT_TYPE, Metrics
from bot.service import TableInfo
from bot.web.discord_auth import discord_auth_config
from bot.web.notify import PgAnnouncer, asyncpg_dsn
from bot.web.server import WebConfig, WebTable, build_web_app
from bot.web.state import Viewer

if TYPE_CHECKING:
    from bot.app import App
    from bot.config import Settings

__all__ = ["start_web", "token_secret", "web_config"]

logger = logging.getLogger(__name__)

Health = Callable[[], Awaitable[dict[str, object]]]


def token_secret(settings: Settings) -> bytes | None:
    """WEB_TOKEN_SECRET, else a key derived from the bot's token (every process of one bot
    then accepts the tokens the others issued); ``None``: a random key per process."""
    if settings.web_token_secret is not None:
        return settings.web_token_secret.get_secret_value().encode().ljust(16, b"\0")
    if settings.telegram_token is not None:
        token = settings.telegram_token.get_secret_value().encode()
        return hmac.new(token, b"tavolo web table tokens", hashlib.sha256).digest()
    if settings.discord_token is not None:  # a Discord-only bot (the Activity)
        token = settings.discord_token.get_secret_value().encode()
        return hmac.new(token, b"tavolo web table tokens", hashlib.sha256).digest()
    return None


def web_config(settings: Settings, app: App) -> WebConfig:
    token = settings.telegram_token
    return WebConfig(
        bot_token=token.get_secret_value() if token is not None else None,
        init_data_max_age=settings.web_init_data_max_age,
        token_secret=token_secret(settings),
        pace=settings.web_pace,
        deliveries=app.deliveries,  # filled in by the adapters as they start
        discord=discord_auth_config(settings),  # the Activity's sign-in (DISCORD_CLIENT_ID...)
    )


async def start_web(app: App, *, metrics: Metrics, health: Health) -> web.AppRunner:
    """Serve the web table on WEB_LISTEN:WEB_PORT; ``app.web`` is set for the adapters (their
    buttons and who is looking)."""
    settings = app.settings

    async def style_for(table: TableInfo, viewer: Viewer) -> str:
        return await app.pictures.style_for(table, viewer.user_id, table.chat_id)

    web_table = WebTable(
        app.service,
        app.renderer,
        web_config(settings, app),
        style_for=style_for,
        presence=app.presence,
    )
    app.web = web_table
    _metrics(web_table, metrics)
    application = build_web_app(web_table)

    async def metrics_page(_: web.Request) -> web.StreamResponse:
        return web.Response(
            body=(await metrics.exposition()).encode(), headers={"Content-Type": CONTENT_TYPE}
        )

    async def health_page(_: web.Request) -> web.StreamResponse:
        report = await health()
        return web.json_response(report, status=200 if report.get("ok") else 503)

    dsn = asyncpg_dsn(settings.url)
    if dsn is not None:
        # Several processes on one PostgreSQL: each page sees the others' moves too.
        announcer = PgAnnouncer(app.service, web_table.hub, dsn)
        await announcer.start()

        async def stop_announcer(_: web.Application) -> None:
            await announcer.close()

        application.on_cleanup.append(stop_announcer)
    application.router.add_get("/metrics", metrics_page)
    application.router.add_get("/health", health_page)
    application.router.add_get("/healthz", health_page)
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_listen, settings.web_port)
    await site.start()
    logger.info(
        "web table on http://%s:%s/app/ (users reach it at %s)",
        settings.web_listen,
        settings.web_port,
        settings.public_url or "PUBLIC_URL, not set",
        extra={"event": "web_started"},
    )
    if settings.public_url is None:
        logger.warning("WEB_PORT is set but PUBLIC_URL is not: the chats get no web table button")
    return runner


def _metrics(web_table: WebTable, metrics: Metrics) -> None:
    """The web table's series in the process's registry."""
    from prometheus_client import CollectorRegistry, Gauge

    registry: CollectorRegistry = metrics.registry
    connections = Gauge(
        "tavolo_web_connections", "Web table pages connected to this process.", registry=registry
    )
    connections.set_function(lambda: len(web_table.connections))
    pushed = Gauge(
        "tavolo_web_states_pushed",
        "State frames pushed to web pages since start.",
        registry=registry,
    )
    pushed.set_function(lambda: web_table.hub.pushed)
    p99 = Gauge(
        "tavolo_web_push_seconds_p99",
        "From a version's commit to its frame written to a page: the 99th percentile of the "
        "last 1,000 pushes.",
        registry=registry,
    )
    p99.set_function(lambda: _p99(web_table.hub.push_seconds))


def _p99(values: Iterable[float]) -> float:
    recent = sorted(list(values)[-1000:])
    return recent[min(len(recent) - 1, int(len(recent) * 0.99))] if recent else 0.0
