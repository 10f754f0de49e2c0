"""Briscola and Briscola chiamata in a group through the real PTB and the fake Bot API.

Humans play only by pressing the buttons of their private hand; every button offered must be a
legal move at that moment (the auction offers only legal bids, then the call), the group never
sees a card still in a hand, and the finished game counts in the group's leaderboard.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.render import card_text
from bot.service import ChatRef, UserRef, decode_button, default_registry
from tests.fakes.telegram_api import (
    JSON,
    FakeBotApi,
    StoredMessage,
    group_chat,
    private_chat,
    user,
)
from tests.telegram.harness import (
    MAX_PRESSES,
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hand_message,
    hidden_cards_by_version,
    move_buttons,
    table_messages,
    table_status,
)

pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
CARLA = user(1003, "Carla")
DARIO = user(1004, "Dario")
GROUP = group_chat(-100700, "Briscolari")


async def legal_now(tavolo: Tavolo, table_id: int) -> list[str]:
    """The legal moves of the seat to play, by replaying the table's log with the engine."""
    assert tavolo.service is not None
    export = await tavolo.service.export_game(table_id)
    kind = default_registry().get(export["game"])
    assert kind is not None
    options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
    game = kind.new_game(kind.rules(export["players"], options), export["seed"])
    for entry in export["moves"]:
        game = game.play(entry["move"])
    return [str(m) for m in game.legal_moves()]


def move_or_action_data(message: StoredMessage) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


def action(data: str) -> str:
    return data.split(":", 2)[2]


async def play_briscola_turn(
    tavolo: Tavolo, player: JSON, table_id: int, rng: random.Random, seen: dict[str, int]
) -> bool:
    """If it is ``player``'s turn, check that every move button is legal now and press one
    (a bid or a pass in the auction, the call, or a card). Returns whether they played."""
    message = hand_message(tavolo.api, player["id"], table_id)
    if message is None:
        return False
    buttons = move_buttons(message)
    legal = set(await legal_now(tavolo, table_id))
    offered = {action(b) for b in buttons}
    assert offered <= legal, (offered - legal, legal)
    for b in offered:
        kind = "call" if b.startswith("call ") else "pass" if b == "pass" else None
        if kind is None:
            kind = "bid" if b.isdigit() or len(b) == 1 else "card"
        seen[kind] = seen.get(kind, 0) + 1
    choice = rng.choice(buttons)
    answer = await tavolo.press(message, player, choice)
    assert answer["text"] is None, f"move refused: {answer}"
    return True


async def play_to_the_end(
    tavolo: Tavolo, players: list[JSON], table_id: int, seed: int
) -> dict[str, int]:
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    for _ in range(MAX_PRESSES):
        if await table_status(tavolo, table_id) != "playing":
            return seen
        moved = [await play_briscola_turn(tavolo, p, table_id, rng, seen) for p in players]
        assert any(moved), f"nobody can move at table {table_id}"
    raise AssertionError("the game did not end")


async def test_briscola_four_humans_in_pairs_to_game_over(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        await tavolo.say(GROUP, ALICE, "/briscola 4")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        assert "Briscola" in (lobby.text or "")
        # partners sit opposite: Carla takes seat 3 (Alice's partner), Bob and Dario 2 and 4
        for player, seat in ((CARLA, 2), (BOB, 1), (DARIO, 3)):
            lobby = api.message(GROUP["id"], lobby.message_id)
            answer = await tavolo.press_action(lobby, player, f"@seat.{seat}")
            assert answer["text"] is None, answer
        lobby = api.message(GROUP["id"], lobby.message_id)
        assert (await tavolo.press_action(lobby, ALICE, "@start"))["text"] is None
        for player in (ALICE, BOB, CARLA, DARIO):
            assert hand_message(api, player["id"], table_id) is not None or api.bot_messages(
                player["id"]
            )
        seen = await play_to_the_end(tavolo, [ALICE, BOB, CARLA, DARIO], table_id, seed=2)
        assert seen.get("card", 0) >= 10
        export = await tavolo.service.export_game(table_id)
        assert export["status"] == "finished" and export["players"] == 4
        # 40 cards, one per move (a swap is a move of its own)
        assert len([m for m in export["moves"] if m["move"] != "swap"]) % 40 == 0
        result = export["result"]
        assert result["data"]["sides"] == [[0, 2], [1, 3]]
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        # no private message keeps buttons once the game is over
        for player in (ALICE, BOB, CARLA, DARIO):
            assert not [m for m in api.bot_messages(player["id"]) if m.buttons()]
        # the pairs are rated: this group's Briscola leaderboard names all four
        await tavolo.say(GROUP, ALICE, "/leaderboard briscola")
        board = api.last_bot_message(GROUP["id"]).text or ""
        assert all(name in board for name in ("Alice", "Bob", "Carla", "Dario")), board
        # partners share the result: both winners have a win, both losers none
        winners = {1001 + s for s in result["data"]["sides"][result["winner_side"]]}
        rows = (
            (
                await tavolo.service.leaderboard(
                    "briscola",
                    user=UserRef("telegram", "1001"),
                    chat=ChatRef("telegram", str(GROUP["id"])),
                )
            )
            .events[0]
            .rows
        )  # type: ignore[attr-defined]
        assert {int(r.user_id) for r in rows if r.wins == 1} == winners


async def test_chiamata_two_humans_three_computers_auction_and_call(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        await tavolo.say(GROUP, ALICE, "/chiamata deals=1")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        assert (await tavolo.press_action(lobby, BOB, "@join"))["text"] is None
        lobby = api.message(GROUP["id"], lobby.message_id)
        assert (await tavolo.press_action(lobby, ALICE, "@fill.easy"))["text"] is None
        # Dario, not seated, looks at the table mid-auction: he sees the public view only
        table = next(
            m
            for m in reversed(table_messages(api, GROUP["id"], table_id))
            if any(d.endswith(":@hand") for d in move_or_action_data(m))
        )
        assert (await tavolo.press_action(table, DARIO, "@hand"))["text"] is None
        looked = "\n".join(m.text or m.caption or "" for m in api.bot_messages(DARIO["id"]))
        assert looked and "Your hand" not in looked and "La tua mano" not in looked
        hands = await hidden_cards_by_version(tavolo, table_id)
        assert not {c for c in hands[max(hands)] if c in looked}
        seen = await play_to_the_end(tavolo, [ALICE, BOB], table_id, seed=5)
        assert seen.get("card", 0) >= 8
        export = await tavolo.service.export_game(table_id)
        assert export["status"] == "finished" and export["players"] == 5
        moves = [m["move"] for m in export["moves"]]
        calls = [m.split()[1] for m in moves if m.startswith("call ")]
        assert calls
        # the called card is public from the call on: the call's announcement names it
        called = {card_text(c) for c in calls}
        hidden = {
            version: cards - called
            for version, cards in (await hidden_cards_by_version(tavolo, table_id)).items()
        }
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        await tavolo.say(GROUP, ALICE, "/leaderboard chiamata")
        board = api.last_bot_message(GROUP["id"]).text or ""
        assert "Alice" in board and "Bob" in board, board


async def test_private_quick_briscola_against_the_computer(api: FakeBotApi, tmp_path: Path) -> None:
    chat = private_chat(CARLA)
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        await tavolo.say(chat, CARLA, "/briscola")
        message = hand_message(api, CARLA["id"], table_id=_only_table(api, CARLA["id"]))
        assert message is not None
        rng = random.Random(3)
        table_id = decode_button(move_buttons(message)[0]).table_id
        seen: dict[str, int] = {}
        for _ in range(MAX_PRESSES):
            if await table_status(tavolo, table_id) != "playing":
                break
            assert await play_briscola_turn(tavolo, CARLA, table_id, rng, seen)
        assert await table_status(tavolo, table_id) == "finished"
        assert seen.get("card", 0) >= 20


def _only_table(api: FakeBotApi, chat_id: int) -> int:
    for message in reversed(api.bot_messages(chat_id)):
        for data in move_buttons(message):
            return decode_button(data).table_id
    raise AssertionError("no hand with move buttons")


async def test_briscola_table_is_a_picture_in_the_group(api: FakeBotApi, tmp_path: Path) -> None:
    """With pictures on, the Briscola table is one photo message edited in place; its caption is
    the text view (the face-up briscola named), and the picture changes as cards are played."""
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        await tavolo.say(GROUP, ALICE, "/briscola 2")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        assert (await tavolo.press_action(lobby, BOB, "@join"))["text"] is None
        lobby = api.message(GROUP["id"], lobby.message_id)
        assert (await tavolo.press_action(lobby, ALICE, "@start"))["text"] is None
        photos = [m for m in api.bot_messages(GROUP["id"]) if m.has_photo]
        assert len(photos) == 1
        table = photos[0]
        assert table.caption and "Briscola:" in table.caption
        pictures = {table.photo_data}
        rng = random.Random(2)
        seen: dict[str, int] = {}
        for _ in range(6):
            moved = [await play_briscola_turn(tavolo, p, table_id, rng, seen) for p in (ALICE, BOB)]
            assert any(moved)
            pictures.add(api.message(GROUP["id"], table.message_id).photo_data)
        assert len(pictures) >= 3
        # the hands are pictures too, in the private chats
        assert any(m.has_photo for m in api.bot_messages(ALICE["id"]))
