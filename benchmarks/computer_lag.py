"""How much the "hard" computer's thinking delays everything else on the bot's event loop.

A ticker on the loop asks for a 2 ms sleep over and over while N hard moves (Scopone, the first
move of a deal: the costliest) are chosen at once, through ``ComputerPlayers.choose_off_loop``
in threads (``processes=0``) and in worker processes; it prints the extra wait of the ticks
(p50, p99, max) and the wall time of the N moves.

    python benchmarks/computer_lag.py [--moves 1 4] [--processes 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import ComputerPlayers
from engine import scopa


async def _ticker(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        began = time.perf_counter()
        await asyncio.sleep(0.002)
        lags.append(time.perf_counter() - began - 0.002)


async def measure(processes: int, moves: int) -> str:
    game = scopa.new_game(scopa.Rules(variant="scopone", players=4), seed=3)
    view = game.view(game.current_player)
    players = ComputerPlayers(processes=processes)
    try:
        # A first move outside the measure: the worker processes start (once per bot) here.
        await players.choose_off_loop("scopa", "hard", view, random.Random(0))
        stop, lags = asyncio.Event(), []
        ticker = asyncio.create_task(_ticker(stop, lags))
        began = time.perf_counter()
        await asyncio.gather(
            *(
                players.choose_off_loop("scopa", "hard", view, random.Random(i))
                for i in range(moves)
            )
        )
        wall = time.perf_counter() - began
        stop.set()
        await ticker
    finally:
        await players.aclose()
    lags.sort()
    where = f"{processes} process(es)" if processes else "threads"
    return (
        f"{moves} hard move(s) at once in {where:13}: wall {wall:5.2f} s; loop lag"
        f" p50 {1000 * lags[len(lags) // 2]:6.1f} ms, p99 {1000 * lags[int(len(lags) * 0.99)]:6.1f}"
        f" ms, max {1000 * lags[-1]:6.1f} ms ({len(lags)} ticks)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--processes", type=int, default=1, help="worker processes to compare")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for moves in args.moves:
        for processes in (0, args.processes):
            print(asyncio.run(measure(processes, moves)), flush=True)


if __name__ == "__main__":
    main()
