"""Discord REST calls per move with hands that follow the game: 4 human players in a Scopone
(or 2 in a Scopa) through the real discord.py and the fake Discord, each pressing "My hand"
once and then playing only from that one message. Prints the calls per move by kind, the pings
(turn mentions) per move and the channel messages left at the end.

    python benchmarks/discord_calls.py [--players 4] [--games 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    MAX_PRESSES,
    Backend,
    action_of,
    find_id,
    make_bot,
    move_ids,
    my_hand,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import FakeDiscord

KINDS = (
    ("interaction answer", r"POST /interactions/"),
    ("webhook edit (hands)", r"PATCH /webhooks/"),
    ("webhook post", r"POST /webhooks/"),
    ("webhook delete", r"DELETE /webhooks/"),
    ("channel post", r"POST /channels/\d+/messages$"),
    ("channel edit (table)", r"PATCH /channels/"),
    ("channel delete", r"DELETE /channels/"),
)


def kind_of(method: str, path: str) -> str:
    line = f"{method} {path.removeprefix('/api/v10')}"
    return next((name for name, pattern in KINDS if re.match(pattern, line)), "other")


async def one_game(players: int, seed: int, folder: Path) -> tuple[int, Counter[str], int, int]:
    """(moves, calls by kind during the play, pings, channel messages at the end)."""
    fake = FakeDiscord()
    await fake.start()
    patch = pytest.MonkeyPatch()
    fake.patch_client_urls(patch)
    backend = Backend(folder / f"game-{seed}.sqlite3")
    try:
        bot, handler = await make_bot(backend)
        users = [fake.add_user(name) for name in ("anna", "bruno", "carla", "dario")[:players]]
        rng = random.Random(seed)
        async with running(bot, fake):
            game = "scopone" if players == 4 else "scopa"
            options = {} if players == 4 else {"players": players}
            lobby = await open_table(fake, users[0], game, **options)
            for user in users[1:]:
                join = await fake.click(user, fake.messages[lobby.id], find_id(lobby, "@join"))
                await join.wait_answer()
                await settle(handler, fake, join)
            start = await fake.click(
                users[0], fake.messages[lobby.id], find_id(fake.messages[lobby.id], "@start")
            )
            await start.wait_answer()
            await settle(handler, fake, start)
            table_id = table_id_of(lobby)
            hands = {}
            for user in users:
                hands[user.id] = (await my_hand(fake, handler, user, fake.messages[lobby.id])).id
            mark = len(fake.requests)
            pings_before = len(fake.pinged)
            moves = 0
            by_id = {u.id: u for u in users}
            for _ in range(MAX_PRESSES * 2):
                if (await handler.service.export_game(table_id))["status"] == "finished":
                    break
                to_move = [u for u, m in hands.items() if move_ids(fake.messages[m])]
                if len(to_move) != 1:
                    raise AssertionError(f"{len(to_move)} hands with moves: the hands lost track")
                hand = fake.messages[hands[to_move[0]]]
                chosen = rng.choice(move_ids(hand))
                record = await fake.click(by_id[to_move[0]], hand, chosen)
                await record.wait_answer()
                await settle(handler, fake, record)
                if not action_of(chosen).startswith("?"):
                    moves += 1
            else:
                raise AssertionError("the game did not end within the bound")
            calls = Counter(kind_of(m, p) for m, p in fake.requests[mark:] if "/api/" in p)
            pings = len(fake.pinged) - pings_before
            left = len(fake.channel_messages())
        return moves, calls, pings, left
    finally:
        await backend.close()
        await fake.stop()
        patch.undo()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total_moves, total_pings = 0, 0
    calls: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        for game in range(args.games):
            moves, counted, pings, left = await one_game(
                args.players, args.seed + game, Path(folder)
            )
            total_moves += moves
            total_pings += pings
            calls.update(counted)
            print(f"game {game + 1}: {moves} moves, channel messages at the end: {left}")
    print(f"{args.players} human players, {args.games} game(s), {total_moves} moves")
    for name, _ in (*KINDS, ("other", "")):
        if calls[name]:
            print(f"  {name:22} {calls[name] / total_moves:6.2f} per move")
    print(f"  {'all REST calls':22} {sum(calls.values()) / total_moves:6.2f} per move")
    print(f"  {'turn mentions (pings)':22} {total_pings / total_moves:6.2f} per move")


if __name__ == "__main__":
    asyncio.run(main())
