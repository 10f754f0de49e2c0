"""Every family's table message ends alike by the table's status (one ``_table_state``): whose
turn and "My hand" in play, "Game over." and "Rematch" when finished, "The table was closed."
and no button after /abandon — Scala 40 and games without a layout of their own included."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.render import FAMILIES, Renderer, family_renderer, generic
from bot.service import Audience, TableView
from engine import briscola, scala40, scopa
from tests.render.test_briscola_render import info

CHAT = Audience("chat", "telegram", "-100777")
CLOSED = {"en": "The table was closed.", "it": "Il tavolo è stato chiuso."}


@dataclasses.dataclass(frozen=True)
class ToyView:
    """A public view of a game the renderer has no layout for."""

    players: int = 2
    current_player: int | None = 0
    pile: tuple[str, ...] = ("7D", "KS")


def _view(family: str) -> Any:
    if family == "scopa":
        return scopa.new_game(scopa.Rules(players=2), seed=1).view(None)
    if family == "scala40":
        return scala40.new_game(scala40.Rules(players=2), seed=1).view(None)
    if family == "briscola":
        return briscola.new_game(briscola.Rules(players=2), seed=1).view(None)
    return ToyView()


@pytest.mark.parametrize("locale", ["en", "it"])
@pytest.mark.parametrize("family", ["scopa", "scala40", "briscola", "toy"])
def test_every_family_ends_the_table_by_its_status(family: str, locale: str) -> None:
    renderer = Renderer()
    view = _view(family)

    def render(status: str) -> tuple[list[str], list[str]]:
        event = TableView(
            audience=CHAT, locale=locale, table=info(family, 2, version=3, status=status), view=view
        )
        message = renderer.render(event)
        actions = [b.data.rsplit(":", 1)[-1] for row in message.buttons for b in row]
        return message.text.split("\n"), actions

    lines, actions = render("abandoned")
    assert lines[-1] == CLOSED[locale]
    assert actions == []
    lines, actions = render("playing")
    assert CLOSED[locale] not in lines
    assert actions == ["@hand"]
    lines, actions = render("finished")
    assert CLOSED[locale] not in lines
    assert actions == ["@rematch"]


def test_dispatch_by_family() -> None:
    assert family_renderer("chiamata") is FAMILIES["briscola"]
    assert family_renderer("toy") is generic
    assert set(FAMILIES) == {"scopa", "scala40", "briscola", "chiamata"}
