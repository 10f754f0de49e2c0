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
    discord_token: SecretStr | None = None
    default_locale: Literal["it", "en"] = "it"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] | None = None  # None: INFO (bots)
    # or WARNING (terminal play)
    turn_reminder_seconds: float = Field(60.0, ge=0)
    turn_timeout_seconds: float = Field(120.0, ge=0)
    idle_turns_before_takeover: int = Field(2, ge=1, le=100)
    takeover_level: Literal["easy", "medium", "hard"] = "easy"
    timer_interval_seconds: float = Field(2.0, gt=0, le=3600)
    max_cached_tables: int = Field(5000, ge=10)
    images: bool = Field(True, description="IMAGES=on|off: card pictures in the chats.")

    @field_validator(
        "telegram_token",
        "discord_token",
        "database_url",
        "telegram_api_url",
        "log_level",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("sqlite_synchronous", "log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _timeouts(self) -> Settings:
        if self.turn_reminder_seconds and self.turn_timeout_seconds <= self.turn_reminder_seconds:
            raise ValueError("turn_timeout_seconds must be longer than turn_reminder_seconds")
        return self

    @property
    def url(self) -> str:
        """The database URL to use (SQLite under ``data_dir`` by default)."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'tavolo.sqlite3').resolve()}"

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
        message = first.get("msg", "invalid")
        # Never echo the value: it may be a token.
        raise BadSetting(f"bad setting {name.upper()}: {message}") from None
