"""``Newest``: edits of one hand in version order, only the newest of those waiting sent."""

from __future__ import annotations

import asyncio

from bot.discord.newest import Newest


async def test_while_one_edit_runs_only_the_newest_waiting_one_follows() -> None:
    lane = Newest()
    sent: list[int] = []
    release = asyncio.Event()

    async def edit(version: int) -> int:
        if version == 1:
            await release.wait()
        sent.append(version)
        return version

    first = asyncio.create_task(lane.run("hand", 1, lambda: edit(1)))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(lane.run("hand", v, lambda v=v: edit(v))) for v in (3, 2, 4)]
    await asyncio.sleep(0)
    release.set()
    assert await first == 1
    assert [await task for task in waiting] == [None, None, 4]
    assert sent == [1, 4]


async def test_an_older_version_arriving_late_is_dropped_unless_it_must_run() -> None:
    lane = Newest()
    sent: list[int] = []

    async def edit(version: int) -> int:
        sent.append(version)
        return version

    assert await lane.run(("u", 1), 5, lambda: edit(5)) == 5
    assert await lane.run(("u", 1), 4, lambda: edit(4)) is None
    assert await lane.run(("u", 1), 5, lambda: edit(5)) == 5  # the same state again: shown
    assert await lane.run(("u", 1), 3, lambda: edit(3), always=True) == 3
    assert await lane.run(("u", 2), 1, lambda: edit(1)) == 1  # another table: its own lane
    lane.forget(lambda key: key == ("u", 1))
    assert await lane.run(("u", 1), 1, lambda: edit(1)) == 1
    assert sent == [5, 5, 3, 1, 1]
