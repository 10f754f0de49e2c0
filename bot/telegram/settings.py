"""Telegram settings: the token, where the Bot API lives, polling or webhook."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings

DEFAULT_API_URL = "https://api.telegram.org"


class SettingsError(ValueError):
    """A Telegram setting has a value the adapter cannot use."""


@dataclass(frozen=True)
class TelegramSettings:
    """Everything the adapter reads from the environment; the token never shows in ``repr``."""

    token: str = field(repr=False)
    # A self-hosted Bot API server (or the tests' fake one) instead of api.telegram.org.
    api_url: str = DEFAULT_API_URL
    # Webhook mode when set: the public HTTPS URL Telegram posts updates to.
    webhook_url: str | None = None
    webhook_secret: str | None = field(default=None, repr=False)
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_path: str = "telegram"
    poll_timeout: float = 10.0
    # Retries on Telegram's flood control (429 RetryAfter) before a request gives up.
    max_retries: int = 3
    # A new public table message is posted once this many other messages came after the old one.
    repost_after: int = 15
    # Updates handled at once (PTB's concurrent_updates); one table's stay in order.
    concurrent_updates: int = 16
    # A chat where the bot uploads each card's picture once, for inline answers (none: text).
    media_chat: int | None = None

    def __post_init__(self) -> None:
        if not self.token or ":" not in self.token:
            raise SettingsError("TELEGRAM_TOKEN must look like '123456:ABC...' (from @BotFather)")
        if not self.api_url.startswith(("http://", "https://")):
            raise SettingsError(f"TELEGRAM_API_URL must be an http(s) URL, not {self.api_url!r}")
        if self.webhook_secret is not None and not _valid_secret(self.webhook_secret):
            raise SettingsError(
                "TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -"
            )
        if not 0 < self.webhook_port < 65536:
            raise SettingsError(
                f"TELEGRAM_WEBHOOK_PORT must be a TCP port, not {self.webhook_port}"
            )
        if (
            self.max_retries < 0
            or self.repost_after < 1
            or self.poll_timeout < 0
            or self.concurrent_updates < 1
        ):
            raise SettingsError("retries, repost distance and poll timeout must be positive")

    @property
    def base_url(self) -> str:
        """PTB's ``base_url``: it appends the token, then ``/<method>``."""
        return f"{self.api_url.rstrip('/')}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.api_url.rstrip('/')}/file/bot"

    @property
    def uses_webhook(self) -> bool:
        return self.webhook_url is not None

    @classmethod
    def from_settings(cls, settings: Settings) -> TelegramSettings | None:
        """This adapter's part of the composition root's ``Settings`` (validated, from the
        environment and .env); ``None`` when no token is configured."""
        token = settings.telegram_token
        if token is None or not token.get_secret_value():
            return None
        secret = settings.telegram_webhook_secret
        return cls(
            token=token.get_secret_value(),
            api_url=settings.telegram_api_url or DEFAULT_API_URL,
            webhook_url=settings.telegram_webhook_url or None,
            webhook_secret=secret.get_secret_value() if secret is not None else None,
            webhook_listen=settings.telegram_webhook_listen,
            webhook_port=settings.telegram_webhook_port,
            webhook_path=settings.telegram_webhook_path.strip("/"),
            max_retries=settings.telegram_max_retries,
            repost_after=settings.telegram_repost_after,
            media_chat=settings.telegram_media_chat,
        )


def _valid_secret(secret: str) -> bool:
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
    return 1 <= len(secret) <= 256 and set(secret) <= allowed
