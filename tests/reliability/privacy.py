"""Privacy over many games on both fakes: no card of a private hand in a public message before it
is played, and no one but the seated player receives that hand.

Telegram (in-process bot + fake Bot API): two humans in a group, plus a stranger who presses
"My hand" on the table every few moves. Every text the bot sent is checked against the hands
replayed with the engine at the version the message was drawn for. Discord (discord.py + fake
Discord): a player against the computer; every channel text checked after every move, and a
stranger's "My hand" never shows the player's cards."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bot.render import card_text
from bot.service import ChatRef, UserRef, decode_button, default_registry
from tests.fakes.telegram_api import JSON, FakeBotApi, group_chat, user
from tests.reliability.players import Ledger, play_table
from tests.telegram.harness import (
    Tavolo,
    _hands,
    action_data,
    assert_no_hidden_card_in_group,
    hidden_cards_by_version,
    table_messages,
    table_status,
)


@dataclass
class PrivacyFigures:
    games: int = 0
    moves: int = 0
    group_texts_checked: int = 0
    private_texts_checked: int = 0
    stranger_looks: int = 0


async def seat_hands(tavolo: Tavolo, table_id: int) -> tuple[dict[int, list[set[str]]], int]:
    """Per version, each seat's hidden cards (the engine's replay); and the last version."""
    assert tavolo.service is not None
    export = await tavolo.service.export_game(table_id)
    kind = default_registry().get(export["game"])
    assert kind is not None
    options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
    game = kind.new_game(kind.rules(export["players"], options), export["seed"])
    by_version: dict[int, list[set[str]]] = {}

    def hands(g: Any) -> list[set[str]]:
        hidden = _hands(g)  # hand cards less those the public view shows
        return [{card_text(c) for c in g.view(s).hand} & hidden for s in range(g.players)]

    moves = export["moves"]
    version = moves[0]["version"] if moves else 0
    for v in range(version + 1):
        by_version[v] = hands(game)
    for index, move in enumerate(moves):
        by_version[move["version"]] = hands(game)
        game = game.play(move["move"])
        following = moves[index + 1]["version"] if index + 1 < len(moves) else move["version"] + 3
        for v in range(move["version"] + 1, following + 1):
            by_version[v] = hands(game)
    return by_version, max(by_version)


def check_private_messages(
    api: FakeBotApi, table_id: int, seats: dict[int, int], hands: dict[int, list[set[str]]]
) -> int:
    """Private texts (and button labels) of ``table_id``: a user sees no card of another
    seat's hand; a user with no seat (``seats`` maps user id -> seat) sees no hand card."""
    checked = 0
    for request in api.requests:
        chat_id = request.params.get("chat_id")
        if not request.ok or not isinstance(chat_id, int) or chat_id <= 0:
            continue
        markup = request.params.get("reply_markup") or {}
        buttons = [b for row in markup.get("inline_keyboard", []) for b in row]
        versions = set()
        for b in buttons:
            try:
                data = decode_button(str(b.get("callback_data", "")))
            except ValueError:
                continue
            if data.table_id == table_id:
                versions.add(data.version)
        if not versions:
            continue
        version = max(versions)
        if version not in hands:
            continue
        text = (request.params.get("text") or "") + " ".join(str(b.get("text")) for b in buttons)
        own = seats.get(chat_id)
        mine = hands[version][own] if own is not None else set()
        others = set().union(*(h for s, h in enumerate(hands[version]) if s != own)) - mine
        leaked = {c for c in others if c in text}
        assert not leaked, f"user {chat_id} (seat {own}) was shown {leaked}: {text!r}"
        checked += 1
    return checked


async def telegram_games(db_path: Path, games: int, *, seed: int) -> PrivacyFigures:
    figures = PrivacyFigures()
    rng = random.Random(seed)
    async with FakeBotApi() as api, Tavolo(api, db_path, seed=seed) as tavolo:
        for index in range(games):
            group = group_chat(-300000 - index, f"P{index}")
            alice, bob = user(40000 + 3 * index, "Alice"), user(40001 + 3 * index, "Bob")
            eve = user(40002 + 3 * index, "Eve")
            game = "scopone" if index % 3 == 2 else "scopa"
            await tavolo.say(group, alice, f"/{game} target=1")
            # On a loaded machine the bot may still be at work when the chat goes quiet.
            written = await api.wait_for(
                partial(api.bot_messages, group["id"]), timeout=30, what="the lobby"
            )
            lobby = written[-1]
            joined = decode_button(action_data(lobby, "@join"))
            table_id = joined.table_id
            assert (await tavolo.press_action(lobby, bob, "@join"))["text"] is None
            start = "@fill.easy" if game == "scopone" else "@start"

            def lobby_after_join(
                g: JSON = group, m: int = lobby.message_id, v: int = joined.version
            ) -> Any:
                shown = api.message(g["id"], m)
                return shown if _version(shown) > v else None

            lobby = await api.wait_for(lobby_after_join, timeout=30, what="the joined lobby")
            assert (await tavolo.press_action(lobby, alice, start))["text"] is None

            async def stranger_looks(
                step: int, g: JSON = group, t: int = table_id, e: JSON = eve
            ) -> None:
                if step % 7 == 3:
                    shown = table_messages(api, g["id"], t)
                    if shown and any(d.endswith(":@hand") for d in _data(shown[-1])):
                        await tavolo.press_action(shown[-1], e, "@hand")
                        figures.stranger_looks += 1

            ledger = Ledger(answer_timeout=10)
            await play_table(
                api, [alice, bob], table_id, status=lambda t: table_status(tavolo, t),
                ledger=ledger, seed=rng.randrange(10**6), between=stranger_looks,
            )  # fmt: skip
            hidden = await hidden_cards_by_version(tavolo, table_id)
            figures.group_texts_checked += assert_no_hidden_card_in_group(
                api, group["id"], table_id, hidden
            )
            hands, _ = await seat_hands(tavolo, table_id)
            assert tavolo.service is not None
            export = await tavolo.service.export_game(table_id)
            info = (
                await tavolo.service.show(
                    ChatRef("telegram", str(group["id"])),
                    UserRef("telegram", str(alice["id"])),
                    table_id,
                )
            ).table
            assert info is not None
            seats = {int(s.user_id): s.seat for s in info.seats if s is not None and not s.computer}
            figures.private_texts_checked += check_private_messages(api, table_id, seats, hands)
            figures.games += 1
            figures.moves += len(export["moves"])
            api.requests.clear()  # each game checked on its own; keeps memory flat
    return figures


def _data(message: Any) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


def _version(message: Any) -> int:
    """The newest table version the message's buttons carry (-1: none)."""
    versions = [-1]
    for data in _data(message):
        try:
            versions.append(decode_button(data).version)
        except ValueError:
            continue
    return max(versions)


async def discord_games(db_path: Path, games: int, *, seed: int) -> PrivacyFigures:
    """``games`` Scopa games of a player against the computer through discord.py and the fake
    Discord; a stranger presses "My hand" on the table after every few moves."""
    import pytest

    from tests.discord import test_games_e2e as e2e
    from tests.discord.conftest import running
    from tests.fakes.discord_api import FakeDiscord

    figures = PrivacyFigures()
    fake = FakeDiscord()
    await fake.start()
    patch = pytest.MonkeyPatch()
    fake.patch_client_urls(patch)
    backend = e2e.Backend(db_path)
    try:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        bot, handler = await e2e.make_bot(backend)
        async with running(bot, fake):
            for index in range(games):
                watch = e2e.Watch(fake)
                watch.new_public_texts()  # the earlier games' texts were checked against theirs
                table, table_id = await e2e._started_game(fake, handler, alice)

                async def stranger(step: int, t: Any = table, tid: int = table_id) -> None:
                    current = fake.messages[t.id]
                    looks = [c for c in e2e.ids_on(current) if e2e.action_of(c) == "@hand"]
                    if step % 5 != 2 or not looks:
                        return  # the game may have just ended: no "My hand" any more
                    record = await fake.click(bob, current, looks[0])
                    await record.wait_answer()
                    await e2e.settle(handler, fake, record)
                    hands, played = await e2e.hands_now(handler.service, tid)
                    for message in record.followups:
                        leaked = [c for c in hands[0] - played if c in message.content]
                        assert not leaked, f"a stranger saw {leaked}: {message.content!r}"
                    figures.stranger_looks += 1

                moves = await e2e.play_out(
                    fake, handler, alice, table, rng=random.Random(seed + index),
                    table_id=table_id, watch=watch, between=stranger,
                )  # fmt: skip
                export = await handler.service.export_game(table_id)
                assert export["status"] == "finished"
                figures.games += 1
                figures.moves += moves
                figures.group_texts_checked += watch.checked
        e2e.assert_all_answered(fake)
        e2e.assert_no_hand_in_channel(fake, handler.renderer)
        assert fake.violations == [], fake.violations
    finally:
        await backend.close()
        await fake.stop()
        patch.undo()
    return figures
