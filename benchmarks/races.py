"""Races, the big run: ROUNDS times, the button of the player to move is pressed CLICKS times at
once (double clicks, and a second legal move: a change of mind), spread over two services on one
database (two processes), plus the other player pressing the same data (a forged seat). Exactly
one press must apply per round; the move log must hold one move per version.

    python benchmarks/races.py [--rounds 1000] [--clicks 8] [--pg URL]   # SQLite by default
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import ChatRef
from tests.reliability import test_races
from tests.reliability.workload import open_service, start_table, users


async def run(url: str, rounds: int, clicks: int) -> tuple[int, int, float]:
    test_races.CLICKS = clicks
    services = [await open_service(url, seed=1), await open_service(url, seed=2)]
    rng = random.Random(5)
    applied_total = tables = 0
    began = time.perf_counter()
    try:
        done = 0
        while done < rounds:
            players = users("telegram", 10 * tables + 1, 2)
            chat = ChatRef("telegram", str(-9000 - tables))
            test_races.CHAT = chat
            table_id = await start_table(services[0], chat, players, "scopa", {"target": 11})
            tables += 1
            versions = []
            while done < rounds:
                info = (await services[0].show(chat, players[0], table_id)).table
                if info is None or info.status != "playing":
                    break
                applied, version = await test_races.race_round(services, table_id, rng, players)
                assert applied == 1, f"{applied} presses applied at version {version}"
                applied_total += applied
                versions.append(version)
                done += 1
            moves = await services[1].store.moves(table_id)
            assert [m.version for m in moves] == versions, "a version with no or two moves"
    finally:
        for service in services:
            await service.store.close()
    return applied_total, tables, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--clicks", type=int, default=8)
    parser.add_argument("--pg", help="a postgresql+asyncpg:// URL (an empty database)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tavolo-races-") as work:
        url = args.pg or f"sqlite+aiosqlite:///{work}/races.sqlite3"
        applied, tables, seconds = asyncio.run(run(url, args.rounds, args.clicks))
    name = "PostgreSQL" if args.pg else "SQLite"
    print(f"{name}: {args.rounds} rounds x {args.clicks + 1} simultaneous presses on "
          f"{tables} tables: {applied} applied (exactly one per round), "
          f"{args.rounds * (args.clicks + 1) - applied} refused (forged seat included), "
          f"{seconds:.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
