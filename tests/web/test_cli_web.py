"""``tavolo web``: the command prints the address, serves the page and local sign-in on
127.0.0.1, and stops on SIGINT (with a page still connected)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest


@pytest.mark.slow
async def test_tavolo_web_serves_local_play(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "DATA_DIR": str(tmp_path),
        "DATABASE_URL": "",
        "TELEGRAM_TOKEN": "",
        "DISCORD_TOKEN": "",
        "DEFAULT_LOCALE": "en",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "web",
        "--port",
        "0",
        "--name",
        "Ann",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert line.startswith("Tavolo web table: http://127.0.0.1:"), line
        url = line.split()[-1].removesuffix("/app/")
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{url}/api/auth/local") as r:
                assert r.status == 200
                body = await r.json()
            assert body["user"]["name"] == "Ann" and body["user"]["locale"] == "en"
            ws = await session.ws_connect(f"{url}/ws?token={body['token']}")
            await ws.send_json({"type": "new", "id": 1, "game": "scopa", "players": 2})
            created = await asyncio.wait_for(ws.receive_json(), 30)
            assert created["type"] == "created"
            process.send_signal(signal.SIGINT)
            assert await asyncio.wait_for(process.wait(), 30) == 0
            await ws.close()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
