"""The web table under load: N WebSocket pages on M tables making moves.

    python benchmarks/web_table.py --tables 50 --think 1.0 --moves 40

Starts the web table's server in a process of its own (a real service on SQLite in a temporary
directory, the aiohttp app on 127.0.0.1, 4-player Scopone tables of Telegram users), then opens
one page per seat here (aiohttp's WebSocket client, signed init data as Telegram signs it). On
its turn each page waits ``--think`` seconds and plays its first legal move; every page of the
table must then receive the new version. Prints the move-to-push latency (from sending the move
to each seat's page receiving its state: p50/p99 over every seat), the server's CPU time a move,
and its memory a connection (resident memory with every page connected, less before, over the
pages). ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOT_TOKEN = "4242:benchmark-web-table"
SEATS = 4


# --- the server process -------------------------------------------------------------------


async def serve(tables: int, db: Path) -> None:
    from aiohttp import web

    from bot.render import Renderer
    from bot.service import ChatRef, ComputerPlayers, TableService, UserRef, default_registry
    from bot.store import Store
    from bot.web import WebConfig, WebTable, build_web_app

    store = Store.open(f"sqlite+aiosqlite:///{db}")
    await store.upgrade()
    service = TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(),
        cache_size=max(100, tables * 2),
    )
    made = []
    for t in range(tables):
        chat = ChatRef("telegram", str(-1000000 - t))
        users = [UserRef("telegram", str(10_000 + t * SEATS + s), f"P{t}.{s}") for s in range(4)]
        created = await service.create_table(chat, users[0], "scopone", players=SEATS)
        assert created.table is not None
        for u in users[1:]:
            await service.join(chat, u, created.table.id)
        await service.start(chat, users[0], created.table.id)
        made.append({"table": created.table.id, "users": [u.user_id for u in users]})
    web_table = WebTable(
        service,
        Renderer(),
        WebConfig(bot_token=BOT_TOKEN, pace=0.0, token_secret=b"b" * 32, rate=50, burst=100),
    )
    runner = web.AppRunner(build_web_app(web_table), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(json.dumps({"port": runner.addresses[0][1], "tables": made}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until EOF
    # The server's own share: from a version's commit to its frame written to each page.
    pushes = sorted(web_table.hub.push_seconds)
    if pushes:
        p99 = pushes[min(len(pushes) - 1, int(len(pushes) * 0.99))]
        print(json.dumps({"server_p50": statistics.median(pushes), "server_p99": p99}), flush=True)
    await runner.cleanup()
    await store.close()


# --- the pages ----------------------------------------------------------------------------


def init_data(user_id: str, start: int) -> str:
    from bot.web.auth import sign_init_data

    fields = {
        "auth_date": str(int(time.time())),
        "user": json.dumps({"id": int(user_id), "first_name": f"U{user_id}"}),
        "start_param": str(start),
    }
    return sign_init_data(fields, BOT_TOKEN)


class Table:
    def __init__(self, table: int, moves: int) -> None:
        self.table = table
        self.sent: dict[int, float] = {}  # version the move was made at -> when sent
        self.latencies: list[float] = []
        self.moves_left = moves
        self.done = asyncio.Event()


async def page(
    session: aiohttp.ClientSession,
    url: str,
    user_id: str,
    seat: int,
    table: Table,
    think: float,
    connected: asyncio.Barrier,
    go: asyncio.Event,
    rng: random.Random,
    jitter: float = 0.0,
) -> None:
    signed = {"init_data": init_data(user_id, table.table)}
    async with session.post(f"{url}/api/auth/telegram", json=signed) as r:
        token = (await r.json())["token"]
    async with session.ws_connect(f"{url}/ws?token={token}", max_msg_size=1 << 22) as ws:
        await ws.send_json({"type": "watch", "table": table.table, "since": None})
        first = await ws.receive_json()
        while first.get("type") != "state":
            first = await ws.receive_json()
        await connected.wait()
        await go.wait()
        frame = first
        while not table.done.is_set():
            state = frame["state"]
            version = frame["version"]
            if version - 1 in table.sent:
                table.latencies.append(time.perf_counter() - table.sent[version - 1])
            if state["status"] != "playing":
                table.done.set()
                break
            if state["turn"] == seat and state["moves"]:
                if table.moves_left <= 0:
                    table.done.set()
                    break
                await asyncio.sleep(think * (1 + jitter * (2 * rng.random() - 1)))
                table.moves_left -= 1
                table.sent[version] = time.perf_counter()
                await ws.send_json(
                    {
                        "type": "act",
                        "id": version,
                        "table": table.table,
                        "version": version,
                        "action": state["moves"][0]["move"],
                    }
                )
            while True:
                receiving = asyncio.ensure_future(ws.receive())
                ended = asyncio.ensure_future(table.done.wait())
                await asyncio.wait({receiving, ended}, timeout=30, return_when="FIRST_COMPLETED")
                ended.cancel()
                if not receiving.done():
                    receiving.cancel()
                    table.done.set()
                    return
                message = receiving.result()
                if message.type != aiohttp.WSMsgType.TEXT:
                    return
                frame = json.loads(message.data)
                if frame.get("type") == "state":
                    break
                if frame.get("type") == "refused":
                    print("refused:", frame, file=sys.stderr)


def process_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of a process."""
    import psutil

    proc = psutil.Process(pid)
    cpu = proc.cpu_times()
    return cpu.user + cpu.system, proc.memory_info().rss


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                "--tables",
                str(args.tables),
                "--db",
                str(Path(tmp) / "bench.sqlite3"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            assert server.stdout is not None
            line = await asyncio.to_thread(server.stdout.readline)
            info = json.loads(line)
            url = f"http://127.0.0.1:{info['port']}"
            await asyncio.sleep(1.0)
            _, rss_before = process_stats(server.pid)
            tables = [Table(t["table"], args.moves) for t in info["tables"]]
            pages = len(tables) * SEATS
            connected = asyncio.Barrier(pages + 1)
            go = asyncio.Event()
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as session:
                tasks = [
                    asyncio.create_task(
                        page(
                            session,
                            url,
                            user,
                            seat,
                            table,
                            args.think,
                            connected,
                            go,
                            rng=random.Random(f"{args.seed}:{t['table']}:{seat}"),
                            jitter=args.jitter,
                        )
                    )
                    for table, t in zip(tables, info["tables"], strict=True)
                    for seat, user in enumerate(t["users"])
                ]
                await asyncio.wait_for(connected.wait(), 120)
                await asyncio.sleep(1.0)
                cpu_before, rss_connected = process_stats(server.pid)
                started = time.perf_counter()
                go.set()
                await asyncio.wait_for(asyncio.gather(*tasks), args.timeout)
                elapsed = time.perf_counter() - started
                cpu_after, _ = process_stats(server.pid)
        finally:
            if server.stdin is not None:
                server.stdin.close()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
            tail = server.stdout.read() if server.stdout is not None else ""
    latencies = sorted(x for t in tables for x in t.latencies)
    moves = sum(len(t.sent) for t in tables)
    if not latencies:
        print("no moves were measured")
        return
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(
        f"pages {pages} on {len(tables)} tables, {moves} moves in {elapsed:.1f} s "
        f"({moves / elapsed:.1f} moves/s), think {args.think} s +- {args.jitter:.0%}"
    )
    print(
        f"move-to-push latency over every seat: p50 {p50 * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms ({len(latencies)} pushes)"
    )
    for line in tail.splitlines():
        if line.startswith("{"):
            inside = json.loads(line)
            print(
                f"inside the server (commit to frame written): p50 "
                f"{inside['server_p50'] * 1000:.1f} ms, p99 {inside['server_p99'] * 1000:.1f} ms"
            )
    print(f"server CPU a move: {(cpu_after - cpu_before) / moves * 1000:.2f} ms")
    print(
        f"server memory a connection: {(rss_connected - rss_before) / pages / 1024:.0f} KiB "
        f"(RSS {rss_before / 2**20:.0f} -> {rss_connected / 2**20:.0f} MiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="4-seat tables (pages: 4 each)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.0,
        help="each think drawn uniformly within +-JITTER of it (0.5: 0.5-1.5 s at --think 1;"
        " 0: every table in lockstep, the worst case)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the jitter's seed")
    parser.add_argument("--moves", type=int, default=40, help="moves a table plays")
    parser.add_argument("--timeout", type=float, default=600.0, help="give up after (seconds)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.tables, Path(args.db)))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
