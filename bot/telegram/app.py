"""Building the PTB ``Application`` and running it inside an event loop shared with others.

No module globals: the composition root builds the Application with its dependencies and hands it
to a ``TelegramRunner``, which uses ``initialize/start/updater.start_polling`` (or
``start_webhook``) instead of ``run_polling`` so the Discord client can share the same loop.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    ContextTypes,
)
from telegram.request import BaseRequest

from bot.telegram.limiter import PacedRateLimiter, Stopping
from bot.telegram.request import build_requests
from bot.telegram.settings import TelegramSettings

logger = logging.getLogger(__name__)

# Commands offered in each kind of chat: (command, description) per language code.
CommandMenu = Mapping[str, Sequence[tuple[str, str]]]

UPDATES = ("message", "callback_query", "inline_query", "chosen_inline_result")


class TokenRedactor(logging.Filter):
    """Replaces the bot token in log records (PTB's debug logs show URLs that contain it)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._token in message:
            record.msg = message.replace(self._token, "<token>")
            record.args = ()
        return True


def redact_token_in_logs(token: str) -> None:
    """Install ``TokenRedactor`` on the root handlers (records reach them from every logger)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, TokenRedactor) for f in handler.filters):
            handler.addFilter(TokenRedactor(token))


def default_rate_limiter(settings: TelegramSettings) -> PacedRateLimiter:
    """Telegram's flood limits kept as sliding windows, the urgent calls first, and
    ``settings.max_retries`` retries after a 429 (by PTB's ``AIORateLimiter``, beneath)."""
    return PacedRateLimiter(max_retries=settings.max_retries)


def build_application(
    settings: TelegramSettings,
    *,
    rate_limiter: BaseRateLimiter[int] | None = None,
    requests: tuple[BaseRequest, BaseRequest] | None = None,
) -> Application:  # type: ignore[type-arg]
    """A PTB Application pointed at ``settings.api_url``, with the one error handler.
    ``requests``: its HTTP clients (for the calls, for the long polls), else new ones."""
    # httpx logs every request URL at INFO, and the Bot API puts the token in the URL.
    logging.getLogger("httpx").setLevel(max(logging.WARNING, logging.getLogger("httpx").level))
    calls, polls = requests or application_requests(settings)
    application = (
        ApplicationBuilder()
        .token(settings.token)
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .rate_limiter(rate_limiter or default_rate_limiter(settings))
        # aiohttp, not PTB's default httpx: a fifth of the CPU per Bot API call.
        .request(calls)
        .get_updates_request(polls)
        .concurrent_updates(settings.concurrent_updates)
        .build()
    )
    application.add_error_handler(on_error)
    return application


def application_requests(settings: TelegramSettings) -> tuple[BaseRequest, BaseRequest]:
    """The HTTP clients of an Application: for the calls, and for the long polls (which must
    outlast the poll timeout they ask the server for)."""
    return build_requests(get_updates_read_timeout=settings.poll_timeout + 10)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log any exception a handler let through; the update is dropped, the bot goes on."""
    update_id = update.update_id if isinstance(update, Update) else None
    if isinstance(context.error, Stopping):
        # A message that would have waited for a group's window while the bot stops.
        logger.info("update %s: not finished, the bot is stopping", update_id)
        return
    logger.error("update %s failed", update_id, exc_info=context.error)


class TelegramRunner:
    """Starts and stops one Application in the running event loop."""

    def __init__(
        self,
        application: Application,  # type: ignore[type-arg]
        settings: TelegramSettings,
        *,
        group_commands: CommandMenu | None = None,
        private_commands: CommandMenu | None = None,
        requests: Sequence[BaseRequest] = (),
    ) -> None:
        self.application = application
        self._settings = settings
        # The Application's HTTP clients: closed on stop whatever happened (a failed start too).
        self._requests = tuple(requests)
        self._group_commands = group_commands or {}
        self._private_commands = private_commands or {}
        self._started = False

    async def start(self) -> None:
        """Initialize, register commands, start handling, then poll (or listen to a webhook).
        A start that fails (a rejected token, say) stops what it started and closes the HTTP
        clients before raising."""
        try:
            await self._start()
        except BaseException:
            try:
                await self.stop()
            except Exception as error:
                logger.warning("could not stop after a failed start: %s", error)
            raise

    async def _start(self) -> None:
        app = self.application
        await app.initialize()
        await self.register_commands()
        await app.start()
        updater = app.updater
        if updater is None:
            raise RuntimeError("the Application was built without an updater")
        settings = self._settings
        if settings.uses_webhook:
            await updater.start_webhook(
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                url_path=settings.webhook_path,
                webhook_url=settings.webhook_url,
                secret_token=settings.webhook_secret,
                allowed_updates=list(UPDATES),
            )
            logger.info("Telegram: webhook on port %s", settings.webhook_port)
        else:
            await updater.start_polling(
                timeout=int(settings.poll_timeout),
                allowed_updates=list(UPDATES),
            )
            logger.info("Telegram: polling %s", settings.api_url)
        self._started = True

    async def stop_polling(self) -> None:
        """Stop fetching updates (the long poll in flight is cancelled, not waited for)."""
        app = self.application
        if app.updater is not None and app.updater.running:
            await app.updater.stop()

    async def stop(self) -> None:
        """Stop fetching updates, finish the ones in hand, release the HTTP clients (always,
        also when cancelled: no unclosed session is left behind)."""
        try:
            await self.stop_polling()
            app = self.application
            limiter = app.bot.rate_limiter
            if isinstance(limiter, PacedRateLimiter):
                # The updates in hand must not wait a minute for a group's window.
                limiter.stop_waiting()
            if app.running:
                await app.stop()
            await app.shutdown()
        finally:
            await self.close_http()
            self._started = False

    async def close_http(self) -> None:
        """Close the HTTP clients (whatever state the Application is in; idempotent)."""
        try:
            await self.application.bot.shutdown()
        except Exception as error:
            logger.warning("could not close the Bot API clients: %s", error)
        for request in self._requests:
            # (a Bot whose initialize failed half-way does not close them itself)
            try:
                await request.shutdown()
            except Exception as error:
                logger.warning("could not close a Bot API client: %s", error)

    async def register_commands(self) -> None:
        """``setMyCommands`` for groups and private chats, once per language (first = default)."""
        bot = self.application.bot
        for scope, menu in (
            (BotCommandScopeAllGroupChats(), self._group_commands),
            (BotCommandScopeAllPrivateChats(), self._private_commands),
        ):
            for index, (language, commands) in enumerate(menu.items()):
                listed = [BotCommand(name, description) for name, description in commands]
                try:
                    await bot.set_my_commands(listed, scope=scope, language_code=language)
                    if index == 0:
                        await bot.set_my_commands(listed, scope=scope)
                except TelegramError as error:
                    # A menu is a convenience: the bot works without one.
                    logger.warning("setMyCommands(%s) failed: %s", language, error)
