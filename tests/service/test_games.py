"""The real games through the service, on the real stores: full games with computer players end
with results and ratings stored; a restart resumes a game mid-smazzata."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.render import Renderer
from bot.service import (
    ChatRef,
    ComputerPlayers,
    GameOver,
    HandView,
    SmazzataSummary,
    TableService,
    TableView,
    UserRef,
    default_registry,
)
from bot.service.seasons import scoped, season_of

CHAT = ChatRef("discord", "chan-1")
ANNA = UserRef("discord", "a", "Anna", "it")
BRUNO = UserRef("discord", "b", "Bruno", "en")


async def real_service(make_service: Callable[..., Any]) -> TableService:
    service: TableService = await make_service(
        registry=default_registry(), computers=ComputerPlayers()
    )
    return service


async def drive(
    service: TableService,
    table_id: int,
    humans: dict[int, UserRef],
    rng: random.Random,
    *,
    max_moves: int,
    renderer: Renderer | None = None,
) -> list[Any]:
    """Humans play random legal moves until the game ends (or ``max_moves``)."""
    events: list[Any] = []
    for _ in range(max_moves):
        shown = await service.show(CHAT, humans[0], table_id)
        info = shown.table
        assert info is not None
        if info.status != "playing":
            return events
        seat = info.current_seat
        assert seat in humans, "computers play their turns inside the call"
        user = humans[seat]
        hand = next(
            e for e in (await service.show(CHAT, user, table_id)).events if isinstance(e, HandView)
        )
        move = rng.choice(hand.view.legal_moves)
        result = await service.play(CHAT, user, table_id, version=info.version, move=move)
        assert result.ok, result.refusal
        events.extend(result.events)
        if renderer is not None:
            for e in result.events:
                message = renderer.render(e)
                assert message.text
                if e.audience.kind == "chat":
                    # No private card ever reaches the chat: no hand in public events.
                    assert not isinstance(e, HandView)
    return events


@pytest.mark.parametrize(
    ("game", "players", "humans", "options", "sides"),
    [
        ("scopa", 2, 1, {}, 2),
        ("scopa", 3, 2, {"target": 6}, 3),
        ("scopa", 4, 2, {"target": 5}, 2),
        ("scopone", 4, 1, {"target": 8}, 2),
        ("scientifico", 4, 1, {"target": 6}, 2),
        ("scala40", 2, 1, {}, 2),
        ("scala40", 3, 2, {"opening_points": 0}, 3),
    ],
)
async def test_full_games_store_results_and_ratings(
    make_service: Callable[..., Any],
    game: str,
    players: int,
    humans: int,
    options: dict[str, Any],
    sides: int,
) -> None:
    service = await real_service(make_service)
    people = [ANNA, BRUNO][:humans]
    created = await service.create_table(CHAT, ANNA, game, players=players, options=options)
    assert created.ok, created.refusal
    assert created.table is not None
    table_id = created.table.id
    for p in people[1:]:
        assert (await service.join(CHAT, p)).ok
    started = await service.start(CHAT, ANNA, fill_with="easy")
    assert started.ok, started.refusal
    seats = {
        s.seat: UserRef(s.platform, s.user_id, s.name)
        for s in started.table.seats  # type: ignore[union-attr]
        if s is not None and not s.computer
    }
    events = started.events + await drive(
        service, table_id, seats, random.Random(7), max_moves=5000, renderer=Renderer()
    )
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1
    assert any(isinstance(e, SmazzataSummary) for e in events)
    result = await service.store.result(table_id)
    assert result is not None
    kind = default_registry().get(game)
    assert kind is not None
    assert result["family"] == kind.family and result["multiplier"] in (1, 2, 3)
    assert len(result["data"]["points"]) == sides
    for p in people:
        ratings = await service.store.player_ratings(platform=p.platform, user_id=p.user_id)
        # All time and this season's (bot.service.seasons), globally and in the chat.
        chat = f"{CHAT.platform}:{CHAT.chat_id}"
        season = season_of(result["finished_at"])
        assert {r.scope for r in ratings} == {
            "global",
            chat,
            scoped("global", season),
            scoped(chat, season),
        }
        assert all(r.games == 1 for r in ratings)
    # The move log replays to the same final state in the engine.
    export = await service.export_game(table_id)
    replay = kind.new_game(kind.rules(players, export["options"]), export["seed"])
    for m in export["moves"]:
        assert replay.current_player == m["seat"]
        replay = replay.play(m["move"])
    assert replay.is_over
    assert [replay.points(i) for i in range(len(replay.sides))] == result["data"]["points"]
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()


async def test_restart_resumes_mid_smazzata(make_service: Callable[..., Any]) -> None:
    first = await real_service(make_service)
    created = await first.create_table(CHAT, ANNA, "scopa", players=2)
    assert created.table is not None
    table_id = created.table.id
    await first.join(CHAT, BRUNO)
    await first.start(CHAT, ANNA)
    humans = {0: ANNA, 1: BRUNO}
    await drive(first, table_id, humans, random.Random(3), max_moves=5)
    before = await first.show(CHAT, ANNA, table_id)
    view_before = next(e for e in before.events if isinstance(e, TableView)).view
    assert view_before.smazzata == 1 and view_before.history  # mid-smazzata
    await first.store.close()
    second = await real_service(make_service)  # a new process on the same database
    after = await second.show(CHAT, ANNA, table_id)
    view_after = next(e for e in after.events if isinstance(e, TableView)).view
    assert view_after == view_before
    assert after.table is not None and before.table is not None
    assert after.table.version == before.table.version
    await drive(second, table_id, humans, random.Random(4), max_moves=5)
    assert len(await second.store.moves(table_id)) == 10
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()


async def test_scala40_turn_notice_once_per_turn(make_service: Callable[..., Any]) -> None:
    """Drawing keeps the turn: no new notice; the discard passes it: the next player is told."""
    from bot.service import TurnNotice

    service = await real_service(make_service)
    created = await service.create_table(CHAT, ANNA, "scala40", players=2)
    assert created.table is not None
    table_id = created.table.id
    await service.join(CHAT, BRUNO)
    started = await service.start(CHAT, ANNA)
    info = started.table
    assert info is not None and info.current_seat is not None
    users = {0: ANNA, 1: BRUNO}
    mover = users[info.current_seat]
    # The first to play is told, unless they dealt themselves (they are looking at the answer).
    notified = [e.audience.id for e in started.events if isinstance(e, TurnNotice)]
    assert notified == ([] if mover == ANNA else [BRUNO.user_id])
    drew = await service.play(CHAT, mover, table_id, version=info.version, move="t")
    assert drew.ok, drew.refusal
    assert not any(isinstance(e, TurnNotice) for e in drew.events)
    hand = next(e for e in drew.events if isinstance(e, HandView))
    discard = next(m for m in hand.view.legal_moves if m.startswith("d "))
    assert drew.table is not None
    passed = await service.play(CHAT, mover, table_id, version=drew.table.version, move=discard)
    assert passed.ok, passed.refusal
    notices = [e for e in passed.events if isinstance(e, TurnNotice)]
    assert [n.audience.id for n in notices] == [users[1 - info.current_seat].user_id]
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()


def test_every_level_is_a_different_player_in_both_families() -> None:
    computers = ComputerPlayers()
    for family in ("scopa", "scala40"):
        names = [computers.player_name(family, level) for level in ("easy", "medium", "hard")]
        assert len(set(names)) == 3, (family, names)
    assert computers.player_name("scala40", "hard") == "scala40"  # the full club player
