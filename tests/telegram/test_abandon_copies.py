"""``/abandon`` closes every live copy of the table message (issue 41): the current one and the
copies left above when the table was posted anew (it scrolled away) now show the closed table
without buttons, and the messages waiting for deletion with the table's buttons (old copies,
posted inline moves, a turn mention) go at once, under the bot's real limiter."""

from __future__ import annotations

import random
from pathlib import Path

from bot.service import decode_button
from bot.telegram.limiter import PacedRateLimiter
from tests.fakes.telegram_api import FakeBotApi, StoredMessage, group_chat, user
from tests.telegram.harness import Tavolo, action_data, play_turn, table_status
from tests.telegram.inline_play import LOOK, ask, game_now
from tests.telegram.test_group_budget import lobby_message, made

ALDO = user(4201, "Aldo")
BEA = user(4202, "Bea")
GROUP = group_chat(-100960, "Circolo")
GID = int(GROUP["id"])
CLOSED = "Il tavolo è stato chiuso."
CLEARED_WAIT = 90.0  # bounded: the group's window lets the deletions through well before


def table_buttons(message: StoredMessage, table_id: int) -> list[str]:
    """The buttons of ``message`` that act on the table (its callbacks, "🂠 My cards")."""
    found = []
    for button in message.buttons():
        data = button.get("callback_data")
        if (
            isinstance(data, str)
            and data.count(":") >= 2
            and decode_button(data).table_id == table_id
        ):
            found.append(str(button.get("text")))
        if button.get("switch_inline_query_current_chat") == str(table_id):
            found.append(str(button.get("text")))
    return found


def with_buttons(api: FakeBotApi, table_id: int) -> list[StoredMessage]:
    return [m for m in api.chat_messages(GID) if table_buttons(m, table_id)]


def mentions_table(message: StoredMessage, table_id: int) -> bool:
    return f"tavolo {table_id}" in (message.text or "") or f"#{table_id}" in (message.text or "")


async def open_game(tavolo: Tavolo) -> int:
    api = tavolo.api
    await tavolo.say(GROUP, ALDO, "/scopa 2")
    lobby = await api.wait_for(lambda: lobby_message(api, GID), timeout=30, what="the lobby")
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(api.message(GID, lobby.message_id), BEA, "@join")
    await tavolo.press_action(api.message(GID, lobby.message_id), ALDO, "@start")
    await api.wait_idle()
    return table_id


async def test_abandon_closes_the_reposted_copies(api: FakeBotApi, tmp_path: Path) -> None:
    """Private hands; the table is posted anew after a little chatter, leaving copies above."""
    async with Tavolo(api, tmp_path / "t.sqlite3", repost_after=2) as tavolo:
        table_id = await open_game(tavolo)
        rng = random.Random(2)
        for _ in range(4):
            for _ in range(3):
                api.send_text(GROUP, BEA, "chiacchiere")
            await api.wait_idle()
            for player in (ALDO, BEA):
                await play_turn(tavolo, player, table_id, rng)
        copies = [
            m
            for m in api.bot_messages(GID)
            if (m.text or "").count("\n") > 3 and mentions_table(m, table_id)
        ]
        assert len(copies) >= 2, "the table was never posted anew"
        await tavolo.say(GROUP, ALDO, "/abandon")
        await tavolo.bot.delivery.settled()  # type: ignore[union-attr]
        await api.wait_idle()
        assert await table_status(tavolo, table_id) == "abandoned"
        for copy in copies:
            now = api.message(GID, copy.message_id)
            assert (now.text or "").rstrip().endswith(CLOSED), now.text
            assert not now.buttons(), now.reply_markup
        assert not with_buttons(api, table_id)


async def test_abandon_in_inline_play_leaves_no_button_of_the_table(tmp_path: Path) -> None:
    """Inline play under the bot's real limiter (deletions wait and gather): after /abandon no
    message in the group offers the table's buttons, and the table message says it closed."""
    async with FakeBotApi(inline=True) as api:
        api.enforce_flood_limits()
        api.make_bot_admin(GID)
        for player in (ALDO, BEA):
            api.block_private(player["id"])
        async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=PacedRateLimiter) as tavolo:
            table_id = await open_game(tavolo)
            players = {ALDO["id"]: ALDO, BEA["id"]: BEA}
            for _ in range(4):
                game, export = await game_now(tavolo, table_id)
                seats = [int(s["user_id"]) for s in export["seats"]]
                player = players[seats[game.current_player]]
                query_id, results, _ = await ask(tavolo, player, str(table_id))
                moves = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
                api.choose_inline_result(player, query_id, moves[0]["id"], chat=GROUP)
                await made(tavolo, table_id, int(export["version"]))
                await api.wait_idle(quiet=0.2)
            await tavolo.say(GROUP, ALDO, "/abandon")
            await api.wait_for(
                lambda: not with_buttons(api, table_id),
                timeout=CLEARED_WAIT,
                what="no message with the table's buttons",
            )
            shown = [m for m in api.bot_messages(GID) if mentions_table(m, table_id)]
            assert any((m.text or "").rstrip().endswith(CLOSED) for m in shown), [
                m.text for m in shown
            ]
            assert not any("tocca a te" in (m.text or "") for m in shown)
            assert not api.flood_refusals, api.flood_refusals


async def test_abandon_closes_a_table_shown_as_a_picture(api: FakeBotApi, tmp_path: Path) -> None:
    """With card pictures the table message is a photo: its caption says the table closed and
    its buttons go."""
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        table_id = await open_game(tavolo)
        photos = [m for m in api.bot_messages(GID) if m.has_photo and table_buttons(m, table_id)]
        assert photos, "the table is not a picture"
        await tavolo.say(GROUP, ALDO, "/abandon")
        await tavolo.bot.delivery.settled()  # type: ignore[union-attr]
        await api.wait_idle()
        for photo in photos:
            now = api.message(GID, photo.message_id)
            assert (now.caption or "").rstrip().endswith(CLOSED), now.caption
            assert not now.buttons(), now.reply_markup
        assert not with_buttons(api, table_id)
