"""The lanes on their own, given a placer that records what it is asked to put in place: only
the newest state of a pending message goes, a failed call is tried again by the retry policy,
and what went out is recorded in the message book (no Telegram here: the lanes know only
their ``Placer``)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from telegram.error import NetworkError

from bot.render import Renderer
from bot.service import Audience, Event, Result, TableInfo, TableView
from bot.telegram.book import MessageBook
from bot.telegram.lanes import Lanes, RetryPolicy
from bot.telegram.messenger import Where

GROUP = "-100"


class RecordingPlacer:
    """A ``Placer`` that records each event it puts in place; the first ``failures`` calls
    fail as a network error would, and each call waits for ``release`` when one is given."""

    def __init__(self, *, failures: int = 0, release: asyncio.Event | None = None) -> None:
        self.placed: list[int] = []
        self.calls = 0
        self.failures = failures
        self.release = release

    def plan(self, events: Sequence[Event]) -> None:
        return None

    async def place(
        self, event: Event, *, origin: Where | None, extra: list[str], asked: frozenset[int]
    ) -> None:
        self.calls += 1
        if self.release is not None:
            await self.release.wait()
        if self.failures > 0:
            self.failures -= 1
            raise NetworkError("the network is down")
        assert isinstance(event, TableView)
        self.placed.append(event.table.version)

    async def deliver(self, result: Result, *, origin: Where | None) -> None:
        return None

    async def close_table(self, table_id: int, table: TableInfo | None) -> None:
        return None

    async def chat_migrated(self, old: int, new: int) -> None:
        return None


def table_view(version: int) -> Result:
    table = TableInfo(
        id=7,
        platform="telegram",
        chat_id=GROUP,
        game="scopa",
        family="scopa",
        status="playing",
        version=version,
        players=2,
        options={},
        seats=(None, None),
        creator="1",
    )
    view = TableView(
        audience=Audience("chat", "telegram", GROUP), locale="it", table=table, view=None
    )
    return Result([view], table)


def lanes_for(placer: RecordingPlacer, book: MessageBook, delays: tuple[float, ...]) -> Lanes:
    return Lanes(
        placer=placer,
        book=book,
        renderer=Renderer(),
        retry=RetryPolicy(delays=delays, resync_after=60.0, late_calls=60.0),
    )


async def test_only_the_newest_pending_state_of_a_message_goes() -> None:
    release = asyncio.Event()
    placer = RecordingPlacer(release=release)
    book = MessageBook(repost_after=10)
    lanes = lanes_for(placer, book, delays=())
    tickets = [lanes.submit(table_view(1), origin=None)]
    for _ in range(100):
        if placer.calls:
            break
        await asyncio.sleep(0)
    assert placer.calls == 1  # the first is on its way: the next two wait, the newest kept
    tickets += [lanes.submit(table_view(version), origin=None) for version in (2, 3)]
    release.set()
    for ticket in tickets:
        await asyncio.wait_for(ticket.wait(), 5)
    await lanes.settled()
    assert placer.placed == [1, 3]
    recorded = await book.delivery(7)
    assert recorded is not None and recorded.whole == 3
    await lanes.close()


async def test_a_failed_call_is_tried_again_by_the_retry_policy() -> None:
    placer = RecordingPlacer(failures=2)
    book = MessageBook(repost_after=10)
    lanes = lanes_for(placer, book, delays=(0.0, 0.0, 0.0))
    await asyncio.wait_for(lanes.submit(table_view(4), origin=None).wait(), 5)
    await lanes.settled()
    assert placer.calls == 3 and placer.placed == [4]
    recorded = await book.delivery(7)
    assert recorded is not None and recorded.whole == 4
    await lanes.close()


async def test_a_call_given_up_is_not_recorded_as_delivered() -> None:
    placer = RecordingPlacer(failures=10)
    book = MessageBook(repost_after=10)
    lanes = lanes_for(placer, book, delays=(0.0,))
    await asyncio.wait_for(lanes.submit(table_view(5), origin=None).wait(), 5)
    await lanes.settled()
    assert placer.calls == 2 and placer.placed == []
    assert await book.delivery(7) is None
    await lanes.close()
