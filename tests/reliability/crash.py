"""Crash/restart harness: real ``python -m bot run`` processes (the Telegram adapter, through
``TELEGRAM_API_URL``) against the fake Bot API, scripted players in groups, and SIGKILLs at
random moments. After each kill the bot is started again on the same data directory. At the end
every game must be finished, every move the players saw acknowledged must be in the move log,
and ``PRAGMA integrity_check`` must pass. Used by ``test_crash_restart.py`` (a few kills) and
``benchmarks/crash_restart.py`` (100 kills)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.service import decode_button
from tests.fakes.telegram_api import (
    JSON,
    FakeBotApi,
    StoredMessage,
    group_chat,
    private_chat,
    user,
)
from tests.reliability.players import Ledger, play_step
from tests.telegram.harness import action_data, move_buttons

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


@dataclass
class CrashFigures:
    kills: int = 0
    tables: int = 0
    moves_logged: int = 0
    moves_acked: int = 0
    presses_unanswered: int = 0
    hands_reasked: int = 0
    seconds: float = 0.0
    restart_seconds: list[float] = field(default_factory=list)
    log_files: list[Path] = field(default_factory=list)


class BotProcess:
    """One ``python -m bot run`` at a time on ``data_dir``; stderr goes to a file per run."""

    def __init__(self, api: FakeBotApi, data_dir: Path, log_dir: Path) -> None:
        self.api = api
        self.data_dir = data_dir
        self.log_dir = log_dir
        self.process: asyncio.subprocess.Process | None = None
        self.runs = 0
        self.logs: list[Path] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
        env.update(
            TELEGRAM_TOKEN=self.api.token,
            TELEGRAM_API_URL=self.api.url,
            DATA_DIR=str(self.data_dir),
            LOG_LEVEL="DEBUG",
            PYTHONPATH=str(ROOT),
        )
        return env

    async def start(self) -> float:
        """Starts the bot; returns the seconds until it polls the fake server."""
        began = time.monotonic()
        polls = len(self.api.calls("getUpdates"))
        log = self.log_dir / f"bot-{self.runs:03d}.log"
        self.logs.append(log)
        self.runs += 1
        with log.open("wb") as sink:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", env=self.env(), cwd=self.log_dir,
                stdout=sink, stderr=sink,
            )  # fmt: skip
        await self.api.wait_for(
            lambda: len(self.api.calls("getUpdates")) > polls, timeout=START_TIMEOUT, what="poll"
        )
        return time.monotonic() - began

    async def kill(self) -> None:
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> int:
        """SIGTERM: the clean shutdown; returns the exit code."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()


def db_file(data_dir: Path) -> Path:
    return data_dir / "tavolo.sqlite3"


def read_db(path: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(query, args).fetchall()
    finally:
        conn.close()


async def open_tables(api: FakeBotApi, count: int, first: int) -> list[tuple[int, list[JSON]]]:
    """``count`` players each start a quick Scopa against the computer in their private chat
    (a private chat's flood limit is 1 message/s, a group's 20 a minute); returns
    (table id, [player])."""
    tables = []
    for index in range(first, first + count):
        player = user(30000 + index, f"P{index}")
        api.send_text(private_chat(player), player, "/scopa")
        hand = await api.wait_for(
            lambda p=player: _any_hand(api, p["id"]), timeout=60, what="a quick game"
        )
        tables.append((decode_button(move_buttons(hand)[0]).table_id, [player]))
    return tables


async def open_group_tables(
    api: FakeBotApi, count: int, first: int
) -> list[tuple[int, list[JSON]]]:
    """``count`` two-player Scopa tables in groups, two humans each (hands in their private
    chats); returns (table id, [players])."""
    tables = []
    for index in range(first, first + count):
        group = group_chat(-(700000 + index), f"G{index}")
        one, two = user(40000 + 2 * index, f"A{index}"), user(40001 + 2 * index, f"B{index}")
        # One deal a game (a game to 11 takes minutes under the group's flood limits); the
        # kills come in its first seconds, and the restarts must carry it to its end.
        api.send_text(group, one, "/scopa 2 target=1")
        lobby = await api.wait_for(
            lambda g=group: _with_button(api, g["id"], "@join"), timeout=60, what="a lobby"
        )
        table_id = decode_button(action_data(lobby, "@join")).table_id
        joined = api.press(lobby, two, data=action_data(lobby, "@join"))
        await api.wait_answered(joined, timeout=60)
        lobby = await api.wait_for(
            lambda g=group: _with_button(api, g["id"], "@start"), timeout=60, what="a start"
        )
        await api.wait_answered(api.press(lobby, one, data=action_data(lobby, "@start")))
        await api.wait_for(
            lambda a=one, b=two: _any_hand(api, a["id"]) or _any_hand(api, b["id"]),
            timeout=60,
            what="a dealt hand",
        )
        tables.append((table_id, [one, two]))
    return tables


def _with_button(api: FakeBotApi, chat_id: int, action: str) -> StoredMessage | None:
    """The newest bot message in the chat with a button of ``action``."""
    for message in reversed(api.bot_messages(chat_id)):
        if any(str(b.get("callback_data", "")).endswith(":" + action) for b in message.buttons()):
            return message
    return None


def _any_hand(api: FakeBotApi, user_id: int) -> StoredMessage | None:
    for message in reversed(api.bot_messages(user_id)):
        if move_buttons(message):
            return message
    return None


async def crash_run(
    work: Path,
    *,
    tables: int,
    kills: int,
    seed: int,
    min_gap: float = 1.0,
    max_gap: float = 4.0,
    groups: bool = False,
) -> CrashFigures:
    """Plays ``tables`` games while killing the bot ``kills`` times; checks nothing is lost.

    ``groups``: two-player tables in groups whose players never ask for their hand (no
    "My hand", no /start): every game must still end with no move made by the turn timer."""
    rng = random.Random(seed)
    figures = CrashFigures(tables=tables)
    began = time.monotonic()
    data_dir, log_dir = work / "data", work / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    ledger = Ledger(answer_timeout=4, reask=not groups)
    opener = open_group_tables if groups else open_tables
    async with FakeBotApi() as api:
        bot = BotProcess(api, data_dir, log_dir)
        await bot.start()
        games = await opener(api, tables, 0)
        database = db_file(data_dir)

        async def status(table_id: int) -> str:
            return str(read_db(database, "SELECT status FROM tables WHERE id = ?", table_id)[0][0])

        async def play_one(table_id: int, players: list[JSON], table_seed: int) -> None:
            step_rng = random.Random(table_seed)
            for _ in range(20_000):
                if await status(table_id) != "playing":
                    return
                await play_step(api, players, table_id, step_rng, ledger)
            raise AssertionError(f"table {table_id} did not end")

        async def players_loop() -> None:
            await asyncio.gather(
                *(play_one(t, p, seed + i) for i, (t, p) in enumerate(games) if t not in done)
            )
            done.update(t for t, _ in games)

        done: set[int] = set()

        async def killer() -> None:
            for _ in range(kills):
                await asyncio.sleep(rng.uniform(min_gap, max_gap))
                await bot.kill()
                figures.kills += 1
                figures.restart_seconds.append(await bot.start())

        players = asyncio.create_task(players_loop())
        killing = asyncio.create_task(killer())
        # The games may end before the kills are done: new games keep the bot busy until then.
        while not killing.done():
            if players.done():
                await players
                games.extend(await opener(api, tables, len(games)))
                figures.tables += tables
                players = asyncio.create_task(players_loop())
            await asyncio.sleep(0.2)
        await killing
        await players
        code = await bot.stop()
        assert code == 0, f"the bot exited with {code} on SIGTERM"
        rows = read_db(database, "PRAGMA integrity_check")
        assert rows == [("ok",)], rows
        logged = {
            (int(t), int(v), str(m))  # type: ignore[call-overload]
            for t, v, m in read_db(database, "SELECT table_id, version, move FROM moves")
        }
        acked = {(t, v, m) for t, moves in ledger.acked.items() for v, m in moves}
        missing = acked - logged
        assert not missing, f"acknowledged moves missing from the log: {sorted(missing)[:5]}"
        unfinished = [t for t, _ in games if read_db(
            database, "SELECT status FROM tables WHERE id = ?", t)[0][0] != "finished"]  # fmt: skip
        assert not unfinished, f"tables not finished: {unfinished}"
        if groups:
            timed = read_db(database, "SELECT table_id, version FROM moves WHERE actor = 'timeout'")
            assert not timed, f"moves the turn timer made for a waiting player: {timed}"
            assert ledger.refetched == 0
        figures.moves_logged = len({(t, v) for t, v, _ in logged if t in {g for g, _ in games}})
        figures.moves_acked = len(acked)
        figures.presses_unanswered = ledger.unanswered
        figures.hands_reasked = ledger.refetched
        figures.log_files = list(bot.logs)
        figures.seconds = time.monotonic() - began
        token = api.token
    for log in bot.logs:
        assert token not in log.read_text(errors="replace"), f"the token is in {log}"
    return figures
