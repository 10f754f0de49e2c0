"""Message ids in the store (migration 0004): after a restart, or from a second process on the
same database, the same group table message and the same private hand messages are edited;
nothing is re-posted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import decode_button
from tests.fakes.telegram_api import FakeBotApi, StoredMessage, group_chat, private_chat, user
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


async def start_game(tavolo: Tavolo) -> int:
    """Alice opens Scopa for two in the group, Bob joins, Alice deals; the table's id."""
    api = tavolo.api
    await tavolo.say(GROUP, ALICE, "/scopa 2")
    lobby = api.last_bot_message(GROUP["id"])
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(lobby, BOB, "@join")
    await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
    return table_id


def stopped_clock(tavolo: Tavolo) -> list[float]:
    """The delivery's clock stands still at ``now[0]`` until the test moves it."""
    assert tavolo.bot is not None
    delivery = tavolo.bot.delivery
    now = [delivery.clock()]
    delivery.clock = lambda: now[0]
    return now


@pytest.mark.parametrize("images", [False, True])
async def test_restart_mid_game_edits_the_same_messages(
    api: FakeBotApi, tmp_path: Path, images: bool
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=images) as tavolo:
        table_id = await start_game(tavolo)
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


def link_buttons(api: FakeBotApi) -> int:
    return sum("url" in b for m in api.bot_messages(GROUP["id"]) for b in m.buttons())


def refused(api: FakeBotApi, user_id: int, since: int = 0) -> int:
    return sum(
        1
        for r in api.requests[since:]
        if r.chat_id == user_id and r.method in ("sendMessage", "sendPhoto") and r.status == 403
    )


def notices(api: FakeBotApi, user_id: int) -> list[StoredMessage]:
    """The turn notices still in the user's private chat (button-less "your turn" messages)."""
    return [
        m
        for m in api.bot_messages(user_id)
        if not m.buttons() and m.text is not None and "turn" in m.text
    ]


async def test_refused_private_chats_and_turn_notices_survive_a_restart(
    api: FakeBotApi, tmp_path: Path
) -> None:
    api.block_private(BOB["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_game(tavolo)
        assert link_buttons(api) == 1 and refused(api, BOB["id"]) == 1
        table = table_message(api, table_id)
        await tavolo.restart()
        # The new process knocks once more (it cannot know without trying), learns from the
        # store that the deep link was already offered in this spell, and does not repeat it.
        since, posts = len(api.requests), group_posts(api)
        for _ in range(3):
            await tavolo.press_action(table, BOB, "@hand")
        assert refused(api, BOB["id"], since) == 1 and link_buttons(api) == 1
        # Nor is the table posted again in the group, where its message already shows it.
        assert group_posts(api) == posts
        # Bob opens the private chat from the link: his hand arrives, and the game goes on.
        await tavolo.say(private_chat(BOB), BOB, f"/start hand-{table_id}")
        assert hand_message(api, BOB["id"], table_id) is not None
        rng = random.Random(5)
        for round_no in range(6):
            if round_no == 3:
                await tavolo.restart()
            for player in (ALICE, BOB):
                await play_turn(tavolo, player, table_id, rng)
            # each player's previous notice was deleted when the next came, across the restart
            for player in (ALICE, BOB):
                assert len(notices(api, player["id"])) <= 1, notices(api, player["id"])
        assert any(notices(api, p["id"]) for p in (ALICE, BOB))
        assert link_buttons(api) == 1


async def test_a_start_seen_by_another_process_unblocks_the_hands(
    api: FakeBotApi, tmp_path: Path
) -> None:
    api.block_private(BOB["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_game(tavolo)
        now = stopped_clock(tavolo)
        assert tavolo.store is not None
        # Another process on the same database served Bob's /start: the mark is gone there.
        api.unblock_private(BOB["id"])
        await tavolo.store.state_delete(platform="telegram", kind="blocked", scope=str(BOB["id"]))
        # This process still trusts its memory for a while (no store read per hand) ...
        since = len(api.requests)
        table = table_message(api, table_id)
        await tavolo.press_action(table, BOB, "@hand")
        assert hand_message(api, BOB["id"], table_id) is None
        assert not [r for r in api.requests[since:] if r.chat_id == BOB["id"]]
        # ... then checks the store, and Bob's hand goes to his private chat.
        now[0] += 31
        await tavolo.press_action(table, BOB, "@hand")
        assert hand_message(api, BOB["id"], table_id) is not None


async def test_a_refused_private_chat_is_tried_again_after_a_while(
    api: FakeBotApi, tmp_path: Path
) -> None:
    api.block_private(BOB["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_game(tavolo)
        now = stopped_clock(tavolo)
        # Bob opened the private chat without the link (Telegram tells the bot nothing).
        api.unblock_private(BOB["id"])
        table = table_message(api, table_id)
        await tavolo.press_action(table, BOB, "@hand")
        assert hand_message(api, BOB["id"], table_id) is None
        now[0] += 601
        await tavolo.press_action(table, BOB, "@hand")
        assert hand_message(api, BOB["id"], table_id) is not None
        assert link_buttons(api) == 1
        # The retry got through, so the refusal is forgotten (here and in the store): if Bob
        # closes the chat again, that is a new spell, and the link is offered anew.
        assert tavolo.store is not None
        assert (
            await tavolo.store.state_get(platform="telegram", kind="blocked", scope=str(BOB["id"]))
            is None
        )
        api.block_bot(BOB["id"])
        await tavolo.press_action(table, BOB, "@hand")
        assert link_buttons(api) == 2
