"""Scala 40 in a group through the real PTB (runs once engine.scala40 is on main).

Two humans draw, open, meld, attach and discard with the buttons of their private messages for
a bounded number of rounds; the group never sees a card still in a hand.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import decode_button
from tests.fakes.telegram_api import FakeBotApi, group_chat, user
from tests.telegram.harness import (
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hand_message,
    hidden_cards_by_version,
    move_buttons,
)

pytest.importorskip("engine.scala40", reason="the Scala 40 engine has not landed on main yet")

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
GROUP = group_chat(-100600, "Ramino")
ROUNDS = 40

# Progress first: open, meld, attach; then discard; drawing only when that is all there is.
PREFERENCE = ("o ", "m ", "a", "d ", "p", "t")


def pick(moves: list[str], rng: random.Random) -> str:
    for prefix in PREFERENCE:
        found = [m for m in moves if m.split(":", 2)[2].startswith(prefix)]
        if found:
            return rng.choice(found)
    return rng.choice(moves)


async def test_scala40_turns_in_a_group(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        await tavolo.say(GROUP, ALICE, "/scala40 2")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
        rng = random.Random(3)
        for _ in range(ROUNDS):
            moved = False
            for player in (ALICE, BOB):
                message = hand_message(api, player["id"], table_id)
                if message is None:
                    continue
                answer = await tavolo.press(message, player, pick(move_buttons(message), rng))
                assert answer["text"] is None, answer
                moved = True
            assert moved, "nobody can move"
        moves = [m["move"] for m in (await tavolo.service.export_game(table_id))["moves"]]
        assert len(moves) >= ROUNDS
        assert {m.split()[0] for m in moves} >= {"t", "d"}
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        # each player's hand stayed one private message, edited in place
        for player in (ALICE, BOB):
            hands = [m for m in api.bot_messages(player["id"]) if move_buttons(m)]
            assert len(hands) <= 1
