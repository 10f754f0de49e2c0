"""How long terminal play takes to leave after Ctrl-C or Ctrl-D, typed at a real pseudo-terminal.

    python benchmarks/terminal_keys.py [--runs 10]

Each run starts ``python -m bot play`` in a fresh data directory on a pty, waits for the move
prompt, then types the key: at the prompt (Scopa against the easy computer), and right after a
move against three hard computers (Scopone), while they think. Printed: the time from the key to
the "saved" message and to the process's exit, median and worst over the runs.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one(args: list[str], key: bytes, move: bytes | None) -> tuple[float, float, int]:
    home = tempfile.mkdtemp()
    env = {k: v for k, v in os.environ.items() if k not in ("DEFAULT_LOCALE", "COLUMNS")}
    env.update(HOME=home, DATA_DIR=home, LANG="en_US.UTF-8", PYTHONPATH=str(ROOT))
    env.update(TELEGRAM_TOKEN="", DISCORD_TOKEN="", DATABASE_URL="")
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(home)
        os.execve(sys.executable, [sys.executable, "-m", "bot", "play", *args], env)
    out = b""
    deadline = time.monotonic() + 120
    while b"quit): " not in out:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            out += os.read(fd, 65536)
        if time.monotonic() > deadline:
            raise SystemExit("no prompt: " + out.decode(errors="replace")[-500:])
    if move is not None:
        os.write(fd, move + b"\r")
        time.sleep(0.3)  # the line read: the computers are thinking now
    start = time.perf_counter()
    os.write(fd, key)
    saved = -1.0
    out = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 10)
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        if saved < 0 and b"Game saved" in out:
            saved = time.perf_counter() - start
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return saved, time.perf_counter() - start, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per case (default: 10)")
    runs = parser.parse_args().runs
    cases = [
        ("Ctrl-C at the prompt (Scopa)", ["scopa", "--name", "Eva"], b"\x03", None),
        ("Ctrl-D at the prompt (Scopa)", ["scopa", "--name", "Eva"], b"\x04", None),
        (
            "Ctrl-C while 3 hard computers think (Scopone)",
            ["scopone", "--level", "hard", "--name", "Eva"],
            b"\x03",
            b"1",
        ),
    ]
    load = os.getloadavg()[0]
    print(f"{runs} runs per case; load average {load:.1f}; {sys.version.split()[0]}")
    for name, args, key, move in cases:
        saved, gone, codes = [], [], set()
        for _ in range(runs):
            s, g, code = one(args, key, move)
            saved.append(s)
            gone.append(g)
            codes.add(code)
        print(
            f"{name}: saved message {statistics.median(saved) * 1000:.0f} ms median, "
            f"{max(saved) * 1000:.0f} ms worst; exit {statistics.median(gone) * 1000:.0f} ms "
            f"median, {max(gone) * 1000:.0f} ms worst; exit codes {sorted(codes)}"
        )


if __name__ == "__main__":
    main()
