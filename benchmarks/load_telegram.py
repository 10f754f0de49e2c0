"""Load through the Telegram adapter: N live tables (default 1,000) in N groups, two humans each,
opened, joined and dealt through the real python-telegram-bot against the fake Bot API; then C
simulated players at once press their move buttons on random tables for a fixed number of moves.

The bot is the production stack in one process: PTB (polling, ``concurrent_updates`` 16), the
adapter, the service, SQLite (WAL) in a temporary file, the renderer. Telegram's flood limits are
off (they would cap a group at 20 messages a minute; the fake does not mind). Prints moves/s,
p50/p99 from the update being offered to the bot to its ``answerCallbackQuery`` reaching the
server, and resident memory per live table (RSS growth over the table set-up / N; it includes
the fake server's own copy of every message, so it overstates the bot's share).

    python benchmarks/load_telegram.py [--tables 1000] [--clients 50] [--moves 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

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
    out = []
    for b in message.buttons():
        data = str(b.get("callback_data", ""))
        if data.count(":") >= 2 and not data.split(":", 2)[2].startswith("@"):
            out.append(data)
    return out


async def open_tables(api: TimedApi, count: int) -> list[tuple[int, JSON, JSON]]:
    tables = []
    for index in range(count):
        group = group_chat(-400000 - index, f"L{index}")
        a, b = user(50000 + 2 * index, f"A{index}"), user(50001 + 2 * index, f"B{index}")
        before = len(api.per_chat.get(group["id"], []))
        api.send_text(group, a, "/scopa 2 target=21")
        await api.wait_for(lambda g=group, n=before: len(api.per_chat.get(g["id"], [])) > n,
                           timeout=60, what="lobby")  # fmt: skip
        lobby = api.messages[(group["id"], api.per_chat[group["id"]][-1])]
        table_id = decode_button(action_data(lobby, "@join")).table_id
        for who, action in ((b, "@join"), (a, "@start")):
            current = api.messages[(group["id"], lobby.message_id)]
            query = api.press(current, who, data=action_data(current, action))
            await api.answered(query)
        await api.wait_for(lambda p=(a, b): any(api.hand(x["id"]) for x in p), timeout=60)
        tables.append((table_id, a, b))
        if index % 100 == 99:
            print(f"  {index + 1} tables dealt", flush=True)
    return tables


async def run(count: int, clients: int, moves: int) -> None:
    process = psutil.Process()
    with tempfile.TemporaryDirectory(prefix="tavolo-load-") as work:
        api = TimedApi()
        await api.start()
        tavolo = Tavolo(api, Path(work) / "load.sqlite3")
        await tavolo.start()
        try:
            gc.collect()
            rss_before = process.memory_info().rss
            began = time.perf_counter()
            tables = await open_tables(api, count)
            setup = time.perf_counter() - began
            gc.collect()
            rss_after = process.memory_info().rss
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
                                await api.wait_for(
                                    lambda p=player, h=hand: [
                                        o for o in moves_of(api.messages[(p["id"], h.message_id)])
                                        if ":?" not in o
                                    ], timeout=30,
                                )  # fmt: skip
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

            began = time.perf_counter()
            await asyncio.gather(*(client() for _ in range(clients)))
            seconds = time.perf_counter() - began
            lat = sorted(api.latency)
            p50 = statistics.median(lat) * 1000
            p99 = lat[int(len(lat) * 0.99) - 1] * 1000
            print(f"tables {count}, clients {clients}: set-up {setup:.0f} s "
                  f"({3 * count / setup:.0f} updates/s)")  # fmt: skip
            print(f"moves {played} in {seconds:.1f} s: {played / seconds:.0f} moves/s "
                  f"({len(lat)} presses, capture choices included)")  # fmt: skip
            print(f"update offered -> answerCallbackQuery: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                  f"max {lat[-1] * 1000:.0f} ms")  # fmt: skip
            print(f"memory per live table: {(rss_after - rss_before) / count / 1024:.1f} KiB "
                  "(bot + fake server in one process)")  # fmt: skip
        finally:
            await tavolo.stop()
            await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--moves", type=int, default=5000)
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.clients, args.moves))


if __name__ == "__main__":
    main()
