"""The Telegram adapter (python-telegram-bot): updates -> service calls, service events -> messages.

It knows no game rules and writes no game text: the service decides, ``bot.render`` words it.

``build_bot(settings, service=..., renderer=...)`` wires the pieces (no module globals);
``serve(app)`` is the entry point the composition root (``bot.cli``) calls, with the process's one
:class:`bot.app.App` (its adapter state and pictures are shared with the other front ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from telegram import Update
from telegram.ext import Application, TypeHandler

from bot.render import LOCALES, Renderer
from bot.render.pictures import Pictures
from bot.service import Result, TableService
from bot.service.ports import AdapterState
from bot.service.presence import Presence
from bot.telegram.adapter import TelegramAdapter
from bot.telegram.app import (
    TelegramRunner,
    application_requests,
    build_application,
    redact_token_in_logs,
)
from bot.telegram.book import MessageBook
from bot.telegram.delivery import Delivery
from bot.telegram.ids import PLATFORM
from bot.telegram.inline import InlinePlay
from bot.telegram.inline_cards import CardPhotos
from bot.telegram.phrases import GROUP_COMMANDS, PRIVATE_COMMANDS, menu
from bot.telegram.settings import TelegramSettings
from bot.telegram.web_links import WebLinks

if TYPE_CHECKING:
    from telegram.ext import BaseRateLimiter

    from bot.app import App

__all__ = ["TelegramBot", "TelegramSettings", "build_bot", "serve"]

logger = logging.getLogger(__name__)


@dataclass
class TelegramBot:
    """One running Telegram front end: start/stop it, and deliver results made elsewhere."""

    runner: TelegramRunner
    delivery: Delivery

    service: TableService | None = None
    stop_grace: float = 2.0

    async def start(self) -> None:
        await self.runner.start()
        # Deletions a previous process left waiting (the group's budget was short).
        await self.delivery.inline.resume()
        if self.service is not None:
            # Tables whose last delivery is not known to have gone out (the process died, or
            # Telegram failed it) are delivered anew once.
            self.delivery.start_redelivery(self.service.table_versions(PLATFORM))

    async def stop(self) -> None:
        """No more updates; deliveries under way get ``stop_grace`` seconds (what is left is
        delivered anew at the next start); the updates in hand finish; then close."""
        await self.runner.stop_polling()
        await self.delivery.close(grace=self.stop_grace)
        await self.delivery.inline.close()
        await self.runner.stop()

    async def deliver(self, result: Result) -> None:
        """Events that no update caused (turn timers): queued like any other (the timers do
        not wait for a group's flood limit)."""
        self.delivery.submit(result, origin=None)


def build_bot(
    settings: TelegramSettings,
    *,
    service: TableService,
    renderer: Renderer,
    rate_limiter: BaseRateLimiter[int] | None = None,
    pictures: Pictures | None = None,
    state: AdapterState | None = None,
    presence: Presence | None = None,
    web: WebLinks | None = None,
) -> TelegramBot:
    """The Application with the adapter's handlers, ready to start.

    ``state``: where message ids live (the store, so restarts and other processes edit the same
    messages; none: in memory). ``pictures``: card pictures (none: text only). ``presence``:
    who is looking at their game (the process's one; none: this bot's own), marked by every
    update, asked before a turn mention.
    """
    presence = presence if presence is not None else Presence()
    requests = application_requests(settings)
    application = build_application(settings, rate_limiter=rate_limiter, requests=requests)
    delivery = Delivery(
        bot=lambda: application.bot,
        renderer=renderer,
        book=MessageBook(repost_after=settings.repost_after, state=state),
        pictures=pictures,
        service=service,
    )
    photos = None
    if pictures is not None and settings.media_chat is not None:
        photos = CardPhotos(
            pictures=pictures,
            bot=lambda: application.bot,
            state=delivery.book.state,
            media_chat=settings.media_chat,
        )
    inline = InlinePlay(
        service=service,
        renderer=renderer,
        delivery=delivery,
        bot=lambda: application.bot,
        photos=photos,
        presence=presence,
    )
    delivery.inline = inline
    delivery.web = web
    TelegramAdapter(service=service, renderer=renderer, delivery=delivery, inline=inline).install(
        application
    )
    watch_presence(application, presence)
    translations = {code: renderer.translations(code) for code in LOCALES}
    runner = TelegramRunner(
        application,
        settings,
        group_commands=menu(GROUP_COMMANDS, translations),
        private_commands=menu(PRIVATE_COMMANDS, translations),
        requests=requests,
    )
    return TelegramBot(runner, delivery, service)


def watch_presence(application: Application, presence: Presence) -> None:  # type: ignore[type-arg]
    """Every update from a person (a press, a command, an inline query or choice, a message in
    the group) marks them as looking at their game (``bot.service.presence``)."""

    async def seen(update: object, context: object) -> None:
        user = update.effective_user if isinstance(update, Update) else None
        if user is not None and not user.is_bot:
            presence.seen(PLATFORM, str(user.id))

    # Group -1: before the handlers, whatever they do with the update.
    application.add_handler(TypeHandler(Update, seen), group=-1)


async def serve(app: App) -> None:
    """Run the Telegram bot until ``app.stop`` is set (``app``: the composition root's App)."""
    settings = TelegramSettings.from_settings(app.settings)
    if settings is None:
        raise RuntimeError("TELEGRAM_TOKEN is not set")
    redact_token_in_logs(settings.token)
    telegram = build_bot(
        settings,
        service=app.service,
        renderer=app.renderer,
        pictures=app.pictures,
        state=app.state,
        presence=app.presence,
        web=_web_links(app),
    )
    app.deliver_to("telegram", telegram.deliver)
    try:
        await telegram.start()
        await app.stop.wait()
    finally:
        # The composition root cancels this task once its grace is over: stopping goes on
        # under the shield until then; cancelled, it is cut short but the HTTP clients close.
        stopping = asyncio.ensure_future(telegram.stop())
        try:
            await asyncio.shield(stopping)
        except asyncio.CancelledError:
            stopping.cancel()
            with contextlib.suppress(BaseException):
                await stopping
            await telegram.runner.close_http()


def _web_links(app: App) -> WebLinks | None:
    """The web table's buttons and presence, when this process serves the web table."""
    if app.web is None:
        return None
    presence = app.web.presence
    return WebLinks(
        renderer=app.renderer,
        public_url=app.settings.public_url,
        short_name=app.settings.web_app_short_name,
        looking=lambda user_id, table_id: presence.on_page(PLATFORM, str(user_id), table_id),
        watched=presence.watched,
        coalesce=app.settings.web_group_edit_seconds,
    )
