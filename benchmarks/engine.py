"""Engine speed on one core: smazzate per CPU second (median and best of several windows).

(a) random 2-player Scopa smazzate through the readable API (``legal_moves`` + ``play``);
(b) the same through the fast playout path (random moves, and epsilon-greedy with epsilon 0.3);
then the Scala 40 figures when ``benchmarks/engine_scala40.py`` is present.

Rates are per second of this process's CPU time, so other jobs on a shared machine slow the run
down but do not change the figures much.

Usage: python benchmarks/engine.py [--windows N] [--seconds S]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scopa
from engine.scopa.playout import FastRules, random_smazzata


def readable(rules: scopa.Rules) -> Callable[[float], float]:
    """Smazzate per second over a window, random legal moves through the public API."""
    rnd = random.Random(1).random
    seed = 0
    game = scopa.new_game(rules, seed=seed)

    def window(seconds: float) -> float:
        nonlocal game, seed
        done = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            first = len(game.smazzate)
            while len(game.smazzate) == first and not game.is_over:
                moves = game.legal_moves()
                game = game.play(moves[int(rnd() * len(moves))])
            if game.is_over:
                seed += 1
                game = scopa.new_game(rules, seed=seed)
            done += 1
        return done / (time.process_time() - start)

    return window


def fast(rules: scopa.Rules, epsilon: float) -> Callable[[float], float]:
    rng = random.Random(2)
    lean = FastRules.of(rules)

    def window(seconds: float) -> float:
        done = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(100):
                random_smazzata(lean, rng, epsilon=epsilon)
            done += 100
        return done / (time.process_time() - start)

    return window


def report(label: str, measure: Callable[[float], float], windows: int, seconds: float) -> None:
    rates = [measure(seconds) for _ in range(windows)]
    print(f"{label:<38} median {statistics.median(rates):>8,.0f}/s   best {max(rates):>8,.0f}/s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--windows", type=int, default=5, help="windows per figure (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per window")
    args = parser.parse_args(argv)
    print(
        f"python {platform.python_version()} ({platform.machine()}), one core, smazzate per CPU s"
    )
    for name, rules in (
        ("scopa 2p", scopa.Rules()),
        ("scopone 4p", scopa.Rules(variant="scopone")),
    ):
        report(f"{name} (a) legal_moves + play", readable(rules), args.windows, args.seconds)
        report(f"{name} (b) fast path, random", fast(rules, 1.0), args.windows, args.seconds)
        report(
            f"{name} (b) fast path, eps-greedy 0.3", fast(rules, 0.3), args.windows, args.seconds
        )
    scala = Path(__file__).with_name("engine_scala40.py")
    if scala.exists():
        import runpy

        runpy.run_path(str(scala), run_name="engine_benchmark")["main"]([])


if __name__ == "__main__":
    main()
