"""Lobby expiry on the real stores: a lobby left alone closes by itself once (across
processes, after a restart), each join or leave gives it its full time again, and a new table
takes the place of a stale lobby."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.service import Announcement, ChatRef, LobbyView, TableService, TimerSettings, UserRef
from tests.service.conftest import Clock

CHAT = ChatRef("telegram", "-100")
ADA = UserRef("telegram", "1", "Ada")
BEA = UserRef("telegram", "2", "Bea")
LOBBY = 600.0


async def lobby(service: TableService) -> int:
    created = await service.create_table(CHAT, ADA, "toy")
    assert created.ok and created.table is not None, created.refusal
    return created.table.id


async def status(service: TableService, table_id: int) -> tuple[str, float | None, str | None]:
    row = await service.store.load_table(table_id)
    assert row is not None
    return row.status, row.deadline, row.deadline_kind


async def test_a_lobby_left_alone_expires_once_and_a_new_table_opens(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    service = await make_service()
    other = await make_service()  # a second process on the same database
    start = clock.now
    table = await lobby(service)
    assert await status(service, table) == ("lobby", start + LOBBY, "lobby")

    clock.now += 300
    assert (await service.join(CHAT, BEA)).ok
    assert await status(service, table) == ("lobby", start + 300 + LOBBY, "lobby")
    clock.now += 200
    assert (await service.leave(CHAT, BEA)).ok  # a leave counts as a change too
    deadline = start + 500 + LOBBY
    assert await status(service, table) == ("lobby", deadline, "lobby")

    clock.now = deadline - 1
    assert await service.fire_due_timers() == []
    clock.now = deadline
    fired = [*(await service.fire_due_timers()), *(await other.fire_due_timers())]
    assert len(fired) == 1  # exactly once across the two processes
    events = fired[0].events
    closed = [e for e in events if isinstance(e, Announcement) and e.kind == "abandoned"]
    assert closed and closed[0].data["reason"] == "expired" and closed[0].data["minutes"] == 10
    views = [e for e in events if isinstance(e, LobbyView)]
    assert views and views[-1].table.status == "abandoned" and views[-1].reason == "expired"
    assert (await status(service, table))[0] == "abandoned"
    assert await other.fire_due_timers() == []

    # The chat is free again: a new table opens (from the other process too).
    again = await other.create_table(CHAT, BEA, "toy")
    assert again.ok, again.refusal


async def test_two_processes_claiming_at_once_close_the_lobby_once(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    first, second = await make_service(), await make_service()
    table = await lobby(first)
    clock.now += LOBBY
    results = await asyncio.gather(first.fire_due_timers(), second.fire_due_timers())
    assert sum(len(r) for r in results) == 1
    assert (await status(first, table))[0] == "abandoned"


async def test_expiry_survives_a_restart(make_service: Callable[..., Any], clock: Clock) -> None:
    service = await make_service()
    table = await lobby(service)
    clock.now += LOBBY + 30  # the process was down when the lobby came due
    restarted = await make_service()
    fired = await restarted.fire_due_timers()
    assert [r.table.id for r in fired if r.table is not None] == [table]


async def test_a_new_table_replaces_a_stale_lobby_only(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    service = await make_service()
    table = await lobby(service)
    clock.now += LOBBY / 2
    refused = await service.create_table(CHAT, BEA, "toy")
    assert refused.refusal is not None and refused.refusal.code == "too_many_tables"
    # Past its expiry (the timer loop has not run): the new command takes its place.
    clock.now += LOBBY / 2
    created = await service.create_table(CHAT, BEA, "toy")
    assert created.ok and created.table is not None, created.refusal
    replaced = [
        e
        for e in created.events
        if isinstance(e, Announcement) and e.kind == "abandoned" and e.table.id == table
    ]
    assert replaced and replaced[0].data["reason"] == "replaced"
    closed_view = [e for e in created.events if isinstance(e, LobbyView) and e.table.id == table]
    assert closed_view and closed_view[0].table.status == "abandoned"
    assert (await status(service, table))[0] == "abandoned"
    # The closed lobby's timer is gone: nothing fires for it later.
    clock.now += 10 * LOBBY
    fired = await service.fire_due_timers()
    assert table not in [r.table.id for r in fired if r.table is not None]


async def test_a_started_table_has_no_lobby_timer_and_zero_means_never(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    service = await make_service()
    table = await lobby(service)
    assert (await service.start(CHAT, ADA, table, fill_with="easy")).ok
    assert (await status(service, table))[2] != "lobby"

    never = await make_service(timers=TimerSettings(reminder=0, autoplay=0, lobby=0))
    chat = ChatRef("telegram", "-300")
    created = await never.create_table(chat, ADA, "toy")
    assert created.ok and created.table is not None
    assert await status(never, created.table.id) == ("lobby", None, None)
    clock.now += 100 * LOBBY
    fired = await never.fire_due_timers()
    assert created.table.id not in [r.table.id for r in fired if r.table is not None]
    refused = await never.create_table(chat, BEA, "toy")
    assert refused.refusal is not None and refused.refusal.code == "too_many_tables"


async def test_a_short_timeout_is_said_in_seconds(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    service = await make_service(timers=TimerSettings(reminder=60, autoplay=120, lobby=45))
    table = await lobby(service)
    clock.now += 45
    (fired,) = await service.fire_due_timers()
    closed = [e for e in fired.events if isinstance(e, Announcement)]
    assert closed[0].table.id == table and closed[0].data["seconds"] == 45
    assert "minutes" not in closed[0].data


async def test_a_lobby_opened_without_an_expiry_gets_one_after_a_restart(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    # Opened by a process where lobbies never expired (as before LOBBY_TIMEOUT existed).
    old = await make_service(timers=TimerSettings(reminder=0, autoplay=0, lobby=0))
    created = await old.create_table(CHAT, ADA, "toy")
    assert created.ok and created.table is not None
    table = created.table.id
    opened = clock.now
    assert await status(old, table) == ("lobby", None, None)
    # The next process dates it from its last change, keeping its version (buttons stay valid).
    version = (await old.store.load_table(table)).version  # type: ignore[union-attr]
    new = await make_service(timers=TimerSettings(reminder=60, autoplay=120, lobby=LOBBY))
    assert await new.fire_due_timers() == []
    assert await status(new, table) == ("lobby", opened + LOBBY, "lobby")
    assert (await new.store.load_table(table)).version == version  # type: ignore[union-attr]
    clock.now += LOBBY
    (fired,) = await new.fire_due_timers()
    assert fired.table is not None and fired.table.id == table
    assert (await status(new, table))[0] == "abandoned"
