"""Privacy across simulated games on both fakes (a few here; ``benchmarks/privacy.py`` plays
many): no card of a private hand in a public message before it is played, and no one but the
seated player receives a hand (a stranger pressing "My hand" sees none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.privacy import discord_games, telegram_games


@pytest.mark.slow
async def test_telegram_hands_stay_private(tmp_path: Path) -> None:
    figures = await telegram_games(tmp_path / "p.sqlite3", 3, seed=4)
    assert figures.games == 3
    assert figures.group_texts_checked >= figures.moves // 2
    assert figures.private_texts_checked > figures.moves // 2
    assert figures.stranger_looks >= 3


async def test_discord_hands_stay_private(tmp_path: Path) -> None:
    figures = await discord_games(tmp_path / "d.sqlite3", 2, seed=6)
    assert figures.games == 2
    assert figures.group_texts_checked > figures.moves
    assert figures.stranger_looks >= 2
