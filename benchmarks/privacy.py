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
                                 [--results FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
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
    parser.add_argument("--db-dir", help="where the batches' databases go (default /dev/shm)")
    args = parser.parse_args()
    results = args.results or Path(tempfile.gettempdir()) / "tavolo-privacy-results.jsonl"
    done = load(results) if args.results else []
    if not args.results:
        results.unlink(missing_ok=True)
    finished = {(r["platform"], r["first"]) for r in done}
    db_dir = args.db_dir or ("/dev/shm" if Path("/dev/shm").is_dir() else None)
    units = []
    for platform, games in (("telegram", args.telegram), ("discord", args.discord)):
        for first in range(0, games, args.batch):
            if (platform, first) not in finished:
                units.append((platform, first, min(args.batch, games - first), db_dir))
    # Interleave the platforms, so a partial run covers both.
    units.sort(key=lambda u: (u[1], u[0] != "telegram"))
    print(
        f"{len(finished)} batches already done, {len(units)} to run, {args.jobs} jobs", flush=True
    )
    began = time.perf_counter()
    failed: list[dict[str, Any]] = []
    # Each batch runs in a fresh process (maxtasksperchild=1): a fake server, a bot, a loop and
    # discord.py's patched URLs never outlive their batch.
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.jobs, maxtasksperchild=1) as pool, results.open("a") as out:
        for row in pool.imap_unordered(run_batch, units):
            if "error" in row:
                # A leak (or anything else) fails the batch's checks: shown, never counted.
                failed.append(row)
                print(f"{row['platform']} batch {row['first']} FAILED:\n{row['error']}", flush=True)
                continue
            out.write(json.dumps(row) + "\n")
            out.flush()
            done.append(row)
            platform = row["platform"]
            print(line(platform, totals(done, platform), time.perf_counter() - began), flush=True)
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
