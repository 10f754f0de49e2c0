"""Whole games through the real discord.py, the fake Discord, the Discord adapter, the real
service on SQLite, the renderer and the Scopa engine.

A player acts only as a Discord user can: slash commands, and pressing buttons that are really
on a message they can see. Invariants checked along the way: every interaction is acknowledged
before Discord's deadline (the fake refuses late answers), no card in anyone's hand ever shows
in a channel message (hands travel only in ephemeral messages and DMs), every message and
component within Discord's limits (the fake refuses anything else).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord.bot import TavoloBot
from bot.discord.handler import ServiceHandler
from bot.discord.sync import MemorySyncState
from bot.render import Renderer, card_text
from bot.service import ChatRef, ComputerPlayers, TableService, TimerSettings, default_registry
from bot.service.presence import Presence
from bot.store import Store
from engine.cards import parse_cards
from tests.discord.conftest import running
from tests.fakes.discord_api import EPHEMERAL, FakeDiscord, FakeUser, StoredMessage

MAX_PRESSES = 600  # a bound on every game loop (a 2-player Scopa to 11 needs ~100 moves)


class Backend:
    """The service side of one process: a store on a SQLite file, the service, the renderer."""

    def __init__(self, path: Path) -> None:
        self.url = f"sqlite+aiosqlite:///{path}"
        self.stores: list[Store] = []
        self.seeds = itertools.count(11)
        self.now = 1_000_000.0
        self.timers = TimerSettings(reminder=0)

    async def service(self) -> TableService:
        store = Store.open(self.url)
        await store.upgrade()
        self.stores.append(store)
        return TableService(
            store,
            registry=default_registry(),
            computers=ComputerPlayers(),
            timers=self.timers,
            clock=lambda: self.now,
            seeds=lambda: next(self.seeds),
        )

    async def close(self) -> None:
        for store in self.stores:
            await store.close()


@pytest.fixture
async def backend(tmp_path: Path) -> AsyncIterator[Backend]:
    b = Backend(tmp_path / "tavolo.sqlite3")
    yield b
    await b.close()


async def make_bot(backend: Backend) -> tuple[TavoloBot, ServiceHandler]:
    """A fresh process: a new service over the same database, a new handler, a new client; the
    table-message index and DM wishes live in that database (migration 0004)."""
    service = await backend.service()
    handler = TrackedHandler(
        service,
        Renderer(),
        state=service.store,
        clock=lambda: backend.now,
        presence=Presence(clock=lambda: backend.now),
    )
    bot = TavoloBot(handler=handler, sync_state=MemorySyncState(), guild_ready_timeout=0.05)
    handler.bind(bot)
    return bot, handler


def ids_on(message: StoredMessage) -> list[str]:
    return message.custom_ids()


def action_of(custom_id: str) -> str:
    return custom_id.split(":", 2)[2]


def find_id(message: StoredMessage, action: str) -> str:
    found = [cid for cid in ids_on(message) if action_of(cid) == action]
    assert found, f"no {action} button on {message.content!r}: {ids_on(message)}"
    return found[0]


def move_ids(message: StoredMessage) -> list[str]:
    return [cid for cid in ids_on(message) if not action_of(cid).startswith("@")]


async def hands_now(service: TableService, table_id: int) -> tuple[list[set[str]], set[str]]:
    """Every seat's hand right now, by replaying the table's move log with the engine, and the
    cards of the last move played (public, even when a new deal put them in a hand again)."""
    export = await service.export_game(table_id)
    kind = default_registry().get(export["game"])
    assert kind is not None
    options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
    game = kind.new_game(kind.rules(export["players"], options), export["seed"])
    for entry in export["moves"]:
        game = game.play(entry["move"])
    hands = [{card_text(c) for c in game.view(seat).hand} for seat in range(export["players"])]
    last = game.view(None).last_move
    played = set() if last is None else {card_text(c) for c in parse_cards(_cards_of(last[1]))}
    return hands, played


def _cards_of(move: str) -> str:
    """The cards of a Scopa move string (``7D:3C+4S!`` -> ``7D 3C 4S``)."""
    return " ".join(t for t in move.rstrip("!").replace(":", " ").replace("+", " ").split())


class Watch:
    """Checks the channel after every step: no card of any hand in a public message."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.seen: dict[int, int] = {}
        self.checked = 0

    def new_public_texts(self) -> list[str]:
        texts = []
        for message in self.fake.channel_messages():
            start = self.seen.get(message.id, 0)
            texts.extend(message.history[start:])
            self.seen[message.id] = len(message.history)
        return texts

    async def check(self, service: TableService, table_id: int) -> None:
        hands, played = await hands_now(service, table_id)
        for text in self.new_public_texts():
            for seat, hand in enumerate(hands):
                leaked = [card for card in hand - played if card in text]
                assert not leaked, f"seat {seat}'s {leaked} shown in the channel: {text!r}"
            self.checked += 1


async def open_table(fake: FakeDiscord, user: FakeUser, game: str, **options: Any) -> StoredMessage:
    record = await fake.slash(user, game, **options)
    await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
    assert record.original is not None and not record.original.ephemeral
    return record.original


class TrackedHandler(ServiceHandler):
    """The real handler; a test waits for the bot to finish an interaction with ``settle``
    (acknowledging comes first; the service and deliveries follow)."""


async def settle(handler: ServiceHandler, fake: FakeDiscord, record: Any) -> None:
    """Wait until the bot finished handling ``record`` (called after its acknowledgement): the
    handler counts the interactions and deliveries under way (``in_flight``)."""
    assert await handler.in_flight.wait_idle(30), "the bot is still busy after 30 s"


async def my_hand(
    fake: FakeDiscord, handler: ServiceHandler, user: FakeUser, table: StoredMessage
) -> StoredMessage:
    """Press "My hand" on the table message: the hand comes back as an ephemeral message."""
    record = await fake.click(user, table, find_id(table, "@hand"))
    await record.wait_answer()
    await settle(handler, fake, record)
    hands = [m for m in record.followups if m.ephemeral]
    assert hands, f"no ephemeral hand for {user.username}: {[m.content for m in record.messages()]}"
    return hands[-1]


async def play_out(
    fake: FakeDiscord,
    handler: ServiceHandler,
    user: FakeUser,
    table: StoredMessage,
    *,
    rng: random.Random,
    table_id: int,
    watch: Watch,
    between: Callable[[int], Any] | None = None,
) -> int:
    """Play ``user``'s moves from their ephemeral hand until the game is over; returns moves."""
    hand = await my_hand(fake, handler, user, table)
    moves = 0
    for step in range(MAX_PRESSES):
        table = fake.messages[table.id]
        if any(action_of(cid) == "@rematch" for cid in ids_on(table)):
            return moves
        hand = fake.messages[hand.id]
        choices = move_ids(hand)
        if not choices:
            hand = await my_hand(fake, handler, user, table)
            continue
        chosen = rng.choice(choices)
        record = await fake.click(user, hand, chosen)
        await record.wait_answer()
        await settle(handler, fake, record)
        assert not record.late
        if not action_of(chosen).startswith("?"):
            moves += 1
        await watch.check(handler.service, table_id)
        if between is not None:
            await between(step)
    raise AssertionError("the game did not end within the bound")


def table_id_of(message: StoredMessage) -> int:
    return int(ids_on(message)[0].split(":", 1)[0])


def assert_all_answered(fake: FakeDiscord) -> None:
    for record in fake.interactions.values():
        assert record.acknowledged and not record.late, record


def assert_no_hand_in_channel(fake: FakeDiscord, renderer: Renderer) -> None:
    for locale in ("it", "en"):
        prefix = renderer.translations(locale).gettext("Your hand: {cards}").split("{")[0]
        assert all(prefix not in text for text in fake.public_texts())


async def test_two_player_scopa_against_the_computer(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    watch = Watch(fake)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        table = fake.messages[lobby.id]  # the lobby message became the table, in place
        assert any(action_of(c) == "@hand" for c in ids_on(table))
        moves = await play_out(
            fake, handler, alice, table, rng=random.Random(1), table_id=table_id, watch=watch
        )
    assert moves >= 15
    export = await handler.service.export_game(table_id)
    assert export["status"] == "finished" and export["result"] is not None
    assert len([m for m in fake.channel_messages() if m.id == lobby.id]) == 1
    assert watch.checked > moves
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


async def test_four_player_scopone_with_three_computers(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    watch = Watch(fake)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopone", computers=3, level="medium")
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        moves = await play_out(
            fake,
            handler,
            alice,
            fake.messages[lobby.id],
            rng=random.Random(4),
            table_id=table_id,
            watch=watch,
        )
    export = await handler.service.export_game(table_id)
    assert export["status"] == "finished" and export["players"] == 4
    seats = {m["seat"] for m in export["moves"]}
    assert seats == {0, 1, 2, 3} and moves == sum(1 for m in export["moves"] if m["seat"] == 0)
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


async def _started_game(
    fake: FakeDiscord, handler: ServiceHandler, alice: FakeUser
) -> tuple[StoredMessage, int]:
    lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
    start = await fake.click(alice, lobby, find_id(lobby, "@start"))
    await start.wait_answer()
    await settle(handler, fake, start)
    return fake.messages[lobby.id], table_id_of(lobby)


async def test_another_user_cannot_press_a_seated_players_buttons(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table, table_id = await _started_game(fake, handler, alice)
        hand = await my_hand(fake, handler, alice, table)
        before = len((await handler.service.export_game(table_id))["moves"])
        # bob cannot see alice's ephemeral hand, but a forged or raced press must still fail.
        record = await fake.click(bob, hand, move_ids(hand)[0])
        (reply,) = await record.wait_messages(1)
        assert reply.flags & EPHEMERAL
        assert reply.content == handler.renderer.refusal(_refusal("not_seated", "it"))
        assert len((await handler.service.export_game(table_id))["moves"]) == before
        # bob may look at the table: "My hand" shows him the public view only, privately.
        spectate = await fake.click(bob, fake.messages[table.id], find_id(table, "@hand"))
        await spectate.wait_answer()
        await settle(handler, fake, spectate)
        assert spectate.followups and all(m.ephemeral for m in spectate.followups)
    assert_all_answered(fake)


def _refusal(code: str, locale: str) -> Any:
    from bot.service import Refusal

    return Refusal(code, locale)


async def test_a_stale_button_is_refused_politely(fake: FakeDiscord, backend: Backend) -> None:
    """A second "My hand" removes the first hand message; one that could not be removed any
    more (its token ran out) refuses a press politely and heals: it shows the current hand."""
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table, table_id = await _started_game(fake, handler, alice)
        first = await my_hand(fake, handler, alice, table)
        second = await my_hand(fake, handler, alice, fake.messages[table.id])
        assert first.id not in fake.messages and second.id in fake.messages  # one hand message
        fake.advance(16 * 60)  # the second hand's token runs out
        backend.now += 16 * 60
        old = fake.messages[second.id]
        current = await my_hand(fake, handler, alice, fake.messages[table.id])
        assert old.id in fake.messages  # no token left to remove it with
        move = move_ids(current)[0]
        record = await fake.click(alice, current, move)
        await record.wait_answer()
        await settle(handler, fake, record)
        moves = len((await handler.service.export_game(table_id))["moves"])
        stale = await fake.click(alice, old, move_ids(old)[0])
        (reply,) = await stale.wait_messages(1)
        await settle(handler, fake, stale)
        assert reply.ephemeral
        assert reply.content == handler.renderer.refusal(_refusal("stale", "it"))
        assert len((await handler.service.export_game(table_id))["moves"]) == moves
        # The old message now shows the current hand, and is the hand from now on.
        healed = fake.messages[old.id]
        assert current.id not in fake.messages  # the other copy is removed
        assert healed.edited and (move_ids(healed) or "Tocca" not in healed.content)
        place = await handler.hands.get(alice.id, table_id)
        assert place is not None and place.message_id == old.id
    assert_all_answered(fake)


async def test_restart_mid_game_with_old_buttons(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table, table_id = await _started_game(fake, handler, alice)
        hand = await my_hand(fake, handler, alice, table)
        first = move_ids(hand)[0]
        record = await fake.click(alice, hand, first)
        await record.wait_answer()
        await settle(handler, fake, record)
    moves = len((await handler.service.export_game(table_id))["moves"])

    bot, handler = await make_bot(backend)  # a new process: new service, store, client
    async with running(bot, fake):
        hand = fake.messages[hand.id]
        choices = move_ids(hand)
        assert choices, hand.content
        record = await fake.click(alice, hand, choices[0])  # a button sent before the restart
        await record.wait_answer()
        await settle(handler, fake, record)
        assert not [m for m in record.followups if m.ephemeral and m.content.startswith("!")]
        assert len((await handler.service.export_game(table_id))["moves"]) > moves
        # The table message is still edited in place, and its "My hand" still works.
        assert [m.id for m in fake.channel_messages() if m.custom_ids()] == [table.id]
        await my_hand(fake, handler, alice, fake.messages[table.id])
    assert_all_answered(fake)


async def test_hand_by_dm_and_closed_dms_fall_back_to_ephemeral(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.closed_dms.add(bob.id)
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        # bob opens a table with DMs closed and asks for his hand by DM.
        lobby = await open_table(fake, bob, "scopa", computers=1)
        start = await fake.click(bob, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        asked = await fake.slash(bob, "hand", dm=True)
        await asked.wait_answer()
        await settle(handler, fake, asked)
        private = [m for m in asked.messages() if m.ephemeral and m.content]
        assert private and private[-1].content.endswith(
            "attiva i messaggi diretti da questo server."
        )
        assert fake.dm_messages(bob) == [] and not await handler.wants_dm(bob.id)

        # alice, in another channel's table, gets her hand by DM and plays from the DM.
        other = await fake.add_text_channel("tavolo-2")
        record = await fake.slash(alice, "scopa", channel_id=other, computers=1)
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        assert record.original is not None
        table2 = record.original
        start = await fake.click(alice, table2, find_id(table2, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        asked = await fake.slash(alice, "hand", channel_id=other, dm=True)
        await asked.wait_answer()
        await settle(handler, fake, asked)
        dms = fake.dm_messages(alice)
        assert dms and move_ids(dms[-1]), [m.content for m in dms]
        table_id = table_id_of(table2)
        before = len((await handler.service.export_game(table_id))["moves"])
        played = await fake.click(alice, dms[-1], move_ids(dms[-1])[0])
        await played.wait_answer()
        await settle(handler, fake, played)
        assert len((await handler.service.export_game(table_id))["moves"]) > before
        # The next hand came by DM too, in the same message, edited in place.
        assert [m.id for m in fake.dm_messages(alice)] == [dms[-1].id]
        assert len(fake.messages[dms[-1].id].history) > 1 and move_ids(fake.messages[dms[-1].id])
        assert fake.messages[table2.id].edited
    assert_all_answered(fake)


async def test_rate_limited_table_edits_do_not_stop_the_game(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    watch = Watch(fake)

    async def throttle(step: int) -> None:
        if step % 5 == 0:
            fake.rate_limit("PATCH", r"/channels/\d+/messages/\d+", times=1, retry_after=0.01)

    async with running(bot, fake):
        table, table_id = await _started_game(fake, handler, alice)
        await play_out(
            fake,
            handler,
            alice,
            table,
            rng=random.Random(9),
            table_id=table_id,
            watch=watch,
            between=throttle,
        )
    assert fake.rate_limited, "the 429s were never hit"
    assert (await handler.service.export_game(table_id))["status"] == "finished"
    assert_all_answered(fake)


async def test_commands_answer_and_refuse_privately(fake: FakeDiscord, backend: Backend) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", players=3)
        # A second table in the same channel is refused, privately, and the lobby stays.
        second = await fake.slash(bob, "scopa")
        await second.wait_answer()
        await settle(handler, fake, second)
        assert all(m.ephemeral for m in second.messages() if m.content)
        assert [m.id for m in fake.channel_messages() if m.custom_ids()] == [lobby.id]
        versions = len(lobby.history)
        computer = await fake.click(alice, lobby, find_id(lobby, "@ai.easy"))
        await computer.wait_answer()
        await settle(handler, fake, computer)
        assert len(lobby.history) == versions + 1  # the lobby, edited in place
        assert "Computer" in lobby.content
        join = await fake.click(bob, lobby, find_id(lobby, "@join"))
        await join.wait_answer()
        await settle(handler, fake, join)
        assert "bob" in fake.messages[lobby.id].content
        assert not any(action_of(c).startswith("@ai") for c in lobby.custom_ids())  # full
        helped = await fake.slash(alice, "help")
        (help_text,) = await helped.wait_messages(1)
        assert help_text.ephemeral and "/scopa" in help_text.content
        lang = await fake.slash(alice, "lang", language="en")
        (done,) = await lang.wait_messages(1)
        assert done.ephemeral
        for name, options in (
            ("leaderboard", {"game": "scopa"}),
            ("leaderboard", {"game": "scopa", "scope": "chat"}),
            ("stats", {}),
            ("rules", {}),
        ):
            record = await fake.slash(alice, name, **options)
            await record.wait_answer()
            await settle(handler, fake, record)
            assert record.messages() and record.messages()[0].content, (name, options)
        # Only the creator (or an admin) may close the table; then its buttons say so.
        refused = await fake.slash(bob, "abandon")
        (no,) = await refused.wait_messages(1)
        assert no.ephemeral
        closed = await fake.slash(alice, "abandon")
        (announcement,) = await closed.wait_messages(1)
        assert not announcement.ephemeral
        await settle(handler, fake, closed)
        # The lobby message says the table is closed and keeps no buttons to press.
        assert fake.messages[lobby.id].components == []
        assert "chiuso" in fake.messages[lobby.id].content
    assert_all_answered(fake)


async def test_turn_timers_reach_discord_without_an_interaction(
    fake: FakeDiscord, backend: Backend
) -> None:
    backend.timers = TimerSettings(reminder=60, autoplay=120, takeover_after=5)
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table, table_id = await _started_game(fake, handler, alice)
        asked = await fake.slash(alice, "hand", dm=True)  # turn notices by DM
        await asked.wait_answer()
        await settle(handler, fake, asked)
        dms = len(fake.dm_messages(alice))
        first_hands = {m.id for m in fake.dm_messages(alice)}
        edits = len(fake.messages[table.id].history)
        posts = len(fake.channel_messages())

        backend.now += 61  # the reminder
        for result in await handler.service.fire_due_timers():
            await handler.deliver(result)
        assert len(fake.dm_messages(alice)) == dms + 1

        backend.now += 60  # time is up: the computer plays alice's turn
        results = await handler.service.fire_due_timers()
        assert results
        for result in results:
            await handler.deliver(result)
        assert len(fake.messages[table.id].history) > edits  # the table, edited in place
        assert len(fake.channel_messages()) > posts  # the "time is up" announcement
        # Her turn again: her hand came to the bottom of the DMs (a new message, the old gone).
        hands = [m for m in fake.dm_messages(alice) if move_ids(m)]
        assert len(hands) == 1 and hands[0].id not in first_hands
        export = await handler.service.export_game(table_id)
        assert any(m["actor"] == "timeout" for m in export["moves"])
    assert_all_answered(fake)


def _scala40_choice(visible: list[str], cards: list[str]) -> tuple[str | None, list[str]]:
    """alice's simple Scala 40 policy: draw, else open or meld, else discard her last card;
    with the cards to pick (read from the move string as a player reads it). ``None``: the
    move is not on a button yet, pick the cards to find it."""
    if "t" in visible:
        return "t", []
    for move in visible:
        if move.startswith(("o ", "m ")):
            found = re.findall(r"10[DCSB]|[A2-9TJQK][DCSB]|\*", move[2:])
            return move, list(dict.fromkeys(found))
    return None, [cards[-1]]


async def test_a_scala40_hand_with_the_card_picker(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scala40", computers=1, level="easy")
        table_id = table_id_of(lobby)
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        hand = await my_hand(fake, handler, alice, fake.messages[lobby.id])
        played: list[str] = []
        picks = 0
        drew = 0
        kinds: set[str] = set()
        for _ in range(MAX_PRESSES):
            if await _scala40_hand_number(handler.service, table_id) > 1:
                break
            hand = fake.messages[hand.id]
            moves = _all_moves_on(fake, hand)
            if not any(c.startswith("s") for c in hand.custom_ids()):  # not her turn on this one
                hand = await my_hand(fake, handler, alice, fake.messages[lobby.id])
                continue
            select_id = next(c for c in hand.custom_ids() if c.startswith("s"))
            kinds |= {action_of(c) for c in hand.custom_ids() if action_of(c).startswith("?")}
            offered = _picker_cards(hand)
            move, cards = _scala40_choice(moves, offered)
            pick = await fake.select(alice, hand, select_id, cards) if cards else None
            if pick is not None:
                picks += 1
                await pick.wait_answer()
                await settle(handler, fake, pick)
                hand = fake.messages[hand.id]
                narrowed = _all_moves_on(fake, hand)
                assert all(all(c in m for c in cards) for m in narrowed), (cards, narrowed)
                if move is None:  # a discard of the picked card (an attach if it must)
                    discards = [m for m in narrowed if m.startswith("d ")]
                    move = (discards or narrowed)[0]
                assert move in narrowed, (move, cards, narrowed)
            assert move is not None
            press = await fake.click(alice, hand, find_id(hand, move))
            await press.wait_answer()
            await settle(handler, fake, press)
            played.append(move)
            if move == "t":
                # The hand is sorted: it names the card just drawn (hers alone to see).
                told = fake.messages[hand.id].content or ""
                drew += bool(re.search(r"^(Hai pescato|You drew) \S+\.$", told, re.MULTILINE))
        else:
            raise AssertionError("the first Scala 40 hand did not end within the bound")
    export = await handler.service.export_game(table_id)
    mine = [m["move"] for m in export["moves"] if m["seat"] == 0]
    assert mine == played[: len(mine)] and len(mine) >= len(played) - 1
    assert any(m.startswith("d ") for m in mine) and "t" in mine
    assert picks >= 1 and "?d" in kinds  # the picker, and the renderer's "Discard…" button
    assert drew >= 1, "no hand named the card drawn from the stock"
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


def _all_moves_on(fake: FakeDiscord, hand: StoredMessage) -> list[str]:
    """The moves a hand message offers (its picker narrows them; paging is not needed here
    because alice always picks first)."""
    return [
        action_of(c)
        for c in hand.custom_ids()
        if not c.startswith("s") and not action_of(c).startswith(("@", "~", "?"))
    ]


def _picker_cards(hand: StoredMessage) -> list[str]:
    for row in hand.components:
        for component in row["components"]:
            if component["type"] == 3:
                return [o["value"] for o in component["options"]]
    raise AssertionError(f"no card picker on {hand.content!r}")


async def _scala40_hand_number(service: TableService, table_id: int) -> int:
    export = await service.export_game(table_id)
    kind = default_registry().get("scala40")
    assert kind is not None
    game = kind.new_game(kind.rules(export["players"], export["options"]), export["seed"])
    for entry in export["moves"]:
        game = game.play(entry["move"])
    # A match can end with its first hand (a player closing in hand can eliminate the others).
    return int(game.view(None).hand_number) + (1 if game.is_over else 0)


async def test_slash_options_reach_the_service(fake: FakeDiscord, backend: Backend) -> None:
    """A command's options become the table's game and rule options (``/scopone``'s variant
    picks the game; seating options are not rules)."""
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    opened: list[tuple[str, dict[str, Any]]] = []
    async with running(bot, fake):
        for name, options in (
            ("scopa", {"players": 4, "level": "hard", "napola": True}),
            ("scopone", {"variant": "scientifico", "target": 8}),
            ("scala40", {"elimination": 201}),
        ):
            channel = await fake.add_text_channel(f"t-{name}")
            record = await fake.slash(alice, name, channel_id=channel, **options)
            await record.wait_answer()
            await settle(handler, fake, record)
            (table,) = await handler.service.open_tables(ChatRef("discord", str(channel)))
            opened.append(
                (table.game, {k: table.options[k] for k in options if k in table.options})
            )
            if name == "scopa":
                assert table.players == 4
    assert opened == [
        ("scopa", {"napola": True}),
        ("scientifico", {"target": 8}),
        ("scala40", {"elimination": 201}),
    ]


async def test_every_option_choice_opens_a_table(fake: FakeDiscord, backend: Backend) -> None:
    """Each choice the slash commands offer is one the engines accept (no refusal)."""
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend)
    cases: list[tuple[str, dict[str, Any]]] = []
    async with running(bot, fake):
        for command in fake.global_commands:
            if command["name"] not in ("scopa", "scopone", "scala40"):
                continue
            for option in command.get("options", []):
                values = [c["value"] for c in option.get("choices", [])]
                if option["type"] == 5:  # boolean
                    values = [True]
                cases += [(command["name"], {option["name"]: v}) for v in values]
        assert len(cases) > 30
        for name, options in cases:
            channel = await fake.add_text_channel(f"t-{len(fake.text_channels)}")
            record = await fake.slash(alice, name, channel_id=channel, **options)
            await record.wait_answer()
            await settle(handler, fake, record)
            assert record.original is not None and not record.original.ephemeral, (
                name,
                options,
                [m.content for m in record.messages()],
            )
    assert_all_answered(fake)
