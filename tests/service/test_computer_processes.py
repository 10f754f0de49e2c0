"""The "hard" computer thinks in worker processes (``ComputerPlayers(processes=N)``) so its search
never holds the event loop: the same moves as in a thread, a dead worker replaced, the quick
levels left in a thread."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Callable
from typing import Any

import pytest

from bot.service import ChatRef, ComputerPlayers, HandView, UserRef, default_registry
from bot.service.players import default_processes
from engine import scopa

ANNA = UserRef("discord", "a", "Anna", "it")


def a_view() -> Any:
    game = scopa.new_game(scopa.Rules(players=2), seed=11)
    return game.view(game.current_player)


def worker_pids(players: ComputerPlayers) -> list[int]:
    pool = players._pool
    assert pool is not None
    return list(pool._processes)  # type: ignore[attr-defined]


async def test_a_worker_process_chooses_the_move_a_thread_would() -> None:
    view = a_view()
    expected = ComputerPlayers().choose("scopa", "hard", view, random.Random(5))
    players = ComputerPlayers(processes=1)
    try:
        moved = await players.choose_off_loop("scopa", "hard", view, random.Random(5))
        assert moved == expected
        pids = worker_pids(players)
        assert pids and os.getpid() not in pids
        # The quick levels stay in a thread: they start no process.
        quick = ComputerPlayers(processes=1)
        easy = await quick.choose_off_loop("scopa", "easy", view, random.Random(5))
        assert easy in view.legal_moves and quick._pool is None
    finally:
        await players.aclose()
    assert players._pool is None


@pytest.mark.slow
async def test_a_killed_worker_is_replaced_and_no_move_is_lost() -> None:
    view = a_view()
    expected = ComputerPlayers().choose("scopa", "hard", view, random.Random(9))
    players = ComputerPlayers(processes=1)
    try:
        assert await players.choose_off_loop("scopa", "hard", view, random.Random(9)) == expected
        first = worker_pids(players)
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        for pid in first:  # bounded: a killed process is reaped by the pool's manager
            for _ in range(200):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                await asyncio.sleep(0.01)
        # The move in flight falls back to a thread; the next one gets a new worker.
        assert await players.choose_off_loop("scopa", "hard", view, random.Random(9)) == expected
        assert await players.choose_off_loop("scopa", "hard", view, random.Random(9)) == expected
        assert not set(worker_pids(players)) & set(first)
    finally:
        await players.aclose()


async def test_two_workers_search_one_move_together() -> None:
    """Root parallelism: with two processes a hard move is two searches from seeds of the move's
    ``rng``, summed; the same move as the two parts run here, one after the other."""
    from engine.scopa.ai.hard import HardPlayer, run_part

    view = a_view()
    local = HardPlayer()
    plan = local.plan(view, random.Random(7), 2)
    assert not isinstance(plan, str) and plan.parts == 2
    expected = local.finish(view, plan, [run_part(plan, 0), run_part(plan, 1)])
    players = ComputerPlayers(processes=2)
    try:
        moved = await players.choose_off_loop("scopa", "hard", view, random.Random(7))
        assert moved == expected
    finally:
        await players.aclose()


def test_bad_process_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="processes"):
        ComputerPlayers(processes=-1)
    with pytest.raises(ValueError, match="engine's players"):
        ComputerPlayers(lambda name: None, processes=1)


@pytest.mark.slow
async def test_a_table_plays_the_same_game_with_workers_as_with_threads(
    make_service: Callable[..., Any],
) -> None:
    logs = []
    for index, computers in enumerate((ComputerPlayers(), ComputerPlayers(processes=1))):
        service = await make_service(
            registry=default_registry(), computers=computers, seeds=lambda: 42
        )
        chat = ChatRef("discord", f"chan-{index}")
        created = await service.create_table(chat, ANNA, "scopa", players=2)
        assert created.table is not None
        started = await service.start(chat, ANNA, fill_with="hard")
        assert started.ok, started.refusal
        rng = random.Random(3)
        for _ in range(3):
            shown = await service.show(chat, ANNA, created.table.id)
            assert shown.table is not None
            hand = next(e for e in shown.events if isinstance(e, HandView))
            move = rng.choice(hand.view.legal_moves)
            played = await service.play(
                chat, ANNA, created.table.id, version=shown.table.version, move=move
            )
            assert played.ok, played.refusal
        export = await service.export_game(created.table.id)
        logs.append([(m["seat"], m["move"], m["actor"]) for m in export["moves"]])
        await computers.aclose()
    assert logs[0] == logs[1]
    assert sum(actor == "computer" for _, _, actor in logs[0]) >= 3
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()


def test_the_default_leaves_a_core_to_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    for cores, expected in ((None, 1), (1, 1), (2, 1), (3, 2), (8, 4), (64, 4)):
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        assert default_processes() == expected


async def test_scala40_moves_stay_in_a_thread() -> None:
    from engine import scala40

    game = scala40.new_game(scala40.Rules(players=2), seed=3)
    view = game.view(game.current_player)
    players = ComputerPlayers(processes=1)
    move = await players.choose_off_loop("scala40", "hard", view, random.Random(1))
    assert move in view.legal_moves and players._pool is None  # milliseconds: no process
