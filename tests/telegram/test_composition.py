"""``python -m bot`` itself, driven end to end through TELEGRAM_API_URL; turn timers' events."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.fakes.telegram_api import FakeBotApi, group_chat, user
from tests.telegram.harness import Tavolo, action_data, hand_message

ROOT = Path(__file__).resolve().parents[2]
ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
GROUP = group_chat(-100500, "Amici")


@pytest.mark.slow
async def test_python_m_bot_serves_telegram_through_the_api_url(
    api: FakeBotApi, tmp_path: Path
) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TELEGRAM_", "DISCORD_"))
    }
    env.update(
        TELEGRAM_TOKEN=api.token,
        TELEGRAM_API_URL=api.url,
        DATA_DIR=str(tmp_path / "data"),
        LOG_LEVEL="DEBUG",  # the most talkative logs must still not show the token
        PYTHONPATH=str(ROOT),
    )
    # cwd: a directory without a .env, so only these settings count
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await api.wait_for(lambda: api.calls("getUpdates"), timeout=60, what="polling")
        api.send_text(GROUP, ALICE, "/scopa")
        lobby = await api.wait_for(lambda: api.bot_messages(GROUP["id"]), timeout=30)
        assert action_data(lobby[-1], "@join")
        assert {c.params.get("language_code") for c in api.calls("setMyCommands")} >= {"it", "en"}
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        try:
            _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
        except TimeoutError:
            process.kill()
            _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode(errors="replace")[-2000:]
    assert api.token not in stderr.decode(errors="replace")
    assert (tmp_path / "data" / "tavolo.sqlite3").exists()


async def test_turn_timer_events_reach_telegram(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", timers=True) as tavolo:
        await tavolo.say(GROUP, ALICE, "/scopa 2 target=1")
        lobby = api.last_bot_message(GROUP["id"])
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
        assert tavolo.service is not None and tavolo.bot is not None
        mover = next(p for p in (ALICE, BOB) if hand_message(api, p["id"], 1) is not None)
        notices_before = len(api.calls("sendMessage", chat_id=mover["id"]))
        results = await tavolo.service.fire_due_timers(now=time.time() + 90)
        assert results
        for result in results:
            await tavolo.bot.deliver(result)
        await tavolo.bot.delivery.settled()  # timer results are queued, not awaited
        reminders = api.calls("sendMessage", chat_id=mover["id"])[notices_before:]
        assert reminders, "no reminder reached the player"
        # past the deadline the computer plays for the idle player, and the group sees it
        moves_before = len((await tavolo.service.export_game(1))["moves"])
        for result in await tavolo.service.fire_due_timers(now=time.time() + 10_000):
            await tavolo.bot.deliver(result)
        await tavolo.bot.delivery.settled()
        assert len((await tavolo.service.export_game(1))["moves"]) > moves_before
