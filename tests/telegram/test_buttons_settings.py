"""Callback data within 64 bytes, and settings read from the environment."""

from __future__ import annotations

import pytest

from bot.telegram.buttons import MAX_CALLBACK_BYTES, ButtonData, ButtonDataError
from bot.telegram.settings import SettingsError, TelegramSettings


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("t1:0:join", ButtonData("t1", 0, "join")),
        ("abc_D-9:17:7D:3C+4S", ButtonData("abc_D-9", 17, "7D:3C+4S")),  # move keeps its ':'
        ("x:3:7D!", ButtonData("x", 3, "7D!")),
    ],
)
def test_callback_data_round_trips(data: str, expected: ButtonData) -> None:
    assert ButtonData.decode(data) == expected
    assert expected.encode() == data


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "garbage",
        "t1:join",
        "t1::join",
        "t1:-1:join",
        "t1:1e3:join",
        "t1:٣:join",  # a non-ASCII digit is still not a version
        "t/1:0:join",
        ":0:join",
        "t1:0:",
        "t1:0:\x00",
        "t1:0:" + "x" * 64,
        "\udcff",
    ],
)
def test_garbage_callback_data_is_refused(data: str | None) -> None:
    with pytest.raises(ButtonDataError):
        ButtonData.decode(data)


def test_a_button_too_long_for_telegram_cannot_be_made() -> None:
    room = MAX_CALLBACK_BYTES - len("t1:0:")
    assert len(ButtonData("t1", 0, "a" * room).encode()) == MAX_CALLBACK_BYTES
    with pytest.raises(ButtonDataError, match="64 bytes"):
        ButtonData("t1", 0, "a" * (room + 1))


def test_settings_from_env() -> None:
    env = {
        "TELEGRAM_TOKEN": "1:abc",
        "TELEGRAM_API_URL": "http://127.0.0.1:8081/",
        "TELEGRAM_WEBHOOK_URL": "https://example.org/tg",
        "TELEGRAM_WEBHOOK_SECRET": "abc_DEF-1",
        "TELEGRAM_WEBHOOK_PORT": "9000",
    }
    settings = TelegramSettings.from_env(env)
    assert settings is not None
    assert settings.base_url == "http://127.0.0.1:8081/bot"
    assert settings.base_file_url == "http://127.0.0.1:8081/file/bot"
    assert settings.uses_webhook and settings.webhook_port == 9000
    assert "abc" not in repr(settings)
    assert TelegramSettings.from_env({}) is None
    default = TelegramSettings.from_env({"TELEGRAM_TOKEN": "1:abc"})
    assert default is not None and default.base_url == "https://api.telegram.org/bot"
    assert not default.uses_webhook


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TELEGRAM_TOKEN": "nocolon"}, "TELEGRAM_TOKEN"),
        ({"TELEGRAM_TOKEN": "1:a", "TELEGRAM_API_URL": "ftp://x"}, "TELEGRAM_API_URL"),
        ({"TELEGRAM_TOKEN": "1:a", "TELEGRAM_WEBHOOK_SECRET": "bad secret!"}, "SECRET"),
        ({"TELEGRAM_TOKEN": "1:a", "TELEGRAM_WEBHOOK_PORT": "http"}, "number"),
        ({"TELEGRAM_TOKEN": "1:a", "TELEGRAM_WEBHOOK_PORT": "70000"}, "PORT"),
    ],
)
def test_bad_settings_get_a_clear_error(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        TelegramSettings.from_env(env)
