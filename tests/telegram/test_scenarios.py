"""Whole games through the real PTB and the fake Bot API, asserting on what Telegram received."""

from __future__ import annotations

from pathlib import Path

from bot.service import UserRef, decode_button
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


async def start_two_player_game(tavolo: Tavolo, *, chat: dict = GROUP, thread_id=None) -> int:
    """Alice opens Scopa to 1 point in ``chat``, Bob joins, Alice starts; returns the table id."""
    api = tavolo.api
    await tavolo.say(chat, ALICE, "/scopa 2 target=1", thread_id=thread_id)
    table_id, lobby = lobby_of(api, chat["id"])
    assert (await tavolo.press_action(lobby, BOB, "@join"))["text"] is None
    lobby = api.message(chat["id"], lobby.message_id)
    assert (await tavolo.press_action(lobby, ALICE, "@start"))["text"] is None
    return table_id


async def test_scopone_two_humans_two_computers(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(GROUP, ALICE, "/scopone target=1")
        table_id, lobby = lobby_of(api, GROUP["id"])
        await tavolo.press_action(lobby, BOB, "@join")
        lobby = api.message(GROUP["id"], lobby.message_id)
        assert (await tavolo.press_action(lobby, ALICE, "@fill.easy"))["text"] is None
        assert api.bot_messages(ALICE["id"]) and api.bot_messages(BOB["id"])
        presses = await play_until_over(tavolo, [ALICE, BOB], table_id, seed=4)
        assert presses > 0
        export = await tavolo.service.export_game(table_id)  # type: ignore[union-attr]
        assert export["status"] == "finished" and export["players"] == 4
        actors = {m["actor"] for m in export["moves"]}
        assert actors == {"human", "computer"} or ("human" in actors and len(actors) == 2)
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        # the computers' seats got no private messages: only two users ever had DMs
        private = {r.chat_id for r in api.requests if isinstance(r.chat_id, int) and r.chat_id > 0}
        assert private == {ALICE["id"], BOB["id"]}


async def test_private_quick_game_against_the_computer(api: FakeBotApi, tmp_path: Path) -> None:
    chat = private_chat(CARLA)
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(chat, CARLA, "/play scopa 2 target=1")
        groups = {r.chat_id for r in api.requests if isinstance(r.chat_id, int) and r.chat_id < 0}
        assert not groups
        assert tavolo.service is not None
        tables = await tavolo.service.tables_of(UserRef("telegram", str(CARLA["id"]), "Carla"))
        assert len(tables) == 1 and tables[0].chat_id == str(CARLA["id"])
        table_id = tables[0].id
        await play_until_over(tavolo, [CARLA], table_id, seed=2)
        assert await table_status(tavolo, table_id) == "finished"
        # the whole table lived in that chat
        assert {r.chat_id for r in api.requests if r.chat_id is not None} == {CARLA["id"]}


async def test_403_gives_a_deep_link_that_delivers_the_hand(
    api: FakeBotApi, tmp_path: Path
) -> None:
    api.block_private(BOB["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        refused = [r for r in api.calls("sendMessage", chat_id=BOB["id"]) if r.status == 403]
        assert refused and "initiate conversation" in refused[0].reply["description"]
        links = [b for m in api.bot_messages(GROUP["id"]) for b in m.buttons() if "url" in b]
        assert len(links) == 1
        assert links[0]["url"] == f"https://t.me/{api.bot_username}?start=hand-{table_id}"
        # more hand updates for Bob ("My hand" in the group) do not repeat the link
        table_message = table_messages(api, GROUP["id"], table_id)[-1]
        await tavolo.press_action(table_message, BOB, "@hand")
        assert sum("url" in b for m in api.bot_messages(GROUP["id"]) for b in m.buttons()) == 1
        # Bob taps the link: Telegram opens the private chat and sends /start <payload>
        await tavolo.say(private_chat(BOB), BOB, f"/start hand-{table_id}")
        hands = [m for m in api.bot_messages(BOB["id"]) if m.text and "Your hand" in m.text]
        assert len(hands) == 1
        await play_until_over(tavolo, [ALICE, BOB], table_id, seed=3)
        assert await table_status(tavolo, table_id) == "finished"
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden)
