"""Load through the Telegram adapter: N live tables (default 1,000) in N groups, two humans each,
opened, joined and dealt through the real python-telegram-bot against the fake Bot API; then C
simulated players at once press their move buttons on random tables for a fixed number of moves.

The bot is the production stack in a process of its own: PTB (polling, ``concurrent_updates``
16, the aiohttp transport), the adapter, the service, SQLite (WAL) in a temporary file, the
renderer. This process holds the fake Bot API and the simulated players, so the bot's CPU and
memory are its own (``--one-process`` puts the bot in this process too, as the first version of
this benchmark did). Telegram's flood limits are off (they would cap a group at 20 messages a
minute; the fake does not mind). Prints moves/s, p50/p99 from the update being offered to the
bot to its ``answerCallbackQuery`` reaching the server (the bot answers after its messages are
edited, so this covers the whole move), the CPU time per move of the bot and of the fake, and
the bot's resident memory per live table (RSS growth over the table set-up / N).

    python benchmarks/load_telegram.py [--tables 1000] [--clients 50] [--moves 5000] [--one-process]

``--limits``: Telegram's flood limits on both sides. The bot runs with the production limiter
(``bot.telegram.limiter.PacedRateLimiter``), the fake answers 429 with ``retry_after`` past 20
calls a minute in a group or 30 a second overall, and every player of every table (default 25
two-player tables: 50 players) presses whenever their hand offers a move. Prints press ->
``answerCallbackQuery`` p50/p99, the group calls per minute (mean and the most in any
60-second window of one group), and the 429s the limits gave.

``--chaos``: the same, plus a fault mix (429s, 500s, 502s and 6-second stalls on a share of the
calls) and ``python -m bot run`` processes killed with SIGKILL every few seconds (and started
again), until every game (Scopa to 1 point) is over. Players press only what their current
messages show: never "My hand", never /start. Fails if a game does not finish in time.

    python benchmarks/load_telegram.py --limits [--tables 25] [--moves 1500]
    python benchmarks/load_telegram.py --chaos [--tables 25] [--kills 30]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psutil  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import decode_button
from bot.telegram.limiter import PacedRateLimiter
from tests.fakes.telegram_api import (
    FLOOD_COUNTED,
    JSON,
    FakeBotApi,
    FaultMix,
    StoredMessage,
    group_chat,
    user,
)
from tests.reliability.crash import BotProcess, read_db
from tests.telegram.harness import Tavolo, action_data


class TimedApi(FakeBotApi):
    """The fake Bot API, timing each callback query from its offer to the bot's answer, and
    indexing bot messages per chat (the scripted players look up their hands often)."""

    def __init__(self) -> None:
        super().__init__()
        self.offered: dict[str, float] = {}
        self.latency: list[float] = []
        self.answered_at: dict[str, asyncio.Event] = {}
        self.per_chat: dict[int, list[int]] = {}
        # When each call counted by the flood limits went through, per group.
        self.group_calls: dict[int, list[float]] = {}
        self.status_counts: dict[int, int] = {}

    async def _dispatch(self, method: str, params: JSON, files: dict[str, bytes]) -> Any:
        try:
            result = await super()._dispatch(method, params, files)
        except Exception as error:
            code = getattr(error, "error_code", 0)
            self.status_counts[code] = self.status_counts.get(code, 0) + 1
            raise
        chat_id = params.get("chat_id")
        if method in FLOOD_COUNTED and isinstance(chat_id, int) and chat_id < 0:
            self.group_calls.setdefault(chat_id, []).append(time.monotonic())
        return result

    def press(self, message: StoredMessage, sender: JSON, **kwargs: Any) -> str:
        query_id = super().press(message, sender, **kwargs)
        self.offered[query_id] = time.perf_counter()
        self.answered_at[query_id] = asyncio.Event()
        return query_id

    async def _api_answerCallbackQuery(self, params: JSON, files: dict[str, bytes]) -> Any:
        result = await super()._api_answerCallbackQuery(params, files)
        query_id = params.get("callback_query_id")
        began = self.offered.pop(str(query_id), None)
        if began is not None:
            self.latency.append(time.perf_counter() - began)
            self.answered_at.pop(str(query_id)).set()
        return result

    def _store(self, chat: JSON, sender: JSON, **kwargs: Any) -> StoredMessage:
        stored = super()._store(chat, sender, **kwargs)
        if sender["id"] == self.bot_user["id"]:
            self.per_chat.setdefault(chat["id"], []).append(stored.message_id)
        return stored

    def hand(self, user_id: int) -> StoredMessage | None:
        for message_id in reversed(self.per_chat.get(user_id, [])):
            message = self.messages.get((user_id, message_id))
            if message is not None and moves_of(message):
                return message
        return None

    async def answered(self, query_id: str, timeout: float = 60) -> None:
        event = self.answered_at.get(query_id)
        if event is not None:
            await asyncio.wait_for(event.wait(), timeout)


def moves_of(message: StoredMessage) -> list[str]:
    out: list[str] = []
    for b in message.buttons():
        data = str(b.get("callback_data", ""))
        if data.count(":") >= 2 and not data.split(":", 2)[2].startswith("@"):
            out.append(data)
    return out


def posted_after(api: TimedApi, chat_id: int, count: int) -> bool:
    return len(api.per_chat.get(chat_id, [])) > count


def any_hand(api: TimedApi, players: tuple[JSON, ...]) -> bool:
    return any(api.hand(p["id"]) for p in players)


def captures_shown(api: TimedApi, hand: StoredMessage) -> list[str]:
    """The capture choices the hand message shows after a ``?<card>`` press."""
    now = api.messages[(hand.chat["id"], hand.message_id)]
    return [o for o in moves_of(now) if ":?" not in o]


async def open_tables(api: TimedApi, count: int) -> list[tuple[int, JSON, JSON]]:
    tables = []
    for index in range(count):
        group = group_chat(-400000 - index, f"L{index}")
        a, b = user(50000 + 2 * index, f"A{index}"), user(50001 + 2 * index, f"B{index}")
        before = len(api.per_chat.get(group["id"], []))
        api.send_text(group, a, "/scopa 2 target=21")
        await api.wait_for(partial(posted_after, api, group["id"], before), timeout=60,
                           what="lobby")  # fmt: skip
        lobby = api.messages[(group["id"], api.per_chat[group["id"]][-1])]
        table_id = decode_button(action_data(lobby, "@join")).table_id
        for who, action in ((b, "@join"), (a, "@start")):
            current = api.messages[(group["id"], lobby.message_id)]
            query = api.press(current, who, data=action_data(current, action))
            await api.answered(query)
        await api.wait_for(partial(any_hand, api, (a, b)), timeout=60, what="hands")
        tables.append((table_id, a, b))
        if index % 100 == 99:
            print(f"  {index + 1} tables dealt", flush=True)
    return tables


class Bot:
    """The bot under load: a child process (``--serve-bot``), or this one (``one_process``)."""

    def __init__(
        self, api: TimedApi, db_path: Path, *, one_process: bool, limits: bool = False
    ) -> None:
        self.api, self.db_path, self.one_process = api, db_path, one_process
        self.limits = limits
        self.tavolo: Tavolo | None = None
        self.child: asyncio.subprocess.Process | None = None
        self.process = psutil.Process()

    async def start(self) -> None:
        if self.one_process:
            self.tavolo = Tavolo(self.api, self.db_path, rate_limiter=_limiter(self.limits))
            await self.tavolo.start()
            return
        self.child = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve-bot",
            self.api.url,
            str(self.db_path),
            *(["--limits"] if self.limits else []),
            env={**os.environ, "TAVOLO_LOAD_TOKEN": self.api.token},
            stdout=asyncio.subprocess.PIPE,
        )
        assert self.child.stdout is not None
        line = await asyncio.wait_for(self.child.stdout.readline(), timeout=60)
        if line.strip() != b"ready":
            raise RuntimeError(f"the bot process did not start: {line!r}")
        self.process = psutil.Process(self.child.pid)

    async def stop(self) -> None:
        if self.tavolo is not None:
            await self.tavolo.stop()
        if self.child is not None and self.child.returncode is None:
            self.child.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.child.wait(), timeout=30)
            except TimeoutError:
                self.child.kill()
                await self.child.wait()

    def cpu(self) -> float:
        times = self.process.cpu_times()
        return float(times.user + times.system)

    def rss(self) -> int:
        if self.one_process:
            gc.collect()
        return int(self.process.memory_info().rss)


def _limiter(limits: bool) -> Any:
    """The production limiter (``--limits``), or the tests' one with the flood limits off."""
    if limits:
        return PacedRateLimiter
    from tests.telegram.support import fast_rate_limiter

    return fast_rate_limiter


async def serve_bot(api_url: str, db_path: str, *, limits: bool = False) -> None:
    """The child process: the bot alone, until SIGTERM."""
    token = os.environ["TAVOLO_LOAD_TOKEN"]
    # The harness reads only the fake's token and address.
    server: Any = SimpleNamespace(token=token, url=api_url)
    tavolo = Tavolo(server, Path(db_path), rate_limiter=_limiter(limits))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await tavolo.start()
    print("ready", flush=True)
    try:
        await stop.wait()
    finally:
        await tavolo.stop()


async def run(count: int, clients: int, moves: int, *, one_process: bool) -> None:
    here = psutil.Process()
    with tempfile.TemporaryDirectory(prefix="tavolo-load-") as work:
        api = TimedApi()
        await api.start()
        bot = Bot(api, Path(work) / "load.sqlite3", one_process=one_process)
        await bot.start()
        try:
            rss_before = bot.rss()
            began = time.perf_counter()
            tables = await open_tables(api, count)
            setup = time.perf_counter() - began
            rss_after = bot.rss()
            api.latency.clear()
            api.requests.clear()
            rng = random.Random(3)
            played = 0
            busy: set[int] = set()

            async def client() -> None:
                nonlocal played
                for _ in range(moves * 10):
                    if played >= moves:
                        return
                    table_id, a, b = rng.choice(tables)
                    if table_id in busy:
                        await asyncio.sleep(0)
                        continue
                    busy.add(table_id)
                    try:
                        for player in (a, b):
                            hand = api.hand(player["id"])
                            if hand is None:
                                continue
                            choice = rng.choice(moves_of(hand))
                            await api.answered(api.press(hand, player, data=choice))
                            if choice.split(":", 2)[2].startswith("?"):
                                await api.wait_for(partial(captures_shown, api, hand), timeout=30)
                                edited = api.messages[(player["id"], hand.message_id)]
                                options = [o for o in moves_of(edited) if ":?" not in o]
                                await api.answered(
                                    api.press(edited, player, data=rng.choice(options))
                                )
                            played += 1
                            break
                    finally:
                        busy.discard(table_id)
                    if len(api.requests) > 50_000:
                        api.requests.clear()

            load_before = os.getloadavg()[0]
            cpu_bot, cpu_here = bot.cpu(), here.cpu_times()
            began = time.perf_counter()
            await asyncio.gather(*(client() for _ in range(clients)))
            seconds = time.perf_counter() - began
            cpu_bot = bot.cpu() - cpu_bot
            now = here.cpu_times()
            cpu_fake = now.user + now.system - cpu_here.user - cpu_here.system
            lat = sorted(api.latency)
            p50 = statistics.median(lat) * 1000
            p99 = lat[int(len(lat) * 0.99) - 1] * 1000
            where = "bot and fake in one process" if one_process else "bot process alone"
            print(f"tables {count}, clients {clients}: set-up {setup:.0f} s "
                  f"({3 * count / setup:.0f} updates/s)")  # fmt: skip
            print(f"moves {played} in {seconds:.1f} s: {played / seconds:.0f} moves/s "
                  f"({len(lat)} presses, capture choices included)")  # fmt: skip
            print(f"update offered -> answerCallbackQuery: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                  f"max {lat[-1] * 1000:.0f} ms")  # fmt: skip
            if one_process:
                print(f"CPU per move: {cpu_bot / played * 1000:.1f} ms (bot and fake together)")
            else:
                print(f"CPU per move: bot {cpu_bot / played * 1000:.1f} ms, "
                      f"fake and players {cpu_fake / played * 1000:.1f} ms")  # fmt: skip
            print(f"memory per live table: {(rss_after - rss_before) / count / 1024:.1f} KiB "
                  f"({where})")  # fmt: skip
            print(f"load average (1 min): {load_before:.1f} at the start of the moves, "
                  f"{os.getloadavg()[0]:.1f} at the end")  # fmt: skip
        finally:
            await bot.stop()
            await api.stop()


# --- --limits and --chaos: every player plays their own table, under Telegram's limits -------


async def open_games(api: TimedApi, count: int, *, target: int) -> list[tuple[int, JSON, JSON]]:
    """``count`` groups, each with a two-player Scopa to ``target`` opened, joined and dealt
    (each press answered before its edit: the next press waits for the edit)."""
    tables = []
    for index in range(count):
        group = group_chat(-500000 - index, f"G{index}")
        a, b = user(60000 + 2 * index, f"A{index}"), user(60001 + 2 * index, f"B{index}")
        before = len(api.per_chat.get(group["id"], []))
        api.send_text(group, a, f"/scopa 2 target={target}")
        await api.wait_for(partial(posted_after, api, group["id"], before), timeout=120,
                           what="lobby")  # fmt: skip
        lobby = api.messages[(group["id"], api.per_chat[group["id"]][-1])]
        table_id = decode_button(action_data(lobby, "@join")).table_id
        for who, action in ((b, "@join"), (a, "@start")):
            await press_lobby(api, lobby, who, action)
        await api.wait_for(partial(any_hand, api, (a, b)), timeout=120, what="hands")
        tables.append((table_id, a, b))
    return tables


def buttons_of(api: TimedApi, message: StoredMessage) -> list[str]:
    return [str(x.get("callback_data")) for x in message.buttons()]


def lobby_changed(api: TimedApi, lobby: StoredMessage, seen: list[str]) -> bool:
    return buttons_of(api, api.messages[(lobby.chat["id"], lobby.message_id)]) != seen


async def press_lobby(api: TimedApi, lobby: StoredMessage, who: JSON, action: str) -> None:
    """Press a lobby button; when refused (its message was not edited yet), wait for the
    edit and press again (bounded)."""
    for _ in range(20):
        current = api.messages[(lobby.chat["id"], lobby.message_id)]
        seen = buttons_of(api, current)
        if any(d.endswith(action) for d in seen):
            query = api.press(current, who, data=action_data(current, action))
            await api.answered(query, timeout=120)
            if api.answered_callbacks[query].get("text") is None:
                return
        await api.wait_for(
            partial(lobby_changed, api, lobby, seen), timeout=120, what="the lobby edited"
        )
    raise RuntimeError(f"{action} refused again and again")


def newer_hand(
    api: TimedApi, player: JSON, table_id: int, last: int
) -> tuple[int, StoredMessage] | None:
    found = hand_version(api, player, table_id)
    return found if found is not None and found[0] > last else None


def capture_options(api: TimedApi, player: JSON, message_id: int) -> list[str]:
    return [o for o in moves_of(api.messages[(player["id"], message_id)]) if ":?" not in o]


def hand_version(api: TimedApi, player: JSON, table_id: int) -> tuple[int, StoredMessage] | None:
    """The version of the player's newest message with move buttons of the table."""
    best: tuple[int, StoredMessage] | None = None
    for message_id in api.per_chat.get(player["id"], []):
        message = api.messages.get((player["id"], message_id))
        if message is None:
            continue
        found = [decode_button(d) for d in moves_of(message)]
        found = [b for b in found if b.table_id == table_id]
        if found and (best is None or found[0].version >= best[0]):
            best = (found[0].version, message)
    return best


@dataclass
class Players:
    """What the simulated players did, for the figures."""

    moves: int = 0
    presses: int = 0
    refused: int = 0
    unanswered: int = 0
    stop: bool = False


async def player_loop(
    api: TimedApi,
    player: JSON,
    table_id: int,
    rng: random.Random,
    tally: Players,
    *,
    limit: int,
    answer_timeout: float,
    finished: Any = None,
) -> None:
    """Press a move whenever the newest hand offers one newer than the last pressed; only
    what is on the player's messages (never "My hand", never /start)."""
    last = -1
    while not tally.stop and tally.moves < limit:
        if finished is not None and finished(table_id):
            return
        try:
            version, hand = await api.wait_for(
                partial(newer_hand, api, player, table_id, last), timeout=5, what="a hand"
            )
        except AssertionError:
            continue
        choice = rng.choice(moves_of(hand))
        tally.presses += 1
        query = api.press(hand, player, data=choice)
        try:
            await api.answered(query, timeout=answer_timeout)
        except TimeoutError:
            tally.unanswered += 1
            continue
        if api.answered_callbacks.get(query, {}).get("text") is not None:
            tally.refused += 1
            await settle_after_refusal(api, player, table_id, version)
            continue
        if choice.split(":", 2)[2].startswith("?"):
            try:
                options = await api.wait_for(
                    partial(capture_options, api, player, hand.message_id),
                    timeout=answer_timeout,
                    what="capture choices",
                )
            except (AssertionError, KeyError):
                continue
            tally.presses += 1
            query = api.press(api.messages[(player["id"], hand.message_id)], player,
                              data=rng.choice(options))  # fmt: skip
            try:
                await api.answered(query, timeout=answer_timeout)
            except TimeoutError:
                tally.unanswered += 1
                continue
            if api.answered_callbacks.get(query, {}).get("text") is not None:
                tally.refused += 1
                await settle_after_refusal(api, player, table_id, version)
                continue
        tally.moves += 1
        last = version


async def settle_after_refusal(api: TimedApi, player: JSON, table_id: int, version: int) -> None:
    """After an alert a player looks at their hand again: it is sent anew (a newer version)
    in a moment; if not, they try what it shows once more, as a person would."""
    with contextlib.suppress(AssertionError):
        await api.wait_for(
            partial(newer_hand, api, player, table_id, version), timeout=5, what="the hand again"
        )


def group_rates(api: TimedApi, start: float, end: float) -> tuple[float, int]:
    """Calls per minute per group over the run (mean over the groups) and the most calls one
    group got in any 60-second window."""
    minutes = max((end - start) / 60, 1e-9)
    rates, most = [], 0
    for times in api.group_calls.values():
        inside = [t for t in times if start <= t <= end]
        rates.append(len(inside) / minutes)
        j = 0
        for i, t in enumerate(inside):
            while inside[j] < t - 60:
                j += 1
            most = max(most, i - j + 1)
    return (statistics.mean(rates) if rates else 0.0), most


def percentiles(latency: list[float]) -> tuple[float, float, float]:
    lat = sorted(latency)
    if not lat:
        return 0.0, 0.0, 0.0
    p99 = lat[max(0, int(len(lat) * 0.99) - 1)]
    return statistics.median(lat) * 1000, p99 * 1000, lat[-1] * 1000


async def run_limits(count: int, moves: int) -> None:
    """``--limits``: the production limiter against a fake that enforces the limits."""
    with tempfile.TemporaryDirectory(prefix="tavolo-limits-") as work:
        api = TimedApi()
        api.enforce_flood_limits()
        await api.start()
        bot = Bot(api, Path(work) / "load.sqlite3", one_process=False, limits=True)
        await bot.start()
        try:
            began = time.perf_counter()
            tables = await open_games(api, count, target=21)
            setup = time.perf_counter() - began
            api.latency.clear()
            refusals_before = len(api.flood_refusals)
            tally = Players()
            rng = random.Random(5)
            cpu_bot = bot.cpu()
            start = time.monotonic()
            await asyncio.gather(
                *(
                    player_loop(
                        api,
                        p,
                        table_id,
                        random.Random(rng.random()),
                        tally,
                        limit=moves,
                        answer_timeout=60,
                    )
                    for table_id, a, b in tables
                    for p in (a, b)
                )
            )
            end = time.monotonic()
            cpu_bot = bot.cpu() - cpu_bot
            p50, p99, worst = percentiles(api.latency)
            mean_rate, most = group_rates(api, start, end)
            print(f"tables {count} (players {2 * count}), limits on: set-up {setup:.0f} s")
            rate = tally.moves / (end - start)
            print(f"moves {tally.moves} in {end - start:.1f} s: "
                  f"{rate:.1f} moves/s ({len(api.latency)} presses)")  # fmt: skip
            print(f"press -> answerCallbackQuery: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                  f"max {worst:.0f} ms")  # fmt: skip
            print(f"group calls per minute: mean {mean_rate:.1f} per group, "
                  f"most in any 60 s of one group {most} (limit 20)")  # fmt: skip
            print(f"429s from the limits: {len(api.flood_refusals) - refusals_before} during the "
                  f"moves, {refusals_before} during the set-up")  # fmt: skip
            print(f"refused presses {tally.refused}, unanswered {tally.unanswered}; "
                  f"bot CPU per move {cpu_bot / max(tally.moves, 1) * 1000:.1f} ms")  # fmt: skip
            print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
        finally:
            await bot.stop()
            await api.stop()


class QuietBot(BotProcess):
    """``python -m bot run`` logging at INFO (the crash benchmark's logs at DEBUG are huge)."""

    def env(self) -> dict[str, str]:
        env = super().env()
        env["LOG_LEVEL"] = "INFO"
        env["TURN_REMINDER_SECONDS"] = "0"
        return env


async def run_chaos(count: int, kills: int, seconds: float, seed: int) -> None:
    """``--chaos``: limits, a fault mix and SIGKILLs; every game must finish."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="tavolo-chaos-") as work:
        api = TimedApi()
        api.enforce_flood_limits()
        await api.start()
        data = Path(work) / "data"
        bot = QuietBot(api, data, Path(work))
        await bot.start()
        try:
            tables = await open_games(api, count, target=1)
            api.inject_fault_mix(
                FaultMix(flood=0.01, error_500=0.02, error_502=0.02, stall=0.01, seed=seed)
            )
            db = data / "tavolo.sqlite3"
            ids = [t for t, _, _ in tables]
            status: dict[int, str] = {}

            def finished(table_id: int) -> bool:
                return status.get(table_id) == "finished"

            tally = Players()
            killed = 0
            start = time.monotonic()

            async def killer() -> None:
                nonlocal killed
                while killed < kills and not tally.stop:
                    await asyncio.sleep(rng.uniform(2.0, 6.0))
                    if tally.stop:
                        return
                    await bot.kill()
                    killed += 1
                    await bot.start()

            async def watch() -> None:
                while time.monotonic() - start < seconds:
                    await asyncio.sleep(1.0)
                    placeholders = ",".join("?" * len(ids))
                    rows = await asyncio.to_thread(
                        read_db, db, f"SELECT id, status FROM tables WHERE id IN ({placeholders})",
                        *ids,
                    )  # fmt: skip
                    status.update({int(str(i)): str(s) for i, s in rows})
                    if all(finished(t) for t in ids) and killed >= kills:
                        break
                tally.stop = True

            await asyncio.gather(
                killer(),
                watch(),
                *(
                    player_loop(
                        api,
                        p,
                        table_id,
                        random.Random(rng.random()),
                        tally,
                        limit=10**9,
                        answer_timeout=20,
                        finished=finished,
                    )
                    for table_id, a, b in tables
                    for p in (a, b)
                ),
            )
            end = time.monotonic()
            done = sum(finished(t) for t in ids)
            p50, p99, worst = percentiles(api.latency)
            print(f"chaos: {count} games (Scopa to 1, 2 players each), {killed} SIGKILLs, "
                  f"faults injected {dict(api.injected)}")  # fmt: skip
            print(f"games finished {done} of {count} in {end - start:.0f} s; "
                  f"moves {tally.moves}, presses {tally.presses}, refused {tally.refused}, "
                  f"unanswered {tally.unanswered}")  # fmt: skip
            print("'My hand' presses 0, /start re-sent 0 (the players never do)")
            print(f"press -> answer (answered ones): p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
                  f"max {worst:.0f} ms")  # fmt: skip
            print(f"429s from the limits: {len(api.flood_refusals)}; "
                  f"error replies by code {dict(sorted(api.status_counts.items()))}")  # fmt: skip
            if done < count:
                raise SystemExit(f"{count - done} game(s) did not finish")
        finally:
            tally_stop = getattr(bot, "process", None)
            if tally_stop is not None:
                await bot.stop()
            await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument(
        "--one-process", action="store_true", help="run the bot in this process, beside the fake"
    )
    parser.add_argument(
        "--limits", action="store_true", help="flood limits on: the production limiter, enforced"
    )
    parser.add_argument("--chaos", action="store_true", help="limits, faults and SIGKILLs")
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=900, help="--chaos: the time bound")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve-bot", nargs=2, metavar=("API_URL", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bot:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_bot(*args.serve_bot, limits=args.limits))
        return
    if args.chaos:
        asyncio.run(run_chaos(args.tables, args.kills, args.seconds, args.seed))
        return
    if args.limits:
        asyncio.run(run_limits(args.tables, args.moves))
        return
    asyncio.run(run(args.tables, args.clients, args.moves, one_process=args.one_process))


if __name__ == "__main__":
    main()
