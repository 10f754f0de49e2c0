"""The store on real databases: a player who left is rated and counted as a loss though their
side won, their partner gets the win; season scopes are boards of their own; lobbies' expiry
timers are claimed once like the turn timers."""

from __future__ import annotations

import asyncio

from bot.service.ratings import Ratings
from bot.store import Finish, Participant, Store, TableUpdate
from tests.store.test_store import table_values


def finish(teams: list[list[Participant]], ranks: list[int], scopes: tuple[str, ...]) -> Finish:
    ratings = Ratings()
    return Finish(
        result={
            "platform": "telegram",
            "chat_id": "c",
            "game": "scopone",
            "family": "scopa",
            "winner_side": ranks.index(0),
            "multiplier": 1,
            "finished_at": 5.0,
            "data": {},
        },
        scopes=scopes,
        teams=teams,
        ranks=ranks,
        multiplier=1,
        rate=ratings.rate,
        ordinal=ratings.ordinal,
        initial=ratings.initial,
    )


async def test_a_forfeit_loses_while_the_partner_wins(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        table_id = await store.insert_table(table_values(players=4), [])
        cpu = (20.0, 3.0)
        teams = [
            [
                Participant("telegram", "ada", "Ada"),
                Participant("telegram", "bea", "Bea", None, True),
            ],
            [Participant("ai", "easy", "CPU", cpu), Participant("ai", "easy", "CPU", cpu)],
        ]
        scopes = ("global", "global@2026-11")
        saved = await store.save(
            TableUpdate(
                table_id=table_id,
                expected_version=1,
                values={"status": "finished"},
                finish=finish(teams, [0, 1], scopes),
            )
        )
        assert saved is not None
        changes = {(c.user_id, c.scope): c for c in saved.rating_changes}
        for scope in scopes:
            assert changes[("ada", scope)].mu_after > changes[("ada", scope)].mu_before
            assert changes[("bea", scope)].mu_after < changes[("bea", scope)].mu_before
        rows = {
            (r.user_id, r.scope): r
            for user in ("ada", "bea")
            for r in await store.player_ratings(platform="telegram", user_id=user)
        }
        assert (rows[("ada", "global")].wins, rows[("ada", "global")].win_points) == (1, 1)
        assert (rows[("bea", "global")].games, rows[("bea", "global")].wins) == (1, 0)
        # The season's board is a board of its own.
        board = await store.leaderboard(scope="global@2026-11", family="scopa")
        assert [r.user_id for r in board] == ["ada", "bea"]
        assert await store.leaderboard(scope="global@2026-10", family="scopa") == []
    finally:
        await store.close()


async def test_a_lobby_timer_is_claimed_once(db_url: str) -> None:
    stores = [Store.open(db_url), Store.open(db_url)]
    try:
        await stores[0].upgrade()
        lobby = await stores[0].insert_table(
            table_values(status="lobby", state=None, deadline=10.0, deadline_kind="lobby"), []
        )
        done = await stores[0].insert_table(
            table_values(status="abandoned", deadline=10.0, deadline_kind="lobby"), []
        )
        claims = await asyncio.gather(*(s.claim_due(11.0, lease=60) for s in stores))
        claimed = [c for batch in claims for c in batch]
        assert [(c.table_id, c.kind) for c in claimed] == [(lobby, "lobby")]
        assert done not in [c.table_id for c in claimed]
    finally:
        for store in stores:
            await store.close()
