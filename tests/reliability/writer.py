"""A writer process for the power-cut tests: ``python -m tests.reliability.writer URL GAMES SEED``
plays GAMES Scopa games (one per chat) on the database URL, resuming open tables after a restart,
and prints ``ack <table> <version> <move>`` (flushed) after each committed move, then ``done``."""

from __future__ import annotations

import asyncio
import random
import sys

import sqlalchemy as sa

from bot.service import ChatRef, TableService
from tests.reliability.workload import (
    complete_setup,
    open_service,
    play_one_move,
    start_table,
    users,
)


async def run(url: str, games: int, seed: int) -> None:
    service = await open_service(url, seed=seed)
    rng = random.Random(seed)
    try:
        for index in range(games):
            chat = ChatRef("telegram", str(-1000 - index))
            players = users("telegram", 10 * index + 1, 2)
            open_tables = await service.open_tables(chat)
            if open_tables:
                table_id = open_tables[0].id
                if open_tables[0].status == "lobby":
                    # Killed between creating the table and its start: finish the set-up.
                    await complete_setup(service, chat, players, open_tables[0])
            elif await _finished(service, chat):
                continue
            else:
                table_id = await start_table(service, chat, players, "scopa", {"target": 11})
            while True:
                played = await play_one_move(service, chat, players, table_id, rng)
                if played is None:
                    break
                print(f"ack {table_id} {played[0]} {played[1]}", flush=True)
        print("done", flush=True)
    finally:
        await service.store.close()


async def _finished(service: TableService, chat: ChatRef) -> list[int]:
    """Tables of ``chat`` that already ended (a restarted writer skips their chat)."""
    async with service.store.engine.connect() as conn:
        result = await conn.execute(
            sa.text(
                "SELECT id FROM tables WHERE platform = :p AND chat_id = :c AND status = 'finished'"
            ),
            {"p": chat.platform, "c": chat.chat_id},
        )
        return [int(r[0]) for r in result]


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
