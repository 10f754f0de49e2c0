"""Leaving and kicking mid-game: the seat goes to a computer player for the rest of the game.

* ``/leave`` (or "Leave the game" on the hand, confirmed) by a seated player, or ``/kick`` of a
  seated player by the table's creator or a chat admin, hands the seat to a computer of the
  table's level (the strongest computer seated at the table, else ``TAKEOVER_LEVEL``). The seat
  keeps the player (``left`` and ``away`` set), so the game's result names them:
  their result counts as a loss in the ratings and stats (``Participant.forfeit``), whatever
  the computer then makes of the seat.
* Nothing of the deal is revealed: the public announcement names the player only; the leaver
  gets no more hand views or turn notices, and "My hand" shows them the public table only.
* Whether a player who left (or was kicked) may take the seat back is a table option,
  ``rejoin`` (a command option ``rejoin=on``, else the chat's ``/settings``, else no); it is
  kept in the store's adapter state under the table (kind ``table``, scope ``rejoin``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.domain import JSON, Seat, TableValues
from bot.domain.events import Announcement, Audience, ChatRef, Result, UserRef
from bot.service.lobby_timer import lobby_deadline
from bot.service.players import LEVELS
from bot.service.tables import Call, Live, Refused, present, seat_index
from bot.service.usecase import use_case

if TYPE_CHECKING:
    from bot.service.core import TableCore
    from bot.service.turns import Turns

logger = logging.getLogger(__name__)

__all__ = [
    "QUIT",
    "REJOIN",
    "ask",
    "kick",
    "leave_game",
    "may_rejoin",
    "set_rejoin",
    "table_level",
]

QUIT = "@quit"  # a hand's focus (and button action): "leave the game?" with yes / back
REJOIN = "rejoin"  # the table option, the chat setting and the command option
_STATE_KIND = "table"  # adapter-state kind of the service's own per-table options


def table_level(service: TableCore, seats: list[Seat | None]) -> str:
    """The level the table is played at: its strongest seated computer, else the takeover's."""
    levels = [s.level for s in seats if s is not None and s.computer]
    found = [level for level in levels if level is not None and level in LEVELS]
    if not found:
        return service.timers.takeover_level
    return max(found, key=LEVELS.index)


async def may_rejoin(service: TableCore, table_id: int, platform: str) -> bool:
    """Whether the table lets a player who left take the seat back."""
    getter = getattr(service.store, "state_get", None)
    if getter is None:
        return False
    found = await getter(platform=platform, kind=_STATE_KIND, scope=REJOIN, table_id=table_id)
    return found is True


async def set_rejoin(service: TableCore, table_id: int, platform: str, allowed: bool) -> None:
    """Keep the table's rejoin option (only a ``True`` is written: absent means no)."""
    if allowed:
        await service.store.state_put(
            True, platform=platform, kind=_STATE_KIND, scope=REJOIN, table_id=table_id
        )


async def leave_game(service: Turns, live: Live, seat: int, *, by: UserRef | None = None) -> Result:
    """The computer takes ``seat`` over for the rest of the game (the table lock is held).
    ``by`` is who kicked the player (``None``: they left)."""
    row = live.row
    leaver = row.seats[seat]
    if leaver is None or leaver.computer or leaver.left:
        raise Refused("not_seated")
    level = table_level(service.tables, row.seats)
    before = service.snapshot(live)
    row.seats[seat] = replace(leaver, away=True, left=True, level=level, idle=0)
    live.locales = {}
    values: TableValues = {"seats": row.seats, "updated_at": service.tables.clock()}
    if live.started.current_player == seat:
        # The computer plays this turn right away (the deadline covers a crash before it).
        turn = await service.turn_timer(row)
        values.update(service.deadline(live, live.started, None, turn))
    if not await service.tables.save(live, values):
        raise Refused("conflict")
    if "deadline" in values:
        row.deadline, row.deadline_kind = values["deadline"], values["deadline_kind"]
    logger.info(
        "table %s: seat %s %s",
        row.id,
        seat,
        "kicked" if by is not None else "left",
        extra={"table_id": row.id, "platform": row.platform},
    )
    back = await may_rejoin(service.tables, row.id, row.platform)
    call = Call(caller=(by.platform, by.user_id) if by is not None else None)
    head = await service.tables.chat_head(live)
    call.events.append(
        Announcement(
            **head,
            kind="left",
            data={
                "seat": seat,
                "name": leaver.name,
                "by": by.name if by is not None else "",
                "level": level,
                "back": back,
            },
        )
    )
    await service.computer_turns(call, live)
    # The seats changed the table's version: the player to move gets buttons that carry it.
    current = live.started.current_player
    await service.after(call, live, before, force_hands={current} if current is not None else None)
    return Result(call.events, service.tables.info(live))


@use_case
async def ask(service: Turns, chat: ChatRef, user: UserRef, table_id: int) -> Result:
    """The hand's "Leave the game…": the question, at the table's current version (the hand's
    button may be older: a waiting hand is not redrawn at every move)."""
    live = await service.tables.live(table_id)
    service.tables.check_chat(live, chat)
    seat = seat_index(live.row, user)
    if seat is None or not present(live.row, seat):
        raise Refused("not_seated")
    if live.row.status != "playing":
        raise Refused("not_playing")
    info = service.tables.info(live)
    hand = await service.hand(live, seat, info)
    return Result([replace(hand, focus=QUIT)], info)


@use_case
async def kick(
    service: Turns,
    chat: ChatRef,
    user: UserRef,
    *,
    target: UserRef | None = None,
    seat: int | None = None,
    table_id: int | None = None,
    is_admin: bool | Callable[[], Awaitable[bool]] = False,
) -> Result:
    """``/kick``: by the table's creator or a chat admin. With no target, the list of players
    who can be kicked comes back to the user as buttons (an Announcement "kick_list")."""
    async with service.tables.table(chat, user, table_id, lobby=True) as live:
        row = live.row
        if row.status not in ("lobby", "playing"):
            raise Refused("not_playing")
        if user.user_id != row.creator:
            allowed = is_admin if isinstance(is_admin, bool) else await is_admin()
            if not allowed:
                raise Refused("not_creator")
        if target is not None:
            seat = seat_index(row, target)
            if seat is None:
                raise Refused("no_player", name=target.name)
        if seat is None:
            choices: list[JSON] = [
                i
                for i, s in enumerate(row.seats)
                if s is not None and not s.computer and not s.left
            ]
            event = Announcement(
                audience=Audience("user", user.platform, user.user_id),
                locale=await service.tables.languages.locale_for(chat, user, public=False),
                table=service.tables.info(live),
                kind="kick_list",
                data={"seats": choices},
            )
            return Result([event], service.tables.info(live))
        kicked = row.seats[seat] if 0 <= seat < len(row.seats) else None
        if kicked is None or kicked.computer or kicked.left:
            raise Refused("no_player", name="")
        if row.status == "lobby":
            return await _kick_from_lobby(service, live, seat)
        return await leave_game(service, live, seat, by=user)


async def _kick_from_lobby(service: Turns, live: Live, seat: int) -> Result:
    row = live.row
    row.seats[seat] = None
    if not any(s is not None and not s.computer for s in row.seats):
        row.status = "abandoned"
    now = service.tables.clock()
    values: TableValues = {"seats": row.seats, "status": row.status, "updated_at": now}
    if row.status == "lobby":
        values.update(lobby_deadline(service.tables, now))
    else:
        values.update({"deadline": None, "deadline_kind": None})
    humans = [(s.platform, s.user_id) for s in row.seats if s and not s.computer]
    if not await service.tables.save(live, values, members=humans):
        raise Refused("conflict")
    call = Call()
    await service.lobby_events(call, live)
    return Result(call.events, service.tables.info(live))
