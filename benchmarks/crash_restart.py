"""Crash/restart: real ``python -m bot run`` processes (Telegram adapter, fake Bot API through
``TELEGRAM_API_URL``, SQLite in WAL mode) killed with SIGKILL at random moments while scripted
players play quick Scopa games in their private chats; the bot is restarted each time.

Checks at the end (the run fails otherwise): every game finished, every move a player saw
acknowledged is in the move log, ``PRAGMA integrity_check`` is ok, the token is in no log (all
runs at ``LOG_LEVEL=DEBUG``). Prints the kills, moves, restarts and what the players had to do.

    python benchmarks/crash_restart.py [--kills 100] [--tables 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.crash import crash_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--tables", type=int, default=4, help="games played at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tavolo-crash-") as work:
        f = asyncio.run(crash_run(Path(work), tables=args.tables, kills=args.kills, seed=args.seed))
    print(f"kills (SIGKILL)            {f.kills}")
    print(f"games, all finished        {f.tables}")
    print(f"moves in the log           {f.moves_logged} (humans' and computers')")
    print(f"moves acknowledged         {f.moves_acked}, missing from the log: 0")
    print(f"presses never answered     {f.presses_unanswered} (the bot was down; not acked)")
    print(f"hands asked for again      {f.hands_reasked}")
    print(f"restart to first poll      median {statistics.median(f.restart_seconds):.2f} s, "
          f"max {max(f.restart_seconds):.2f} s")  # fmt: skip
    print("integrity_check            ok")
    print(f"token in {len(f.log_files)} DEBUG logs     never")
    print(f"wall time                  {f.seconds:.0f} s")


if __name__ == "__main__":
    main()
