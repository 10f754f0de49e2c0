"""Settings: environment and .env, one clear line for a bad setting, tokens never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import BadSetting, load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "TELEGRAM_TOKEN",
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "LOG_LEVEL",
        "DATA_DIR",
        "TURN_REMINDER_SECONDS",
        "TURN_TIMEOUT_SECONDS",
        "DEFAULT_LOCALE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings()
    assert settings.url.startswith("sqlite+aiosqlite:///") and settings.url.endswith(
        "data/tavolo.sqlite3"
    )
    assert not settings.has_bot_token
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:secret-token")
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@h/db")
    (tmp_path / ".env").write_text("DEFAULT_LOCALE=en\nlog_level=debug\n")
    settings = load_settings()
    assert settings.has_bot_token and settings.url == "postgresql://u@h/db"
    assert (settings.default_locale, settings.log_level) == ("en", "DEBUG")
    assert "secret-token" not in repr(settings) and "secret-token" not in str(settings)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_REMINDER_SECONDS", "soon"),
        ("DEFAULT_LOCALE", "de"),
        ("LOG_LEVEL", "LOUD"),
        ("IDLE_TURNS_BEFORE_TAKEOVER", "0"),
        ("SQLITE_SYNCHRONOUS", "sometimes"),
    ],
)
def test_bad_setting_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(BadSetting) as caught:
        load_settings()
    message = str(caught.value)
    assert "\n" not in message and name in message and value not in message.split(":", 1)[0]


def test_timeout_must_follow_reminder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURN_REMINDER_SECONDS", "90")
    monkeypatch.setenv("TURN_TIMEOUT_SECONDS", "60")
    with pytest.raises(BadSetting, match="turn_timeout_seconds"):
        load_settings()
