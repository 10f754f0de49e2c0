"""The settings menu in words and buttons, in both languages; /rules says where values come from."""

from __future__ import annotations

import pytest

from bot.render import Renderer
from bot.render.settings import parse_settings_data, render_settings, sources_text
from bot.service import Audience
from bot.service.settings import GAME_OPTIONS, ChatSettings, SettingsView

GAMES = ("scopa", "scopone", "scientifico", "scala40", "briscola", "chiamata")


def settings(**over: object) -> ChatSettings:
    values: dict[str, object] = {
        "platform": "telegram",
        "chat_id": "-1",
        "default_timer": 120,
        "games": GAMES,
    }
    values.update(over)
    return ChatSettings(**values)  # type: ignore[arg-type]


def pages() -> list[str]:
    out = ["main", "lang", "style", "timer", "open"]
    for game in GAMES:
        out.append(f"game.{game}")
        out.extend(f"option.{game}.{spec.name}" for spec in GAME_OPTIONS[game])
    return out


@pytest.mark.parametrize("locale", ["it", "en"])
@pytest.mark.parametrize("page", pages())
def test_every_page_fits_the_platforms(locale: str, page: str) -> None:
    renderer = Renderer()
    chosen = settings(timer=30, defaults={"scopa": {"target": 16, "napola": True}})
    event = SettingsView(
        audience=Audience("chat", "telegram", "-1"), locale=locale, settings=chosen, page=page
    )
    message = render_settings(renderer, event)
    assert message.text and len(message.text) <= 2000
    assert 0 < len(message.buttons) <= 5
    for row in message.buttons:
        assert 0 < len(row) <= 5
        for button in row:
            assert len(button.data.encode()) <= 64
            assert 0 < len(button.label) <= 80
            key, _value = parse_settings_data(button.data)
            assert key
    if page.startswith("option.") or page in ("lang", "style", "timer", "open"):
        assert sum(b.label.startswith("✓") for row in message.buttons for b in row) == 1


def test_main_page_in_words() -> None:
    renderer = Renderer()
    chosen = settings(
        timer=30, language="en", pictures=False, open="admins", defaults={"scopa": {"target": 16}}
    )
    view = SettingsView(
        audience=Audience("chat", "telegram", "-1"), locale="en", settings=chosen, saved="timer"
    )
    text = render_settings(renderer, view).text
    assert "Turn timer: 30 s" in text
    assert "Card pictures: off" in text
    assert "Who may open tables: admins only" in text
    assert "Scopa: Points to win 16" in text
    assert "Saved." in text
    italian = render_settings(
        renderer,
        SettingsView(audience=Audience("chat", "telegram", "-1"), locale="it", settings=settings()),
    ).text
    assert "Tempo del turno: 2 min (predefinito del bot)" in italian


def test_parse_settings_data() -> None:
    assert parse_settings_data("cfg:@timer") == ("timer", None)
    assert parse_settings_data("cfg:timer=30") == ("timer", "30")
    assert parse_settings_data("cfg:scopa.target=*") == ("scopa.target", "*")
    for bad in ("cfg:", "cfg:timer", "1:2:@join", "cfg:=3"):
        with pytest.raises(ValueError):
            parse_settings_data(bad)


def test_sources_in_words() -> None:
    t = Renderer().translations("en")
    options = {"target": 21, "napola": True, "re_bello": False}
    text = sources_text(options, {"target": "command", "napola": "chat"}, t)
    assert "This table's command: Points to win 21" in text
    assert "Chat setting: Napola yes" in text
    assert "Every other option: the game's default." in text
    assert sources_text(options, {}, t) == "Every option: the game's default."
    it = sources_text(options, {"napola": "chat"}, Renderer().translations("it"))
    assert "Impostazione della chat: Napola sì" in it


def test_main_page_offers_every_game() -> None:
    event = SettingsView(
        audience=Audience("chat", "discord", "-1"), locale="it", settings=settings(), page="main"
    )
    message = render_settings(Renderer(), event)
    pages = {parse_settings_data(b.data)[0] for row in message.buttons for b in row}
    assert {f"game.{g}" for g in GAMES} <= pages


def test_every_engine_option_has_its_button_and_words() -> None:
    """Scala 40's ten options all fit on its page; the options chats could not set before
    (Briscola's removed 2, Scopone's fuori, Scala 40's restocks) are in words."""
    renderer = Renderer()

    def page(name: str, locale: str = "en") -> tuple[str, list[str], list[str]]:
        event = SettingsView(
            audience=Audience("chat", "telegram", "-1"),
            locale=locale,
            settings=settings(),
            page=name,
        )
        message = render_settings(renderer, event)
        labels = [b.label for row in message.buttons for b in row]
        return message.text, labels, [b.data for row in message.buttons for b in row]

    _, _, data = page("game.scala40")
    for spec in GAME_OPTIONS["scala40"]:
        assert f"cfg:@option.scala40.{spec.name}" in data
    text, labels, data = page("option.briscola.removed_two")
    assert "The 2 taken out at 3 players" in text and "the 2 of Clubs" in labels
    assert "cfg:briscola.removed_two=2D" in data
    _, labels, _ = page("option.briscola.removed_two", "it")
    assert "il 2 di Bastoni" in labels
    _, labels, _ = page("option.briscola.swap")
    assert "no swap" in labels
    _, labels, data = page("option.scopone.fuori")
    assert "cfg:scopone.fuori=1" in data
    _, labels, data = page("option.scala40.max_restocks")
    assert "cfg:scala40.max_restocks=0" in data and "cfg:scala40.max_restocks=3" in data
