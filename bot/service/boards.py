"""Leaderboards and a player's stats, per game family: global or per chat, all time or by
season (``bot.service.seasons``: this season's board and the last season's podium)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain import RatingRow
from bot.domain.events import Audience, BoardRow, ChatRef, Leaderboard, Result, Stats, UserRef
from bot.service import seasons
from bot.service.core import TableCore

__all__ = ["Boards"]


class Boards:
    """The leaderboard and stats use cases, given the tables."""

    def __init__(self, tables: TableCore) -> None:
        self.tables = tables

    async def leaderboard(
        self,
        family: str,
        *,
        user: UserRef,
        chat: ChatRef | None = None,
        limit: int = 10,
        period: str = "all",
    ) -> Result:
        """The leaderboard of a family (``scopa``, ``scala40``): this chat's when ``chat`` is
        given, else the global one; sent to the chat (or the user when global). ``period``:
        ``all`` (all time) or ``season`` (the current season's, with the podium of the season
        before: ``bot.service.seasons``)."""
        base = f"{chat.platform}:{chat.chat_id}" if chat is not None else "global"
        season = ""
        previous: tuple[BoardRow, ...] = ()
        if period == "season":
            season = seasons.season_of(self.tables.clock(), self.tables.season)
            scope = seasons.scoped(base, season)
            before = seasons.scoped(base, seasons.previous(season))
            previous = _board(
                await self.tables.store.leaderboard(scope=before, family=family, limit=3)
            )
        elif period == "all":
            scope = base
        else:
            raise ValueError(f"period must be 'all' or 'season', not {period!r}")
        board = _board(await self.tables.store.leaderboard(scope=scope, family=family, limit=limit))
        if chat is not None:
            audience = Audience("chat", chat.platform, chat.chat_id)
            # A public message: the chat's language (not the asker's), like its tables.
            locale = await self.tables.languages.chat_locale(chat)
        else:
            audience = Audience("user", user.platform, user.user_id)
            locale = await self.tables.languages.user_locale(user)
        return Result(
            [
                Leaderboard(
                    audience=audience,
                    locale=locale,
                    family=family,
                    scope="chat" if chat else "global",
                    rows=board,
                    season=season,
                    previous=previous,
                    previous_season=seasons.previous(season) if season else "",
                )
            ]
        )

    async def stats(self, user: UserRef, *, chat: ChatRef | None = None) -> Result:
        """A player's ratings, games and wins per family (global, and in this chat)."""
        rows = []
        here = f"{chat.platform}:{chat.chat_id}" if chat is not None else None
        for r in await self.tables.store.player_ratings(
            platform=user.platform, user_id=user.user_id
        ):
            if r.scope not in ("global", here):
                continue
            rank = await self.tables.store.rank(scope=r.scope, family=r.family, ordinal=r.ordinal)
            row = _board_row(rank, r)
            rows.append((r.family, "global" if r.scope == "global" else "chat", row))
        event = Stats(
            audience=Audience("user", user.platform, user.user_id),
            locale=await self.tables.languages.user_locale(user),
            name=user.name,
            rows=tuple(rows),
        )
        return Result([event])


def _board(rows: Sequence[RatingRow]) -> tuple[BoardRow, ...]:
    """Leaderboard rows (``store.RatingRow``, best first) as the event carries them."""
    return tuple(_board_row(i + 1, r) for i, r in enumerate(rows))


def _board_row(rank: int, r: RatingRow) -> BoardRow:
    """One player's rating row at ``rank``, as the events carry it."""
    return BoardRow(
        rank=rank,
        name=r.name,
        platform=r.platform,
        user_id=r.user_id,
        rating=r.ordinal,
        games=r.games,
        wins=r.wins,
        win_points=r.win_points,
    )
