"""Service-level workload for the reliability tests and benchmarks: real games (Scopa, Scala 40)
between scripted humans, played through :class:`TableService` on a real store."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.service import (
    ChatRef,
    ComputerPlayers,
    HandView,
    TableInfo,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
from bot.store import Store

MAX_MOVES = 3000  # far above any game; a bug cannot loop forever


def users(platform: str, first: int, count: int) -> list[UserRef]:
    return [UserRef(platform, str(first + i), f"P{first + i}", "en") for i in range(count)]


async def open_service(url: str, *, seed: int = 1) -> TableService:
    store = Store.open(url)
    await store.upgrade()
    seeds = iter(range(seed, seed + 1_000_000))
    return TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(),
        timers=TimerSettings(0),
        seeds=lambda: next(seeds),
    )


async def start_table(
    service: TableService,
    chat: ChatRef,
    players: list[UserRef],
    game: str = "scopa",
    options: dict[str, object] | None = None,
) -> int:
    """A started table of ``game`` with ``players`` seated; returns its id."""
    created = await service.create_table(
        chat, players[0], game, players=len(players), options=options
    )
    assert created.ok and created.table is not None, created.refusal
    await complete_setup(service, chat, players, created.table)
    return created.table.id


async def complete_setup(
    service: TableService, chat: ChatRef, players: list[UserRef], table: TableInfo
) -> None:
    """Seat whichever of ``players`` is not seated yet at the lobby ``table`` and start it: also
    finishes a set-up that a killed process left half done."""
    for other in players[1:]:
        if table.seat_of(other.platform, other.user_id) is None:
            joined = await service.join(chat, other, table.id)
            assert joined.ok, joined.refusal
    started = await service.start(chat, players[0], table.id)
    assert started.ok, started.refusal


async def play_one_move(
    service: TableService,
    chat: ChatRef,
    players: list[UserRef],
    table_id: int,
    rng: random.Random,
) -> tuple[int, str] | None:
    """The player to move plays a random legal move: returns ``(version, move)`` once the move
    is committed, None when the table is not playing."""
    shown = await service.show(chat, players[0], table_id)
    info = shown.table
    if info is None or info.status != "playing" or info.current_seat is None:
        return None
    seat = info.seats[info.current_seat]
    assert seat is not None
    mover = next(p for p in players if p.user_id == seat.user_id)
    hand = await service.show(chat, mover, table_id)
    views = [e for e in hand.events if isinstance(e, HandView) and e.audience.id == mover.user_id]
    assert views, "the player to move got no hand"
    legal = list(views[-1].view.legal_moves)
    assert legal, "no legal move for the player to move"
    move = rng.choice(legal)
    result = await service.play(chat, mover, table_id, version=info.version, move=move)
    assert result.ok, result.refusal
    return info.version, move


async def play_to_end(
    service: TableService,
    chat: ChatRef,
    players: list[UserRef],
    table_id: int,
    *,
    seed: int,
    after_move: Callable[[int, str], object] | None = None,
) -> int:
    """Plays random legal moves until the table is over; returns the moves played.
    ``after_move(version, move)`` is called after each committed move."""
    rng = random.Random(seed)
    for count in range(MAX_MOVES):
        played = await play_one_move(service, chat, players, table_id, rng)
        if played is None:
            return count
        if after_move is not None:
            after_move(*played)
    raise AssertionError(f"table {table_id} did not end in {MAX_MOVES} moves")
