"""Life around the games in a group, through the real PTB and the fake Bot API: a lobby left
alone expires (its message says so) and a new table opens afterwards; a player who /leaves
mid-game is replaced by the computer, sees nothing more of the deal, and the game finishes
with the leaver rated as a loss; /kick by the creator (a reply, or the button list) and
refused to others; /stats in reply to a message answers the asker; /leaderboard season."""

from __future__ import annotations

import re
import time
from pathlib import Path

from bot.service import decode_button
from bot.service.seasons import season_of
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
    button_data,
    hand_message,
    play_until_over,
    table_status,
)

ADA = user(3001, "Ada")
BEA = user(3002, "Bea")
CID = user(3003, "Cid")
GROUP = group_chat(-100800, "Circolo")
GID = int(GROUP["id"])
ONE_PLURAL = re.compile(r"\b1 (carte|cards|partite|games|vinte|wins|punti|points|giocatori)\b")


async def deliver_due(tavolo: Tavolo, after: float) -> set[int]:
    """Fire the timers due ``after`` seconds from now and deliver what they say."""
    assert tavolo.service is not None and tavolo.bot is not None
    results = await tavolo.service.fire_due_timers(now=time.time() + after)
    for result in results:
        await tavolo.bot.deliver(result)
        await tavolo.bot.delivery.settled()  # timer results are queued
    return {r.table.id for r in results if r.table is not None}


async def open_lobby(tavolo: Tavolo, creator: JSON) -> tuple[int, StoredMessage]:
    await tavolo.say(GROUP, creator, "/scopa 2")
    lobby = tavolo.api.last_bot_message(GID)
    return decode_button(action_data(lobby, "@join")).table_id, lobby


async def two_player_game(tavolo: Tavolo) -> tuple[int, StoredMessage]:
    api = tavolo.api
    table_id, lobby = await open_lobby(tavolo, ADA)
    await tavolo.press_action(lobby, BEA, "@join")
    await tavolo.press_action(api.message(GID, lobby.message_id), ADA, "@start")
    assert hand_message(api, ADA["id"], table_id) or hand_message(api, BEA["id"], table_id)
    return table_id, lobby


def texts_after(api: FakeBotApi, chat_id: int, start: int) -> list[str]:
    out = []
    for request in api.requests[start:]:
        if request.ok and request.params.get("chat_id") == chat_id:
            text = request.params.get("text") or request.params.get("caption")
            if text:
                out.append(str(text))
    return out


async def test_a_lobby_left_alone_expires_and_a_new_table_opens(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id, lobby = await open_lobby(tavolo, ADA)
        await tavolo.say(GROUP, BEA, "/scopa")
        refused = api.last_bot_message(GID)
        assert refused.text == "In questa chat c'è già un tavolo aperto."
        assert await deliver_due(tavolo, 300) == set()
        # Ten minutes (the default) after the last join/leave: the lobby closes by itself.
        assert await deliver_due(tavolo, 601) == {table_id}
        closed = api.message(GID, lobby.message_id)
        assert "Nessuno ha iniziato la partita in tempo: il tavolo è stato chiuso." in (
            closed.text or ""
        )
        assert not button_data(closed)
        said = api.last_bot_message(GID)
        assert "nessuno ha iniziato la partita per 10 minuti" in (said.text or "")
        assert await deliver_due(tavolo, 1200) == set()  # once only
        await tavolo.say(GROUP, BEA, "/scopa")
        new_id = decode_button(action_data(api.last_bot_message(GID), "@join")).table_id
        assert new_id != table_id


async def test_a_player_who_leaves_is_replaced_and_rated_as_a_loss(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id, _ = await two_player_game(tavolo)
        start = len(api.requests)
        await tavolo.say(GROUP, ADA, "/leave")
        said = texts_after(api, GID, start)
        assert any("Ada ha lasciato la partita" in t for t in said), said
        # Her hand keeps no buttons: nothing to press into a game she left.
        assert all(not button_data(m) for m in api.bot_messages(ADA["id"]))
        assert await table_status(tavolo, table_id) == "playing"
        # The hand's own button asks first; Ada has left, so hers answers with a refusal.
        await play_until_over(tavolo, [BEA], table_id)
        assert await table_status(tavolo, table_id) == "finished"
        # Nothing of the deal reached Ada after she left (only her old hand's buttons cleared).
        assert texts_after(api, ADA["id"], start) == []
        assert tavolo.service is not None
        ratings = {
            r.scope: r
            for r in await tavolo.service.store.player_ratings(
                platform="telegram", user_id=str(ADA["id"])
            )
        }
        assert (ratings["global"].games, ratings["global"].wins) == (1, 0)
        # The season's boards count the game too, and /leaderboard season shows it.
        await tavolo.say(GROUP, BEA, "/leaderboard season")
        board = api.last_bot_message(GID).text or ""
        assert f"Stagione {season_of(time.time())}" in board and "Ada" in board
        assert "1 partita" in board and "1 partite" not in board
        # No number 1 met a plural noun in anything the bot wrote, anywhere, all game long.
        every = [t for chat in (GID, ADA["id"], BEA["id"]) for t in api.texts_sent_to(chat)]
        assert every and not [t for t in every if ONE_PLURAL.search(t)]


async def test_leaving_from_the_hand_asks_first(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id, _ = await two_player_game(tavolo)
        hands = [
            m for m in api.bot_messages(BEA["id"]) if any(":@quit" in d for d in button_data(m))
        ]
        assert hands, [m.text for m in api.bot_messages(BEA["id"])]
        hand = hands[-1]
        answer = await tavolo.press(hand, BEA, action_data(hand, "@quit"))
        assert answer["text"] is None
        question = api.message(BEA["id"], hand.message_id)
        assert "Lasci la partita?" in (question.text or "")
        start = len(api.requests)
        answer = await tavolo.press(question, BEA, action_data(question, "@leave"))
        assert answer["text"] is None, answer
        assert any("Bea ha lasciato la partita" in t for t in texts_after(api, GID, start))
        assert not button_data(api.message(BEA["id"], hand.message_id))
        assert await table_status(tavolo, table_id) == "playing"


async def test_kick_by_the_creator_and_refused_to_others(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id, _ = await two_player_game(tavolo)
        bea_says = api.send_text(GROUP, BEA, "ciao")
        await api.wait_idle()
        # Cid is neither the creator nor an admin: refused, nothing changes.
        await tavolo.say(GROUP, CID, "/kick", reply_to=bea_says)
        assert api.last_bot_message(GID).text == (
            "Solo chi ha aperto il tavolo o un amministratore può farlo."
        )
        # The creator with no target gets the list of players as buttons, in the group.
        await tavolo.say(GROUP, ADA, "/kick")
        listed = api.last_bot_message(GID)
        kicks = [d for d in button_data(listed) if ":@kick." in d]
        assert len(kicks) == 2, button_data(listed)
        answer = await tavolo.press(listed, CID, kicks[0])
        assert answer["text"] == "Solo chi ha aperto il tavolo o un amministratore può farlo."
        # In reply to Bea's message: Bea leaves the game, the computer plays her seat.
        start = len(api.requests)
        await tavolo.say(GROUP, ADA, "/kick", reply_to=bea_says)
        said = texts_after(api, GID, start)
        assert any("Ada ha allontanato Bea" in t for t in said), said
        assert all(not button_data(m) for m in api.bot_messages(BEA["id"]))
        # Bea, now out of the game, is no creator nor admin either.
        await tavolo.say(GROUP, BEA, "/kick", reply_to=bea_says)
        assert api.last_bot_message(GID).text == (
            "Solo chi ha aperto il tavolo o un amministratore può farlo."
        )
        await play_until_over(tavolo, [ADA], table_id)
        assert tavolo.service is not None
        bea = {
            r.scope: r
            for r in await tavolo.service.store.player_ratings(
                platform="telegram", user_id=str(BEA["id"])
            )
        }
        assert (bea["global"].games, bea["global"].wins) == (1, 0)


async def test_stats_in_reply_go_to_the_asker(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(private_chat(ADA), ADA, "/start")  # Ada's private chat is open
        bea_says = api.send_text(GROUP, BEA, "ciao")
        await api.wait_idle()
        start = len(api.requests)
        await tavolo.say(GROUP, ADA, "/stats", reply_to=bea_says)
        to_ada = texts_after(api, ADA["id"], start)
        assert any("Statistiche di Bea" in t for t in to_ada), to_ada
        assert texts_after(api, BEA["id"], start) == []


async def test_a_new_table_replaces_a_stale_lobby(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        old_id, old_lobby = await open_lobby(tavolo, ADA)
        assert tavolo.service is not None
        # Eleven minutes on, and the timer loop has not closed the lobby yet.
        tavolo.service.clock = lambda: time.time() + 660
        await tavolo.say(GROUP, BEA, "/scopa")
        closed = api.message(GID, old_lobby.message_id)
        assert "Nessuno ha iniziato la partita in tempo" in (closed.text or "")
        assert not button_data(closed)
        # The new lobby and the old one's closing words go out in separate lanes, in any order.
        (new_lobby,) = [m for m in api.bot_messages(GID) if "@join" in str(m.reply_markup)]
        new_id = decode_button(action_data(new_lobby, "@join")).table_id
        assert new_id != old_id


async def test_kick_by_name_or_seat_number(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id, _ = await two_player_game(tavolo)
        start = len(api.requests)
        await tavolo.say(GROUP, ADA, "/kick @bea")
        assert any("Ada ha allontanato Bea" in t for t in texts_after(api, GID, start))
        # Her seat now plays by itself: a seat number naming it again is refused.
        assert tavolo.service is not None
        live = await tavolo.service.live(table_id)
        seat = next(i for i, s in enumerate(live.row.seats) if s and s.name == "Bea")
        await tavolo.say(GROUP, ADA, f"/kick {seat + 1}")
        assert api.last_bot_message(GID).text == "Quel giocatore non gioca a questo tavolo."
