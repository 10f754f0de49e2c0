"""Ratings: the update a finished game writes (results, ratings, rating changes per scope),
the leaderboards and a player's history."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema
from bot.store.base import Database
from bot.store.rows import Finish, RatingChange, RatingRow, encode_result

__all__ = ["RatingsStore", "finish_game"]


class RatingsStore:
    """Ratings: leaderboards, a player's ratings and history (a part of :class:`bot.store.Store`;
    a finished game's update is :func:`finish_game`, written by the games' save)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def rating_history(
        self, *, platform: str, user_id: str, family: str, scope: str = "global", limit: int = 500
    ) -> list[tuple[float, float]]:
        """A player's conservative rating (mu - 3 sigma) after each finished game of a family,
        oldest first: ``(finished_at, rating)`` (the /stats chart)."""
        c, r = schema.rating_changes, schema.results
        query = (
            sa.select(r.c.finished_at, c.c.mu_after, c.c.sigma_after)
            .select_from(c.join(r, r.c.table_id == c.c.table_id))
            .where(
                c.c.platform == platform,
                c.c.user_id == user_id,
                c.c.scope == scope,
                r.c.family == family,
            )
            .order_by(r.c.finished_at.desc())
            .limit(max(1, min(limit, 10_000)))
        )
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(float(row[0]), float(row[1]) - 3 * float(row[2])) for row in reversed(rows)]

    async def leaderboard(
        self, *, scope: str, family: str, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        r = schema.ratings
        query = (
            sa.select(r)
            .where(r.c.scope == scope, r.c.family == family)
            .order_by(r.c.ordinal.desc(), r.c.wins.desc(), r.c.user_id)
            .limit(limit)
            .offset(offset)
        )
        async with self.db.engine.connect() as conn:
            return [RatingRow(**dict(row._mapping)) for row in await conn.execute(query)]

    async def player_ratings(self, *, platform: str, user_id: str) -> list[RatingRow]:
        r = schema.ratings
        query = (
            sa.select(r)
            .where(r.c.platform == platform, r.c.user_id == user_id)
            .order_by(r.c.family, r.c.scope)
        )
        async with self.db.engine.connect() as conn:
            return [RatingRow(**dict(row._mapping)) for row in await conn.execute(query)]

    async def rank(self, *, scope: str, family: str, ordinal: float) -> int:
        """1 + how many players of the board have a strictly better conservative rating."""
        r = schema.ratings
        query = (
            sa.select(sa.func.count())
            .select_from(r)
            .where(r.c.scope == scope, r.c.family == family, r.c.ordinal > ordinal)
        )
        async with self.db.engine.connect() as conn:
            return 1 + int((await conn.execute(query)).scalar_one())


async def finish_game(conn: AsyncConnection, table_id: int, finish: Finish) -> list[RatingChange]:
    """Write a finished game's result and its players' rating updates in every scope (in the
    transaction of ``conn``); the changes, for the announcement."""
    await conn.execute(
        schema.results.insert().values(table_id=table_id, **encode_result(finish.result))
    )
    r = schema.ratings
    family = finish.result["family"]
    winners = {side for side, rank in enumerate(finish.ranks) if rank == 0}
    changes: list[RatingChange] = []
    people = [p for team in finish.teams for p in team if p.fixed is None]
    for scope in finish.scopes:
        current: dict[tuple[str, str], RatingRow] = {}
        if people:
            query = sa.select(r).where(
                r.c.scope == scope,
                r.c.family == family,
                sa.tuple_(r.c.platform, r.c.user_id).in_([(p.platform, p.user_id) for p in people]),
            )
            if conn.dialect.name == "postgresql":
                # Two games finishing at once for one player must not lose an update.
                query = query.with_for_update()
            for row in await conn.execute(query):
                rr = RatingRow(**dict(row._mapping))
                current[(rr.platform, rr.user_id)] = rr
        before: list[list[tuple[float, float] | None]] = []
        for team in finish.teams:
            side: list[tuple[float, float] | None] = []
            for p in team:
                old = current.get((p.platform, p.user_id))
                side.append(p.fixed or ((old.mu, old.sigma) if old else None))
            before.append(side)
        after = finish.rate(before, finish.ranks)
        # A side with a player who left: that player is rated as if the side came last.
        forfeits = {
            side_index: finish.rate(before, _last(finish.ranks, side_index))[side_index]
            for side_index, team in enumerate(finish.teams)
            if any(p.forfeit and p.fixed is None for p in team)
        }
        for side_index, team in enumerate(finish.teams):
            for i, p in enumerate(team):
                if p.fixed is not None:
                    continue
                won = side_index in winners and not p.forfeit
                if p.forfeit:
                    mu, sigma = forfeits[side_index][i]
                else:
                    mu, sigma = after[side_index][i]
                old = current.get((p.platform, p.user_id))
                b = before[side_index][i]
                mu0, sigma0 = b if b is not None else finish.initial
                ordinal = finish.ordinal(mu, sigma)
                key = {
                    "scope": scope,
                    "family": family,
                    "platform": p.platform,
                    "user_id": p.user_id,
                }
                stats = {
                    "name": p.name,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": ordinal,
                    "games": (old.games if old else 0) + 1,
                    "wins": (old.wins if old else 0) + int(won),
                    "win_points": (old.win_points if old else 0)
                    + (finish.multiplier if won else 0),
                }
                if old is None:
                    await conn.execute(r.insert().values(**key, **stats))
                else:
                    await conn.execute(
                        r.update()
                        .where(*(getattr(r.c, k) == v for k, v in key.items()))
                        .values(**stats)
                    )
                await conn.execute(
                    schema.rating_changes.insert().values(
                        table_id=table_id,
                        scope=scope,
                        platform=p.platform,
                        user_id=p.user_id,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu_after=mu,
                        sigma_after=sigma,
                    )
                )
                changes.append(
                    RatingChange(
                        scope=scope,
                        platform=p.platform,
                        user_id=p.user_id,
                        name=p.name,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu_after=mu,
                        sigma_after=sigma,
                        ordinal_before=finish.ordinal(mu0, sigma0),
                        ordinal_after=ordinal,
                    )
                )
    return changes


def _last(ranks: Sequence[int], side: int) -> list[int]:
    """The ranks with ``side`` alone in last place (a forfeit), the others as they came."""
    worst = max(ranks)
    if ranks[side] == worst and sum(1 for r in ranks if r == worst) == 1:
        return list(ranks)
    return [worst + 1 if i == side else r for i, r in enumerate(ranks)]
