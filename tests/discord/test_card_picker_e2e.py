"""The hand's card picker for a game with more moves than 25 buttons hold, through the real
discord.py and the fake Discord, with the real service on SQLite and a small many-moves game
(registered under the ``scala40`` command but its own family, so the renderer's generic layout
shows it and must truncate its buttons: the picker makes every move reachable)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.bot import TavoloBot
from bot.discord.sync import MemorySyncState
from bot.render import Renderer
from bot.service import ComputerPlayers, Registry, TableService, TimerSettings
from bot.service.games import GameKind
from bot.store import Store
from tests.discord import meldgame
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    TrackedHandler,
    action_of,
    assert_all_answered,
    find_id,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import STRING_SELECT, FakeDiscord, StoredMessage

MAX_TURNS = 60


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}")
    await store.upgrade()

    def players(name: str) -> Any:
        return meldgame.LastMove()

    yield TableService(
        store,
        registry=Registry([GameKind("scala40", "meld", meldgame, (2,), 2)]),
        computers=ComputerPlayers(players),
        timers=TimerSettings(reminder=0),
        seeds=lambda: 5,
    )
    await store.close()


def picker(message: StoredMessage) -> tuple[str, list[str]]:
    """The card picker on a hand message: its custom id and the cards offered."""
    for row in message.components:
        for component in row["components"]:
            if component["type"] == STRING_SELECT:
                return component["custom_id"], [o["value"] for o in component["options"]]
    raise AssertionError(f"no card picker on {message.content!r}")


def moves_on(message: StoredMessage) -> list[str]:
    return [
        action_of(c)
        for c in message.custom_ids()
        if not action_of(c).startswith(("@", "~")) and not c.startswith("s")
    ]


async def test_pick_cards_then_play_the_narrowed_move(
    fake: FakeDiscord, service: TableService
) -> None:
    alice = fake.add_user("alice")
    handler = TrackedHandler(service, Renderer())
    bot = TavoloBot(handler=handler, sync_state=MemorySyncState(), guild_ready_timeout=0.05)
    handler.bind(bot)
    rng = random.Random(3)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scala40", computers=1)
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        shown = await fake.click(alice, fake.messages[lobby.id], find_id(lobby, "@hand"))
        await shown.wait_answer()
        await settle(handler, fake, shown)
        hand = [m for m in shown.followups if m.ephemeral][-1]
        chosen: list[str] = []
        pickers = 0
        for _ in range(MAX_TURNS):
            hand = fake.messages[hand.id]
            over = any(action_of(c) == "@rematch" for c in fake.messages[lobby.id].custom_ids())
            if over or not moves_on(hand):
                break
            visible = moves_on(hand)
            pairs = [m for m in visible if m.startswith("m ")]
            wanted = rng.choice(pairs) if pairs else visible[-1]
            if any(r["components"][0]["type"] == STRING_SELECT for r in hand.components):
                pickers += 1
                select_id, cards = picker(hand)
                assert 1 <= len(cards) <= 25 and len(hand.components) <= 5
                picked = [wanted[i : i + 2] for i in range(2, len(wanted), 2)]
                pick = await fake.select(alice, hand, select_id, picked)
                await pick.wait_answer()
                await settle(handler, fake, pick)
                narrowed = moves_on(fake.messages[hand.id])
                assert wanted in narrowed
                assert all(all(card in move for card in picked) for move in narrowed)
            move = await fake.click(alice, fake.messages[hand.id], find_id(hand, wanted))
            await move.wait_answer()
            await settle(handler, fake, move)
            chosen.append(wanted)
        export = await service.export_game(table_id)
    assert len(chosen) >= 3 and pickers >= 1
    assert [m["move"] for m in export["moves"] if m["seat"] == 0] == chosen
    assert export["status"] == "finished"
    assert_all_answered(fake)
