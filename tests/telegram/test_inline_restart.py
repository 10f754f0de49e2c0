"""Inline play across restarts and under the group's flood budget, through the real PTB and the
fake Bot API: a result offered before a restart and chosen after it still plays; the deletions of
posted moves and old table copies wait for the group's budget, go in few ``deleteMessages``
calls, and are sent after a restart when the process stopped while they waited."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest

from bot.service import decode_button
from bot.telegram.ids import PLATFORM
from bot.telegram.inline import sweeper
from bot.telegram.limiter import PacedRateLimiter
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage, group_chat, user
from tests.telegram.harness import Tavolo, action_data, table_messages
from tests.telegram.inline_play import LOOK, Mode, ask, game_now, version_of

ALICE = user(1101, "Alice")
BOB = user(1102, "Bob")
GROUP = group_chat(-100710, "Tavolata")


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(inline=True) as server:
        server.make_bot_admin(GROUP["id"])
        for player in (ALICE, BOB):
            server.block_private(player["id"])
        yield server


async def open_table(tavolo: Tavolo) -> int:
    api = tavolo.api
    await tavolo.say(GROUP, ALICE, "/scopa 2 target=11")
    lobby = api.last_bot_message(GROUP["id"])
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), BOB, "@join")
    await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
    await api.wait_idle(quiet=0.1)
    return table_id


async def to_move(tavolo: Tavolo, table_id: int) -> JSON:
    game, _ = await game_now(tavolo, table_id)
    return (ALICE, BOB)[game.current_player]


async def offered_move(tavolo: Tavolo, table_id: int) -> tuple[JSON, str, str]:
    """The player to move opens "My cards": (player, query id, a move result's id)."""
    player = await to_move(tavolo, table_id)
    query_id, results, _ = await ask(tavolo, player, str(table_id))
    moves = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
    assert moves
    return player, query_id, moves[0]["id"]


async def moved_on(tavolo: Tavolo, table_id: int, before: int) -> int:
    """The table's version once a move changed it from ``before`` (bounded wait)."""
    for _ in range(200):
        await tavolo.api.wait_idle(quiet=0.05)
        now = await version_of(tavolo, table_id)
        if now != before:
            return now
    return before


def shows_newer(api: FakeBotApi, table_id: int, version: int) -> bool:
    """A table message in the group shows a version newer than ``version``."""
    return any(
        decode_button(b["callback_data"]).version > version
        for m in table_messages(api, GROUP["id"], table_id)
        for b in m.buttons()
        if "callback_data" in b
    )


def gone(api: FakeBotApi, message: StoredMessage) -> bool:
    return (message.chat["id"], message.message_id) not in api.messages


async def post_move(tavolo: Tavolo, table_id: int) -> StoredMessage:
    """The player to move chooses a move result: its posted message, returned once the table
    shows the move (whether or not that message is deleted yet)."""
    before = await version_of(tavolo, table_id)
    player, query_id, result_id = await offered_move(tavolo, table_id)
    message = tavolo.api.choose_inline_result(player, query_id, result_id, chat=GROUP)
    assert message is not None
    await tavolo.api.wait_for(
        partial(shows_newer, tavolo.api, table_id, before), what="the table showing the move"
    )
    return message


@pytest.mark.parametrize(
    "mode",
    [Mode(), Mode(feedback=False), Mode(post=False)],
    ids=["feedback-and-message", "message-only", "feedback-only"],
)
async def test_a_result_offered_before_a_restart_still_plays_after_it(
    api: FakeBotApi, tmp_path: Path, mode: Mode
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo)
        player, query_id, result_id = await offered_move(tavolo, table_id)
        before = await version_of(tavolo, table_id)
        await tavolo.restart()  # a new process: nothing in memory, the same database
        posted = api.choose_inline_result(
            player,
            query_id,
            result_id,
            chat=GROUP,
            feedback=mode.feedback,
            post=mode.post,
            message_first=mode.message_first,
        )
        await api.wait_for(lambda: api.calls("sendMessage", chat_id=GROUP["id"]), what="a post")
        assert await moved_on(tavolo, table_id, before) == before + 1
        if posted is not None:
            # the posted move is cleared, and says no warning
            await api.wait_for(lambda: gone(api, posted), what="the posted move cleared")
        assert not [m for m in api.bot_messages(GROUP["id"]) if (m.text or "").startswith("⚠️")]
        # the same result again after the move: stale, refused, nothing changes
        api.forge_chosen_result(player, result_id)
        await api.wait_idle()
        assert await version_of(tavolo, table_id) == before + 1


@pytest.mark.parametrize("message_first", [False, True], ids=["feedback-first", "message-first"])
async def test_a_restart_between_the_two_updates_of_one_choice_shows_no_warning(
    api: FakeBotApi, tmp_path: Path, message_first: bool
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo)
        player, query_id, result_id = await offered_move(tavolo, table_id)
        before = await version_of(tavolo, table_id)
        held: list[JSON] = []
        posted = api.choose_inline_result(
            player, query_id, result_id, chat=GROUP, message_first=message_first, held=held
        )
        assert posted is not None and len(held) == 1
        assert await moved_on(tavolo, table_id, before) == before + 1
        await tavolo.restart()  # the process stops before the choice's second update
        api.push_update(held[0])
        await api.wait_for(lambda: gone(api, posted), what="the posted move cleared")
        await api.wait_idle()
        assert await version_of(tavolo, table_id) == before + 1
        assert not [m for m in api.bot_messages(GROUP["id"]) if (m.text or "").startswith("⚠️")]


async def test_a_result_of_an_old_version_is_still_refused_after_a_restart(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await open_table(tavolo)
        player, query_id, result_id = await offered_move(tavolo, table_id)
        posted = api.choose_inline_result(player, query_id, result_id, chat=GROUP)
        await api.wait_for(lambda: posted is not None and gone(api, posted), what="the move")
        moved = await version_of(tavolo, table_id)
        await tavolo.restart()
        again = api.choose_inline_result(player, query_id, result_id, chat=GROUP)
        await api.wait_idle()
        assert await version_of(tavolo, table_id) == moved
        assert again is not None


async def test_deletions_wait_for_the_budget_go_together_and_survive_a_restart(
    api: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=PacedRateLimiter) as tavolo:
        table_id = await open_table(tavolo)
        # As if the group's budget were short: deletions wait (for at most a long while).
        monkeypatch.setattr(sweeper, "RESERVE", 1000)
        monkeypatch.setattr(sweeper, "HOLD", 1000.0)
        monkeypatch.setattr(sweeper, "FORCE", 1000.0)
        posted: list[StoredMessage] = []
        batches_before = len(api.calls("deleteMessages"))
        deletions_before = batches_before + len(api.calls("deleteMessage"))
        for _ in range(3):
            # the table shows the move at once; its posted message waits to be deleted
            posted.append(await post_move(tavolo, table_id))
        await api.wait_idle(quiet=0.2)
        assert not any(gone(api, m) for m in posted)
        deletions = len(api.calls("deleteMessages")) + len(api.calls("deleteMessage"))
        assert deletions == deletions_before
        # the old table copies wait too: more than one copy of the table shows for now
        assert len(table_messages(api, GROUP["id"], table_id)) > 1
        assert tavolo.store is not None
        waiting = await tavolo.store.state_get(
            platform=PLATFORM, kind=sweeper.TRASH, scope=str(GROUP["id"])
        )
        assert isinstance(waiting, dict) and len(waiting["ids"]) >= len(posted)
        # stopped while they waited: the next start sends them, in one call
        await tavolo.stop()
        monkeypatch.setattr(sweeper, "RESERVE", 5)
        await tavolo.start()
        await api.wait_for(lambda: all(gone(api, m) for m in posted), what="the moves cleared")
        await api.wait_idle(quiet=0.2)
        batches = api.calls("deleteMessages")[batches_before:]
        assert len(batches) == 1 and batches[0].ok
        assert len(batches[0].params["message_ids"]) == len(waiting["ids"])
        assert len(table_messages(api, GROUP["id"], table_id)) == 1
        assert not api.via_bot_messages(GROUP["id"])
        assert (
            await tavolo.store.state_get(
                platform=PLATFORM, kind=sweeper.TRASH, scope=str(GROUP["id"])
            )
            is None
        )


async def test_deletions_held_go_once_the_hold_is_over(
    api: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=PacedRateLimiter) as tavolo:
        table_id = await open_table(tavolo)
        monkeypatch.setattr(sweeper, "RESERVE", 1000)
        monkeypatch.setattr(sweeper, "HOLD", 1.0)
        monkeypatch.setattr(sweeper, "LOOK_AGAIN", 0.1)
        marked = len(api.calls("deleteMessages"))
        player, query_id, result_id = await offered_move(tavolo, table_id)
        posted = api.choose_inline_result(player, query_id, result_id, chat=GROUP)
        assert posted is not None
        await api.wait_for(lambda: gone(api, posted), timeout=20, what="the move cleared")
        batches = api.calls("deleteMessages")[marked:]
        assert len(batches) == 1 and posted.message_id in batches[0].params["message_ids"]


async def test_deletions_soon_after_one_another_wait_and_go_together(
    api: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", rate_limiter=PacedRateLimiter) as tavolo:
        table_id = await open_table(tavolo)
        # The window has room; only the gap since the chat's last deletion call holds them.
        monkeypatch.setattr(sweeper, "RESERVE", 1)
        monkeypatch.setattr(sweeper, "GAP", 0.0)
        monkeypatch.setattr(sweeper, "HOLD", 1000.0)
        monkeypatch.setattr(sweeper, "FORCE", 1000.0)
        monkeypatch.setattr(sweeper, "LOOK_AGAIN", 0.1)
        marked = len(api.calls("deleteMessages"))
        single = len(api.calls("deleteMessage"))
        posted: list[StoredMessage] = []
        for _ in range(3):
            posted.append(await post_move(tavolo, table_id))
            if len(posted) == 1:  # the first goes at once; the next ones come soon after it
                await api.wait_for(lambda: gone(api, posted[0]), what="the first move cleared")
                monkeypatch.setattr(sweeper, "GAP", 1000.0)
        await api.wait_idle(quiet=0.3)
        assert not gone(api, posted[1]) and not gone(api, posted[2])
        # One deletion call so far: the first move's (alone, or with the table's old copy, it
        # goes as deleteMessage or deleteMessages depending on what was waiting with it).
        calls = api.calls("deleteMessages")[marked:] + api.calls("deleteMessage")[single:]
        assert len(calls) == 1
        monkeypatch.setattr(sweeper, "GAP", 0.0)  # the gap is over: the rest go, in one call
        await api.wait_for(lambda: all(gone(api, m) for m in posted), what="the moves cleared")
        calls = api.calls("deleteMessages")[marked:] + api.calls("deleteMessage")[single:]
        assert len(calls) == 2
        last = api.calls("deleteMessages")[-1]
        assert {posted[1].message_id, posted[2].message_id} <= set(last.params["message_ids"])


def test_the_notes_of_recent_deletion_calls_stay_few() -> None:
    """A long-running bot keeps when each chat last deleted only while it matters (``GAP``)."""
    now = [0.0]
    sweep = sweeper.Sweeper(
        bot=lambda: None,  # type: ignore[arg-type,return-value]
        state=None,  # type: ignore[arg-type]
        book=None,  # type: ignore[arg-type]
        clock=lambda: now[0],
        monotonic=lambda: now[0],
    )
    for chat_id in range(-3000, -1900):
        sweep._sent_now(chat_id)
    assert len(sweep._last_sent) == 1100
    now[0] = sweeper.GAP / 2
    sweep._sent_now(-2500)  # renewed: it outlives the others noted with it
    now[0] = sweeper.GAP
    sweep._sent_now(-5)
    assert sweep._last_sent == {-2500: sweeper.GAP / 2, -5: sweeper.GAP}
    now[0] = sweeper.GAP * 1.5
    sweep._sent_now(-6)
    assert sweep._last_sent == {-5: sweeper.GAP, -6: sweeper.GAP * 1.5}


async def test_the_limiter_says_how_much_of_a_group_window_is_free() -> None:
    now = [100.0]
    limiter = PacedRateLimiter(group_rate=3, group_period=10.0, clock=lambda: now[0])
    await limiter.initialize()

    async def call(*args: object, **kwargs: object) -> bool:
        return True

    try:
        assert limiter.group_room(42) is None  # a private chat: no group window
        room = limiter.group_room(-5)
        assert room is not None and room.free == 3 and not room.waiting
        for _ in range(2):
            await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -5}, None)
        room = limiter.group_room(-5)
        assert room is not None and room.free == 1
        await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -5}, None)
        room = limiter.group_room(-5)
        assert room is not None and room.free == 0 and room.next_in == pytest.approx(10.0)
        now[0] += 10.0
        room = limiter.group_room(-5)
        assert room is not None and room.free == 3
    finally:
        await limiter.shutdown()
    assert PacedRateLimiter(group_rate=0).group_room(-5) is None
