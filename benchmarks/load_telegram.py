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
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psutil  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import decode_button
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage, group_chat, user
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

    def __init__(self, api: TimedApi, db_path: Path, *, one_process: bool) -> None:
        self.api, self.db_path, self.one_process = api, db_path, one_process
        self.tavolo: Tavolo | None = None
        self.child: asyncio.subprocess.Process | None = None
        self.process = psutil.Process()

    async def start(self) -> None:
        if self.one_process:
            self.tavolo = Tavolo(self.api, self.db_path)
            await self.tavolo.start()
            return
        self.child = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve-bot",
            self.api.url,
            str(self.db_path),
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


async def serve_bot(api_url: str, db_path: str) -> None:
    """The child process: the bot alone, until SIGTERM."""
    token = os.environ["TAVOLO_LOAD_TOKEN"]
    # The harness reads only the fake's token and address.
    server: Any = SimpleNamespace(token=token, url=api_url)
    tavolo = Tavolo(server, Path(db_path))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument(
        "--one-process", action="store_true", help="run the bot in this process, beside the fake"
    )
    parser.add_argument("--serve-bot", nargs=2, metavar=("API_URL", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bot:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_bot(*args.serve_bot))
        return
    asyncio.run(run(args.tables, args.clients, args.moves, one_process=args.one_process))


if __name__ == "__main__":
    main()
