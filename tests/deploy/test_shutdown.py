"""SIGTERM on a real ``python -m bot run``: moves in flight finish, polling stops, the database
is closed, nothing acknowledged is lost; the token never reaches the log; the health command
and endpoint answer while it runs."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.conftest import ROOT, bot_env, free_port, start_bot, stop_bot
from tests.deploy.test_scale_out import freshest_hand, open_table
from tests.fakes.telegram_api import FakeBotApi, group_chat, user
from tests.telegram.harness import move_buttons

TABLES = 4


@pytest.mark.slow
async def test_sigterm_finishes_the_moves_in_flight(tmp_path: Path) -> None:
    metrics_port = free_port()
    async with FakeBotApi() as api:
        env = bot_env(
            TELEGRAM_TOKEN=api.token,
            TELEGRAM_API_URL=api.url,
            DATA_DIR=str(tmp_path / "data"),
            DEFAULT_LOCALE="en",
            TURN_REMINDER_SECONDS="0",  # no timers: only the presses below move
            METRICS_PORT=str(metrics_port),
            LOG_FORMAT="json",
            LOG_LEVEL="DEBUG",  # the most talkative logs must still not show the token
        )
        process = await start_bot(env, tmp_path)
        try:
            await api.wait_for(lambda: api.calls("getUpdates"), timeout=60, what="polling")
            players = []
            tables = []
            for i in range(TABLES):
                group = group_chat(-100_700 - i, f"Shutdown {i}")
                alice, bob = user(7000 + 2 * i, f"A{i}", lang="en"), user(7001 + 2 * i, f"B{i}")
                tables.append(await open_table(api, group, alice, bob))
                players.append((alice, bob))
            # The health command and endpoint while it runs.
            health = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "bot", "health"],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert health.returncode == 0, health.stderr
            assert json.loads(health.stdout)["ok"] is True
            # One move press per table, all at once, then SIGTERM as soon as the bot has
            # fetched them. A press the bot took on is finished (answered, committed) before
            # it exits; one it fetched but had not started stays unconfirmed at Telegram
            # (python-telegram-bot drops it unacknowledged), so the next start gets it again.
            queries = []
            for table_id, (alice, bob) in zip(tables, players, strict=True):
                for player in (alice, bob):
                    message = freshest_hand(api, player["id"], table_id)
                    if message is None:
                        continue
                    plain = [d for d in move_buttons(message) if ":?" not in d]
                    if plain:
                        queries.append(api.press(message, player, data=plain[0]))
                        break
            assert queries, "no plain move button to press"

            def fetched() -> bool:
                seen = {
                    u["callback_query"]["id"]
                    for c in api.calls("getUpdates")
                    for u in c.reply.get("result") or []
                    if "callback_query" in u
                }
                return all(q in seen for q in queries)

            await api.wait_for(fetched, timeout=30, what="the presses fetched")
            polls_before = len(api.calls("getUpdates"))
        finally:
            log = await stop_bot(process, tmp_path)
        assert process.returncode == 0, log[-3000:]
        assert api.token not in log
        # Polling stopped: at most the poll in flight at SIGTERM came after.
        assert len(api.calls("getUpdates")) <= polls_before + 1
        events = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
        # Library threads may still log a line after the last event; only event lines count.
        events = [e for e in events if e.get("event")]
        kinds = [e["event"] for e in events]
        assert "stopping" in kinds and kinds[-1] == "stopped", " ".join(kinds[-8:])
        stopping = kinds.index("stopping")
        # Nothing the bot was handling was cut off: every call it began, it finished.
        begun = [e for e in events[stopping:] if e.get("event") == "call"]
        assert all(e["outcome"] in ("ok", "refused") for e in begun), begun
        calls = [e for e in events if e.get("event") == "call" and e.get("call") == "press"]
        assert calls and all("latency_ms" in e and e["platform"] == "telegram" for e in calls)
        assert any(e.get("table_id") in tables for e in calls)
        before_restart = sum(1 for q in queries if q in api.answered_callbacks)

        # The next start: every press answered exactly once, every accepted one stored once.
        again = tmp_path / "again"
        again.mkdir()
        polls = len(api.calls("getUpdates"))
        process = await start_bot(env, again)
        try:
            await api.wait_for(
                lambda: len(api.calls("getUpdates")) > polls + 1, timeout=60, what="polling"
            )
            await api.wait_for(
                lambda: all(q in api.answered_callbacks for q in queries),
                timeout=60,
                what="every press answered after the restart",
            )
        finally:
            log = await stop_bot(process, again)
        assert process.returncode == 0, log[-3000:]
        for query in queries:
            assert len(api.calls("answerCallbackQuery", callback_query_id=query)) == 1, query
        accepted = sum(1 for q in queries if api.answered_callbacks[q].get("text") is None)
        assert accepted == len(queries), [api.answered_callbacks[q] for q in queries]
        db = sqlite3.connect(tmp_path / "data" / "tavolo.sqlite3")
        try:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            humans = db.execute("SELECT count(*) FROM moves WHERE actor = 'human'").fetchone()
        finally:
            db.close()
        assert humans == (accepted,)
        print(f"\n{before_restart} of {len(queries)} presses answered before SIGTERM's exit")


def test_health_fails_without_a_database(tmp_path: Path) -> None:
    env = bot_env(DATABASE_URL="postgresql://nobody@127.0.0.1:1/none")
    run = subprocess.run(
        [sys.executable, "-m", "bot", "health"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert run.stderr.startswith("unhealthy: database")
    assert str(ROOT) not in run.stderr
