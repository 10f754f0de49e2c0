"""Fixtures of the deployment tests: the PostgreSQL database of ``.ci/run`` (with ``CI`` set,
a missing one fails instead of skipping), and ``python -m bot`` processes."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.conftest import PG_ENV, _reset_postgres, worker_pg_url

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg_url() -> Iterator[str]:
    url = worker_pg_url()
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {PG_ENV} is not: the multi-process tests cannot run")
        pytest.skip(f"{PG_ENV} not set: no PostgreSQL")
    _reset_postgres(url)
    yield url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bot_env(**settings: str) -> dict[str, str]:
    """The environment of a ``python -m bot`` child: none of ours, these settings only."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TELEGRAM_", "DISCORD_", "DATABASE_", "METRICS_", "LOG_"))
    }
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings)
    return env


async def start_bot(env: dict[str, str], cwd: Path, *args: str) -> asyncio.subprocess.Process:
    """``python -m bot run`` (or ``args``) in ``cwd``; its output goes to ``cwd/bot.log``.

    A file, not a pipe: a pipe nobody reads fills up with debug logs and then blocks every
    thread that logs (aiosqlite's worker too), which would stall the bot."""
    # cwd: a directory without a .env, so only ``env`` counts.
    with (cwd / "bot.log").open("wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *(args or ("run",)),
            env=env,
            cwd=cwd,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )


async def stop_bot(process: asyncio.subprocess.Process, cwd: Path, *, timeout: float = 30) -> str:
    """SIGTERM, then the process's log (killed if it does not stop in ``timeout``)."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), timeout=timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
    return (cwd / "bot.log").read_text(errors="replace")
