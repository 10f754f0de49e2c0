"""Races: double clicks and simultaneous moves on one table version, from one process and from
two processes on one database (SQLite and PostgreSQL): exactly one is applied."""

from __future__ import annotations

import asyncio
import random

from bot.service import ChatRef, HandView, TableService, UserRef, encode_button
from tests.reliability.workload import open_service, start_table, users

CHAT = ChatRef("telegram", "-77")
ROUNDS = 25
CLICKS = 8  # presses of one button per round, spread over the two services


async def race_round(
    services: list[TableService], table_id: int, rng: random.Random, players: list[UserRef]
) -> tuple[int, int]:
    """One round: the mover's button pressed CLICKS times at once, plus the other player
    pressing the same data (a forged seat). Returns (applied, version)."""
    info = (await services[0].show(CHAT, players[0], table_id)).table
    assert info is not None and info.current_seat is not None
    seat = info.seats[info.current_seat]
    assert seat is not None
    mover = next(p for p in players if p.user_id == seat.user_id)
    other = next(p for p in players if p is not mover)
    hand = await services[0].show(CHAT, mover, table_id)
    view = next(e.view for e in hand.events if isinstance(e, HandView))
    # Two different legal moves (when there are two): a double click and a change of mind.
    moves = rng.sample(list(view.legal_moves), min(2, len(view.legal_moves)))
    presses = [
        services[i % 2].press(
            CHAT, mover, encode_button(table_id, info.version, moves[i % len(moves)])
        )
        for i in range(CLICKS)
    ]
    presses.append(services[1].press(CHAT, other, encode_button(table_id, info.version, moves[0])))
    results = await asyncio.gather(*presses)
    forged = results[-1]
    assert forged.refusal is not None
    # not_playing: the move that won the game came first.
    assert forged.refusal.code in ("not_your_turn", "stale", "conflict", "not_playing"), (
        forged.refusal
    )
    refused = {r.refusal.code for r in results[:-1] if r.refusal is not None}
    assert refused <= {"stale", "conflict", "not_playing"}, refused
    return sum(r.ok for r in results), info.version


async def test_double_clicks_apply_once(db_url: str) -> None:
    services = [await open_service(db_url, seed=1), await open_service(db_url, seed=2)]
    players = users("telegram", 1, 2)
    rng = random.Random(11)
    try:
        table_id = await start_table(services[0], CHAT, players, "scopa", {"target": 11})
        versions = []
        for _ in range(ROUNDS):
            applied, version = await race_round(services, table_id, rng, players)
            assert applied == 1, f"{applied} presses applied at version {version}"
            versions.append(version)
        moves = await services[1].store.moves(table_id)
        assert [m.version for m in moves] == versions  # one move per version, none lost
    finally:
        for service in services:
            await service.store.close()
