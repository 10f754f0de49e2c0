"""Service throughput, latency and memory per live table, on SQLite (a temporary file).

N tables (default 1,000) of two simulated human players each are created and dealt, so all of
them are live in the service; then C concurrent clients (default 32) play random legal moves on
random tables through ``TableService.play`` for a fixed number of moves. Each move is committed
(compare-and-set update + move row) before the call returns, as in production.

Prints moves/s, p50/p99 latency of ``play``, and resident memory per live table (the growth of
the process's RSS from before the tables were created, divided by N).

    python benchmarks/service.py [--tables 1000] [--clients 32] [--moves 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import (
    ChatRef,
    ComputerPlayers,
    HandView,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
from bot.store import Store


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


class Table:
    """What a simulated client remembers of one table: players, version, the mover's moves."""

    def __init__(self, chat: ChatRef, users: list[UserRef]) -> None:
        self.chat = chat
        self.users = users
        self.id = 0
        self.version = 0
        self.hands: dict[int, tuple[str, ...]] = {}
        self.current: int | None = None
        self.busy = False

    def absorb(self, result: Any) -> None:
        if result.table is not None:
            self.version = result.table.version
            self.current = result.table.current_seat
            if result.table.status != "playing":
                self.current = None
        for e in result.events:
            if isinstance(e, HandView):
                self.hands[e.seat] = tuple(e.view.legal_moves)


async def setup(service: TableService, n: int, prefix: str) -> list[Table]:
    tables = []
    for i in range(n):
        chat = ChatRef("bench", f"{prefix}-{i}")
        users = [UserRef("bench", f"u{i}-{s}", f"P{s}") for s in range(2)]
        t = Table(chat, users)
        created = await service.create_table(chat, users[0], "scopa", players=2)
        assert created.ok and created.table is not None, created.refusal
        t.id = created.table.id
        await service.join(chat, users[1])
        t.absorb(await service.start(chat, users[0]))
        tables.append(t)
    return tables


async def client(
    service: TableService,
    tables: list[Table],
    rng: random.Random,
    budget: list[int],
    latencies: list[float],
) -> None:
    while budget[0] > 0:
        t = rng.choice(tables)
        if t.busy:
            continue
        if t.current is None:
            # Game over: a rematch keeps the table count live.
            t.busy = True
            again = await service.rematch(t.chat, t.users[0], t.id)
            if again.ok and again.table is not None:
                t.id = again.table.id
                t.hands.clear()
                t.absorb(again)
            t.busy = False
            continue
        moves = t.hands.get(t.current)
        if not moves:
            t.busy = True
            shown = await service.show(t.chat, t.users[t.current], t.id)
            t.absorb(shown)
            t.busy = False
            continue
        budget[0] -= 1
        t.busy = True
        start = time.perf_counter()
        result = await service.play(
            t.chat, t.users[t.current], t.id, version=t.version, move=rng.choice(moves)
        )
        latencies.append(time.perf_counter() - start)
        t.busy = False
        if not result.ok:
            raise SystemExit(f"refused: {result.refusal}")
        t.absorb(result)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--synchronous", default="NORMAL", help="SQLite synchronous pragma")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(
            f"sqlite+aiosqlite:///{tmp}/bench.sqlite3", sqlite_synchronous=args.synchronous
        )
        await store.upgrade()
        seeds = iter(range(10**9))
        service = TableService(
            store,
            registry=default_registry(),
            computers=ComputerPlayers(),
            timers=TimerSettings(reminder=60, autoplay=120),
            seeds=lambda: next(seeds),
            cache_size=args.tables * 2,
        )
        # Warm up the code paths (imports, catalog, statement caches) before measuring memory.
        await setup(service, 5, "warm")
        gc.collect()
        rss0 = rss_bytes()
        t0 = time.perf_counter()
        tables = await setup(service, args.tables, "chat")
        setup_s = time.perf_counter() - t0
        gc.collect()
        per_table = (rss_bytes() - rss0) / args.tables
        rng = random.Random(args.seed)
        latencies: list[float] = []
        budget = [args.moves]
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        await asyncio.gather(
            *(
                client(service, tables, random.Random(rng.random()), budget, latencies)
                for _ in range(args.clients)
            )
        )
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        await store.close()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print(
        f"service benchmark: SQLite (synchronous={args.synchronous}), {args.tables} live "
        f"tables of Scopa 2 players, {args.clients} concurrent clients"
    )
    print(f"  setup: {args.tables} tables created+dealt in {setup_s:.2f} s")
    print(f"  moves: {len(latencies)} in {elapsed:.2f} s = {len(latencies) / elapsed:,.0f} moves/s")
    print(f"  play() latency: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print(
        f"  process CPU time: {cpu * 1000 / len(latencies):.3f} ms per move "
        f"(all threads; {len(latencies) / cpu:,.0f} moves per CPU-second)"
    )
    with open("/proc/loadavg") as fh:
        print(f"  load average during the run: {fh.read().split()[0]}")
    print(f"  resident memory per live table: {per_table / 1024:.1f} KB")


if __name__ == "__main__":
    asyncio.run(main())
