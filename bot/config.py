"""Settings from the environment and ``.env`` (pydantic-settings); see ``.env.example``.

A bad setting stops start-up with one line naming it (:func:`load_settings`); tokens are
``SecretStr`` so they never show in logs or reprs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["BadSetting", "Settings", "load_settings"]


class BadSetting(ValueError):
    """One line naming the bad setting and why."""


class Settings(BaseSettings):
    """Every setting, by its environment variable name (case-insensitive)."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    data_dir: Path = Field(Path("data"), description="Where the SQLite database lives.")
    database_url: str | None = Field(
        None,
        description="SQLAlchemy URL; empty = SQLite file in DATA_DIR. "
        "PostgreSQL: postgresql://user:password@host/db",
    )
    sqlite_synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "NORMAL"
    telegram_token: SecretStr | None = None
    telegram_api_url: str | None = None
    # Webhook mode (several processes behind a load balancer) when the URL is set; else polling.
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = Field(8443, gt=0, lt=65536)
    telegram_webhook_path: str = "telegram"
    telegram_repost_after: int = Field(15, ge=1, le=1000)
    telegram_max_retries: int = Field(3, ge=0, le=100)
    # A chat where the bot uploads card pictures once for inline answers (none: text results).
    telegram_media_chat: int | None = None
    discord_token: SecretStr | None = None
    # Sharding: this process connects as shard DISCORD_SHARD_ID of DISCORD_SHARD_COUNT (set
    # both, one process per shard); neither = one unsharded connection.
    discord_shard_count: int | None = Field(None, ge=1)
    discord_shard_id: int | None = Field(None, ge=0)
    # The web table as a Discord Activity (README, "Discord Activity"): the application's OAuth2
    # client id and secret (the server exchanges the Activity's codes with them), Discord's API
    # base (tests point it at a fake), and DISCORD_ACTIVITY=on for the table message's button.
    discord_client_id: str | None = None
    discord_client_secret: SecretStr | None = None
    discord_api_url: str = "https://discord.com/api/v10"
    discord_activity: bool | None = None  # None: on when the client id and secret are set
    # Observability: log lines as text, JSON or key=value; /metrics and /health over HTTP on
    # METRICS_PORT (empty or 0 = no HTTP server).
    log_format: Literal["text", "json", "kv"] = "text"
    metrics_port: int | None = Field(None, ge=0, lt=65536)
    metrics_listen: str = "127.0.0.1"
    # The web table (Telegram's Mini App): served on WEB_PORT (empty or 0 = not served) at
    # WEB_LISTEN, reached by users at PUBLIC_URL (https://, the reverse proxy's address);
    # WEB_APP_SHORT_NAME is the Mini App's short name from @BotFather /newapp (the group's
    # button opens https://t.me/<bot>/<short name>?startapp=<table>). /metrics and /health are
    # served there too.
    web_port: int | None = Field(None, ge=0, lt=65536)
    web_listen: str = "127.0.0.1"
    public_url: str | None = None
    web_app_short_name: str | None = None
    # Telegram's init data older than this is refused (seconds; Telegram's own advice: a day).
    web_init_data_max_age: float = Field(86400.0, gt=0, le=30 * 86400)
    # The computers' moves reach a page this many seconds apart, to be followed.
    web_pace: float = Field(0.7, ge=0, le=10)
    # While a table is open in pages, its group message is edited at most this often (seconds).
    web_group_edit_seconds: float = Field(20.0, ge=0, le=600)
    # Signs the web table's WebSocket tokens; empty: derived from TELEGRAM_TOKEN (so every
    # process of one bot accepts the others' tokens), else random per process.
    web_token_secret: SecretStr | None = None
    # SIGTERM: how long in-flight moves may take to finish before the process exits anyway.
    shutdown_grace_seconds: float = Field(10.0, gt=0, le=600)
    default_locale: Literal["it", "en"] = "it"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] | None = None  # None: INFO (bots)
    # or WARNING (terminal play)
    turn_reminder_seconds: float = Field(60.0, ge=0)
    turn_timeout_seconds: float = Field(120.0, ge=0)
    idle_turns_before_takeover: int = Field(2, ge=1, le=100)
    # A turn mention (Discord's "@player it is your turn", Telegram's table re-posted with the
    # mention) only for a player with no interaction in this many seconds (0: always mention).
    ping_after_idle_seconds: float = Field(60.0, ge=0, le=24 * 3600)
    # An unstarted lobby closes this long after its last join/leave (seconds, or "10m",
    # "90s", "1h"; 0 = lobbies never expire).
    lobby_timeout: float = Field(600.0, ge=0, le=7 * 24 * 3600)
    # Leaderboard seasons: "month" (calendar month, UTC), "quarter" or "year".
    season: Literal["month", "quarter", "year"] = "month"
    takeover_level: Literal["easy", "medium", "hard"] = "medium"
    timer_interval_seconds: float = Field(2.0, gt=0, le=3600)
    # A claimed timer belongs to its process this long (then another process may fire it).
    timer_lease_seconds: float = Field(60.0, gt=0, le=3600)
    max_cached_tables: int = Field(5000, ge=10)
    # Worker processes for the "hard" computer's moves while serving bots (0: in a thread;
    # none: every core but one, at least 1, at most 4).
    computer_processes: int | None = Field(None, ge=0, le=64)
    images: bool = Field(True, description="IMAGES=on|off: card pictures in the chats.")

    @field_validator(
        "telegram_token",
        "discord_token",
        "discord_client_id",
        "discord_client_secret",
        "discord_activity",
        "database_url",
        "telegram_api_url",
        "telegram_webhook_url",
        "telegram_webhook_secret",
        "telegram_media_chat",
        "log_level",
        "discord_shard_count",
        "discord_shard_id",
        "metrics_port",
        "computer_processes",
        "web_port",
        "public_url",
        "web_app_short_name",
        "web_token_secret",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_api_url", mode="before")
    @classmethod
    def _api_default(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return "https://discord.com/api/v10"
        return value

    @field_validator("sqlite_synchronous", "log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("lobby_timeout", mode="before")
    @classmethod
    def _duration(cls, value: object) -> object:
        """``LOBBY_TIMEOUT=10m`` (or ``90s``, ``1h``; a bare number is seconds)."""
        if isinstance(value, str):
            text = value.strip().lower()
            units = {"s": 1, "m": 60, "h": 3600}
            if text and text[-1] in units:
                try:
                    return float(text[:-1]) * units[text[-1]]
                except ValueError:
                    raise ValueError("must be seconds, or a number with s, m or h") from None
            return text or 600.0
        return value

    @field_validator("season", mode="before")
    @classmethod
    def _season(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("telegram_webhook_url")
    @classmethod
    def _https(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL (https:// for Telegram's Mini App)")
        return value.rstrip("/") if value is not None else None

    @field_validator("web_app_short_name")
    @classmethod
    def _short_name(cls, value: str | None) -> str | None:
        allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
        if value is not None and (not 3 <= len(value) <= 30 or not set(value) <= allowed):
            raise ValueError("must be the Mini App's short name: 3-30 letters, digits or _")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _secret_chars(cls, value: SecretStr | None) -> SecretStr | None:
        allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        if value is not None:
            secret = value.get_secret_value()
            if not 1 <= len(secret) <= 256 or not set(secret) <= allowed:
                raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("telegram_token")
    @classmethod
    def _token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and ":" not in value.get_secret_value():
            raise ValueError("must look like 123456:ABC... (from @BotFather)")
        return value

    @model_validator(mode="before")
    @classmethod
    def _unset_when_empty(cls, data: object) -> object:
        """An empty ``DEFAULT_LOCALE=`` or ``DATA_DIR=`` is no choice: the default stays, and
        the terminal follows the system's language and keeps its data in the user's data
        directory (``model_fields_set`` tells a choice)."""
        if isinstance(data, dict):
            empty = {
                k
                for k in ("default_locale", "data_dir")
                if isinstance(data.get(k), str) and not data[k].strip()
            }
            return {k: v for k, v in data.items() if k not in empty}
        return data

    @model_validator(mode="after")
    def _timeouts(self) -> Settings:
        if self.turn_reminder_seconds and self.turn_timeout_seconds <= self.turn_reminder_seconds:
            raise ValueError("turn_timeout_seconds must be longer than turn_reminder_seconds")
        count, shard = self.discord_shard_count, self.discord_shard_id
        if (count is None) != (shard is None):
            raise ValueError("set both discord_shard_count and discord_shard_id, or neither")
        if count is not None and shard is not None and shard >= count:
            raise ValueError("discord_shard_id must be below discord_shard_count")
        if self.discord_activity and not (self.discord_client_id and self.discord_client_secret):
            raise ValueError("discord_activity needs discord_client_id and discord_client_secret")
        return self

    @property
    def sqlite_path(self) -> Path:
        """The SQLite database file used when no ``database_url`` is set."""
        return self.data_dir / "tavolo.sqlite3"

    @property
    def url(self) -> str:
        """The database URL to use (SQLite under ``data_dir`` by default)."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.sqlite_path.resolve()}"

    @property
    def activity_button(self) -> bool:
        """Whether Discord's table messages get the Activity's button (DISCORD_ACTIVITY, by
        default on when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set)."""
        if self.discord_activity is not None:
            return self.discord_activity
        return bool(self.discord_client_id and self.discord_client_secret)

    @property
    def has_bot_token(self) -> bool:
        return self.telegram_token is not None or self.discord_token is not None


def load_settings(**overrides: object) -> Settings:
    """Settings from env/.env (``overrides`` win); BadSetting with one line on error."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ".".join(str(p) for p in first.get("loc", ())) or "settings"
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        # Never echo the value: it may be a token.
        if name == "settings":  # a rule across settings: its message names them
            raise BadSetting(f"bad settings: {message}") from None
        raise BadSetting(f"bad setting {name.upper()}: {message}") from None
