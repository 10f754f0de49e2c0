"""Briscola (4 players, in pairs) and Briscola chiamata (5) through the real discord.py, the fake
Discord, the adapter, the real service on SQLite and the Briscola engine.

A player acts only as a Discord user can: slash commands and the buttons of their ephemeral hand.
Every move button offered is legal at that moment (the chiamata auction offers only legal bids,
then the call); no card of any hand shows in the channel; every interaction is answered in time.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.render import card_text
from bot.service import TableService, default_registry
from engine.cards import Card
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    MAX_PRESSES,
    Backend,
    Watch,
    action_of,
    assert_all_answered,
    assert_no_hand_in_channel,
    backend,
    find_id,
    ids_on,
    make_bot,
    move_ids,
    my_hand,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import FakeDiscord, FakeUser

pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")

__all__ = ["backend"]  # the fixture, imported so pytest finds it here


async def legal_now(service: TableService, table_id: int) -> set[str]:
    export = await service.export_game(table_id)
    kind = default_registry().get(export["game"])
    assert kind is not None
    options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
    game = kind.new_game(kind.rules(export["players"], options), export["seed"])
    for entry in export["moves"]:
        game = game.play(entry["move"])
    return {str(m) for m in game.legal_moves()}


class BriscolaWatch(Watch):
    """The channel shows no card of any hand; the cards the public view itself shows (the
    face-up briscola, the trick, the called card) are public even while a hand holds them."""

    async def check(self, service: TableService, table_id: int) -> None:
        export = await service.export_game(table_id)
        kind = default_registry().get(export["game"])
        assert kind is not None
        options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
        game = kind.new_game(kind.rules(export["players"], options), export["seed"])
        for entry in export["moves"]:
            game = game.play(entry["move"])
        public = {card_text(c) for c in _cards_in(game.view(None))}
        hands = [{card_text(c) for c in game.view(s).hand} for s in range(export["players"])]
        for text in self.new_public_texts():
            for seat, hand in enumerate(hands):
                leaked = [card for card in hand - public if card in text]
                assert not leaked, f"seat {seat}'s {leaked} shown in the channel: {text!r}"
            self.checked += 1


def _cards_in(value: Any) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _cards_in(getattr(value, f.name))


async def play_checked(
    fake: FakeDiscord,
    handler: Any,
    user: FakeUser,
    table_message: Any,
    *,
    table_id: int,
    rng: random.Random,
    watch: Watch,
) -> list[str]:
    """Play ``user``'s turns from their ephemeral hand until the game is over, checking that
    every move button is legal; returns the actions pressed."""
    hand = await my_hand(fake, handler, user, table_message)
    pressed: list[str] = []
    for _ in range(MAX_PRESSES):
        table = fake.messages[table_message.id]
        if any(action_of(cid) == "@rematch" for cid in ids_on(table)):
            return pressed
        hand = fake.messages[hand.id]
        choices = move_ids(hand)
        if not choices:
            hand = await my_hand(fake, handler, user, table)
            continue
        legal = await legal_now(handler.service, table_id)
        offered = {action_of(c) for c in choices}
        assert offered <= legal, (offered - legal, sorted(legal))
        chosen = rng.choice(choices)
        record = await fake.click(user, hand, chosen)
        await record.wait_answer()
        await settle(handler, fake, record)
        assert not record.late
        pressed.append(action_of(chosen))
        await watch.check(handler.service, table_id)
    raise AssertionError("the game did not end within the bound")


async def test_briscola_four_players_in_pairs_with_three_computers(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    watch = BriscolaWatch(fake)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "briscola", players=4, computers=3, level="medium")
        table_id = table_id_of(lobby)
        assert "Briscola" in lobby.content
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        pressed = await play_checked(
            fake,
            handler,
            alice,
            fake.messages[lobby.id],
            table_id=table_id,
            rng=random.Random(4),
            watch=watch,
        )
    export = await handler.service.export_game(table_id)
    assert export["status"] == "finished" and export["players"] == 4
    assert {m["seat"] for m in export["moves"]} == {0, 1, 2, 3}
    assert len([p for p in pressed if p != "swap"]) >= 10
    assert export["result"]["data"]["sides"] == [[0, 2], [1, 3]]
    assert watch.checked > 0
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


async def test_chiamata_auction_call_and_play_with_four_computers(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    watch = BriscolaWatch(fake)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "chiamata", computers=4, deals=1, level="easy")
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        pressed = await play_checked(
            fake,
            handler,
            alice,
            fake.messages[lobby.id],
            table_id=table_id,
            rng=random.Random(2),
            watch=watch,
        )
    export = await handler.service.export_game(table_id)
    assert export["status"] == "finished" and export["players"] == 5
    assert {m["seat"] for m in export["moves"]} == {0, 1, 2, 3, 4}
    assert len(pressed) >= 8  # alice's 8 cards at least, and her bids
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


async def test_every_briscola_option_choice_opens_a_table(
    fake: FakeDiscord, backend: Backend
) -> None:
    """Each choice /briscola and /chiamata offer is one the engine accepts (a target in points
    goes with deal_scoring=points)."""
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    cases: list[tuple[str, dict[str, Any]]] = []
    async with running(bot, fake):
        for command in fake.global_commands:
            if command["name"] not in ("briscola", "chiamata"):
                continue
            for option in command.get("options", []):
                values = [c["value"] for c in option.get("choices", [])]
                if option["type"] == 5:  # boolean
                    values = [True, False]
                for value in values:
                    options = {option["name"]: value}
                    if option["name"] == "target" and value > 100:
                        options["deal_scoring"] = "points"
                    cases.append((command["name"], options))
        assert len(cases) > 15
        for name, options in cases:
            channel = await fake.add_text_channel(f"b-{len(fake.text_channels)}")
            record = await fake.slash(alice, name, channel_id=channel, **options)
            await record.wait_answer()
            await settle(handler, fake, record)
            assert record.original is not None and not record.original.ephemeral, (
                name,
                options,
                [m.content for m in record.messages()],
            )
    assert_all_answered(fake)
