"""Privacy, the big run: many simulated games on both fakes (Telegram: two humans in a group and
a stranger pressing "My hand"; every third game Scopone with two computers. Discord: a player
against the computer and a stranger). No card of a private hand may appear in a public message
before it is played, and no one but the seated player may receive that hand (see
``tests/reliability/privacy.py``). Prints games, moves and texts checked, per batch.

Batches of ``--batch`` games are shared out to ``--jobs`` worker processes; each batch has its
own fake server (on its own port), bot, database (on ``/dev/shm`` where there is one) and seed,
as before. Every finished batch is appended to ``--results``; running the same command again
skips the batches already there, so an interrupted run still counts what it did.

    python benchmarks/privacy.py [--telegram 500] [--discord 500] [--batch 25] [--jobs 2]
                                 [--results FILE] [--also OTHER_FILE] [--reverse]

A second run may join one under way: ``--results B --also A --reverse`` takes the batches from
the other end and skips those the first run has finished; the summary counts each batch once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import multiprocessing.pool
import sys
import tempfile
import time
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.privacy import PrivacyFigures, discord_games, telegram_games


def run_batch(unit: tuple[str, int, int, str | None]) -> dict[str, Any]:
    """One batch in a worker process: ``count`` games from game number ``first`` (the seed)."""
    platform, first, count, db_dir = unit
    play = telegram_games if platform == "telegram" else discord_games
    began = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix=f"tavolo-privacy-{platform}-", dir=db_dir) as w:
            figures = asyncio.run(play(Path(w) / "p.sqlite3", count, seed=first))
    except Exception:
        # Reported, not counted: the other batches go on, and a new run retries this one.
        return {"platform": platform, "first": first, "error": traceback.format_exc()}
    return {
        "platform": platform,
        "first": first,
        **asdict(figures),
        "seconds": time.perf_counter() - began,
    }


def load(results: Path) -> list[dict[str, Any]]:
    if not results.exists():
        return []
    return [json.loads(line) for line in results.read_text().splitlines() if line.strip()]


def totals(done: list[dict[str, Any]], platform: str) -> PrivacyFigures:
    total = PrivacyFigures()
    for row in done:
        if row["platform"] == platform:
            for name in vars(total):
                setattr(total, name, getattr(total, name) + row[name])
    return total


def line(platform: str, t: PrivacyFigures, seconds: float) -> str:
    return (f"{platform:8} games {t.games:5}  moves {t.moves:7}  public texts checked "
            f"{t.group_texts_checked:7}  private texts checked {t.private_texts_checked:7}  "
            f"stranger looks {t.stranger_looks:5}  {seconds:6.0f} s  leaks 0")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--telegram", type=int, default=500)
    parser.add_argument("--discord", type=int, default=500)
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--results", type=Path, help="batch results (JSON lines): resumable")
    parser.add_argument(
        "--also",
        type=Path,
        action="append",
        default=[],
        help="another run's results (read only): its batches are skipped, also while this run "
        "goes on, and counted in the summary",
    )
    parser.add_argument("--reverse", action="store_true", help="last batches first")
    parser.add_argument("--db-dir", help="where the batches' databases go (default /dev/shm)")
    args = parser.parse_args()
    results = args.results or Path(tempfile.gettempdir()) / "tavolo-privacy-results.jsonl"
    if not args.results:
        results.unlink(missing_ok=True)

    def finished() -> dict[tuple[str, int], dict[str, Any]]:
        # A batch done by two runs counts once.
        rows = [row for path in [results, *args.also] for row in load(path)]
        return {(r["platform"], r["first"]): r for r in rows}

    db_dir = args.db_dir or ("/dev/shm" if Path("/dev/shm").is_dir() else None)
    units = []
    for platform, games in (("telegram", args.telegram), ("discord", args.discord)):
        for first in range(0, games, args.batch):
            if (platform, first) not in finished():
                units.append((platform, first, min(args.batch, games - first), db_dir))
    # Interleave the platforms, so a partial run covers both.
    units.sort(key=lambda u: (u[1], u[0] != "telegram"), reverse=args.reverse)
    print(f"{len(finished())} batches done, {len(units)} to run, {args.jobs} jobs", flush=True)
    began = time.perf_counter()
    failed: list[dict[str, Any]] = []
    running: list[multiprocessing.pool.AsyncResult[dict[str, Any]]] = []
    # Each batch runs in a fresh process (maxtasksperchild=1): a fake server, a bot, a loop and
    # discord.py's patched URLs never outlive their batch. Batches are handed out one at a time,
    # so one another run (``--also``) finished meanwhile is not played again.
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.jobs, maxtasksperchild=1) as pool, results.open("a") as out:
        while units or running:
            while units and len(running) < args.jobs:
                unit = units.pop(0)
                if (unit[0], unit[1]) not in finished():
                    running.append(pool.apply_async(run_batch, (unit,)))
            ready = [r for r in running if r.ready()]
            if not ready:
                time.sleep(1)
                continue
            for result in ready:
                running.remove(result)
                row = result.get()
                if "error" in row:
                    # A leak (or anything else) fails the batch's checks: shown, never counted.
                    failed.append(row)
                    print(f"{row['platform']} batch {row['first']} FAILED:\n{row['error']}")
                    continue
                out.write(json.dumps(row) + "\n")
                out.flush()
                platform = row["platform"]
                all_done = list(finished().values())
                seconds = time.perf_counter() - began
                print(line(platform, totals(all_done, platform), seconds), flush=True)
    done = list(finished().values())
    print("summary")
    for platform in ("telegram", "discord"):
        seconds = sum(r["seconds"] for r in done if r["platform"] == platform)
        print(line(platform, totals(done, platform), seconds) + " (batch seconds, summed)")
    print(f"wall time this run {time.perf_counter() - began:.0f} s")
    if failed:
        batches = ", ".join(f"{r['platform']} {r['first']}" for r in failed)
        sys.exit(f"{len(failed)} batches failed (not counted; run again to retry): {batches}")


if __name__ == "__main__":
    main()
