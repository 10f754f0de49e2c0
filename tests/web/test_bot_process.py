"""A real ``python -m bot run`` with ``WEB_PORT``: the Telegram bot and the web table in one
process. The group's table opens the Mini App, a page signed in with Telegram's init data plays
a move, the group hears of it; /metrics and /health answer on the web port; SIGTERM stops it
with the page still open."""

from __future__ import annotations

import json
import time
from pathlib import Path

import aiohttp
import pytest

from bot.web.auth import sign_init_data
from tests.deploy.conftest import bot_env, free_port, start_bot, stop_bot
from tests.deploy.test_scale_out import open_table
from tests.fakes.telegram_api import FakeBotApi, group_chat, user


@pytest.mark.slow
async def test_the_bot_process_serves_the_web_table(tmp_path: Path) -> None:
    port = free_port()
    async with FakeBotApi() as api:
        env = bot_env(
            TELEGRAM_TOKEN=api.token,
            TELEGRAM_API_URL=api.url,
            DATA_DIR=str(tmp_path / "data"),
            DEFAULT_LOCALE="en",
            TURN_REMINDER_SECONDS="0",
            WEB_PORT=str(port),
            PUBLIC_URL="https://tavolo.example.org",
            WEB_APP_SHORT_NAME="table",
            WEB_PACE="0",
        )
        process = await start_bot(env, tmp_path)
        try:
            await api.wait_for(lambda: api.calls("getUpdates"), timeout=60, what="polling")
            group = group_chat(-100_900, "Web")
            alice, bob = user(9001, "Alice", lang="en"), user(9002, "Bob", lang="en")
            table = await open_table(api, group, alice, bob, target=11)
            link = f"https://t.me/{api.bot_username}/table?startapp={table}"
            await api.wait_for(
                lambda: any(
                    b.get("url") == link for m in api.bot_messages(group["id"]) for b in m.buttons()
                ),
                timeout=30,
                what="the Mini App's button",
            )
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as session:
                async with session.get(f"{base}/health") as r:
                    assert r.status == 200 and (await r.json())["ok"] is True
                async with session.get(f"{base}/metrics") as r:
                    assert "tavolo_web_connections" in await r.text()
                pages = {}
                for who in (alice, bob):
                    fields = {
                        "auth_date": str(int(time.time())),
                        "user": json.dumps({"id": who["id"], "first_name": who["first_name"]}),
                        "start_param": str(table),
                    }
                    init = sign_init_data(fields, api.token)
                    async with session.post(
                        f"{base}/api/auth/telegram", json={"init_data": init}
                    ) as r:
                        assert r.status == 200
                        token = (await r.json())["token"]
                    ws = await session.ws_connect(f"{base}/ws?token={token}")
                    await ws.send_json({"type": "watch", "table": table, "since": None})
                    pages[who["id"]] = ws
                states = {}
                for who_id, ws in pages.items():
                    for _ in range(20):
                        frame = await ws.receive_json(timeout=30)
                        if frame["type"] == "state":
                            states[who_id] = frame
                            break
                frame = states[alice["id"]]
                turn = frame["state"]["turn"]
                mover = alice["id"] if turn == 0 else bob["id"]
                mine = states[mover]
                before = len(api.requests)
                await pages[mover].send_json(
                    {
                        "type": "act",
                        "id": 1,
                        "table": table,
                        "version": mine["version"],
                        "action": mine["state"]["moves"][0]["move"],
                    }
                )
                for _ in range(20):
                    answer = await pages[mover].receive_json(timeout=30)
                    if answer.get("id") == 1:
                        break
                assert answer["type"] == "ack", answer
                # The group hears of the move made from the page (its table message edited).
                await api.wait_for(
                    lambda: any(
                        r.params.get("chat_id") == group["id"] for r in api.requests[before:]
                    ),
                    timeout=30,
                    what="the group's update",
                )
        finally:
            log = await stop_bot(process, tmp_path)
        assert process.returncode == 0, log[-2000:]
        assert api.token not in log
