"""The composition root's builders: settings -> store (migrated) -> service -> renderer, adapter
state and pictures -> the :class:`bot.app.App` every front end gets.

Each shared object is made here, once per process, and injected; nothing below looks it up.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from bot.app import App
from bot.config import Settings
from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import ComputerPlayers, TableService, TimerSettings, default_registry
from bot.service.presence import Presence
from bot.store import Store, StoreError

if TYPE_CHECKING:
    from bot.render.images import ImageRenderer
    from bot.render.pictures import Pictures

__all__ = ["build_app", "build_pictures", "build_service", "open_store", "secrets"]


async def open_store(settings: Settings) -> Store:
    """The configured database, migrated to the newest schema (``StoreError`` if it cannot)."""
    store = Store.open(settings.url, sqlite_synchronous=settings.sqlite_synchronous)
    try:
        await store.upgrade()
    except Exception as exc:
        await store.close()
        raise StoreError(f"cannot open the database: {type(exc).__name__}: {exc}") from exc
    return store


def build_service(
    settings: Settings, store: Store, *, timers: bool, processes: int = 0
) -> TableService:
    """The table service on ``store``, with the settings' timers (``timers``: chat timers and
    reminders on) and ``processes`` worker processes for the computer players."""
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


def build_pictures(
    renderer: Renderer, images: ImageRenderer, *, store: Store, service: TableService
) -> Pictures:
    """The process's card pictures: drawn by ``images`` (its ``enabled`` is ``IMAGES``), deck
    styles kept in the store's adapter state, rating charts from the store's history, and each
    chat's pictures setting asked of ``service``."""
    # Imported here: only a serving process draws, and terminal play starts without PIL.
    from bot.render.pictures import Pictures

    return Pictures(
        renderer,
        images,
        enabled=images.enabled,
        state=store,
        history=store.rating_history,
        chat_pictures=service.pictures_on,
    )


def build_app(
    settings: Settings, *, store: Store, service: TableService, stop: asyncio.Event
) -> App:
    """What every front end of a serving process gets: ``service`` (as the adapters should see
    it: observed, in production), one renderer, the store as the adapter state, one
    :class:`~bot.render.pictures.Pictures`, and the ``stop`` event."""
    from bot.render.images import ImageRenderer

    renderer = Renderer(Catalogs(default=settings.default_locale))
    pictures = build_pictures(
        renderer, ImageRenderer(enabled=settings.images), store=store, service=service
    )
    presence = Presence(idle_after=settings.ping_after_idle_seconds)
    return App(settings, service, renderer, stop, state=store, pictures=pictures, presence=presence)


def secrets(settings: Settings) -> list[str]:
    """Every configured secret, for the log redaction."""
    found = [settings.telegram_token, settings.discord_token, settings.telegram_webhook_secret]
    values = [s.get_secret_value() for s in found if s is not None]
    if settings.database_url and "@" in settings.database_url:
        with contextlib.suppress(Exception):
            from sqlalchemy.engine import make_url

            password = make_url(settings.database_url).password
            if password:
                values.append(str(password))
    return values
