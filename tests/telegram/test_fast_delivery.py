"""A press is answered first and its messages follow; under Telegram's flood limits only the
newest state of a message is sent; lost messages heal (retries, a stale press, a restart,
/start); a group that becomes a supergroup keeps its table. All through the real PTB against
the fake Bot API."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

from bot.service import ChatRef, UserRef, decode_button
from bot.telegram.limiter import PacedRateLimiter
from tests.fakes.telegram_api import (
    JSON,
    FakeBotApi,
    FloodLimits,
    StoredMessage,
    group_chat,
    private_chat,
    user,
)
from tests.telegram.harness import Tavolo, action_data, move_buttons, table_messages

ALICE = user(3001, "Alice", lang="en")
BOB = user(3002, "Bob", lang="en")
GROUP = group_chat(-100900, "Veloci")
EDITS = ("editMessageText", "editMessageReplyMarkup", "sendMessage", "deleteMessage")


async def open_game(tavolo: Tavolo, chat: JSON = GROUP) -> int:
    """Alice opens a 2-player Scopa to 11 in ``chat``, Bob joins, Alice starts."""
    api = tavolo.api
    await tavolo.say(chat, ALICE, "/scopa 2 target=11")
    lobby = api.last_bot_message(chat["id"])
    table_id = decode_button(action_data(lobby, "@join")).table_id
    assert (await tavolo.press_action(lobby, BOB, "@join"))["text"] is None
    lobby = api.message(chat["id"], lobby.message_id)
    assert (await tavolo.press_action(lobby, ALICE, "@start"))["text"] is None
    return table_id


def hand_of(api: FakeBotApi, player: JSON, table_id: int) -> StoredMessage | None:
    """The player's hand message of the table when it has plain move buttons (their turn)."""
    for message in reversed(api.bot_messages(player["id"])):
        moves = [d for d in move_buttons(message) if decode_button(d).table_id == table_id]
        if moves:
            return message
    return None


def hand_after(api: FakeBotApi, table_id: int, version: int) -> bool:
    """Some player's hand offers moves on a version after ``version``."""
    for player in (ALICE, BOB):
        hand = hand_of(api, player, table_id)
        if hand is not None and decode_button(move_buttons(hand)[0]).version > version:
            return True
    return False


async def settled(tavolo: Tavolo) -> None:
    assert tavolo.bot is not None
    await tavolo.bot.delivery.settled()


def plain_moves(message: StoredMessage) -> list[str]:
    return [d for d in move_buttons(message) if ":?" not in d]


async def version_of(tavolo: Tavolo, table_id: int) -> int:
    assert tavolo.service is not None
    (info,) = [t for t in await tavolo.service.tables_of(tavolo_user(ALICE)) if t.id == table_id]
    return info.version


def tavolo_user(who: JSON) -> UserRef:
    return UserRef("telegram", str(who["id"]), who["first_name"], "en")


async def next_move(
    tavolo: Tavolo, table_id: int, *, settle: bool = True
) -> tuple[JSON, StoredMessage, str]:
    """Whoever's turn it is, their hand and a plain move (a capture choice as a second step
    when the hand offers only those)."""
    api = tavolo.api

    def ready() -> tuple[JSON, StoredMessage, str] | None:
        """The newest hand's plain move (the mover's old hand may still show its buttons
        for a moment: the answer comes before the edits)."""
        found = [
            (decode_button(move_buttons(hand)[0]).version, player, hand)
            for player in (ALICE, BOB)
            if (hand := hand_of(api, player, table_id)) is not None
        ]
        if not found:
            return None
        _, player, hand = max(found, key=lambda vph: vph[0])
        moves = plain_moves(hand)
        return (player, hand, moves[0]) if moves else None

    found = ready()
    if found is None:
        # Only capture choices on offer: open the first card's.
        hands = [
            (decode_button(move_buttons(hand)[0]).version, player, hand)
            for player in (ALICE, BOB)
            if (hand := hand_of(api, player, table_id)) is not None
        ]
        _, player, hand = max(hands, key=lambda vph: vph[0])
        await tavolo.press(hand, player, move_buttons(hand)[0])
        found = await api.wait_for(ready, timeout=20, what="a plain move")
    return found


async def test_a_press_is_answered_before_any_message_is_edited(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        player, hand, move = await next_move(tavolo, table_id)
        start = len(api.requests)
        query = api.press(hand, player, data=move)
        assert (await api.wait_answered(query))["text"] is None
        await settled(tavolo)
        methods = [r.method for r in api.requests[start:] if r.method != "getUpdates"]
        assert methods[0] == "answerCallbackQuery", methods
        # ...and the edits followed: the table in the group and the hands.
        assert "editMessageText" in methods[1:], methods
        shown = table_messages(api, GROUP["id"], table_id)[-1]
        version = await version_of(tavolo, table_id)
        assert all(decode_button(d).version == version for d in move_buttons(shown) or [])


async def test_table_edits_are_coalesced_under_the_group_limit(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """With the group allowed 2 calls in any 4 s (the fake enforcing it, the bot's limiter
    keeping it), moves come faster than the table may be edited: the hands follow every
    move, the table message skips the states it had no time for and ends on the newest, and
    Telegram never has to refuse a call."""
    api.enforce_flood_limits(FloodLimits(group_rate=2, group_period=4.0))

    def limiter() -> PacedRateLimiter:
        return PacedRateLimiter(group_rate=2, group_period=4.2, max_retries=0)

    async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=limiter) as tavolo:
        table_id = await open_game(tavolo)
        await settled(tavolo)
        start = len(api.requests)
        moves = 6
        for _ in range(moves):
            player, hand, move = await next_move(tavolo, table_id)
            query = api.press(hand, player, data=move)
            answer = await api.wait_answered(query)
            assert answer["text"] is None, answer
            # the next hand arrives without waiting for the group's window
            past = decode_button(move).version
            await api.wait_for(
                functools.partial(hand_after, api, table_id, past), timeout=20, what="next hand"
            )
        await settled(tavolo)
        group_edits = [
            r
            for r in api.requests[start:]
            if r.ok and r.chat_id == GROUP["id"] and r.method == "editMessageText"
        ]
        assert 1 <= len(group_edits) < moves, len(group_edits)
        assert not api.flood_refusals, api.flood_refusals
        version = await version_of(tavolo, table_id)
        shown = table_messages(api, GROUP["id"], table_id)[-1]
        assert {decode_button(d).version for d in _data(shown)} == {version}


def _data(message: StoredMessage) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


async def test_a_failed_edit_is_retried(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        player, hand, move = await next_move(tavolo, table_id)
        api.inject_server_error("editMessageText", times=1, error_code=502)
        api.inject_server_error("editMessageText", times=1, error_code=500)
        api.inject_timeout("editMessageText", seconds=6.0, times=1)
        assert (await tavolo.press(hand, player, move))["text"] is None
        failed = [r for r in api.calls("editMessageText") if r.status in (500, 502)]
        assert len(failed) == 2
        version = await version_of(tavolo, table_id)
        shown = table_messages(api, GROUP["id"], table_id)[-1]
        assert {decode_button(d).version for d in _data(shown)} == {version}
        for who in (ALICE, BOB):
            mine = hand_of(api, who, table_id) or api.last_bot_message(who["id"])
            assert all(decode_button(d).version == version for d in _data(mine)), who


async def test_a_stale_press_sends_the_hand_again(api: FakeBotApi, tmp_path: Path) -> None:
    """Bob's hand edit was lost (his message still shows an old turn): his press is refused
    as stale, and his hand comes back as it is now, with buttons that work."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        player, hand, move = await next_move(tavolo, table_id)
        other = BOB if player is ALICE else ALICE
        other_hand = api.bot_messages(other["id"])[-1]
        old_text = other_hand.text
        assert (await tavolo.press(hand, player, move))["text"] is None
        now_hand = hand_of(api, other, table_id)
        assert now_hand is not None and now_hand.message_id == other_hand.message_id
        # the edit "was lost": put the old content back, and give it an old move button
        stale = f"{table_id}:{decode_button(move).version}:{move.split(':', 2)[2]}"
        other_hand.text = old_text
        other_hand.reply_markup = {"inline_keyboard": [[{"text": "old", "callback_data": stale}]]}
        answer = await tavolo.press(other_hand, other, stale)
        assert answer["show_alert"] and answer["text"], answer
        version = await version_of(tavolo, table_id)

        def current_hand() -> StoredMessage | None:
            # The heal follows the answer: until it lands the hand still shows the old button.
            found = hand_of(api, other, table_id)
            versions = {decode_button(d).version for d in move_buttons(found)} if found else set()
            return found if versions == {version} else None

        healed = await api.wait_for(current_hand, timeout=10, what="the hand sent again")
        assert (await tavolo.press(healed, other, plain_moves(healed)[0]))["text"] is None


async def test_a_restart_delivers_what_was_left_undelivered(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A move committed while nothing reached Telegram (the process died right after the
    commit): the next start edits the table and the hands to it, once."""
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        player, _, move = await next_move(tavolo, table_id)
        assert tavolo.bot is not None and tavolo.service is not None
        await tavolo.bot.stop()
        tavolo.bot = None
        result = await tavolo.service.press(
            ChatRef("telegram", str(GROUP["id"])),
            tavolo_user(player),
            move,
        )
        assert result.ok
        version = result.table.version  # type: ignore[union-attr]
        start = len(api.requests)
        await tavolo.restart()
        other = BOB if player is ALICE else ALICE

        def delivered() -> bool:
            shown = table_messages(api, GROUP["id"], table_id)[-1]
            mine = hand_of(api, other, table_id)
            return {decode_button(d).version for d in _data(shown)} == {version} and (
                mine is not None
                and {decode_button(d).version for d in move_buttons(mine)} == {version}
            )

        await api.wait_for(delivered, timeout=20, what="the table delivered anew")
        # It is recorded as delivered once a call the dead process had in flight can no
        # longer land over it (then the views go once more): bounded wait.
        assert tavolo.bot is not None
        book = tavolo.bot.delivery.book
        for _ in range(100):
            if await book.delivered(table_id) == version:
                break
            await asyncio.sleep(0.3)
        assert await book.delivered(table_id) == version
        await settled(tavolo)
        edits = len([r for r in api.requests[start:] if r.method in EDITS])
        # A second restart finds it delivered: nothing is sent again.
        await tavolo.restart()
        await settled(tavolo)
        await api.wait_idle()
        assert len([r for r in api.requests[start:] if r.method in EDITS]) == edits


async def test_start_sends_the_hands_again_after_a_block(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo)
        player, hand, move = await next_move(tavolo, table_id)
        other = BOB if player is ALICE else ALICE
        api.block_bot(other["id"])  # the other player blocked the bot
        assert (await tavolo.press(hand, player, move))["text"] is None
        version = await version_of(tavolo, table_id)
        assert hand_of(api, other, table_id) is None or {
            decode_button(d).version
            for d in move_buttons(hand_of(api, other, table_id))  # type: ignore[arg-type]
        } != {version}
        # ...and comes back with a plain /start (writing to the bot unblocks it)
        await tavolo.say(private_chat(other), other, "/start")
        await settled(tavolo)
        healed = await api.wait_for(
            lambda: hand_of(api, other, table_id), timeout=10, what="the hand after /start"
        )
        assert {decode_button(d).version for d in move_buttons(healed)} == {version}
        assert healed.message_id == api.last_bot_message(other["id"]).message_id


async def test_the_table_follows_its_group_into_a_supergroup(
    api: FakeBotApi, tmp_path: Path
) -> None:
    old: JSON = {"id": -900901, "type": "group", "title": "Piccolo"}
    new = group_chat(-1001234567890, "Piccolo")
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo, old)
        # Telegram's service message in the old group: it migrated to the new id
        api.push_update(
            {
                "message": {
                    "message_id": 999,
                    "date": 0,
                    "chat": old,
                    "from": ALICE,
                    "migrate_to_chat_id": new["id"],
                }
            }
        )
        await api.wait_for(
            lambda: table_messages(api, new["id"], table_id), timeout=10, what="the table moved"
        )
        await settled(tavolo)
        assert tavolo.service is not None
        (info,) = await tavolo.service.open_tables(ChatRef("telegram", str(new["id"])))
        assert info.id == table_id
        assert not await tavolo.service.open_tables(ChatRef("telegram", str(old["id"])))
        # "My hand" and /rules work in the new chat
        shown = table_messages(api, new["id"], table_id)[-1]
        answer = await tavolo.press_action(shown, BOB, "@hand")
        assert answer["text"] is None, answer
        sent = await tavolo.say(new, ALICE, "/rules")
        assert not any("no open table" in (r.params.get("text") or "").lower() for r in sent)
        # and the game goes on from the hands
        player, hand, move = await next_move(tavolo, table_id)
        assert (await tavolo.press(hand, player, move))["text"] is None


async def test_an_edit_refused_as_migrated_moves_the_table(api: FakeBotApi, tmp_path: Path) -> None:
    """The bot never saw the migration message; Telegram's error on the old id says where the
    group went: the table moves there."""
    old: JSON = {"id": -900902, "type": "group", "title": "Piccolo"}
    new = group_chat(-1001234567891, "Piccolo")
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_game(tavolo, old)
        api.inject_fault(
            "editMessageText",
            error_code=400,
            description="Bad Request: group chat was upgraded to a supergroup chat",
            parameters={"migrate_to_chat_id": new["id"]},
            chat_id=old["id"],
            times=5,
        )
        player, hand, move = await next_move(tavolo, table_id)
        assert (await tavolo.press(hand, player, move))["text"] is None
        await api.wait_for(
            lambda: table_messages(api, new["id"], table_id), timeout=10, what="the table moved"
        )
        assert tavolo.service is not None
        (info,) = await tavolo.service.open_tables(ChatRef("telegram", str(new["id"])))
        assert info.id == table_id
