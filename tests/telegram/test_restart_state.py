"""Message ids in the store (migration 0004): after a restart, or from a second process on the
same database, the same group table message and the same private hand messages are edited;
nothing is re-posted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import decode_button
from tests.fakes.telegram_api import FakeBotApi, StoredMessage, group_chat, user
from tests.telegram.harness import Tavolo, action_data, hand_message, play_turn

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
GROUP = group_chat(-100800, "Riavvio")


def table_message(api: FakeBotApi, table_id: int) -> StoredMessage:
    found = [
        m
        for m in api.bot_messages(GROUP["id"])
        if any(
            decode_button(str(b["callback_data"])).table_id == table_id
            and str(b["callback_data"]).endswith(":@hand")
            for b in m.buttons()
            if "callback_data" in b
        )
    ]
    assert len(found) == 1, [m.message_id for m in found]
    return found[0]


def group_posts(api: FakeBotApi) -> int:
    return len(api.calls("sendMessage", chat_id=GROUP["id"])) + len(
        api.calls("sendPhoto", chat_id=GROUP["id"])
    )


@pytest.mark.parametrize("images", [False, True])
async def test_restart_mid_game_edits_the_same_messages(
    api: FakeBotApi, tmp_path: Path, images: bool
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=images) as tavolo:
        await tavolo.say(GROUP, ALICE, "/scopa 2")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
        rng = random.Random(2)
        for _ in range(2):
            for player in (ALICE, BOB):
                await play_turn(tavolo, player, table_id, rng)
        table = table_message(api, table_id)
        hands = {p["id"]: hand_message(api, p["id"], table_id) for p in (ALICE, BOB)}
        posts = group_posts(api)
        restart_at = len(api.requests)
        await tavolo.restart()  # a new process: nothing in memory, the same database
        # moves are pressed only in private chats: the new process never saw the group message
        played = 0
        for _ in range(3):
            for player in (ALICE, BOB):
                played += await play_turn(tavolo, player, table_id, rng)
        assert played >= 3
        # no new table message in the group: the old one was edited in place
        assert group_posts(api) == posts
        assert table_message(api, table_id).message_id == table.message_id
        edit = "editMessageMedia" if images else "editMessageText"
        assert [
            r
            for r in api.calls(edit, chat_id=GROUP["id"])
            if r.params["message_id"] == table.message_id
        ]
        # and the hands went on in their old private messages: after the restart no private
        # message with buttons was posted (turn notices, new by design, carry none)
        for player in (ALICE, BOB):
            now = hand_message(api, player["id"], table_id)
            old = hands[player["id"]]
            if now is not None and old is not None:
                assert now.message_id == old.message_id
            reposted = [
                r
                for r in api.requests[restart_at:]
                if r.method in ("sendMessage", "sendPhoto")
                and r.chat_id == player["id"]
                and r.params.get("reply_markup")
            ]
            assert reposted == [], reposted
