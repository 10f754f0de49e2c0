"""Privacy, the big run: many simulated games on both fakes (Telegram: two humans in a group and
a stranger pressing "My hand"; every third game Scopone with two computers. Discord: a player
against the computer and a stranger). No card of a private hand may appear in a public message
before it is played, and no one but the seated player may receive that hand (see
``tests/reliability/privacy.py``). Prints games, moves and texts checked, per batch.

    python benchmarks/privacy.py [--telegram 500] [--discord 500] [--batch 25]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.privacy import PrivacyFigures, discord_games, telegram_games


async def run(platform: str, games: int, batch: int) -> PrivacyFigures:
    total = PrivacyFigures()
    play = telegram_games if platform == "telegram" else discord_games
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tavolo-privacy-") as work:
        for first in range(0, games, batch):
            count = min(batch, games - first)
            f = await play(Path(work) / f"{platform}-{first}.sqlite3", count, seed=first)
            for name in vars(total):
                setattr(total, name, getattr(total, name) + getattr(f, name))
            print(f"{platform:8} games {total.games:5}  moves {total.moves:7}  public texts "
                  f"checked {total.group_texts_checked:7}  private texts checked "
                  f"{total.private_texts_checked:7}  stranger looks {total.stranger_looks:5}  "
                  f"{time.perf_counter() - began:6.0f} s  leaks 0", flush=True)  # fmt: skip
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--telegram", type=int, default=500)
    parser.add_argument("--discord", type=int, default=500)
    parser.add_argument("--batch", type=int, default=25)
    args = parser.parse_args()
    if args.telegram:
        asyncio.run(run("telegram", args.telegram, args.batch))
    if args.discord:
        asyncio.run(run("discord", args.discord, args.batch))


if __name__ == "__main__":
    main()
