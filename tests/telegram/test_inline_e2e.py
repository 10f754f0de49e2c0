"""Whole games played from the group through inline mode only, through the real PTB and the fake
Bot API: nobody ever opens the private chat, no answer shows another player's cards, a stale or
forged result changes nothing, and the group gets at most one new bot message per move."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest

from bot.service import decode_button
from tests.fakes.telegram_api import (
    JSON,
    FakeBotApi,
    StoredMessage,
    group_chat,
    private_chat,
    user,
)
from tests.telegram.harness import (
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hidden_cards_by_version,
    table_messages,
    table_status,
)
from tests.telegram.inline_play import (
    LOOK,
    Mode,
    ask,
    check_private,
    game_now,
    inline_turn,
    version_of,
)

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
CARLA = user(1003, "Carla")
DARIO = user(1004, "Dario")
GROUP = group_chat(-100700, "Tavolata")
MAX_TURNS = 3000  # bounded: far above any game below
# How long the card pictures may take to show in an answer (uploaded in the background).
PICTURES_WAIT = 120.0
ROOT = Path(__file__).resolve().parents[2]

# Scala 40 as a player in a hurry: open, meld, attach, then discard; draw when nothing else.
PREFERENCE = ("o", "m", "a", "d", "p", "t")


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(inline=True) as server:
        server.make_bot_admin(GROUP["id"])
        for player in (ALICE, BOB, CARLA, DARIO):
            server.block_private(player["id"])  # they never opened the bot
        yield server


async def open_table(tavolo: Tavolo, command: str, players: list[JSON]) -> int:
    api = tavolo.api
    await tavolo.say(GROUP, players[0], command)
    lobby = api.last_bot_message(GROUP["id"])
    table_id = decode_button(action_data(lobby, "@join")).table_id
    for player in players[1:]:
        answer = await tavolo.press_action(
            api.message(GROUP["id"], lobby.message_id), player, "@join"
        )
        assert answer["text"] is None, answer
    answer = await tavolo.press_action(
        api.message(GROUP["id"], lobby.message_id), players[0], "@start"
    )
    assert answer["text"] is None, answer
    await api.wait_idle(quiet=0.1)
    return table_id


async def play_inline(
    tavolo: Tavolo,
    players: list[JSON],
    table_id: int,
    *,
    mode: Mode,
    seed: int,
    pick_scala40: bool = False,
) -> int:
    rng = random.Random(seed)

    def pick(moves: list[JSON]) -> JSON:
        if pick_scala40:
            for wanted in PREFERENCE:
                found = [
                    m
                    for m in moves
                    if decode_button(m["id"]).action.split(" ", 1)[0][:1].lower() == wanted
                ]
                if found:
                    return rng.choice(found)
        return rng.choice(moves)

    moves = 0
    for _ in range(MAX_TURNS):
        if await table_status(tavolo, table_id) != "playing":
            return moves
        moved = False
        for player in players:
            if await inline_turn(tavolo, player, table_id, GROUP, pick, mode=mode):
                moves += 1
                moved = True
        assert moved, "nobody could move"
    raise AssertionError("the game did not end")


def table_message(api: FakeBotApi, table_id: int) -> StoredMessage:
    (table,) = [
        m for m in table_messages(api, GROUP["id"], table_id) if "@hand" in str(m.reply_markup)
    ]
    return table


def gone(api: FakeBotApi, message: StoredMessage) -> bool:
    return (message.chat["id"], message.message_id) not in api.messages


def group_sends(api: FakeBotApi) -> int:
    return len([r for r in api.calls("sendMessage", chat_id=GROUP["id"]) if r.ok]) + len(
        [r for r in api.calls("sendPhoto", chat_id=GROUP["id"]) if r.ok]
    )


def assert_group_stayed_clean(api: FakeBotApi, moves: int, sends_before: int) -> None:
    """No posted move is left; at most one new bot message (a turn mention) per move, plus the
    hands' summaries and the game-over message; nothing ever went to a private chat."""
    assert not api.via_bot_messages(GROUP["id"])
    sends = group_sends(api) - sends_before
    assert sends <= moves + 12, (sends, moves)
    private = [r for r in api.requests if isinstance(r.chat_id, int) and r.chat_id > 0 and r.ok]
    assert not private, [(r.method, r.chat_id) for r in private]


async def test_scopa_two_players_inline_only(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        table = api.bot_messages(GROUP["id"])[-1]
        mine = [b for b in table.buttons() if "switch_inline_query_current_chat" in b]
        assert len(mine) == 1 and mine[0]["switch_inline_query_current_chat"] == str(table_id)
        assert "🂠" in mine[0]["text"]
        sends_before = group_sends(api)
        moves = await play_inline(tavolo, [ALICE, BOB], table_id, mode=Mode(), seed=1)
        assert moves >= 18
        assert await table_status(tavolo, table_id) == "finished"
        assert_group_stayed_clean(api, moves, sends_before)
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        # turn mentions: a text_mention of the player to move, never of the one who just moved
        mentions = [
            r for r in api.calls("sendMessage", chat_id=GROUP["id"]) if r.params.get("entities")
        ]
        assert mentions
        for request in mentions:
            (entity,) = request.params["entities"]
            assert entity["type"] == "text_mention"
            assert entity["user"]["id"] in (ALICE["id"], BOB["id"])
        # the last mention went when the game ended
        left = {r.params["text"] for r in mentions} & {
            m.text for m in api.bot_messages(GROUP["id"])
        }
        assert not left, left


async def test_scopone_four_players_inline_by_posted_messages_only(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Inline feedback off: the message each result posts "via @bot" makes the move."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        players = [ALICE, BOB, CARLA, DARIO]
        table_id = await open_table(tavolo, "/scopone target=1", players)
        sends_before = group_sends(api)
        moves = await play_inline(tavolo, players, table_id, mode=Mode(feedback=False), seed=2)
        assert moves >= 36
        export = await tavolo.service.export_game(table_id)  # type: ignore[union-attr]
        assert export["status"] == "finished" and export["players"] == 4
        assert {m["actor"] for m in export["moves"]} == {"human"}
        assert_group_stayed_clean(api, moves, sends_before)


async def test_scala40_inline_feedback_first(api: FakeBotApi, tmp_path: Path) -> None:
    """The chosen_inline_result comes before the posted message (both come)."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo, "/scala40 2", [ALICE, BOB])
        sends_before = group_sends(api)
        moves = await play_inline(
            tavolo,
            [ALICE, BOB],
            table_id,
            mode=Mode(message_first=False),
            seed=3,
            pick_scala40=True,
        )
        assert await table_status(tavolo, table_id) == "finished"
        assert moves > 20
        assert_group_stayed_clean(api, moves, sends_before)
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0


async def test_briscola_four_players_inline_only(api: FakeBotApi, tmp_path: Path) -> None:
    """Briscola in pairs through the inline panel alone: cards as results, nothing private."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        players = [ALICE, BOB, CARLA, DARIO]
        table_id = await open_table(tavolo, "/briscola 4", players)
        sends_before = group_sends(api)
        moves = await play_inline(tavolo, players, table_id, mode=Mode(), seed=4)
        assert await table_status(tavolo, table_id) == "finished"
        assert moves >= 40
        assert_group_stayed_clean(api, moves, sends_before)
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0


async def test_stale_and_forged_results_change_nothing(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        # whoever is to move: their answer lists moves; the other's shows their hand read-only
        first, second = ALICE, BOB
        query_id, results, _ = await ask(tavolo, first, "")
        if all(decode_button(r["id"]).action.startswith(LOOK) for r in results):
            first, second = BOB, ALICE
            query_id, results, _ = await ask(tavolo, first, "")
        _, waiting, answer = await ask(tavolo, second, "")
        assert waiting and all(decode_button(r["id"]).action.startswith(LOOK) for r in waiting)
        assert "⏳" in answer["button"]["text"]
        await check_private(tavolo, second, table_id, waiting)
        old = results[0]
        # the waiting player forges the mover's move with the current version: refused
        version = await version_of(tavolo, table_id)
        api.forge_chosen_result(second, old["id"])
        for forged in (
            f"{table_id}:{version}:@abandon",
            f"{table_id}:{version}:?7D",
            f"{table_id}:{version}:ZZ",
            "not a result",
            f"{table_id + 1}:{version}:7D",
        ):
            api.forge_chosen_result(first, forged)
        await api.wait_idle()
        assert await version_of(tavolo, table_id) == version
        assert await table_status(tavolo, table_id) == "playing"
        # the real move, then the same result again (stale): nothing more happens
        posted = api.choose_inline_result(first, query_id, old["id"], chat=GROUP)
        await api.wait_idle()
        moved = await version_of(tavolo, table_id)
        assert moved > version
        assert posted is not None and (GROUP["id"], posted.message_id) not in api.messages
        again = api.choose_inline_result(first, query_id, old["id"], chat=GROUP)
        api.forge_chosen_result(first, old["id"])
        await api.wait_idle()
        assert await version_of(tavolo, table_id) == moved
        assert again is not None and (GROUP["id"], again.message_id) not in api.messages
        # a stale result from an answer before the move: its message becomes a short notice
        if await table_status(tavolo, table_id) == "playing":
            query_id, results, _ = await ask(tavolo, second, str(table_id))
            playable = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
            assert playable
            # the same move at the version before: as if answered before the last move
            stale = dict(playable[0])
            data = decode_button(stale["id"])
            stale_id = f"{data.table_id}:{data.version - 1}:{data.action}"
            api.inline_answers[query_id]["results"].append({**stale, "id": stale_id})
            notice = api.choose_inline_result(second, query_id, stale_id, chat=GROUP)
            await api.wait_idle()
            assert await version_of(tavolo, table_id) == moved
            assert notice is not None
            shown = api.messages.get((GROUP["id"], notice.message_id))
            assert shown is not None and shown.text is not None and shown.text.startswith("⚠️")


async def test_a_spectator_sees_no_cards_and_notify_off_silences_mentions(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(GROUP, BOB, "/notify off")
        # (said in the group: in the group's language, Italian, whatever Bob's is)
        assert "disattivati" in (api.last_bot_message(GROUP["id"]).text or "")
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        _, results, answer = await ask(tavolo, CARLA, str(table_id))
        assert results == [] and answer["button"]["start_parameter"] == "help"
        await play_inline(tavolo, [ALICE, BOB], table_id, mode=Mode(), seed=5)
        mentioned = {
            r.params["entities"][0]["user"]["id"]
            for r in api.calls("sendMessage", chat_id=GROUP["id"])
            if r.params.get("entities")
        }
        assert mentioned == {ALICE["id"]}


async def test_in_private_button_still_delivers_the_hand(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        # Alice opened the bot once: the private button brings her hand there, kept up to date
        await tavolo.say(private_chat(ALICE), ALICE, "/start")
        table = table_message(api, table_id)
        answer = await tavolo.press_action(table, ALICE, "@hand")
        assert answer["text"] is None
        hands = [m for m in api.bot_messages(ALICE["id"]) if m.buttons() or "7" in (m.text or "")]
        assert hands, [m.text for m in api.bot_messages(ALICE["id"])]
        # Bob never opened it: the same button offers the deep link, once
        answer = await tavolo.press_action(table_message(api, table_id), BOB, "@hand")
        links = [
            b
            for m in api.bot_messages(GROUP["id"])
            for b in m.buttons()
            if str(b.get("url", "")).endswith(f"start=hand-{table_id}")
        ]
        assert links


async def test_card_pictures_are_uploaded_once_and_shown_by_file_id(
    api: FakeBotApi, tmp_path: Path
) -> None:
    media = -100999  # the bot's own picture store (TELEGRAM_MEDIA_CHAT)
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        await tavolo.stop()
        tavolo.settings = dataclasses.replace(tavolo.settings, media_chat=media)
        await tavolo.start()
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        # the first answers are articles; the pictures are uploaded beside them, once
        for player in (ALICE, BOB):
            await ask(tavolo, player, str(table_id))
        # The players open their cards again until they see them as pictures, as a person
        # would (the uploads run in the background: on a loaded machine they take a while);
        # bounded generously.
        deadline = time.monotonic() + PICTURES_WAIT
        while True:
            await api.wait_idle()
            _, results, _ = await ask(tavolo, ALICE, str(table_id))
            _, waiting, _ = await ask(tavolo, BOB, str(table_id))
            # the waiting player's cards, one result each (the player to move: their moves)
            cards = [
                r
                for r in results + waiting
                if decode_button(r["id"]).action.startswith(LOOK)
                and decode_button(r["id"]).action != LOOK
            ]
            photos = [r for r in results + waiting if r["type"] == "photo"]
            if photos and cards and all(r["type"] == "photo" for r in cards):
                break
            assert time.monotonic() < deadline, "the card pictures never showed"
            await asyncio.sleep(0.5)
        uploads = [r for r in api.calls("sendPhoto", chat_id=media) if r.ok]
        assert uploads and all(r.params.get("disable_notification") for r in uploads)
        assert all(r["photo_file_id"] in api.files for r in photos)
        # a picture shows one card of the asker's own: the posted message says only the move
        await check_private(tavolo, ALICE, table_id, results)
        await check_private(tavolo, BOB, table_id, waiting)
        moves = await play_inline(tavolo, [ALICE, BOB], table_id, mode=Mode(), seed=7)
        assert moves > 0 and await table_status(tavolo, table_id) == "finished"
        names = [r.files for r in api.calls("sendPhoto", chat_id=media) if r.ok]
        assert len(names) <= 40  # each card of the deck at most once


async def test_a_bot_that_is_no_admin_still_plays_and_clears_its_own(
    api: FakeBotApi, tmp_path: Path
) -> None:
    api.bot_admin_chats.discard(GROUP["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        moves = await play_inline(tavolo, [ALICE, BOB], table_id, mode=Mode(), seed=11)
        assert await table_status(tavolo, table_id) == "finished"
        # the players' posted moves stay (Telegram refuses), and the bot stopped asking soon
        assert len(api.via_bot_messages(GROUP["id"])) == moves
        refused = [r for r in api.requests if r.method.startswith("deleteMessage") and not r.ok]
        assert len(refused) <= 2
        # its own turn mentions went: at most the table message and the game's end remain
        left = [m for m in api.bot_messages(GROUP["id"]) if m.text and "#" in m.text]
        assert len(left) <= 3, [m.text for m in left]


async def test_alone_against_the_computer_no_mentions_and_at_sign_lists_every_table(
    api: FakeBotApi, tmp_path: Path
) -> None:
    other = group_chat(-100701, "Altro gruppo")
    api.make_bot_admin(other["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(GROUP, ALICE, "/scopa 2 target=1")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        assert (await tavolo.press_action(lobby, ALICE, "@fill.easy"))["text"] is None
        await tavolo.say(other, ALICE, "/scopa 2 target=1")
        lobby = api.last_bot_message(other["id"])
        second = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(other["id"], lobby.message_id), ALICE, "@start")
        await api.wait_idle()
        # "@bot" alone: both of Alice's tables, each result naming its table
        _, results, _ = await ask(tavolo, ALICE, "")
        assert {decode_button(r["id"]).table_id for r in results} == {table_id, second}
        assert all("#" in r["title"] for r in results)
        await check_private(tavolo, ALICE, table_id, results)
        # alone against the computer: she plays the whole game and is never mentioned
        mark = len(api.requests)
        rng = random.Random(9)
        for _ in range(MAX_TURNS):
            if await table_status(tavolo, table_id) != "playing":
                break
            assert await inline_turn(
                tavolo, ALICE, table_id, GROUP, lambda m: rng.choice(m), mode=Mode()
            )
        assert await table_status(tavolo, table_id) == "finished"
        mentions = [r for r in api.requests[mark:] if r.params.get("entities")]
        assert all(r.params["chat_id"] != GROUP["id"] for r in mentions)


async def test_python_m_bot_plays_inline(api: FakeBotApi, tmp_path: Path) -> None:
    """``python -m bot`` as deployed (with Telegram's real rate limits: a group gets about 20
    requests a minute, so a few moves, not a whole game; whole games are played above): the
    players only ever use inline queries in the group."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TELEGRAM_", "DISCORD_"))
    }
    env.update(
        TELEGRAM_TOKEN=api.token,
        TELEGRAM_API_URL=api.url,
        DATA_DIR=str(tmp_path / "data"),
        PYTHONPATH=str(ROOT),
        # The players press every few milliseconds: mention them anyway, to see the mentions.
        PING_AFTER_IDLE_SECONDS="0",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        polls = await api.wait_for(lambda: api.calls("getUpdates"), timeout=60, what="polling")
        assert {"inline_query", "chosen_inline_result"} <= set(polls[0].params["allowed_updates"])
        api.send_text(GROUP, ALICE, "/scopa 2 target=1")
        lobby = (await api.wait_for(lambda: api.bot_messages(GROUP["id"]), timeout=30))[-1]
        table_id = decode_button(action_data(lobby, "@join")).table_id
        for player, action in ((BOB, "@join"), (ALICE, "@start")):
            query_id = api.press(
                api.message(GROUP["id"], lobby.message_id),
                player,
                data=action_data(api.message(GROUP["id"], lobby.message_id), action),
            )
            await api.wait_answered(query_id, timeout=30)
        rng = random.Random(4)
        moves = stale = 0
        for _ in range(4):
            moved = finished = False
            for player in (ALICE, BOB) if moves < 4 else ():
                query_id = api.inline_query(player, str(table_id))
                answer = await api.wait_inline_answer(query_id, timeout=30)
                results = api.inline_results(query_id)
                if not results and answer.get("button", {}).get("start_parameter") == "help":
                    finished = True
                    break
                playable = [
                    r for r in results if not decode_button(r["id"]).action.startswith(LOOK)
                ]
                if not playable:
                    continue
                chosen = rng.choice(playable)
                posted = api.choose_inline_result(player, query_id, chosen["id"], chat=GROUP)
                assert posted is not None
                await api.wait_for(
                    partial(gone, api, posted), timeout=30, what="the move made, its message gone"
                )
                moves += 1
                moved = True
                if stale == 0:
                    # the same result again: stale now, nothing changes, a short notice
                    stale += 1
                    again = api.choose_inline_result(player, query_id, chosen["id"], chat=GROUP)
                    assert again is not None
                    # (the bot cannot tell a second tap of one result from its first message:
                    # the repeated move is simply cleared away)
                    await api.wait_for(
                        partial(gone, api, again), timeout=30, what="the repeated result gone"
                    )
            assert moved or moves >= 4, "nobody could move"
            assert not finished
        assert moves >= 4
        assert not api.via_bot_messages(GROUP["id"])
        # pictures are on by default: the table (with its mention) is a photo and a caption
        sent = api.calls("sendMessage", chat_id=GROUP["id"]) + api.calls(
            "sendPhoto", chat_id=GROUP["id"]
        )
        mentions = [r for r in sent if r.params.get("entities") or r.params.get("caption_entities")]
        assert len(mentions) >= 3, "a mention when the turn passed to the other player"
        private = [r for r in api.requests if isinstance(r.chat_id, int) and r.chat_id > 0]
        assert not [r for r in private if r.ok]
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        try:
            _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
        except TimeoutError:
            process.kill()
            _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode(errors="replace")[-2000:]


async def test_a_timer_reminder_adds_nothing_to_the_group(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", timers=True) as tavolo:
        assert tavolo.service is not None and tavolo.bot is not None
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        mark = len(api.requests)
        results = await tavolo.service.fire_due_timers(now=time.time() + 90)
        assert results
        for result in results:
            await tavolo.bot.deliver(result)
            await tavolo.bot.delivery.settled()  # timer results are queued
        await api.wait_idle(quiet=0.1)
        # the reminder: no new message anywhere (the turn's mention is in the group already)
        sent = [r for r in api.requests[mark:] if r.method in ("sendMessage", "sendPhoto")]
        assert not sent, [(r.method, r.chat_id) for r in sent]
        # past the deadline the computer plays for the idle player: the next player is
        # mentioned in the table message posted anew
        before = await version_of(tavolo, table_id)
        for result in await tavolo.service.fire_due_timers(now=time.time() + 10_000):
            await tavolo.bot.deliver(result)
            await tavolo.bot.delivery.settled()  # timer results are queued
        await api.wait_idle(quiet=0.1)
        assert await version_of(tavolo, table_id) > before
        mentions = [r for r in api.requests[mark:] if r.params.get("entities")]
        assert mentions and all(r.chat_id == GROUP["id"] for r in mentions)


async def test_posted_messages_still_play_after_a_forged_feedback(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A forged chosen_inline_result makes the bot expect feedback; a client that sends none
    (only the posted messages) still plays, each move a moment later."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        api.forge_chosen_result(ALICE, f"{table_id}:0:7D")
        await api.wait_idle()
        rng = random.Random(2)
        moved = 0
        for _ in range(4):
            for player in (ALICE, BOB):
                moved += await inline_turn(
                    tavolo,
                    player,
                    table_id,
                    GROUP,
                    lambda moves: rng.choice(moves),
                    mode=Mode(feedback=False),
                )
        assert moved >= 4


async def test_a_table_that_cannot_carry_the_mention_gets_a_separate_one(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo, "/scopa 2 target=1", [ALICE, BOB])
        rng = random.Random(3)
        # Telegram refuses the next post in the group once (the table with its mention)
        api.inject_fault(
            "sendMessage", error_code=400, description="Bad Request: boom", chat_id=GROUP["id"]
        )
        mark = len(api.requests)
        for player in (ALICE, BOB):
            if await inline_turn(
                tavolo, player, table_id, GROUP, lambda m: rng.choice(m), mode=Mode()
            ):
                break
        await api.wait_idle(quiet=0.1)
        sent = [r for r in api.requests[mark:] if r.method == "sendMessage" and r.ok]
        edits = [r for r in api.requests[mark:] if r.method == "editMessageText" and r.ok]
        # the table was edited in place, and a mention of its own went to the group
        assert edits and [r for r in sent if r.params.get("entities")]
        mention = next(r for r in sent if r.params.get("entities"))
        # the next move takes that mention away again
        for player in (ALICE, BOB):
            if await inline_turn(
                tavolo, player, table_id, GROUP, lambda m: rng.choice(m), mode=Mode()
            ):
                break
        await api.wait_idle(quiet=0.1)
        assert mention.reply["result"]["message_id"] not in {
            m.message_id for m in api.bot_messages(GROUP["id"])
        }


async def test_inline_in_a_forum_topic_stays_in_the_topic(api: FakeBotApi, tmp_path: Path) -> None:
    forum = group_chat(-100702, "Circolo", forum=True)
    api.make_bot_admin(forum["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(forum, ALICE, "/scopa 2 target=1", thread_id=77)
        lobby = api.last_bot_message(forum["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(forum["id"], lobby.message_id), ALICE, "@start")
        rng = random.Random(6)
        moves = 0
        for _ in range(MAX_TURNS):
            if await table_status(tavolo, table_id) != "playing":
                break
            for player in (ALICE, BOB):
                query_id, results, _ = await ask(tavolo, player, str(table_id))
                playable = [
                    r for r in results if not decode_button(r["id"]).action.startswith(LOOK)
                ]
                if not playable:
                    continue
                posted = api.choose_inline_result(
                    player, query_id, rng.choice(playable)["id"], chat=forum, thread_id=77
                )
                assert posted is not None
                await api.wait_for(partial(gone, api, posted), what="the move made")
                await api.wait_idle(quiet=0.05)
                moves += 1
        assert await table_status(tavolo, table_id) == "finished" and moves > 0
        sends = [r for r in api.requests if r.method == "sendMessage" and r.chat_id == forum["id"]]
        assert sends and all(r.params.get("message_thread_id") == 77 for r in sends)
        assert any(r.params.get("entities") for r in sends)


async def test_a_player_who_is_looking_is_not_mentioned(api: FakeBotApi, tmp_path: Path) -> None:
    """PING_AFTER_IDLE_SECONDS: players who play along (an update from them within the last
    minute) are never mentioned, and the table is edited in place instead of posted anew with
    a mention; a player away for a minute is mentioned when their turn comes."""
    async with Tavolo(api, tmp_path / "t.sqlite3", ping_after_idle=60) as tavolo:
        players = [ALICE, BOB]
        table_id = await open_table(tavolo, "/scopa 2 target=11", players)
        rng = random.Random(3)

        def mentions() -> list[int]:
            return [
                entity["user"]["id"]
                for r in api.requests
                if r.chat_id == GROUP["id"] and r.ok
                for entity in r.params.get("entities") or r.params.get("caption_entities") or []
                if entity.get("type") == "text_mention"
            ]

        async def move(away: bool) -> JSON:
            game, _ = await game_now(tavolo, table_id)
            mover = players[game.current_player]
            if away:
                tavolo.presence_now += 61  # the other player has not touched the game
            assert await inline_turn(
                tavolo, mover, table_id, GROUP, lambda m: rng.choice(m), mode=Mode()
            )
            await api.wait_idle(quiet=0.1)
            return mover

        before = mentions()
        posts = group_sends(api)
        for _ in range(6):
            await move(away=False)
        assert mentions() == before  # both looking: no mention, the table edited in place
        assert group_sends(api) == posts
        mover = await move(away=True)
        other = next(p for p in players if p is not mover)
        assert mentions()[len(before) :] == [other["id"]]
        await move(away=False)  # the mentioned player moves: the mover looked just now
        assert mentions()[len(before) :] == [other["id"]]
