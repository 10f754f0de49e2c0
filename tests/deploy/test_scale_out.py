"""Two real ``python -m bot run`` processes on one PostgreSQL, in Telegram webhook mode behind a
round-robin load balancer, driven through the fake Bot API server.

Human players press move buttons at several tables at once while other tables are left to the
turn timers. Whatever process each update lands on:

* every move press the bot acknowledged is in the move log exactly once, and nothing else by a
  human is (no move lost, none applied twice): the log replays legally with the engine;
* the counts of both processes' ``/metrics`` add up to those presses;
* every turn timer fired exactly once: each idle seat timed out exactly ``takeover_after`` times
  (one reminder and one "time is up" message each) before the computer took it over;
* both processes served updates, fired timers, and stopped cleanly on SIGTERM without
  logging the token.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import random
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import sqlalchemy as sa
from aiohttp import web
from sqlalchemy.ext.asyncio import create_async_engine

from bot.__main__ import replay_export
from bot.service import decode_button
from tests.deploy.conftest import bot_env, free_port, start_bot, stop_bot
from tests.fakes.telegram_api import FakeBotApi, StoredMessage, group_chat, user
from tests.telegram.harness import action_data, move_buttons

HUMAN_TABLES = 4
IDLE_TABLES = 2
TAKEOVER_AFTER = 2
MAX_ROUNDS = 400  # presses per human table at most (a target=1 game needs about 40)
SECRET = "load-balanced_secret"


class RoundRobin:
    """A load balancer in front of the bots' webhook servers: each update goes to the next
    backend (the one after, if that one does not answer)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.served = [0] * len(ports)
        self.failures: list[str] = []  # what went wrong forwarding, for failure messages
        self._next = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.port = free_port()

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/telegram", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")
        }
        assert self._session is not None
        first = self._next
        self._next = (first + 1) % len(self.ports)
        for step in range(len(self.ports)):  # each backend once, this update's turn first
            index = (first + step) % len(self.ports)
            url = f"http://127.0.0.1:{self.ports[index]}/telegram"
            try:
                async with self._session.post(url, data=body, headers=headers) as response:
                    self.served[index] += 1
                    if response.status != 200:
                        self.failures.append(f"backend {index}: HTTP {response.status}")
                    return web.Response(status=response.status)
            except (TimeoutError, aiohttp.ClientError) as error:
                self.failures.append(f"backend {index}: {error!r}")
                continue
        return web.Response(status=502)


def freshest_hand(api: FakeBotApi, user_id: int, table_id: int) -> StoredMessage | None:
    """The player's private message with the newest move buttons of the table (each process
    keeps its own record of which message to edit, so there may be several)."""
    best: tuple[int, StoredMessage] | None = None
    for message in api.bot_messages(user_id):
        moves = move_buttons(message)
        if not moves:
            continue
        button = decode_button(moves[0])
        if button.table_id == table_id and (best is None or button.version > best[0]):
            best = (button.version, message)
    return None if best is None else best[1]


async def press(api: FakeBotApi, message: StoredMessage, sender: dict[str, Any], data: str) -> Any:
    query = api.press(message, sender, data=data)
    return await api.wait_answered(query, timeout=30)


async def open_table(
    api: FakeBotApi,
    group: dict[str, Any],
    alice: dict[str, Any],
    bob: dict[str, Any],
    *,
    target: int = 1,
) -> int:
    """Alice opens a 2-player Scopa to ``target`` points, Bob joins, Alice starts: the id."""
    api.send_text(group, alice, f"/scopa 2 target={target}")

    def lobby() -> StoredMessage | None:
        for m in reversed(api.bot_messages(group["id"])):
            if any(d.endswith(":@join") for d in _data(m)):
                return m
        return None

    message = await api.wait_for(lobby, timeout=30, what="the lobby")
    table_id = decode_button(action_data(message, "@join")).table_id
    for action, who in (("@join", bob), ("@start", alice)):
        for _ in range(5):  # a press on a process whose copy was stale may be refused once
            current = api.message(group["id"], message.message_id)
            answer = await press(api, current, who, action_data(current, action))
            if answer.get("text") is None:
                break
            # The press is answered before the lobby is edited: wait for the edit.
            with contextlib.suppress(AssertionError):
                await api.wait_for(
                    functools.partial(_changed, api, current, _data(current)),
                    timeout=5,
                    what="the lobby edited",
                )
        else:
            raise AssertionError(f"{action} refused: {answer}")
    return table_id


def _changed(api: FakeBotApi, message: StoredMessage, buttons: list[str]) -> bool:
    """Whether the buttons of ``message`` are no longer ``buttons``."""
    return _data(api.message(message.chat["id"], message.message_id)) != buttons


def _data(message: StoredMessage) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


async def status(engine: Any, table_id: int) -> str:
    async with engine.connect() as conn:
        query = sa.text("SELECT status FROM tables WHERE id = :i")
        row = await conn.execute(query, {"i": table_id})
        return str(row.scalar_one())


async def play_out(
    api: FakeBotApi, engine: Any, players: list[dict[str, Any]], table_id: int, seed: int
) -> int:
    """Random legal presses until the table is over; returns the move presses acknowledged."""
    rng = random.Random(seed)
    accepted = 0
    recent: collections.deque[str] = collections.deque(maxlen=6)  # for the failure message
    for _ in range(MAX_ROUNDS):
        if await status(engine, table_id) != "playing":
            return accepted
        pressed = False
        for player in players:
            message = freshest_hand(api, player["id"], table_id)
            if message is None:
                continue
            choice = rng.choice(move_buttons(message))
            shown = _data(message)
            answer = await press(api, message, player, choice)
            recent.append(f"{player['first_name']} pressed {choice}: {answer.get('text')!r}")
            pressed = True
            if choice.split(":", 2)[2].startswith("?"):
                if answer.get("text") is not None:
                    continue
                # The press is answered before the card's captures are shown (an edit of the
                # same message): wait for them, as a person would, instead of pressing again.
                with contextlib.suppress(AssertionError):
                    await api.wait_for(
                        functools.partial(_changed, api, message, shown),
                        timeout=5,
                        what="the captures of the card",
                    )
                edited = api.message(player["id"], message.message_id)
                options = [o for o in move_buttons(edited) if ":?" not in o]
                if not options:
                    continue
                answer = await press(api, edited, player, rng.choice(options))
            if answer.get("text") is None:
                accepted += 1
            else:
                # Refused (stale: the other process moved the table on). The press is answered
                # before the presser's hand is sent again: wait for it, as a person would.
                with contextlib.suppress(AssertionError):
                    await api.wait_for(
                        functools.partial(_changed, api, message, _data(message)),
                        timeout=5,
                        what="the hand sent again",
                    )
        if not pressed:
            await asyncio.sleep(0.05)  # the turn is a computer's, or a message is on its way
    hands = {
        p["first_name"]: [(m.message_id, m.text, _data(m)) for m in api.bot_messages(p["id"])][-3:]
        for p in players
    }
    raise AssertionError(
        f"table {table_id} did not end in {MAX_ROUNDS} rounds; last presses {list(recent)}; "
        f"last private messages {hands}"
    )


async def wait_listening(port: int, timeout: float = 60.0) -> None:
    """Wait (bounded) until something accepts connections on ``port``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing listens on port {port}") from None
            await asyncio.sleep(0.05)
            continue
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return


async def scrape(port: int) -> dict[str, float]:
    """``name{labels}`` -> summed value, labels dropped."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        text = await response.text()
    totals: dict[str, float] = {}
    for line in text.splitlines():
        match = re.match(r"^([a-z_]+)(\{[^}]*\})? (\S+)$", line)
        if match:
            totals[match[1]] = totals.get(match[1], 0.0) + float(match[3])
    return totals


@pytest.mark.slow
async def test_two_bot_processes_on_one_postgresql(pg_url: str, tmp_path: Path) -> None:  # noqa: C901 - one scenario, step by step
    webhook_ports = [free_port(), free_port()]
    metrics_ports = [free_port(), free_port()]
    balancer = RoundRobin(webhook_ports)
    engine = create_async_engine(pg_url)
    async with FakeBotApi() as api:
        await balancer.start()
        processes = []
        try:
            for index in range(2):
                env = bot_env(
                    TELEGRAM_TOKEN=api.token,
                    TELEGRAM_API_URL=api.url,
                    TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{balancer.port}/telegram",
                    TELEGRAM_WEBHOOK_SECRET=SECRET,
                    TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                    TELEGRAM_WEBHOOK_PORT=str(webhook_ports[index]),
                    DATABASE_URL=pg_url,
                    DATA_DIR=str(tmp_path / f"data{index}"),
                    DEFAULT_LOCALE="en",
                    TURN_REMINDER_SECONDS="1",
                    TURN_TIMEOUT_SECONDS="2",
                    TIMER_INTERVAL_SECONDS="0.2",
                    IDLE_TURNS_BEFORE_TAKEOVER=str(TAKEOVER_AFTER),
                    METRICS_PORT=str(metrics_ports[index]),
                    LOG_FORMAT="kv",
                    LOG_LEVEL="INFO",
                )
                workdir = tmp_path / f"p{index}"
                workdir.mkdir()
                processes.append(await start_bot(env, workdir))
                if index == 0:
                    # The first one migrates the database alone; then both serve it.
                    await api.wait_for(
                        lambda: api.calls("setWebhook"), timeout=60, what="process 0"
                    )
            await api.wait_for(
                lambda: len(api.calls("setWebhook")) >= 2, timeout=60, what="both processes"
            )
            # A process sets its webhook before it listens on it: wait until both listen, so
            # the first updates are not all sent to one of them.
            for port in webhook_ports:
                await wait_listening(port)
            started = time.perf_counter()
            humans: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
            for i in range(HUMAN_TABLES + IDLE_TABLES):
                group = group_chat(-100_900 - i, f"Tavolo {i}")
                alice = user(5000 + 2 * i, f"Alice{i}", lang="en")
                bob = user(5001 + 2 * i, f"Bob{i}", lang="en")
                humans.append((group, alice, bob))
            tables = await asyncio.gather(*(open_table(api, *h) for h in humans))
            played = await asyncio.gather(
                *(
                    play_out(api, engine, [alice, bob], table_id, seed=n)
                    for n, ((_, alice, bob), table_id) in enumerate(
                        zip(humans[:HUMAN_TABLES], tables[:HUMAN_TABLES], strict=True)
                    )
                )
            )
            for table_id in tables[HUMAN_TABLES:]:
                for _ in range(600):  # 60 s at most
                    if await status(engine, table_id) != "playing":
                        break
                    await asyncio.sleep(0.1)
            elapsed = time.perf_counter() - started
            scraped = [await scrape(port) for port in metrics_ports]
        finally:
            logs = [await stop_bot(p, tmp_path / f"p{i}") for i, p in enumerate(processes)]
            await balancer.stop()
            # Shown when the test fails: how updates fared on their way to the processes.
            print(f"balancer failures: {balancer.failures}; served {balancer.served}")
            print(f"webhook replies other than 200: {[r for r in api.webhook_replies if r != 200]}")

        for process, log in zip(processes, logs, strict=True):
            assert process.returncode == 0, log[-3000:]
            assert api.token not in log and SECRET not in log
        # Both processes served.
        assert all(balancer.served), balancer.served
        assert all(m["tavolo_moves_total"] > 0 for m in scraped), scraped

        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT table_id, actor, seat FROM moves"))).all()
            statuses = dict((await conn.execute(sa.text("SELECT id, status FROM tables"))).all())
        await engine.dispose()
        human_rows = {t: 0 for t in tables}
        timeouts: dict[tuple[int, int], int] = {}
        for table_id, actor, seat in rows:
            if actor == "human":
                human_rows[table_id] += 1
            elif actor == "timeout":
                timeouts[(table_id, seat)] = timeouts.get((table_id, seat), 0) + 1
        assert all(statuses[t] == "finished" for t in tables), statuses
        # Every acknowledged press exactly once in the log; no human move from elsewhere.
        for table_id, accepted in zip(tables[:HUMAN_TABLES], played, strict=True):
            assert human_rows[table_id] == accepted, (table_id, human_rows[table_id], accepted)
        for table_id in tables[HUMAN_TABLES:]:
            assert human_rows[table_id] == 0
        assert sum(m["tavolo_moves_total"] for m in scraped) == sum(played)

        # Timers: each idle seat timed out exactly TAKEOVER_AFTER times, each time announced
        # once, after one reminder each.
        for (group, alice, bob), table_id in zip(
            humans[HUMAN_TABLES:], tables[HUMAN_TABLES:], strict=True
        ):
            assert timeouts.get((table_id, 0)) == TAKEOVER_AFTER, timeouts
            assert timeouts.get((table_id, 1)) == TAKEOVER_AFTER, timeouts
            time_up = [t for t in api.texts_sent_to(group["id"]) if "Time is up" in t]
            assert len(time_up) == 2 * TAKEOVER_AFTER, time_up
            for player in (alice, bob):
                reminders = [t for t in api.texts_sent_to(player["id"]) if "Reminder" in t]
                assert len(reminders) == TAKEOVER_AFTER, reminders
        # Every table's log replays with the engine to its recorded result.
        for table_id in tables:
            exported = await _export(pg_url, table_id)
            replayed = replay_export(exported)
            assert replayed["is_over"] and replayed["matches_record"] is True, replayed
        fired = [m.get("tavolo_timers_fired_total", 0.0) for m in scraped]
        moves = [m["tavolo_moves_total"] for m in scraped]
        latency = sum(m["tavolo_call_latency_seconds_sum"] for m in scraped) / max(
            1.0, sum(m["tavolo_call_latency_seconds_count"] for m in scraped)
        )
        print(
            f"\ntwo processes: {len(rows)} moves stored ({sum(played)} human presses, "
            f"{sum(timeouts.values())} timeouts) at {len(tables)} tables in {elapsed:.1f} s; "
            f"updates per process {balancer.served}; human moves per process {moves}; "
            f"timers fired per process {fired}; mean service call {latency * 1000:.1f} ms"
        )


async def _export(url: str, table_id: int) -> dict[str, Any]:
    from bot.service import ComputerPlayers, TableService, default_registry
    from bot.store import Store

    store = Store.open(url)
    try:
        service = TableService(store, registry=default_registry(), computers=ComputerPlayers())
        return await service.export_game(table_id)
    finally:
        with contextlib.suppress(Exception):
            await store.close()
