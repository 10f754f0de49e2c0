"""Settings read from the environment, deep-link payloads and chat keys."""

from __future__ import annotations

from typing import Any

import pytest

from bot.telegram.ids import chat_key, deep_link, hand_payload, parse_hand_payload, where_of
from bot.telegram.messenger import Where
from bot.telegram.settings import SettingsError, TelegramSettings


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"token": "nocolon"}, "TELEGRAM_TOKEN"),
        ({"api_url": "ftp://x"}, "TELEGRAM_API_URL"),
        ({"webhook_secret": "bad secret!"}, "SECRET"),
        ({"webhook_port": 70000}, "PORT"),
    ],
)
def test_bad_settings_get_a_clear_error(values: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        TelegramSettings(**{"token": "1:a", **values})


@pytest.mark.parametrize(
    ("where", "key"),
    [(Where(-100500), "-100500"), (Where(-100777, 42), "-100777/42"), (Where(1001), "1001")],
)
def test_chat_keys_round_trip(where: Where, key: str) -> None:
    assert chat_key(where) == key
    assert where_of(key) == where


@pytest.mark.parametrize("key", ["", "abc", "-1/", "1/x", "12 34", "/5"])
def test_foreign_chat_keys_are_refused(key: str) -> None:
    with pytest.raises(ValueError):
        where_of(key)


def test_hand_deep_links() -> None:
    payload = hand_payload(1234)
    assert parse_hand_payload(payload) == 1234
    assert deep_link("tavolo_bot", payload) == "https://t.me/tavolo_bot?start=hand-1234"
    # Telegram allows 1-64 of A-Z a-z 0-9 _ - in a start payload
    assert len(payload) <= 64 and payload.replace("-", "").isalnum()
    for other in ("", "hand-", "hand-x", "hand-1-2", "join-3"):
        assert parse_hand_payload(other) is None


def test_settings_from_the_composition_roots_settings() -> None:
    from bot.config import load_settings

    assert "abc" not in repr(TelegramSettings(token="1:abc"))
    assert TelegramSettings.from_settings(load_settings(telegram_token="")) is None
    settings = TelegramSettings.from_settings(
        load_settings(
            telegram_token="1:abc",
            telegram_api_url="http://127.0.0.1:8081/",
            telegram_webhook_url="https://bot.example.org/tg",
            telegram_webhook_secret="s3cret_",
            telegram_webhook_port="9443",
            telegram_webhook_listen="0.0.0.0",
            telegram_webhook_path="/hook/",
            telegram_repost_after="7",
            telegram_max_retries="5",
            telegram_media_chat="-100123",
        )
    )
    assert settings is not None and settings.token == "1:abc"
    assert settings.base_url == "http://127.0.0.1:8081/bot"
    assert settings.uses_webhook and settings.webhook_secret == "s3cret_"
    assert (settings.webhook_listen, settings.webhook_port) == ("0.0.0.0", 9443)
    assert settings.webhook_path == "hook"
    assert (settings.repost_after, settings.max_retries) == (7, 5)
    assert settings.media_chat == -100123
    default = TelegramSettings.from_settings(load_settings(telegram_token="1:abc"))
    assert default is not None and default.base_url == "https://api.telegram.org/bot"
    assert not default.uses_webhook and default.webhook_secret is None
