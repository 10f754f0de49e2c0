"""Briscola and Briscola chiamata through the service on the real stores: whole games end with
results and ratings (pairs at 4 players; in chiamata every player for themselves over the match,
the socio's share of a deal in their score), announcements for the call and the deals, the
rule options through the engine, export and import."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.render import Renderer
from bot.service import (
    Announcement,
    ChatRef,
    ComputerPlayers,
    GameOver,
    HandView,
    SmazzataSummary,
    TableService,
    TableView,
    UserRef,
    archive,
    default_registry,
)

pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")

CHAT = ChatRef("telegram", "-500")
USERS = [UserRef("telegram", str(100 + i), name, "it") for i, name in enumerate("ABCDE")]
MAX_MOVES = 2000


async def real_service(make_service: Callable[..., Any]) -> TableService:
    service: TableService = await make_service(
        registry=default_registry(), computers=ComputerPlayers()
    )
    return service


async def seat_everyone(service: TableService, game: str, count: int, **kw: Any) -> int:
    created = await service.create_table(CHAT, USERS[0], game, players=count, **kw)
    assert created.ok, created.refusal
    assert created.table is not None
    table_id = created.table.id
    for seat in range(1, count):
        joined = await service.choose_seat(CHAT, USERS[seat], seat, table_id=table_id)
        assert joined.ok, joined.refusal
    return table_id


async def drive(service: TableService, table_id: int, rng: random.Random) -> list[Any]:
    """Every seat is a human playing random legal moves; all the events, rendered."""
    renderer = Renderer()
    events: list[Any] = []
    for _ in range(MAX_MOVES):
        shown = await service.show(CHAT, USERS[0], table_id)
        info = shown.table
        assert info is not None
        if info.status != "playing":
            return events
        seat = info.current_seat
        assert seat is not None
        user = USERS[seat]
        hand = next(
            e for e in (await service.show(CHAT, user, table_id)).events if isinstance(e, HandView)
        )
        rendered = renderer.render(hand)
        actions = [b.data.split(":", 2)[2] for row in rendered.buttons for b in row]
        offered = [a for a in actions if not a.startswith("@")]  # "@quit": leave the game
        assert set(offered) <= set(hand.view.legal_moves)
        move = rng.choice(offered)
        result = await service.play(CHAT, user, table_id, version=info.version, move=move)
        assert result.ok, result.refusal
        for event in result.events:
            renderer.render(event)  # every event renders
        events.extend(result.events)
    raise AssertionError("the game did not end")


async def test_briscola_four_players_rates_the_pairs(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    table_id = await seat_everyone(service, "briscola", 4)
    started = await service.start(CHAT, USERS[0], table_id)
    assert started.ok and started.table is not None and started.table.teams
    events = await drive(service, table_id, random.Random(1))
    summaries = [e for e in events if isinstance(e, SmazzataSummary)]
    assert summaries and all(len(s.scores) == 2 for s in summaries)
    assert all(sum(s["card_points"] for s in x.scores) == 120 for x in summaries)
    (over,) = [e for e in events if isinstance(e, GameOver)]
    assert over.winner in (0, 1)
    board = await service.leaderboard("briscola", user=USERS[0], chat=CHAT)
    rows = board.events[0].rows  # type: ignore[attr-defined]
    assert len(rows) == 4
    winners = {USERS[s].user_id for s in ((0, 2), (1, 3))[over.winner]}
    for row in rows:
        assert row.games == 1
        assert row.wins == (1 if row.user_id in winners else 0)
    # partners moved together: the two winners share a rating, above the two losers'
    ratings = {r.user_id: r.rating for r in rows}
    won = sorted(ratings[u] for u in winners)
    lost = sorted(v for u, v in ratings.items() if u not in winners)
    assert won[0] == pytest.approx(won[1]) and min(won) > max(lost)


async def test_chiamata_the_socio_shares_the_callers_result(
    make_service: Callable[..., Any],
) -> None:
    service = await real_service(make_service)
    table_id = await seat_everyone(service, "chiamata", 5, options={"deals": 1})
    assert (await service.start(CHAT, USERS[0], table_id)).ok
    events = await drive(service, table_id, random.Random(3))
    summaries = [e for e in events if isinstance(e, SmazzataSummary)]
    assert len(summaries) == 1
    summary = summaries[0]
    caller, socio = summary.data["caller"], summary.data["socio"]
    assert isinstance(caller, int) and isinstance(socio, int)
    assert sum(s["card_points"] for s in summary.scores) == 120
    called = [e for e in events if isinstance(e, Announcement) and e.kind == "called"]
    assert len(called) == 1 and called[0].data["seat"] == caller
    board = await service.leaderboard("chiamata", user=USERS[0], chat=CHAT)
    ratings = {r.user_id: r.rating for r in board.events[0].rows}  # type: ignore[attr-defined]
    assert len(ratings) == 5
    others = [s for s in range(5) if s not in (caller, socio)]
    caller_r = ratings[USERS[caller].user_id]
    other_r = [ratings[USERS[s].user_id] for s in others]
    won = bool(summary.data["won"])
    if socio != caller:
        socio_r = ratings[USERS[socio].user_id]
        # the socio shares the caller's result
        assert socio_r == pytest.approx(caller_r)
        if won:
            assert caller_r > max(other_r)
        else:
            assert caller_r < min(other_r)
    elif won:
        assert caller_r > max(other_r)
    else:
        assert caller_r < min(other_r)


async def test_briscola_options_go_through_the_engine(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    made = await service.create_table(
        CHAT, USERS[0], "briscola", players=3, options={"swap": False, "target": 2}
    )
    assert made.ok and made.table is not None
    assert made.table.options["swap"] == "off" and made.table.options["target"] == 2
    await service.abandon(CHAT, USERS[0], made.table.id)
    bad = await service.create_table(CHAT, USERS[0], "briscola", options={"swap": "three"})
    assert bad.refusal is not None and bad.refusal.code == "bad_option"
    assert "two" in bad.refusal.detail
    five = await service.create_table(CHAT, USERS[0], "briscola", players=5)
    assert five.refusal is not None and five.refusal.code == "bad_players"
    # an option of the other variant is refused by name, and never kept with a table
    unplayed = await service.create_table(CHAT, USERS[0], "chiamata", options={"target": 3})
    assert unplayed.refusal is not None and unplayed.refusal.code == "bad_option"
    assert "target" in unplayed.refusal.detail
    chiamata = await service.create_table(CHAT, USERS[0], "chiamata")
    assert chiamata.ok and chiamata.table is not None
    assert set(chiamata.table.options) == {"point_bids", "deals", "cappotto"}
    await service.abandon(CHAT, USERS[0], chiamata.table.id)


async def test_a_briscola_game_with_computers_exports_replays_and_imports(
    make_service: Callable[..., Any],
) -> None:
    service = await real_service(make_service)
    created = await service.create_table(CHAT, USERS[0], "briscola", players=2)
    assert created.table is not None
    table_id = created.table.id
    assert (await service.start(CHAT, USERS[0], table_id, fill_with="easy")).ok
    await drive_single(service, table_id, random.Random(5))
    document = await service.export_game(table_id)
    assert document["status"] == "finished" and document["game"] == "briscola"
    replayed = archive.replay(document, service.registry)
    assert replayed.summary["matches_record"] is True
    other = await make_service(registry=default_registry(), computers=ComputerPlayers())
    moved = dict(document)
    imported = await other.import_game(moved)
    assert imported.created is False  # the same database: recognised by its origin


async def drive_single(service: TableService, table_id: int, rng: random.Random) -> None:
    for _ in range(MAX_MOVES):
        shown = await service.show(CHAT, USERS[0], table_id)
        info = shown.table
        assert info is not None
        if info.status != "playing":
            return
        hand = next(e for e in shown.events if isinstance(e, HandView))
        result = await service.play(
            CHAT, USERS[0], table_id, version=info.version, move=rng.choice(hand.view.legal_moves)
        )
        assert result.ok, result.refusal
        assert any(isinstance(e, TableView) for e in result.events)
    raise AssertionError("the game did not end")


async def test_chiamata_five_passes_deal_again(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    table_id = await seat_everyone(service, "chiamata", 5)
    started = await service.start(CHAT, USERS[0], table_id)
    assert started.ok and started.table is not None
    info = started.table
    events: list[Any] = []
    for _ in range(5):
        seat = info.current_seat
        assert seat is not None
        result = await service.play(CHAT, USERS[seat], table_id, version=info.version, move="pass")
        assert result.ok, result.refusal
        assert result.table is not None
        info = result.table
        events.extend(result.events)
    redeals = [e for e in events if isinstance(e, Announcement) and e.kind == "redeal"]
    assert len(redeals) == 1
    text = Renderer().render(redeals[0]).text
    assert "di nuovo" in text  # the chat's language: Italian by default
    public = next(e for e in reversed(events) if isinstance(e, TableView)).view
    assert public.phase == "auction" and not public.auction


@pytest.mark.parametrize("family", ["briscola", "chiamata"])
def test_every_level_plays_the_briscola_players(family: str) -> None:
    players = ComputerPlayers()
    assert [players.player_name(family, level) for level in ("easy", "medium", "hard")] == [
        "briscola-easy",
        "briscola-medium",
        "briscola-hard",
    ]


async def test_hard_thinks_in_a_worker_process_as_in_a_thread() -> None:
    from engine import briscola

    game = briscola.new_game(briscola.Rules(players=4), seed=3)
    for _ in range(5):
        game = game.play(game.legal_moves()[0])
    view = game.view(game.current_player)
    expected = ComputerPlayers().choose("briscola", "hard", view, random.Random(7))
    players = ComputerPlayers(processes=1)
    try:
        moved = await players.choose_off_loop("briscola", "hard", view, random.Random(7))
    finally:
        await players.aclose()
    assert moved == expected and moved in view.legal_moves
