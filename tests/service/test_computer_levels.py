"""Every computer level names a player the engine has: a wrong name is an error when the
computer players are made (at start-up), never a silent fallback to another player."""

from __future__ import annotations

import pytest

from bot.service import ComputerPlayers
from bot.service import players as players_module
from engine.ai import PLAYER_NAMES


def test_every_level_names_an_engine_player() -> None:
    for levels in players_module.CANDIDATES.values():
        for names in levels.values():
            assert set(names) <= set(PLAYER_NAMES), names


def test_an_unknown_player_name_is_an_error_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = {**players_module.CANDIDATES, "scala40": {"hard": ("scala40-hard", "scala40")}}
    monkeypatch.setattr(players_module, "CANDIDATES", wrong)
    with pytest.raises(ValueError, match="scala40-hard"):
        ComputerPlayers()


def test_a_player_source_of_its_own_may_offer_only_some_names() -> None:
    """A source of players other than the engine's (a test's toy game) may lack the preferred
    names: the level falls back along its list."""
    first = object()

    def source(name: str) -> object:
        if name != "greedy":
            raise KeyError(name)
        return first

    computers = ComputerPlayers(source)  # type: ignore[arg-type]
    assert computers.player_name("scopa", "hard") == "greedy"


def test_the_engine_players_bad_options_are_not_swallowed() -> None:
    def source(name: str) -> object:
        raise ValueError("bad options")

    with pytest.raises(ValueError, match="bad options"):
        ComputerPlayers(source).player_name("scopa", "hard")  # type: ignore[arg-type]
