"""The composition root's timer loop hands timer events to the adapter of their platform."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.__main__ import _timers
from bot.cli.compose import build_app
from bot.config import Settings
from bot.service import ChatRef, Result, TurnNotice, UserRef
from tests.service.conftest import Clock


async def test_timer_loop_delivers_to_the_platform(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    service = await make_service()
    chat, anna = ChatRef("telegram", "g"), UserRef("telegram", "1", "Anna")
    created = await service.create_table(chat, anna, "toy", players=2)
    assert created.ok
    await service.start(chat, anna, fill_with="easy")
    settings = Settings(timer_interval_seconds=0.01)  # type: ignore[call-arg]
    app = build_app(settings, store=service.store, service=service, stop=asyncio.Event())
    delivered: list[Result] = []

    async def deliver(result: Result) -> None:
        delivered.append(result)

    app.deliver_to("telegram", deliver)
    clock.now += 61  # the reminder is due
    task = asyncio.create_task(_timers(app))
    for _ in range(500):
        if delivered:
            break
        await asyncio.sleep(0.01)
    app.stop.set()
    await task
    assert delivered and isinstance(delivered[0].events[0], TurnNotice)
    assert delivered[0].events[0].audience.id == "1"
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()
