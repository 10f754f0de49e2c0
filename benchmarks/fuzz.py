"""Hostile input, the big run: hypothesis-generated inputs against every entry point of the
service that the adapters forward (button data / custom ids, move strings, command arguments and
option values of new tables, languages, seats, computer levels), on a real SQLite store.

Each input must give no exception, a refusal must change nothing and render as a short message
in Italian and English, and a move is applied only for the player to move (see
``tests/reliability/fuzzing.py``). Prints inputs, refusals by code and inputs/s.

    python benchmarks/fuzz.py [--examples 25000]   # per entry point; 4 entry points
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability import fuzzing
from tests.reliability.workload import open_service


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=25_000, help="inputs per entry point")
    args = parser.parse_args()
    loop = asyncio.new_event_loop()
    total = 0
    with tempfile.TemporaryDirectory(prefix="tavolo-fuzz-") as work:
        service = loop.run_until_complete(open_service(f"sqlite+aiosqlite:///{work}/f.sqlite3"))
        try:
            for fuzzer in fuzzing.FUZZERS:
                arena = fuzzing.Arena(service, loop)
                began = time.perf_counter()
                fuzzer(arena, args.examples)
                seconds = time.perf_counter() - began
                t = arena.tally
                total += t.inputs
                codes = ", ".join(f"{k} {v}" for k, v in sorted(t.refusals.items()))
                print(f"{fuzzer.__name__:18} {t.inputs:7} inputs  {t.accepted:6} accepted  "
                      f"{t.inputs / seconds:6.0f}/s  refused: {codes}", flush=True)  # fmt: skip
        finally:
            loop.run_until_complete(service.store.close())
            loop.close()
    print(f"total              {total:7} inputs, 0 crashes, 0 state changes from refused input")


if __name__ == "__main__":
    main()
