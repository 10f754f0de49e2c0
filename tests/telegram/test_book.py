"""Which message shows a table: repost distance and versions."""

from __future__ import annotations

import pytest

from bot.telegram.book import MessageBook
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
