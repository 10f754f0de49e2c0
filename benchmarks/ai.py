"""Computer players' strength and speed: prints the figures of benchmarks/README.md
"Computer players".

Sections (``--only`` picks some; all by default):

* ``speed``: hard's seconds per move (median, 90th percentile, max) and ISMCTS iterations per
  second, over Scopone deals where hard plays every seat;
* ``scopone``: hard vs easy, single Scopone deals, seats swapped, split by the dealer's side
  (targets >= 70% dealer side, >= 56% other side);
* ``scopa``: hard vs easy, 2-player Scopa games to 11 (target >= 70%);
* ``medium``: medium vs easy and easy vs easy, Scopone deals (target: medium wins >= 4 points
  more than easy does against easy), and medium vs easy in 2-player Scopa games to 11;
* ``scala40``: the Scala 40 heuristic vs random-legal players, 4 players (target >= 60%).

Usage: python benchmarks/ai.py [--only speed,scopone] [--deals N] [--games N] [--iterations N]
[--jobs N]. The counts default to small values that fit a shared machine; the README states the
counts used for each recorded figure.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import simulate
from engine import scopa
from engine.scopa.ai.config import DEFAULT_SECONDS, DEFAULT_WORK
from engine.scopa.ai.hard import HardPlayer

SECTIONS = ("speed", "scopone", "scopa", "medium", "scala40")


def speed(deals: int, iterations: int | None, seconds: float | None) -> None:
    """Hard plays every seat of ``deals`` Scopone deals; time and count every searched move."""
    hard = HardPlayer(iterations=iterations, seconds=seconds)
    rng = random.Random(1)
    times: list[float] = []
    cpus: list[float] = []
    rates: list[float] = []
    for seed in range(1, deals + 1):
        game = scopa.new_game(scopa.Rules(variant="scopone"), seed=seed)
        while not game.smazzate:
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            start = time.perf_counter()
            cpu = time.process_time()
            move = hard.choose(view, rng)
            wall, used = time.perf_counter() - start, time.process_time() - cpu
            if hard.last_iterations:
                times.append(wall)
                cpus.append(used)
                rates.append(hard.last_iterations / max(used, 1e-9))
            game = game.play(move)
    times.sort()
    cpus.sort()
    if iterations is None and seconds is None:
        budget = f"default: {DEFAULT_WORK} work units, about {DEFAULT_SECONDS} s of CPU"
    else:
        budget = f"{iterations} iterations" if iterations else f"{seconds} s"
    print(f"speed: hard ({budget}), {len(times)} searched moves over {deals} Scopone deals")
    for label, values in (("wall", times), ("CPU", cpus)):
        print(
            f"  {label} seconds per move: median {statistics.median(values):.3f},"
            f" 90th percentile {values[int(0.9 * (len(values) - 1))]:.3f}, max {values[-1]:.3f}"
        )
    print(
        f"  iterations per CPU second: median {statistics.median(rates):.0f},"
        f" min {min(rates):.0f}, max {max(rates):.0f}"
    )


def run(argv: list[str], games: int, budget: list[str], jobs: list[str]) -> None:
    argv = [*argv, "--games", str(games), *budget, *jobs]
    print("$ python -m bot.simulate " + " ".join(argv), flush=True)
    simulate.main([*argv, "--quiet"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--deals", type=int, default=40, help="Scopone deals for hard")
    parser.add_argument("--games", type=int, default=10, help="Scopa games to 11 for hard")
    parser.add_argument("--medium-deals", type=int, default=2000)
    parser.add_argument("--scala40-matches", type=int, default=40)
    parser.add_argument("--speed-deals", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=None, help="hard (default: its own)")
    parser.add_argument("--seconds", type=float, default=None, help="hard: time per move instead")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    only = [s for s in args.only.split(",") if s]
    for name in only:
        if name not in SECTIONS:
            parser.error(f"no section {name!r}; there are: {', '.join(SECTIONS)}")
    print(f"Python {platform.python_version()} on {platform.machine()}, jobs {args.jobs}")
    budget = []
    if args.iterations is not None:
        budget += ["--iterations", str(args.iterations)]
    if args.seconds is not None:
        budget += ["--seconds", str(args.seconds)]
    jobs = ["--jobs", str(args.jobs)]
    if "speed" in only:
        speed(args.speed_deals, args.iterations, args.seconds)
    if "scopone" in only:
        run(["--game", "scopone", "--players", "hard,easy", "--deals"], args.deals, budget, jobs)
    if "scopa" in only:
        run(["--game", "scopa", "--players", "hard,easy"], args.games, budget, jobs)
    if "medium" in only:
        for players in ("medium,easy", "easy,easy"):
            run(["--game", "scopone", "--players", players, "--deals"], args.medium_deals, [], jobs)
        run(["--game", "scopa", "--players", "medium,easy"], args.medium_deals // 2, [], jobs)
    if "scala40" in only:
        run(
            ["--game", "scala40", "--players", "scala40,random,random,random"],
            args.scala40_matches,
            [],
            jobs,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
