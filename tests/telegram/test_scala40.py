"""Scala 40 in a group through the real PTB (skipped while engine.scala40 is missing).

Humans play as on a phone: they draw and open with one tap, and meld, attach and discard by tapping
the cards of the move (the selection rides in the button data and shows as ticks) and then the move
the selection makes; the group never sees a card still in a hand.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.render import card_text, move_cards
from bot.service import decode_button, default_registry
from tests.fakes.telegram_api import JSON, FakeBotApi, group_chat, request_texts, user
from tests.telegram.harness import (
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hand_message,
    hidden_cards_by_version,
    move_buttons,
    table_status,
)

pytest.importorskip("engine.scala40", reason="the Scala 40 engine has not landed on main yet")

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
GROUP = group_chat(-100600, "Ramino")
ROUNDS = 40
MAX_TURNS = 1000  # a match against the easy computer takes a few hundred

# Progress first: open, meld, attach; then discard; drawing only when that is all there is.
PREFERENCE = ("o", "m", "a", "d", "p", "t")


async def replayed(tavolo: Tavolo, table_id: int) -> Any:
    """The table's game now, by replaying its log with the engine."""
    assert tavolo.service is not None
    export = await tavolo.service.export_game(table_id)
    kind = default_registry().get(export["game"])
    assert kind is not None
    options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
    game = kind.new_game(kind.rules(export["players"], options), export["seed"])
    for entry in export["moves"]:
        game = game.play(entry["move"])
    return game


async def legal_now(tavolo: Tavolo, table_id: int) -> list[str]:
    """The legal moves of the seat to play, by replaying the table's log with the engine."""
    return [str(m) for m in (await replayed(tavolo, table_id)).legal_moves()]


def pick(moves: list[str], rng: random.Random) -> str:
    for wanted in PREFERENCE:
        found = [m for m in moves if m.split(" ", 1)[0][:1].lower() == wanted]
        if found:
            return rng.choice(found)
    return rng.choice(moves)


def action(data: str) -> str:
    return data.split(":", 2)[2]


async def play(tavolo: Tavolo, player: JSON, table_id: int, rng: random.Random) -> bool:
    """One move of ``player`` if it is their turn, played as on a phone: a draw or the opening
    with one tap; a meld, attach or discard by tapping its cards (each tap edits the hand with
    the selection shown) and then the move the selection makes."""
    api = tavolo.api
    message = hand_message(api, player["id"], table_id)
    if message is None:
        return False
    target = pick(await legal_now(tavolo, table_id), rng)
    if target.split()[0][:1] in "masd" and len(target.split()) > 1:
        wanted = [card_text(c) for c in move_cards(target)]
        for card in wanted:  # bounded by the cards of one move
            message = api.message(player["id"], message.message_id)
            toggles = [
                b
                for b in message.buttons()
                if action(str(b.get("callback_data", ""))).startswith("?#") and b["text"] == card
            ]
            assert toggles, (card, [b["text"] for b in message.buttons()])
            answer = await tavolo.press(message, player, str(toggles[0]["callback_data"]))
            assert answer["text"] is None, answer
        message = api.message(player["id"], message.message_id)
        # the selection shows: ticks on the buttons, and named in the text (or caption)
        assert sum(b["text"].startswith("✓ ") for b in message.buttons()) == len(wanted)
    data = [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]
    chosen = [d for d in data if action(d) == target]
    assert chosen, (target, [action(d) for d in data])
    answer = await tavolo.press(message, player, chosen[0])
    assert answer["text"] is None, answer
    return True


async def test_scala40_turns_in_a_group(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        await tavolo.say(GROUP, ALICE, "/scala40 2")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
        rng = random.Random(3)
        for _ in range(ROUNDS):
            moved = [await play(tavolo, player, table_id, rng) for player in (ALICE, BOB)]
            assert any(moved), "nobody can move"
        moves = [m["move"] for m in (await tavolo.service.export_game(table_id))["moves"]]
        assert len(moves) >= ROUNDS
        assert {m.split()[0] for m in moves} >= {"t"}
        assert any(m.startswith("d ") for m in moves)
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0
        # each player's hand stayed one private message, edited in place
        for player in (ALICE, BOB):
            hands = [m for m in api.bot_messages(player["id"]) if move_buttons(m)]
            assert len(hands) <= 1


async def test_the_card_drawn_from_the_stock_is_named_in_the_private_hand_only(
    api: FakeBotApi, tmp_path: Path
) -> None:
    # The hand is shown sorted: on a phone the player could not tell which card came from the
    # tallone. Their private hand names it, in their language; no group message ever does.
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        assert tavolo.service is not None
        await tavolo.say(GROUP, ALICE, "/scala40 2")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
        said = {ALICE["id"]: "Hai pescato {card}.", BOB["id"]: "You drew {card}."}
        rng = random.Random(5)
        told = 0
        for _ in range(2):  # each player's draw in turn
            for player, other in ((ALICE, BOB), (BOB, ALICE)):
                message = hand_message(api, player["id"], table_id)
                if message is None or "t" not in await legal_now(tavolo, table_id):
                    continue
                answer = await tavolo.press_action(message, player, "t")
                assert answer["text"] is None, answer
                drawn = (await replayed(tavolo, table_id)).drawn
                line = said[player["id"]].format(card=card_text(drawn))
                hand = api.message(player["id"], message.message_id)
                assert line in (hand.text or hand.caption or "").splitlines()
                words = said[other["id"]].split("{")[0]
                assert not [
                    m for m in api.bot_messages(other["id"]) if words in (m.text or m.caption or "")
                ]
                told += 1
                for _ in range(20):  # the rest of the turn, as on a phone, up to the discard
                    if {"t", "p"} & set(await legal_now(tavolo, table_id)):
                        break
                    assert await play(tavolo, player, table_id, rng)
                hand = api.message(player["id"], message.message_id)
                assert line not in (hand.text or hand.caption or ""), "told after the turn"
        assert told >= 2
        group = [
            text
            for request in api.requests
            if request.ok and request.params.get("chat_id") == GROUP["id"]
            for text in request_texts(request)
        ]
        assert group and not any("Hai pescato" in t or "You drew" in t for t in group)


async def test_scala40_against_the_computer_to_game_over(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(GROUP, ALICE, "/scala40 2")
        lobby = api.last_bot_message(GROUP["id"])
        table_id = decode_button(action_data(lobby, "@join")).table_id
        await tavolo.press_action(lobby, ALICE, "@fill.easy")
        rng = random.Random(3)
        for _ in range(MAX_TURNS):
            if await table_status(tavolo, table_id) != "playing":
                break
            assert await play(tavolo, ALICE, table_id, rng)
        else:
            raise AssertionError("the match did not end")
        assert await table_status(tavolo, table_id) == "finished"
        assert not [m for m in api.bot_messages(ALICE["id"]) if m.buttons()]
        # at least one hand was closed and summed up in the group, then the game-over message
        texts = [m.text or "" for m in api.bot_messages(GROUP["id"])]
        game_over = tavolo.renderer.translations("it").gettext("{table}: game over!")
        assert any(game_over.split("{table}")[1] in t for t in texts)
        summaries = [r for r in api.calls("sendMessage", chat_id=GROUP["id"]) if r.ok]
        assert len(summaries) >= 2
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0


async def test_an_unknown_option_is_refused_with_every_option_named(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        await tavolo.say(GROUP, ALICE, "/scala40 2 colour=red")
        reply = api.last_bot_message(GROUP["id"])
        assert reply.text is not None and not reply.buttons()
        # a message, not a 200-character alert: the whole list, up to its last option
        assert "colour" in reply.text and reply.text.endswith("max_restocks"), reply.text
