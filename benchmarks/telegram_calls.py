"""Telegram Bot API calls per move in a group game, before and after inline play: 4 human players
in a Scopone (or 2 in a Scopa) through the real python-telegram-bot and the fake Bot API.

* ``private``: inline mode off (as before): every player opened the private chat; hands and turn
  notices go there and the player to move presses a button of their private hand.
* ``inline``: inline mode on (the default in groups now): nobody opened the private chat; the
  player to move taps "🂠 My cards" (one inline query), then a result; the bot is a group admin,
  so it deletes the message each result posts.

Prints the calls per move by method, the messages that reach the group per move (the bot's own
and the ones results post "via @bot"), the requests naming the group (sends, edits, deletions:
what PTB's rate limiter meters against a group's 20 a minute), and the group's messages left at
the end.

    python benchmarks/telegram_calls.py [--players 4] [--games 1] [--seed 1] [--mode both]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import decode_button
from tests.fakes.telegram_api import JSON, FakeBotApi, group_chat, private_chat, user
from tests.telegram.harness import Tavolo, action_data, hand_message, move_buttons
from tests.telegram.inline_play import LOOK, ask, game_now

GROUP = group_chat(-100900, "Benchmark")
PLAYERS = [user(2001, "Anna"), user(2002, "Bruno"), user(2003, "Carla"), user(2004, "Dario")]
MAX_MOVES = 2000
# The messages a group sees: the bot's own posts, and results posted "via @bot" (counted by the
# fake's postings, below).
POSTS = ("sendMessage", "sendPhoto")


async def one_game(
    mode: str, players: int, seed: int, folder: Path
) -> tuple[int, Counter[str], int]:
    """(moves, calls by method during the play, group messages at the end)."""
    seated = PLAYERS[:players]
    async with FakeBotApi(inline=mode == "inline") as api:
        api.make_bot_admin(GROUP["id"])
        async with Tavolo(api, folder / f"{mode}-{seed}.sqlite3", seed=seed) as tavolo:
            assert tavolo.service is not None
            if mode == "private":
                for player in seated:
                    await tavolo.say(private_chat(player), player, "/start")
            else:
                for player in seated:
                    api.block_private(player["id"])
            game = "scopone" if players == 4 else f"scopa {players}"
            await tavolo.say(GROUP, seated[0], f"/{game}")
            lobby = api.last_bot_message(GROUP["id"])
            table_id = decode_button(action_data(lobby, "@join")).table_id
            for player in seated[1:]:
                await tavolo.press_action(
                    api.message(GROUP["id"], lobby.message_id), player, "@join"
                )
            await tavolo.press_action(
                api.message(GROUP["id"], lobby.message_id), seated[0], "@start"
            )
            await api.wait_idle(quiet=0.2)
            mark = len(api.requests)
            rng = random.Random(seed)
            moves = postings = 0
            for _ in range(MAX_MOVES):
                engine_game, export = await game_now(tavolo, table_id)
                if export["status"] != "playing":
                    break
                player = seated[engine_game.current_player]
                if mode == "private":
                    await private_move(tavolo, player, table_id, rng)
                else:
                    await inline_move(tavolo, player, table_id, rng)
                    postings += 1
                moves += 1
            else:
                raise AssertionError("the game did not end within the bound")
            await api.wait_idle(quiet=0.2)
            calls = Counter(r.method for r in api.requests[mark:] if r.method != "getUpdates")
            calls["(group messages)"] = (
                sum(
                    1
                    for r in api.requests[mark:]
                    if r.method in POSTS and r.ok and r.params.get("chat_id") == GROUP["id"]
                )
                + postings
            )
            calls["(group requests)"] = sum(
                1 for r in api.requests[mark:] if r.params.get("chat_id") == GROUP["id"]
            )
            left = len(api.chat_messages(GROUP["id"]))
        return moves, calls, left


async def private_move(tavolo: Tavolo, player: JSON, table_id: int, rng: random.Random) -> None:
    """The player to move presses a move on their private hand (a capture choice: two presses)."""
    api = tavolo.api
    message = hand_message(api, player["id"], table_id)
    assert message is not None, "no hand with moves"
    choice = rng.choice(move_buttons(message))
    answer = await tavolo.press(message, player, choice)
    if choice.split(":", 2)[2].startswith("?"):
        edited = api.message(player["id"], message.message_id)
        answer = await tavolo.press(edited, player, rng.choice(move_buttons(edited)))
    assert answer["text"] is None, answer
    await api.wait_idle(quiet=0.05)


async def inline_move(tavolo: Tavolo, player: JSON, table_id: int, rng: random.Random) -> None:
    """The player to move taps "🂠 My cards" and a result; the posted message is deleted."""
    api = tavolo.api
    query_id, results, _ = await ask(tavolo, player, str(table_id))
    moves = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
    assert moves, "no moves offered to the player to move"
    posted = api.choose_inline_result(player, query_id, rng.choice(moves)["id"], chat=GROUP)
    assert posted is not None
    await api.wait_for(
        lambda: (GROUP["id"], posted.message_id) not in api.messages, what="the move cleared"
    )
    await api.wait_idle(quiet=0.05)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 4))
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("private", "inline", "both"), default="both")
    args = parser.parse_args()
    modes = ("private", "inline") if args.mode == "both" else (args.mode,)
    with tempfile.TemporaryDirectory() as folder:
        for mode in modes:
            total_moves = 0
            calls: Counter[str] = Counter()
            for game in range(args.games):
                moves, counted, left = await one_game(
                    mode, args.players, args.seed + game, Path(folder)
                )
                total_moves += moves
                calls.update(counted)
                print(f"{mode} game {game + 1}: {moves} moves, group messages at the end: {left}")
            print(
                f"{mode}: {args.players} human players, {args.games} game(s), {total_moves} moves"
            )
            for name, count in sorted(calls.items(), key=lambda kv: -kv[1]):
                if not name.startswith("("):
                    print(f"  {name:24} {count / total_moves:6.2f} per move")
            api_calls = sum(n for k, n in calls.items() if not k.startswith("("))
            print(f"  {'all Bot API calls':24} {api_calls / total_moves:6.2f} per move")
            print(
                f"  {'messages into the group':24} "
                f"{calls['(group messages)'] / total_moves:6.2f} per move"
            )
            print(
                f"  {'requests about the group':24} "
                f"{calls['(group requests)'] / total_moves:6.2f} per move (the 20/min budget)"
            )


if __name__ == "__main__":
    asyncio.run(main())
