"""Engine speed, on one core: prints smazzate per second.

(a) random 2-player Scopa smazzate through the readable API (``legal_moves`` + ``play``);
(b) the same through the fast playout path (random moves, and epsilon-greedy with epsilon 0.3);
then the Scala 40 figures when ``benchmarks/engine_scala40.py`` is present.

Usage: python benchmarks/engine.py [--seconds S]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scopa  # noqa: E402
from engine.scopa.playout import FastRules, random_smazzata  # noqa: E402


def readable_smazzate(rules: scopa.Rules, seconds: float) -> float:
    """Smazzate per second, playing random legal moves through the public API."""
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        seed += 1
        game = scopa.new_game(rules, seed=seed)
        first = game.smazzata_number
        while game.smazzata_number == first and not game.is_over:
            game = game.play(rng.choice(game.legal_moves()))
        done += 1
    return done / (time.perf_counter() - start)


def fast_smazzate(rules: scopa.Rules, seconds: float, epsilon: float) -> float:
    rng = random.Random(2)
    fast = FastRules.of(rules)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            random_smazzata(fast, rng, epsilon=epsilon)
        done += 200
    return done / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    for label, rules in (
        ("scopa 2p", scopa.Rules()),
        ("scopone 4p", scopa.Rules(variant="scopone")),
    ):
        print(f"{label}: (a) legal_moves+play  {readable_smazzate(rules, args.seconds):9,.0f} smazzate/s")
        print(f"{label}: (b) fast, random       {fast_smazzate(rules, args.seconds, 1.0):9,.0f} smazzate/s")
        print(f"{label}: (b) fast, eps-greedy .3 {fast_smazzate(rules, args.seconds, 0.3):9,.0f} smazzate/s")
    scala = Path(__file__).with_name("engine_scala40.py")
    if scala.exists():
        import runpy

        runpy.run_path(str(scala), run_name="scala40_from_engine_bench")["main"]([])


if __name__ == "__main__":
    main()
