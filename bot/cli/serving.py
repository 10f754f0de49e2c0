"""``tavolo run`` with a token: the bots, the turn timers, the metrics and a graceful stop.

Adapters plug in through one function each: ``bot.telegram.serve(app)`` and
``bot.discord.serve(app)``, ``async`` and running until ``app.stop`` is set, where ``app`` is the
:class:`bot.app.App` built by :func:`bot.cli.compose.build_app`. An adapter registers a delivery
function with ``app.deliver_to(platform, fn)`` so that events produced by the turn timers (which
run here, once per process) reach its platform: ``fn(result)`` is awaited for every timer result
whose table is on that platform.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import signal
import sys
import time
from typing import cast

from bot.app import App
from bot.cli.compose import build_app, build_service, open_store
from bot.config import Settings
from bot.observability import (
    Metrics,
    ObservedService,
    check_database,
    live_tables,
    serve_http,
)
from bot.service import TableService
from bot.service.players import default_processes

__all__ = ["serve", "timer_loop"]

logger = logging.getLogger("bot")


async def serve(settings: Settings) -> int:
    """``tavolo run`` with a token: serve the configured bots until SIGTERM/SIGINT; 1 if an
    adapter failed."""
    store = await open_store(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    metrics = Metrics()
    metrics.gauges["tavolo_live_tables"] = lambda: live_tables(store)
    processes = settings.computer_processes
    inner = build_service(
        settings,
        store,
        timers=True,
        processes=default_processes() if processes is None else processes,
    )
    observed = ObservedService(inner, metrics)
    service = cast(TableService, observed)
    app = build_app(settings, store=store, service=service, stop=stop)
    adapters = []
    if settings.telegram_token is not None:
        adapters.append("bot.telegram")
    if settings.discord_token is not None:
        adapters.append("bot.discord")
    http: asyncio.Server | None = None
    started = time.time()

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

    web_runner = None
    try:
        if settings.web_port:
            from bot.web.serving import start_web

            web_runner = await start_web(app, metrics=metrics, health=health)
        if settings.metrics_port:
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
                adapter_serve = module.serve
            except (ImportError, AttributeError) as exc:
                print(f"tavolo: the {name} adapter is not available: {exc}", file=sys.stderr)
                return 2
            tasks.append(asyncio.create_task(adapter_serve(app), name=name))
        tasks.append(asyncio.create_task(timer_loop(app), name="timers"))
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
        if web_runner is not None:
            await web_runner.cleanup()
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


async def timer_loop(app: App) -> None:
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
