"""Lobby expiry: an unstarted lobby closes by itself ``TimerSettings.lobby`` seconds after its
last change of seats (a join, a leave, a computer added...).

The expiry is a timer like the turn timers: the lobby's row carries ``deadline`` and
``deadline_kind = "lobby"``, every seat change moves it on, and the timer loop claims it with
:meth:`bot.store.Store.claim_due` (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, compare-and-set on
SQLite), so it fires in exactly one process and survives a restart. Closing is a
compare-and-set on the table's version: a join that lands at the same moment wins, and the
lobby then lives on with a new deadline.

A new table command in a chat whose open tables are all lobbies past their deadline closes
them first (:func:`close_stale`), so a chat is never blocked by a lobby nobody started even
when the timer loop is behind (or not running, as at the terminal).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.domain import DueTimer, TableRow, TableValues
from bot.domain.events import Announcement, ChatRef, Event, LobbyView, Result

if TYPE_CHECKING:
    from bot.service.core import TableCore
    from bot.service.tables import Live

logger = logging.getLogger(__name__)

__all__ = ["LOBBY", "close_stale", "expire", "lobby_deadline"]

LOBBY = "lobby"  # the deadline kind of a lobby's expiry


def lobby_deadline(service: TableCore, now: float) -> TableValues:
    """The timer columns of a lobby changed at ``now`` (none when lobbies never expire)."""
    seconds = service.timers.lobby
    if seconds <= 0:
        return {"deadline": None, "deadline_kind": None}
    return {"deadline": now + seconds, "deadline_kind": LOBBY}


async def expire(service: TableCore, claim: DueTimer, now: float) -> Result | None:
    """Fire a claimed lobby timer: close the lobby if nothing changed since the claim."""
    async with service.lock(claim.table_id):
        live = await service.reload(claim.table_id)
        row = live.row
        if row.status != "lobby" or row.version != claim.version or claim.kind != LOBBY:
            return None
        events = await _close(service, live, now, reason="expired")
        if events is None:
            return None
        return Result(events, service.info(live))


async def close_stale(service: TableCore, chat: ChatRef) -> list[Event]:
    """Close the chat's lobbies past their expiry when they are all the chat holds open (a new
    table then takes their place); the events that say so, for the chat."""
    now = service.clock()
    rows = await service.store.open_tables(platform=chat.platform, chat_id=chat.chat_id)
    if not rows or service.timers.lobby <= 0:
        return []
    if any(not _stale(r, service, now) for r in rows):
        return []
    events: list[Event] = []
    for r in rows:
        async with service.lock(r.id):
            live = await service.reload(r.id)
            row = live.row
            if not _stale(row, service, now):
                continue
            closed = await _close(service, live, now, reason="replaced")
            if closed:
                events.extend(closed)
    return events


def _stale(row: TableRow, service: TableCore, now: float) -> bool:
    if row.status != "lobby":
        return False
    # The last change tells (a claimed timer's deadline is pushed on by the lease, and a lobby
    # from before expiry existed has none).
    if row.deadline_kind == LOBBY and row.deadline is not None and row.deadline <= now:
        return True
    return row.updated_at + service.timers.lobby <= now


async def _close(service: TableCore, live: Live, now: float, *, reason: str) -> list[Event] | None:
    """Close the lobby (compare-and-set); ``None`` when another change came first."""
    row = live.row
    row.status = "abandoned"
    values: TableValues = {
        "status": "abandoned",
        "deadline": None,
        "deadline_kind": None,
        "updated_at": now,
    }
    if not await service.save(live, values):
        return None
    row.deadline, row.deadline_kind = None, None
    seconds = max(1, round(service.timers.lobby))
    # In minutes when the timeout is whole minutes (the usual), else in seconds.
    span = {"minutes": seconds // 60} if seconds % 60 == 0 else {"seconds": seconds}
    logger.info(
        "table %s: lobby closed (%s)",
        row.id,
        reason,
        extra={"table_id": row.id, "platform": row.platform},
    )
    head = await service.chat_head(live)
    # The lobby's message first: an adapter forgets a table's messages once it is closed.
    events: list[Event] = [
        LobbyView(**head, reason=reason),
        Announcement(**head, kind="abandoned", data={"by": "", "reason": reason, **span}),
    ]
    service.forget(row.id)
    return events
