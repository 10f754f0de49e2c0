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

from bot.service import decode_button
from tests.deploy.conftest import ROOT, bot_env, free_port, start_bot, stop_bot
from tests.deploy.test_scale_out import freshest_hand, open_table
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage, group_chat, user
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


async def play_one_move(api: FakeBotApi, players: tuple[JSON, JSON], table_id: int) -> int:
    """Whoever has the newest hand presses a move on it (a capture choice's second step too)
    and waits for the next hand; returns the version the move was played on."""

    def newest() -> tuple[int, JSON, StoredMessage] | None:
        found = [
            (max(decode_button(d).version for d in move_buttons(m)), p, m)
            for p in players
            if (m := freshest_hand(api, p["id"], table_id)) is not None
        ]
        return max(found, key=lambda vpm: vpm[0]) if found else None

    found: tuple[int, JSON, StoredMessage] = await api.wait_for(newest, timeout=30, what="hand")
    version, player, message = found
    data = move_buttons(message)[0]
    answer = await api.wait_answered(api.press(message, player, data=data), timeout=30)
    assert answer.get("text") is None, answer
    if data.split(":", 2)[2].startswith("?"):
        choices = await api.wait_for(
            lambda: [
                d
                for d in move_buttons(api.message(player["id"], message.message_id))
                if ":?" not in d
            ],
            timeout=30,
            what="the capture choices",
        )
        answer = await api.wait_answered(api.press(message, player, data=choices[0]), timeout=30)
        assert answer.get("text") is None, answer
    await api.wait_for(
        lambda: (found := newest()) is not None and found[0] > version,
        timeout=30,
        what="the next hand",
    )
    return version


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


async def test_sigterm_with_table_edits_held_by_the_flood_limit(tmp_path: Path) -> None:
    """Moves come faster than a group may be edited (20 a minute): the table's edits wait in
    the flood limiter while the hands follow every move. SIGTERM then stops at once and
    cleanly (the wait is cancelled, the HTTP clients are closed: no ERROR line, no unclosed
    aiohttp session), and the next start delivers the table that was left behind."""
    async with FakeBotApi() as api:
        env = bot_env(
            TELEGRAM_TOKEN=api.token,
            TELEGRAM_API_URL=api.url,
            DATA_DIR=str(tmp_path / "data"),
            DEFAULT_LOCALE="en",
            TURN_REMINDER_SECONDS="0",
            LOG_LEVEL="INFO",
        )
        process = await start_bot(env, tmp_path)
        group = group_chat(-100_790, "Flood")
        alice, bob = user(7900, "Alice", lang="en"), user(7901, "Bob", lang="en")
        try:
            await api.wait_for(lambda: api.calls("getUpdates"), timeout=60, what="polling")
            table_id = await open_table(api, group, alice, bob, target=11)
            held = 0
            for _ in range(40):
                await play_one_move(api, (alice, bob), table_id)
                if len([r for r in api.requests if r.chat_id == group["id"]]) >= 20:
                    held += 1  # the group's minute is used up: the table edits wait
                if held >= 3:
                    break
            shown = [r for r in api.requests if r.chat_id == group["id"] and r.ok]
            assert len(shown) <= 20, len(shown)  # the limiter held the rest back
        finally:
            log = await stop_bot(process, tmp_path)
        assert process.returncode == 0, log[-3000:]
        errors = [line for line in log.splitlines() if " ERROR " in line or "Unclosed" in line]
        assert not errors, errors
        assert "database closed" in log.splitlines()[-1], log[-2000:]

        # The next start delivers the table as it stands (its last edits never went out).
        db = sqlite3.connect(tmp_path / "data" / "tavolo.sqlite3")
        try:
            (current,) = db.execute(
                "SELECT version FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        finally:
            db.close()

        def table_shown() -> int:
            """The version the group's table message was last edited or posted at."""
            for r in reversed([r for r in api.requests if r.chat_id == group["id"] and r.ok]):
                rows = (r.params.get("reply_markup") or {}).get("inline_keyboard", [])
                found = [decode_button(b["callback_data"]).version for row in rows for b in row]
                if found:
                    return min(found)
            return 0

        assert table_shown() < current
        again = tmp_path / "again"
        again.mkdir()
        process = await start_bot(env, again)
        try:

            def table_current() -> bool:
                return bool(table_shown() == current)

            await api.wait_for(table_current, timeout=60, what="the table delivered anew")
        finally:
            log = await stop_bot(process, again)
        assert process.returncode == 0, log[-3000:]


async def test_sigterm_during_inline_play_logs_no_error(tmp_path: Path) -> None:
    """SIGTERM while a game is played inline under Telegram's real limits (the fake enforcing
    them): the group's window is spent, so the table messages and a refusal said in the group
    wait in the limiter, inline moves and queries are in flight. The process stops cleanly:
    exit code 0, no ERROR line, no unclosed aiohttp session or connector (issue 41)."""
    async with FakeBotApi(inline=True) as api:
        api.enforce_flood_limits()
        group = group_chat(-100_795, "Inline stop")
        api.make_bot_admin(group["id"])
        alice, bob = user(7950, "Alice", lang="en"), user(7951, "Bob", lang="en")
        for player in (alice, bob):
            api.block_private(player["id"])  # they play inline
        env = bot_env(
            TELEGRAM_TOKEN=api.token,
            TELEGRAM_API_URL=api.url,
            DATA_DIR=str(tmp_path / "data"),
            DEFAULT_LOCALE="en",
            TURN_REMINDER_SECONDS="0",
            IMAGES="off",
            LOG_LEVEL="INFO",
        )
        process = await start_bot(env, tmp_path)
        try:
            await api.wait_for(lambda: api.calls("getUpdates"), timeout=60, what="polling")
            table_id = await open_table(api, group, alice, bob, target=11)
            # Spend the rest of the group's minute: what the bot says there now waits.
            for _ in range(25):  # bounded: the window holds 20
                api.send_text(group, alice, "/help")
            await api.wait_for(
                lambda: (
                    api.flood_limits is not None
                    and len([r for r in api.requests if r.chat_id == group["id"] and r.ok]) >= 20
                ),
                timeout=60,
                what="the group's window spent",
            )
            players = {alice["id"]: alice, bob["id"]: bob}
            for _ in range(4):  # a few moves, about one a second
                asked = {}
                for player in players.values():
                    query_id = api.inline_query(player, str(table_id))
                    await api.wait_inline_answer(query_id, timeout=30)
                    asked[player["id"]] = query_id
                for player_id, query_id in asked.items():
                    playable = [
                        r
                        for r in api.inline_results(query_id)
                        if not decode_button(r["id"]).action.startswith("~")
                    ]
                    if playable:
                        api.choose_inline_result(
                            players[player_id], query_id, playable[0]["id"], chat=group
                        )
                await asyncio.sleep(1.0)
            # In flight at SIGTERM: a refusal said in the group (it waits for the window), a
            # query and a chosen result.
            api.send_text(group, bob, "/abandon")
            query_id = api.inline_query(alice, str(table_id))
            await api.wait_inline_answer(query_id, timeout=30)
            playable = [
                r
                for r in api.inline_results(query_id)
                if not decode_button(r["id"]).action.startswith("~")
            ]
            if playable:
                api.choose_inline_result(alice, query_id, playable[0]["id"], chat=group)
            await asyncio.sleep(0.5)
        finally:
            log = await stop_bot(process, tmp_path, timeout=60)
        assert process.returncode == 0, log[-3000:]
        errors = [
            line
            for line in log.splitlines()
            if " ERROR " in line or "Unclosed" in line or "Traceback" in line
        ]
        assert not errors, "\n".join(errors)
        assert not api.flood_refusals, api.flood_refusals
        assert "database closed" in log.splitlines()[-1], log[-2000:]


async def test_a_rejected_token_leaves_no_unclosed_session(tmp_path: Path) -> None:
    """The Telegram adapter fails at start (the Bot API rejects the token): the process says
    so and exits 1, and the HTTP clients it opened are closed (no unclosed session)."""
    async with FakeBotApi() as api:
        env = bot_env(
            TELEGRAM_TOKEN="999:not-the-token",
            TELEGRAM_API_URL=api.url,
            DATA_DIR=str(tmp_path / "data"),
            LOG_LEVEL="INFO",
        )
        process = await start_bot(env, tmp_path)
        try:
            await asyncio.wait_for(process.wait(), timeout=60)
        finally:
            log = await stop_bot(process, tmp_path)
    assert process.returncode == 1, log[-3000:]
    assert "InvalidToken" in log
    assert "Unclosed" not in log, log[-3000:]
    assert "database closed" in log
