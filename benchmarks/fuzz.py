"""Hostile input, the big run: hypothesis-generated inputs against every entry point of the
service that the adapters forward (button data / custom ids, move strings, command arguments and
option values of new tables, languages, seats, computer levels), on a real SQLite store.

Each input must give no exception, a refusal must change nothing and render as a short message
in Italian and English, and a move is applied only for the player to move (see
``tests/reliability/fuzzing.py``). Prints inputs, refusals by code and inputs/s.

The run is cut into chunks (``--chunk`` inputs of one entry point, each with its own hypothesis
seed, so no two chunks draw the same inputs) shared out to ``--jobs`` worker processes, each with
its own database (on ``/dev/shm`` where there is one: the cost is the harness's SQLite round
trips, not the disk). Every finished chunk is appended to ``--results``; running the same
command again skips the chunks already there, so an interrupted run still counts what it did.

    python benchmarks/fuzz.py [--examples 25000] [--jobs 2] [--chunk 1000] [--results FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability import fuzzing
from tests.reliability.workload import open_service

BY_NAME = {f.__name__: f for f in fuzzing.FUZZERS}


class Worker:
    """One process: a service on its own database, reused by every chunk it runs."""

    def __init__(self, db_dir: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.path = Path(db_dir) / f"fuzz-{os.getpid()}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self.service = self.loop.run_until_complete(
            open_service(f"sqlite+aiosqlite:///{self.path}")
        )

    def run(self, name: str, chunk: int, examples: int) -> dict[str, Any]:
        # A fresh arena per chunk: its table is found or started anew, so a chunk does not
        # depend on what the chunk before it left behind.
        arena = fuzzing.Arena(self.service, self.loop)
        began = time.perf_counter()
        BY_NAME[name](arena, examples, seed=chunk_seed(name, chunk))
        t = arena.tally
        return {
            "fuzzer": name,
            "chunk": chunk,
            "inputs": t.inputs,
            "accepted": t.accepted,
            "refusals": t.refusals,
            "seconds": time.perf_counter() - began,
            "pid": os.getpid(),
        }


_worker: Worker | None = None


def _start(db_dir: str) -> None:
    global _worker  # one per worker process, made by the pool's initializer
    _worker = Worker(db_dir)


def _run(unit: tuple[str, int, int]) -> dict[str, Any]:
    assert _worker is not None
    try:
        return _worker.run(*unit)
    except Exception:
        # Reported, not counted: the other chunks go on, and a new run retries this one.
        return {"fuzzer": unit[0], "chunk": unit[1], "error": traceback.format_exc()}


def chunk_seed(name: str, chunk: int) -> int:
    return 1_000_003 * (1 + list(BY_NAME).index(name)) + chunk


def load(results: Path) -> list[dict[str, Any]]:
    if not results.exists():
        return []
    done = []
    for line in results.read_text().splitlines():
        if line.strip():
            done.append(json.loads(line))
    return done


def summary(done: list[dict[str, Any]], *, failed: int, wall: float) -> None:
    total = 0
    for name in BY_NAME:
        rows = [r for r in done if r["fuzzer"] == name]
        inputs = sum(r["inputs"] for r in rows)
        accepted = sum(r["accepted"] for r in rows)
        seconds = sum(r["seconds"] for r in rows)
        codes: dict[str, int] = {}
        for r in rows:
            for code, count in r["refusals"].items():
                codes[code] = codes.get(code, 0) + count
        total += inputs
        refused = ", ".join(f"{k} {v}" for k, v in sorted(codes.items()))
        rate = inputs / seconds if seconds else 0.0
        print(f"{name:18} {inputs:7} inputs  {accepted:6} accepted  {len(rows):3} chunks  "
              f"{rate:5.0f}/s per worker  refused: {refused}")  # fmt: skip
    print(f"total              {total:7} inputs in passing chunks: 0 crashes, 0 state changes "
          f"from refused input ({wall:.0f} s wall); chunks failed this run: {failed}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=25_000, help="inputs per entry point")
    parser.add_argument("--chunk", type=int, default=1000, help="inputs per chunk")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--results", type=Path, help="chunk results (JSON lines): resumable")
    parser.add_argument("--db-dir", help="where the workers' databases go (default /dev/shm)")
    args = parser.parse_args()
    results = args.results or Path(tempfile.gettempdir()) / "tavolo-fuzz-results.jsonl"
    done = load(results) if args.results else []
    if not args.results:
        results.unlink(missing_ok=True)
    finished = {(r["fuzzer"], r["chunk"]) for r in done}
    units = []
    for name in BY_NAME:
        for chunk, first in enumerate(range(0, args.examples, args.chunk)):
            if (name, chunk) not in finished:
                units.append((name, chunk, min(args.chunk, args.examples - first)))
    # Interleave the entry points, so a partial run covers all of them.
    units.sort(key=lambda u: (u[1], list(BY_NAME).index(u[0])))
    print(f"{len(finished)} chunks already done, {len(units)} to run, {args.jobs} jobs", flush=True)
    shm = "/dev/shm" if Path("/dev/shm").is_dir() else None
    began = time.perf_counter()
    failed: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tavolo-fuzz-", dir=args.db_dir or shm) as db_dir:
        context = multiprocessing.get_context("spawn")
        pool = context.Pool(args.jobs, initializer=_start, initargs=(db_dir,))
        with pool, results.open("a") as out:
            for row in pool.imap_unordered(_run, units):
                if "error" in row:
                    # A crash or a failed check: shown in full, never counted.
                    failed.append(row)
                    print(f"{row['fuzzer']} chunk {row['chunk']} FAILED:\n{row['error']}")
                    continue
                out.write(json.dumps(row) + "\n")
                out.flush()
                done.append(row)
                print(f"{row['fuzzer']:18} chunk {row['chunk']:3}  {row['inputs']:5} inputs "
                      f"{row['inputs'] / row['seconds']:5.0f}/s  total "
                      f"{sum(r['inputs'] for r in done):7}  "
                      f"{time.perf_counter() - began:5.0f} s", flush=True)  # fmt: skip
    summary(done, failed=len(failed), wall=time.perf_counter() - began)
    if failed:
        chunks = ", ".join(f"{r['fuzzer']} {r['chunk']}" for r in failed)
        sys.exit(f"{len(failed)} chunks failed (not counted; run again to retry): {chunks}")


if __name__ == "__main__":
    main()
