"""One seat's state, built directly: its own hand only, the public view for anyone else, the
seat back for a player the computer stands in for."""

from __future__ import annotations

import pytest

from bot.render import Renderer
from bot.service import SeatInfo, TableChange, TableInfo, default_registry
from bot.web.state import Viewer, build_state


def change(away: bool = False, game: str = "scopone") -> TableChange:
    kind = default_registry().get(game)
    assert kind is not None
    players = kind.default_players
    state = kind.new_game(kind.rules(players, {}), 3)
    seats = tuple(
        SeatInfo(
            i,
            f"P{i}",
            "telegram",
            str(i),
            False,
            "easy" if away and i == 0 else None,
            away and i == 0,
        )
        for i in range(players)
    )
    info = TableInfo(
        id=9,
        platform="telegram",
        chat_id="-1",
        game=game,
        family=kind.family,
        status="playing",
        version=4,
        players=players,
        options={},
        seats=seats,
        creator="0",
        current_seat=state.current_player,
        teams=kind.teams(players),
    )
    return TableChange(table=info, game=state)


@pytest.mark.parametrize("game", ["scopone", "scala40", "briscola", "chiamata"])
def test_each_seat_gets_its_own_hand_and_a_stranger_none(game: str) -> None:
    c = change(game=game)
    for seat in range(c.table.players):
        state = build_state(Renderer(), c, Viewer("telegram", str(seat), "it"), deck="x")
        assert state["you"] == seat
        assert state["view"]["hand"] == [str(card) for card in c.game.view(seat).hand]
        assert bool(state["moves"]) == (c.game.current_player == seat)
    stranger = build_state(Renderer(), c, Viewer("telegram", "99", "en"), deck="x")
    assert stranger["you"] is None and stranger["view"]["hand"] == [] and stranger["moves"] == []


def test_a_player_the_computer_stands_in_for_is_offered_the_seat_back() -> None:
    state = build_state(Renderer(), change(away=True), Viewer("telegram", "0", "en"), deck="x")
    assert state["away"] is True and state["moves"] == []
    assert state["actions"][0] == {"action": "@back", "label": "Take my seat back"}
    assert state["seats"][0]["computer"] is True
