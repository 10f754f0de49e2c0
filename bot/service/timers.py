"""Turn timers: how long a human's turn lasts before a reminder, and before the computer plays
it (``TimerSettings``; a chat may choose its own turn time in ``/settings``).

Deadlines live in the table's row (``deadline``, ``deadline_kind``: ``remind``, ``autoplay``,
``computer`` for a computer's turn left over by a process that stopped, ``lobby`` for an
unstarted lobby's expiry, ``bot.service.lobby_timer``), so they survive a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.domain import DueTimer
from bot.domain.events import Announcement, Result
from bot.service import lobby_timer
from bot.service.tables import Call, is_human, plays_computer

if TYPE_CHECKING:
    from bot.service.turns import Turns

__all__ = ["TimerSettings", "fire_timer"]


@dataclass(frozen=True, slots=True)
class TimerSettings:
    """Turn timers (seconds from the start of a human's turn; ``reminder <= 0`` = no timers)."""

    reminder: float = 60.0
    autoplay: float = 120.0
    takeover_after: int = 2  # idle turns in a row before a computer takes the seat over
    # The idle player's game counts for them: played sensibly (Scala 40's easy is a beginner).
    takeover_level: str = "medium"
    # How long a claimed timer stays with the process that claimed it (Store.claim_due): longer
    # than firing one timer takes, short enough that a dead process's timers soon come due again.
    claim_lease: float = 60.0
    # Whether a chat's own turn timer (/settings) applies: only where the timer loop runs
    # (not at the terminal, not in one-shot commands).
    chat_timers: bool = True
    # An unstarted lobby closes this many seconds after its last change (0: never).
    lobby: float = 600.0

    @property
    def enabled(self) -> bool:
        return self.reminder > 0


async def fire_timer(turns: Turns, claim: DueTimer, now: float) -> Result | None:
    """Fire one claimed timer: a lobby's expiry, a reminder, or the computer playing the turn
    of a player who let it run out (taking the seat over after ``takeover_after`` of them), or
    a computer's turn left over by a process that stopped. Nothing when the table moved on
    since the claim."""
    table_id, tables = claim.table_id, turns.tables
    if claim.kind == lobby_timer.LOBBY:
        return await lobby_timer.expire(tables, claim, now)
    async with tables.lock(table_id):
        live = await tables.reload(table_id)
        row = live.row
        # A move since the claim started a new turn (and deadline): this timer is void.
        if row.status != "playing" or row.version != claim.version:
            return None
        # The claim leased the deadline; the timer is the one that came due.
        row.deadline, row.deadline_kind = claim.deadline, claim.kind
        seat = live.started.current_player
        if seat is None:
            return None
        if plays_computer(row.seats[seat]):
            # A computer's turn left over by a process that died after the move before it.
            call = Call()
            before = turns.snapshot(live)
            await turns.computer_turns(call, live)
            await turns.after(call, live, before)
            return Result(call.events, tables.info(live))
        if not is_human(row.seats[seat]):
            return None
        call = Call()
        info = tables.info(live)
        if row.deadline_kind == "remind":
            turn = await turns.turn_timer(row)
            reminder, autoplay = turn or (tables.timers.reminder, tables.timers.autoplay)
            deadline = now + max(autoplay - reminder, 0.0)
            if not await tables.store.move_deadline(
                table_id,
                version=row.version,
                kind="remind",
                deadline=deadline,
                new_kind="autoplay",
            ):
                tables.forget(table_id)
                return None
            row.deadline, row.deadline_kind = deadline, "autoplay"
            call.events.append(await turns.turn_notice(live, seat, info, reminder=True))
            return Result(call.events, info)
        # The player let the turn run out: the computer plays it.
        before = turns.snapshot(live)
        idler = row.seats[seat]
        assert idler is not None
        idle = idler.idle + 1
        away = idle >= tables.timers.takeover_after > 0
        row.seats[seat] = replace(idler, idle=idle, away=away, level=tables.timers.takeover_level)
        move = await turns.computer_move(live, seat, tables.timers.takeover_level)
        game = live.started.play(move)
        head = await tables.chat_head(live)
        if not await turns.commit_move(
            call, live, seat, move, game, actor="timeout", seats_changed=True
        ):
            tables.forget(table_id)
            return None
        call.events.append(Announcement(**head, kind="timeout", data={"seat": seat}))
        if away:
            call.events.append(Announcement(**head, kind="taken_over", data={"seat": seat}))
        await turns.computer_turns(call, live)
        await turns.after(call, live, before)
        return Result(call.events, tables.info(live))
