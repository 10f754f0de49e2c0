"""Inline play under Telegram's flood limits, as a group of friends meets it: two humans in each
of several groups play Scopa only through inline mode (nobody opened the private chat), as fast
as they can, against the fake Bot API enforcing the limits (20 calls a minute in a group, 30 a
second overall) and the bot's production limiter (``bot.telegram.limiter.PacedRateLimiter``).

Each move: the player to move taps "🂠 My cards" (an inline query), then a result (the tap);
the move counts as seen when the group's table message shows a newer version of the table (its
buttons carry the version). Prints, over every move of every group:

* tap "My cards" -> the results shown (``answerInlineQuery``): p50/p95/p99;
* tap a result -> the table in the group showing the move: p50/p95/p99 and the worst;
* moves per minute per group (each group plays as fast as the table lets it, or with
  ``--think`` seconds before each tap, as people do), the requests
  naming the group per move, the 429s the limits gave, and posted "via @bot" moves left;
* what the wait for the group's budget costs in clutter: how long each posted move stayed in the
  group before the bot deleted it (sampled every quarter second), and how many messages a group
  showed at a time.

    python benchmarks/inline_latency.py [--groups 3] [--moves 40] [--think 0] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import decode_button
from bot.telegram.limiter import PacedRateLimiter
from tests.fakes.telegram_api import JSON, FakeBotApi, group_chat, user
from tests.telegram.harness import Tavolo, action_data
from tests.telegram.inline_play import LOOK, game_now

SHOWN_TIMEOUT = 300.0  # bounded: far above any wait the limits make


def table_version_shown(api: FakeBotApi, chat_id: int, table_id: int) -> int:
    """The newest version of the table its messages in the group show (their buttons say)."""
    newest = -1
    for message in api.bot_messages(chat_id):
        for row in (message.reply_markup or {}).get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if not isinstance(data, str):
                    continue
                try:
                    decoded = decode_button(data)
                except ValueError:
                    continue
                if decoded.table_id == table_id:
                    newest = max(newest, decoded.version)
    return newest


def shows_newer(api: FakeBotApi, chat_id: int, table_id: int, version: int) -> bool:
    return table_version_shown(api, chat_id, table_id) > version


SAMPLE_EVERY = 0.25  # seconds between two looks at the groups' messages


class Clutter:
    """What the groups show while they play: each posted move's first and last sighting, and
    the messages per group at each look."""

    def __init__(self, api: FakeBotApi, groups: list[int]) -> None:
        self.api = api
        self.groups = groups
        self.seen: dict[tuple[int, int], list[float]] = {}
        self.counts: list[int] = []

    def look(self) -> None:
        now = time.perf_counter()
        for chat_id in self.groups:
            self.counts.append(len(self.api.chat_messages(chat_id)))
            for message in self.api.via_bot_messages(chat_id):
                key = (chat_id, message.message_id)
                self.seen.setdefault(key, [now, now])[1] = now

    async def watch(self, stop: asyncio.Event) -> None:
        for _ in range(1_000_000):  # bounded: the play ends long before
            self.look()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SAMPLE_EVERY)
            if stop.is_set():
                return

    def stays(self) -> list[float]:
        return [last - first for first, last in self.seen.values()]


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]

    return (
        f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {at(0.95) * 1000:.0f} ms, "
        f"p99 {at(0.99) * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"
    )


async def open_table(tavolo: Tavolo, group: JSON, players: list[JSON]) -> int:
    api = tavolo.api
    await tavolo.say(group, players[0], "/scopa 2 target=21")
    lobby = api.last_bot_message(group["id"])
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(api.message(group["id"], lobby.message_id), players[1], "@join")
    await tavolo.press_action(api.message(group["id"], lobby.message_id), players[0], "@start")
    return table_id


async def play_group(
    tavolo: Tavolo,
    group: JSON,
    players: list[JSON],
    table_id: int,
    moves: int,
    rng: random.Random,
    answers: list[float],
    shown: list[float],
    think: float,
) -> tuple[int, float]:
    """Play ``moves`` moves as fast as the table shows them; (moves made, seconds)."""
    api = tavolo.api
    began = time.perf_counter()
    made = 0
    for _ in range(moves):
        game, export = await game_now(tavolo, table_id)
        if export["status"] != "playing":
            break
        player = players[game.current_player]
        if think > 0:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        asked = time.perf_counter()
        query_id = api.inline_query(player, str(table_id))
        await api.wait_inline_answer(query_id, timeout=SHOWN_TIMEOUT)
        answers.append(time.perf_counter() - asked)
        results = api.inline_results(query_id)
        playable = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
        assert playable, "no moves offered to the player to move"
        before = int(export["version"])
        tapped = time.perf_counter()
        api.choose_inline_result(player, query_id, rng.choice(playable)["id"], chat=group)
        await api.wait_for(
            partial(shows_newer, api, group["id"], table_id, before),
            timeout=SHOWN_TIMEOUT,
            what="the table showing the move",
        )
        shown.append(time.perf_counter() - tapped)
        made += 1
    return made, time.perf_counter() - began


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=3)
    parser.add_argument("--moves", type=int, default=40, help="moves per group (bounded)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player looks at the table before tapping (a random 0.5x-1.5x of it)",
    )
    args = parser.parse_args()
    groups_range = range(args.groups)
    groups = [group_chat(-100800 - i, f"Tavolata {i}") for i in groups_range]
    players = [[user(3000 + 2 * i, f"A{i}"), user(3001 + 2 * i, f"B{i}")] for i in groups_range]
    with tempfile.TemporaryDirectory(prefix="tavolo-inline-") as folder:
        async with FakeBotApi(inline=True) as api:
            api.enforce_flood_limits()
            for group, pair in zip(groups, players, strict=True):
                api.make_bot_admin(group["id"])
                for player in pair:
                    api.block_private(player["id"])
            async with Tavolo(
                api, Path(folder) / "inline.sqlite3", seed=args.seed, rate_limiter=PacedRateLimiter
            ) as tavolo:
                tables = await asyncio.gather(
                    *(open_table(tavolo, g, p) for g, p in zip(groups, players, strict=True))
                )
                await api.wait_idle(quiet=0.5, timeout=120)
                mark, refused = len(api.requests), len(api.flood_refusals)
                answers: list[float] = []
                shown: list[float] = []
                rng = random.Random(args.seed)
                clutter = Clutter(api, [g["id"] for g in groups])
                stop = asyncio.Event()
                watching = asyncio.create_task(clutter.watch(stop))
                played = await asyncio.gather(
                    *(
                        play_group(
                            tavolo,
                            g,
                            p,
                            t,
                            args.moves,
                            random.Random(rng.random()),
                            answers,
                            shown,
                            args.think,
                        )
                        for g, p, t in zip(groups, players, tables, strict=True)
                    )
                )
                stop.set()
                await watching
                ids = {g["id"] for g in groups}
                total = sum(m for m, _ in played)
                rates = [m / (s / 60) for m, s in played if s > 0]
                during = sum(1 for r in api.requests[mark:] if r.params.get("chat_id") in ids)
                # The deletions still waiting for the groups' budget go within a minute or so.
                ended = time.perf_counter()
                left = sum(len(api.via_bot_messages(g["id"])) for g in groups)
                with contextlib.suppress(AssertionError):
                    await api.wait_for(
                        lambda: not any(api.via_bot_messages(g["id"]) for g in groups),
                        timeout=SHOWN_TIMEOUT,
                        what="the groups cleared",
                    )
                cleared = time.perf_counter() - ended
                await api.wait_idle(quiet=0.5, timeout=60)
                group_requests = sum(
                    1 for r in api.requests[mark:] if r.params.get("chat_id") in ids
                )
                still = sum(len(api.via_bot_messages(g["id"])) for g in groups)
                print(
                    f"inline play, {len(groups)} groups x 2 humans, {total} moves, think "
                    f"{args.think:g} s, limits on (20/min per group, 30/s overall)"
                )
                print(f"  tap 'My cards' -> results shown: {percentiles(answers)}")
                print(f"  tap a result -> table shows the move: {percentiles(shown)}")
                print(
                    f"  moves per minute per group: mean {statistics.mean(rates):.1f}, "
                    f"min {min(rates):.1f}, max {max(rates):.1f}"
                )
                print(
                    f"  requests naming a group per move: {during / max(total, 1):.2f} during "
                    f"the moves, {group_requests / max(total, 1):.2f} with the deletions sent "
                    f"after the last move"
                )
                print(f"  429s from the limits: {len(api.flood_refusals) - refused}")
                print(
                    f"  posted 'via @bot' moves left at the last move: {left}, all cleared "
                    f"{cleared:.1f} s later (left then: {still})"
                )
                print(
                    f"  a posted move in the group until deleted (during the moves): "
                    f"{percentiles(clutter.stays())}"
                )
                counts = sorted(clutter.counts)
                print(
                    f"  messages in a group at a time: median {statistics.median(counts):g}, "
                    f"p95 {counts[int(0.95 * (len(counts) - 1))]}, max {counts[-1]}"
                )
                print(f"  load average (1 min): {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
