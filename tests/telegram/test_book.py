"""Which message shows a table: repost distance and versions."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.adapter_state import MemoryState
from bot.telegram.book import Delivered, MessageBook
from bot.telegram.messenger import Where

GROUP = Where(-100500)


@pytest.mark.parametrize(
    ("newest", "scrolled"),
    [(10, False), (13, False), (14, True), (40, True)],
)
async def test_table_message_scrolls_away_after_n_messages(newest: int, scrolled: bool) -> None:
    book = MessageBook(repost_after=3)
    await book.set_public(1, GROUP, 10, version=5)
    book.saw(GROUP.chat_id, newest)
    shown = await book.public(1, GROUP)
    assert shown is not None and shown.version == 5
    assert book.scrolled_away(shown) is scrolled


async def test_ids_seen_only_grow_and_chats_are_separate() -> None:
    book = MessageBook(repost_after=1)
    await book.set_public(1, GROUP, 10)
    book.saw(GROUP.chat_id, 30)
    book.saw(GROUP.chat_id, 12)  # an older message arriving late changes nothing
    book.saw(-1, 99)
    shown = await book.public(1, GROUP)
    assert shown is not None and book.scrolled_away(shown)
    topic = Where(GROUP.chat_id, 7)
    assert await book.public(1, topic) is None


async def test_forgetting_a_table_drops_its_messages() -> None:
    book = MessageBook(repost_after=5)
    await book.set_public(1, GROUP, 10)
    await book.set_private(1, 1001, 3)
    await book.set_private(2, 1001, 4)
    await book.forget_table(1)
    assert await book.public(1, GROUP) is None and await book.private(1, 1001) is None
    assert await book.private(2, 1001) is not None
    with pytest.raises(ValueError):
        MessageBook(repost_after=0)


async def test_a_batch_holds_its_entries_until_it_ends_and_reads_them_back() -> None:
    state = MemoryState()
    book = MessageBook(repost_after=5, state=state)
    await book.set_private(1, 1002, 7)  # written at once: no batch
    async with book.batch():
        await book.set_public(1, GROUP, 10, version=3)
        await book.set_private(1, 1001, 4, version=3)
        await book.set_private(1, 1001, 5, version=4)  # the last one kept wins
        await book.set_public(2, GROUP, 20)
        # read back from the batch; the store has none of them yet
        shown = await book.public(1, GROUP)
        assert shown is not None and (shown.message_id, shown.version) == (10, 3)
        assert [s.message_id for s in await book.private_of(1)] == [5, 7]
        unwritten = await state.state_get(
            platform="telegram", kind="public", scope="-100500", table_id=1
        )
        assert unwritten is None
        await book.forget_table(2)  # a table that ends in the batch leaves nothing behind
    stored = await state.state_get(platform="telegram", kind="hand", scope="1001", table_id=1)
    assert stored is not None and stored["message_id"] == 5
    assert await book.public(1, GROUP) is not None
    assert await book.public(2, GROUP) is None


async def test_batches_of_concurrent_deliveries_are_their_own() -> None:
    book = MessageBook(repost_after=5)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with book.batch():
            await book.set_public(1, GROUP, 10)
            inside.set()
            await release.wait()

    async def second() -> None:
        await inside.wait()
        async with book.batch():
            # another task's held entry is not visible, nor written by this batch's end
            assert await book.public(1, GROUP) is None
            await book.set_public(2, GROUP, 20)
        assert await book.public(1, GROUP) is None
        release.set()

    await asyncio.gather(first(), second())
    assert (await book.public(1, GROUP)) is not None and (await book.public(2, GROUP)) is not None


async def test_what_was_delivered_is_kept_per_message() -> None:
    state = MemoryState()
    book = MessageBook(repost_after=3, state=state)
    assert await book.delivered(1) is None
    # The older entry, a bare version of the whole table, still reads.
    await state.state_put(7, platform="telegram", kind="delivered", scope="", table_id=1)
    assert await book.delivery(1) == Delivered(7)
    await book.keep_delivered(1, Delivered(9, {"hand:1002": 6}))
    found = await book.delivery(1)
    assert found is not None
    assert (found.of("hand:1002"), found.of("hand:1001"), found.of("table:-100500")) == (6, 9, 9)
    assert found.whole == 6 and await book.delivered(1) == 6
    await state.state_put({"version": "x"}, platform="telegram", kind="delivered", scope="",
                          table_id=1)  # fmt: skip
    assert await book.delivery(1) is None  # unreadable: treated as absent


async def test_a_turn_notice_keeps_its_version() -> None:
    state = MemoryState()
    book = MessageBook(repost_after=3, state=state)
    await state.state_put(41, platform="telegram", kind="notice", scope="5", table_id=1)
    assert await book.notice(1, 5) == 41 and await book.notice_version(1, 5) == 0
    await book.keep_notice(1, 5, 42, 17)
    assert await book.notice(1, 5) == 42 and await book.notice_version(1, 5) == 17
