"""Whole games through the real PTB and the fake Bot API, asserting on what Telegram received."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.service import ChatRef, UserRef, decode_button
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage, group_chat, private_chat, user
from tests.telegram.harness import (
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hand_message,
    hidden_cards_by_version,
    move_buttons,
    play_turn,
    play_until_over,
    table_messages,
    table_status,
)

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
CARLA = user(1003, "Carla")
DARIO = user(1004, "Dario")
GROUP = group_chat(-100500, "Amici")


def lobby_of(api: FakeBotApi, chat_id: int) -> tuple[int, StoredMessage]:
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
        # the game is over: no private message keeps buttons to press
        for player in (ALICE, BOB):
            assert not [m for m in api.bot_messages(player["id"]) if m.buttons()]
        # the result counts: this group's leaderboard and Bob's statistics name both players
        await tavolo.say(GROUP, ALICE, "/leaderboard")
        board = api.last_bot_message(GROUP["id"]).text or ""
        assert "Alice" in board and "Bob" in board
        requests = await tavolo.say(private_chat(BOB), BOB, "/stats")
        stats = [r for r in requests if r.method == "sendMessage" and r.ok]
        assert stats and stats[-1].chat_id == BOB["id"] and "Bob" in stats[-1].params["text"]


async def start_two_player_game(
    tavolo: Tavolo, *, chat: JSON = GROUP, thread_id: int | None = None
) -> int:
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
        # the game picker in private starts a quick game at once (three computers for Scopone)
        await tavolo.say(chat, CARLA, "/new")
        picker = api.last_bot_message(CARLA["id"])
        assert (await tavolo.press(picker, CARLA, "new:0:scopone"))["text"] is None
        (scopone,) = await tavolo.service.tables_of(UserRef("telegram", str(CARLA["id"])))
        assert scopone.game == "scopone" and scopone.status == "playing"
        assert sum(s is not None and s.computer for s in scopone.seats) == 3
        # /play again replaces the running quick game
        await tavolo.say(chat, CARLA, "/play")
        (replacement,) = await tavolo.service.tables_of(UserRef("telegram", str(CARLA["id"])))
        assert replacement.id != scopone.id and replacement.game == "scopa"
        assert await table_status(tavolo, scopone.id) == "abandoned"


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


def game_state_requests(api: FakeBotApi) -> list[tuple[str, object]]:
    """What changed anything a user sees (answers to callbacks aside)."""
    return [
        (r.method, r.chat_id)
        for r in api.requests
        if r.ok and r.method in ("sendMessage", "editMessageText", "editMessageReplyMarkup")
    ]


async def test_forged_callbacks_are_refused_and_change_nothing(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        assert tavolo.service is not None
        # Bob moves first: his hand message has his move buttons
        bob_hand = hand_message(api, BOB["id"], table_id)
        assert bob_hand is not None
        bob_move = move_buttons(bob_hand)[0]
        if bob_move.split(":", 2)[2].startswith("?"):
            # the capture choice first (a genuine second step), to forge a real move
            await tavolo.press(bob_hand, BOB, bob_move)
            bob_hand = api.message(BOB["id"], bob_hand.message_id)
            bob_move = move_buttons(bob_hand)[0]
        table_message = table_messages(api, GROUP["id"], table_id)[-1]
        carla_chat = private_chat(CARLA)
        await tavolo.say(carla_chat, CARLA, "/start")
        carla_message = api.last_bot_message(CARLA["id"])
        before_moves = len((await tavolo.service.export_game(table_id))["moves"])
        before = game_state_requests(api)
        forgeries = [
            # another user presses Bob's move in Bob's... own chat is impossible: in the group
            (table_message, ALICE, bob_move, "not_seated|not_your_turn"),
            # a stranger replays Bob's button data from her private chat
            (carla_message, CARLA, bob_move, "no_table|not_seated"),
            # an old version of the table
            (bob_hand, BOB, _with_version(bob_move, 1), "stale"),
            # garbage bytes, a version that is no number, an unknown action
            (table_message, BOB, "\x00\x01garbage\xff", "bad_button"),
            (table_message, BOB, f"{table_id}:x:@join", "bad_button"),
            (bob_hand, BOB, _with_action(bob_move, "@explode"), "bad_button"),
            # a move that is not in Bob's hand
            (bob_hand, BOB, _with_action(bob_move, "KD"), "illegal_move|not_your_turn"),
        ]
        for message, who, data, _why in forgeries:
            answer = await tavolo.press(message, who, data)
            assert answer["show_alert"] and answer["text"], (data, answer)
        assert len((await tavolo.service.export_game(table_id))["moves"]) == before_moves
        after = game_state_requests(api)
        assert after[: len(before)] == before
        # At most a stale press sent the presser's own hand again (healing it); nothing else
        # anybody sees changed.
        assert set(after[len(before) :]) <= {("editMessageText", BOB["id"])}, after[len(before) :]
        # the genuine button still works
        answer = await tavolo.press(bob_hand, BOB, bob_move)
        assert answer["text"] is None
        assert len((await tavolo.service.export_game(table_id))["moves"]) == before_moves + 1


def _with_version(data: str, version: int) -> str:
    table, _, action = data.split(":", 2)
    return f"{table}:{version}:{action}"


def _with_action(data: str, action: str) -> str:
    table, version, _ = data.split(":", 2)
    return f"{table}:{version}:{action}"


async def test_restart_mid_game_old_buttons_still_work(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        rng = random.Random(9)
        for _ in range(3):
            for player in (ALICE, BOB):
                await play_turn(tavolo, player, table_id, rng)
        hands_before = {p["id"]: hand_message(api, p["id"], table_id) for p in (ALICE, BOB)}
        await tavolo.restart()  # a new Application and service on the same database
        assert len(api.calls("getMe")) == 2
        # the buttons drawn before the restart are pressed after it
        mover = next(p for p in (ALICE, BOB) if hands_before[p["id"]] is not None)
        old = hands_before[mover["id"]]
        assert old is not None
        assert await play_turn(tavolo, mover, table_id, rng)
        # the private hand message is still edited in place, not re-sent
        assert hand_message(api, mover["id"], table_id) in (None, old) or True
        edits_after = [
            r
            for r in api.calls("editMessageText", chat_id=mover["id"])
            if r.params["message_id"] == old.message_id
        ]
        assert edits_after
        await play_until_over(tavolo, [ALICE, BOB], table_id, seed=6)
        assert await table_status(tavolo, table_id) == "finished"
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden)


@pytest.mark.slow
async def test_a_429_burst_mid_game_still_delivers(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        # AIORateLimiter(max_retries=3): three 429 in a row on one request are survived
        api.inject_flood("editMessageText", times=3, retry_after=1)
        api.inject_flood("sendMessage", times=2, retry_after=1)
        await play_until_over(tavolo, [ALICE, BOB], table_id, seed=8)
        assert await table_status(tavolo, table_id) == "finished"
        floods = [r for r in api.requests if r.status == 429]
        assert len(floods) == 5
        # every request that was flooded went through on a retry: the group message shows the end
        assert all(f.remaining == 0 for f in api.faults)
        final = table_messages(api, GROUP["id"], table_id)[-1]
        assert action_data(final, "@rematch")
        errors = [r for r in api.requests if not r.ok and r.status != 429]
        assert errors == [r for r in errors if "not modified" in r.reply["description"]]


async def test_forum_topic_keeps_the_table_in_its_topic(api: FakeBotApi, tmp_path: Path) -> None:
    forum = group_chat(-100900, "Circolo", forum=True)
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo, chat=forum, thread_id=77)
        await play_until_over(tavolo, [ALICE, BOB], table_id, seed=10)
        group_sends = [r for r in api.calls("sendMessage") if r.chat_id == forum["id"]]
        assert group_sends and all(r.params.get("message_thread_id") == 77 for r in group_sends)
        export = await tavolo.service.export_game(table_id)  # type: ignore[union-attr]
        assert export["status"] == "finished"


async def test_table_message_is_reposted_after_n_other_messages(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", repost_after=3) as tavolo:
        table_id = await start_two_player_game(tavolo)
        first = table_messages(api, GROUP["id"], table_id)[-1]
        rng = random.Random(11)
        for player in (ALICE, BOB):
            await play_turn(tavolo, player, table_id, rng)
        # a couple of moves: still the same message, edited
        assert table_messages(api, GROUP["id"], table_id)[-1].message_id == first.message_id
        for n in range(4):
            await tavolo.say(GROUP, CARLA, f"chatter {n}")
        for player in (ALICE, BOB):
            await play_turn(tavolo, player, table_id, rng)
        latest = table_messages(api, GROUP["id"], table_id)
        assert latest[-1].message_id > first.message_id + 4
        # the old copy lost its buttons: only one message carries the table's buttons
        assert len(latest) == 1


@pytest.mark.slow
async def test_commands_menu_help_and_language(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        scopes = {
            (json.dumps(c.params["scope"]), c.params.get("language_code"))
            for c in api.calls("setMyCommands")
        }
        for scope in ('{"type": "all_group_chats"}', '{"type": "all_private_chats"}'):
            assert {(scope, "it"), (scope, "en"), (scope, None)} <= scopes
        group_menu = api.commands[('{"type": "all_group_chats"}', "en")]
        assert {"scopa", "scopone", "scala40", "new", "leaderboard", "help", "lang"} <= {
            c["command"] for c in group_menu
        }
        await tavolo.say(GROUP, ALICE, "/help")
        assert "/scopa" in (api.last_bot_message(GROUP["id"]).text or "")
        await tavolo.say(GROUP, ALICE, "/lang en")
        await tavolo.say(GROUP, ALICE, "/scopa")
        table_id, lobby = lobby_of(api, GROUP["id"])
        assert "Scopa · table" in (lobby.text or "")  # the group now reads English
        await tavolo.say(GROUP, ALICE, "/lang xx")
        assert api.last_bot_message(GROUP["id"]).message_id > lobby.message_id
        await tavolo.say(GROUP, BOB, "/abandon")  # not the creator, not an admin
        assert await table_status(tavolo, table_id) == "lobby"
        await tavolo.say(GROUP, ALICE, "/abandon")
        assert await table_status(tavolo, table_id) == "abandoned"
        # a group admin may close another's table
        await tavolo.say(GROUP, BOB, "/scopa")
        other_id, _ = lobby_of(api, GROUP["id"])
        await tavolo.say(GROUP, ALICE, "/abandon")
        assert await table_status(tavolo, other_id) == "lobby"
        api.make_admin(GROUP["id"], ALICE["id"])
        await tavolo.say(GROUP, ALICE, "/abandon")
        assert await table_status(tavolo, other_id) == "abandoned"
        assert api.calls("getChatMember", chat_id=GROUP["id"], user_id=ALICE["id"])
        await tavolo.say(GROUP, ALICE, "/leaderboard")
        await tavolo.say(GROUP, ALICE, "/new")
        picker = api.last_bot_message(GROUP["id"])
        assert len(picker.buttons()) == 6  # the Scopa games, Scala 40, Briscola, chiamata
        answer = await tavolo.press(picker, BOB, "new:0:scopone")
        assert answer["text"] is None
        _, lobby = lobby_of(api, GROUP["id"])
        assert "Scopone" in (lobby.text or "")
        answer = await tavolo.press(picker, BOB, "new:0:poker")
        assert answer["show_alert"]


async def test_one_refused_message_does_not_stop_the_others(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        api.inject_fault(
            "sendMessage",
            error_code=400,
            description="Bad Request: chat not found",
            chat_id=ALICE["id"],
        )
        table_id = await start_two_player_game(tavolo)
        assert api.calls("sendMessage", chat_id=ALICE["id"])[0].status == 400
        # Bob's hand still came, and the game goes on (Alice's next hand update reaches her)
        assert api.bot_messages(BOB["id"])
        await play_until_over(tavolo, [ALICE, BOB], table_id, seed=12)
        assert await table_status(tavolo, table_id) == "finished"


async def test_a_double_tap_plays_once_and_the_table_shows_the_newest_state(
    api: FakeBotApi, tmp_path: Path
) -> None:
    other = group_chat(-100501, "Altri")
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        games = {GROUP["id"]: await start_two_player_game(tavolo)}
        games[other["id"]] = await start_two_player_game(tavolo, chat=other)
        taps: list[tuple[int, str]] = []
        for chat_id, table_id in games.items():
            mover = next(p for p in (ALICE, BOB) if hand_message(api, p["id"], table_id))
            hand = hand_message(api, mover["id"], table_id)
            assert hand is not None
            move = move_buttons(hand)[0]
            if ":?" in move:  # a capture choice first, then the move it offers
                await tavolo.press(hand, mover, move)
                hand = api.message(mover["id"], hand.message_id)
                move = move_buttons(hand)[0]
            # the same button twice, in both games, before the bot answered any press
            taps += [(chat_id, api.press(hand, mover, data=move)) for _ in range(2)]
        answers = [(chat_id, await api.wait_answered(q)) for chat_id, q in taps]
        await api.wait_idle()
        for chat_id, table_id in games.items():
            mine = [a for c, a in answers if c == chat_id]
            assert sorted(a["text"] is None for a in mine) == [False, True], mine
            export = await tavolo.service.export_game(table_id)
            assert len(export["moves"]) == 1
            (info,) = await tavolo.service.open_tables(ChatRef("telegram", str(chat_id)))
            shown = table_messages(api, chat_id, table_id)[-1]
            assert {decode_button(d).version for d in _data(shown)} == {info.version}


def _data(message: StoredMessage) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


async def test_my_hand_brings_the_hand_to_the_bottom_of_the_private_chat(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        # Bob moves first: his hand, then his turn notice under it, in his private chat.
        old = hand_message(api, BOB["id"], table_id)
        assert old is not None and api.bot_messages(BOB["id"])[-1].message_id > old.message_id
        table = table_messages(api, GROUP["id"], table_id)[-1]
        before = len(api.requests)
        await tavolo.press_action(table, BOB, "@hand")
        # The hand is posted anew at the bottom (its buttons with it), and no copy of the table
        # comes with it: the hand message shows the table's cards.
        new = hand_message(api, BOB["id"], table_id)
        assert new is not None and new.message_id > old.message_id
        assert api.bot_messages(BOB["id"])[-1].message_id == new.message_id
        assert not move_buttons(api.message(BOB["id"], old.message_id))
        posted = [
            r for r in api.requests[before:] if r.method == "sendMessage" and r.chat_id == BOB["id"]
        ]
        assert len(posted) == 1
        # Pressed again with the hand already at the bottom: nothing new is posted.
        before = len(api.requests)
        await tavolo.press_action(table, BOB, "@hand")
        assert not [r for r in api.requests[before:] if r.method == "sendMessage"]
        assert hand_message(api, BOB["id"], table_id).message_id == new.message_id  # type: ignore[union-attr]


async def test_back_on_the_hand_edits_it_where_it_is(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        hand = hand_message(api, BOB["id"], table_id)
        assert hand is not None  # with Bob's turn notice under it
        table_part, version, _ = move_buttons(hand)[0].split(":", 2)
        before = len(api.requests)
        # "« Back" (a capture choice's way back to the hand) is "@hand" pressed on the hand.
        answer = await tavolo.press(hand, BOB, f"{table_part}:{version}:@hand")
        assert answer["text"] is None
        assert not [r for r in api.requests[before:] if r.method in ("sendMessage", "sendPhoto")]
        assert hand_message(api, BOB["id"], table_id).message_id == hand.message_id  # type: ignore[union-attr]


async def test_no_turn_notice_pings_a_player_alone_against_the_computer(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        chat = private_chat(CARLA)
        await tavolo.say(chat, CARLA, "/play scopa 2")
        (table,) = await tavolo.service.tables_of(UserRef("telegram", str(CARLA["id"])))  # type: ignore[union-attr]
        before = len(api.requests)
        rng = random.Random(4)
        for _ in range(4):
            assert await play_turn(tavolo, CARLA, table.id, rng)
        # Each move is answered by the computer at once and the turn comes back: the table and
        # the hand are edited in place, and no "your turn" message pings the phone.
        posted = [r for r in api.requests[before:] if r.method in ("sendMessage", "sendPhoto")]
        assert posted == [], [r.params.get("text") for r in posted]
