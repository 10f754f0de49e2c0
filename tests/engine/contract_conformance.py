"""Read by mypy only (``tests/engine/test_contract.py``): the service's toy games implement the
engine contract, as the real engines do where ``bot/service/games.py`` registers them."""

from __future__ import annotations

from engine.contract import GameModule
from tests.discord import meldgame
from tests.service import toygame

TOY: GameModule = toygame
MELD: GameModule = meldgame
