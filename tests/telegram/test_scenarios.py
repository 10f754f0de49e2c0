"""Whole games through the real PTB and the fake Bot API, asserting on what Telegram received."""

from __future__ import annotations

from pathlib import Path

from bot.service import decode_button
from tests.fakes.telegram_api import FakeBotApi, group_chat, private_chat, user
from tests.telegram.harness import (
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hidden_cards_by_version,
    play_until_over,
    table_messages,
    table_status,
)

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
CARLA = user(1003, "Carla")
DARIO = user(1004, "Dario")
GROUP = group_chat(-100500, "Amici")


def lobby_of(api: FakeBotApi, chat_id: int) -> tuple[int, object]:
    message = api.last_bot_message(chat_id)
    table_id = decode_button(action_data(message, "@join")).table_id
    return table_id, message


async def test_group_scopa_two_humans_from_lobby_to_game_over(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(GROUP, ALICE, f"/scopa@{api.bot_username} 2 target=1")
        table_id, lobby = lobby_of(api, GROUP["id"])
        lobby_id = lobby.message_id
        answer = await tavolo.press_action(lobby, BOB, "@join")
        assert answer["text"] is None
        # the lobby message is edited in place as seats fill
        lobby = api.message(GROUP["id"], lobby_id)
        assert "Bob" in (lobby.text or "")
        answer = await tavolo.press_action(lobby, ALICE, "@start")
        assert answer["text"] is None
        # both hands went privately, each with the version-stamped buttons
        assert api.bot_messages(ALICE["id"]) and api.bot_messages(BOB["id"])
        presses = await play_until_over(tavolo, [ALICE, BOB], table_id)
        assert presses >= 36 // 2
        assert await table_status(tavolo, table_id) == "finished"
        # one public table message edited in place (the lobby became the table? no: counted)
        public = table_messages(api, GROUP["id"], table_id)
        assert len(public) <= 1 + presses // tavolo.settings.repost_after + 2
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        # private hand messages were edited, not re-sent
        for player in (ALICE, BOB):
            sends = api.calls("sendMessage", chat_id=player["id"])
            edits = api.calls("editMessageText", chat_id=player["id"])
            assert len(edits) > len(sends), (player, len(sends), len(edits))
