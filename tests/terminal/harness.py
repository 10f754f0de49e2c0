"""Run ``python -m bot`` in a real pseudo-terminal, as a person at a keyboard would: keys go
through the terminal's line discipline, so Ctrl-C (``\\x03``) becomes SIGINT and Ctrl-D
(``\\x04``) the end of input exactly as they do for a player. Every wait is bounded."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Bounds for a hang, never measurements: a failing wait says what the screen showed.
WAIT = 120.0


def environment(home: Path, lang: str, **extra: str) -> dict[str, str]:
    """A newcomer's environment: a fresh home and data directory, no token, the system language
    ``lang``, and no DEFAULT_LOCALE unless given."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEFAULT_LOCALE", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "COLUMNS", "LINES")
    }
    env.update(
        HOME=str(home),
        DATA_DIR=str(home / "data"),
        LANG=lang,
        PYTHONPATH=str(ROOT),
        DATABASE_URL="",
        TELEGRAM_TOKEN="",
        DISCORD_TOKEN="",
        LOG_LEVEL="",
        **extra,
    )
    return env


def as_foreground() -> None:
    """In a child about to run the player's program: the default SIGINT and SIGQUIT, as a shell
    gives its foreground program. A test run started in the background (a non-interactive
    shell's `&`) ignores both, and its children would inherit that: Ctrl-C would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Terminal:
    """``python -m bot ARGS`` on a pty of ``columns`` x ``rows``."""

    def __init__(
        self, args: list[str], env: dict[str, str], *, cwd: Path, columns: int = 100, rows: int = 40
    ) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: becomes the player's program
            try:
                as_foreground()
                os.chdir(cwd)
                os.execve(sys.executable, [sys.executable, "-m", "bot", *args], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.output = ""
        self.status: int | None = None
        self._raw = b""

    def _pump(self, timeout: float) -> bool:
        """Read what is there (waiting up to ``timeout``); False at the end of output."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        self._raw += chunk
        self.output = self._raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return True

    def expect(self, text: str, *, after: int = 0, timeout: float = WAIT) -> int:
        """Wait for ``text`` in the output from position ``after``; its end position."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.output.find(text, after)
            if found >= 0:
                return found + len(text)
            if time.monotonic() > deadline or not self._pump(0.2):
                if self.output.find(text, after) >= 0:
                    continue
                raise AssertionError(f"no {text!r} in:\n{self.output[after:][-3000:]}")

    def expect_any(self, texts: tuple[str, ...], *, after: int = 0) -> tuple[str, int]:
        """The first of ``texts`` to appear after ``after``, and its end position."""
        deadline = time.monotonic() + WAIT
        while True:
            found = [(self.output.find(t, after), t) for t in texts]
            hits = sorted((at, t) for at, t in found if at >= 0)
            if hits:
                at, text = hits[0]
                return text, at + len(text)
            if time.monotonic() > deadline or not self._pump(0.2):
                if any(self.output.find(t, after) >= 0 for t in texts):
                    continue
                raise AssertionError(f"none of {texts!r} in:\n{self.output[after:][-3000:]}")

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def line(self, text: str) -> None:
        self.send(text + "\r")

    def wait(self, timeout: float = WAIT) -> int:
        """The exit code (130 after SIGINT's KeyboardInterrupt), reading output until then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self._pump(0.05):
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                os.close(self.fd)
                return self.status
            self._pump(0.1)
        self.kill()
        raise AssertionError(f"still running after {timeout}s:\n{self.output[-3000:]}")

    def kill(self) -> None:
        if self.status is None:
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            self.status = -9
            with contextlib.suppress(OSError):
                os.close(self.fd)


def export(home: Path, table_id: int = 1) -> dict[str, object]:
    """``python -m bot export-game`` of the player's data directory."""
    import json
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "bot", "export-game", str(table_id)],
        env=environment(home, "en_US.UTF-8"),
        cwd=home,
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    )
    assert done.stderr == "", done.stderr  # no log lines from a one-off command
    document: dict[str, object] = json.loads(done.stdout)
    return document


def moves_since_own(document: dict[str, object], *, seat: int = 0) -> list[tuple[int, str]]:
    """(seat, move) of every move since ``seat``'s last one, that one included."""
    moves = [(int(m["seat"]), str(m["move"])) for m in document["moves"]]  # type: ignore[attr-defined]
    own = [i for i, (s, _) in enumerate(moves) if s == seat]
    return moves[own[-1] :] if own else moves


def listed(output: str, header: str, *, after: int = 0) -> list[tuple[str, str]]:
    """(who, what) of the move list that follows ``header`` in ``output`` from ``after``."""
    begin = output.index(header, after) + len(header)
    block = output[begin:].lstrip("\n").split("\n\n", 1)[0]
    rows = []
    for line in block.splitlines():
        if line.startswith("    ") and rows:  # a long line's continuation
            rows[-1] = (rows[-1][0], rows[-1][1] + " " + line.strip())
            continue
        who, _, what = line.strip().partition(": ")
        rows.append((who, what))
    # A turn's moves share a line ("Draw from the stock; Discard: 7♦"): one row per move.
    return [(who, one) for who, what in rows for one in what.split("; ")]
