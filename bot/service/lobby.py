"""The lobby: a table opened in a chat, seats taken and left, computers seated, the deal.

A new table takes the command's options over the chat's defaults of the game (``/settings``);
a default that cannot go with the command's options is left out, and ``/rules`` says where
each option came from. Where a chat lets only admins open tables, the adapter's ``is_admin``
is asked. Every change of seats is a compare-and-set save that gives the lobby its full time
again (``bot.service.lobby_timer``); the last human leaving closes it. Leaving a game in
progress hands the seat to a computer (``bot.service.seats``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

from bot.domain import JSONObject, Seat, TableValues
from bot.domain.events import ChatRef, Result, UserRef
from bot.service import lobby_timer
from bot.service import seats as seating
from bot.service.core import TableCore
from bot.service.games import GameKind, OptionValue
from bot.service.players import LEVELS
from bot.service.tables import (
    Call,
    Live,
    Refused,
    computer_seat,
    first_free_seat,
    is_human,
    lobby_row,
    player_seat,
    rule_text,
    seat_index,
)
from bot.service.turns import Turns
from bot.service.usecase import use_case
from engine.contract import GameRules

logger = logging.getLogger(__name__)

__all__ = ["Lobby"]


class Lobby:
    """The lobby's use cases (see the module docstring), given the tables and turns."""

    def __init__(self, tables: TableCore, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns

    @use_case
    async def create_table(
        self,
        chat: ChatRef,
        user: UserRef,
        game: str,
        *,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        is_admin: bool | Callable[[], Awaitable[bool]] = False,
        computers: int = 0,
        level: str = "easy",
    ) -> Result:
        """Open a lobby for ``game`` in the chat, with the creator in seat 0 and ``computers``
        computer players of ``level`` in the next seats (at most all seats but the creator's).

        The chat's default options of the game (``/settings``) apply unless ``options`` gives
        them. Where the chat lets only admins open tables, ``is_admin`` must say so (a bool, or
        a coroutine function asked only then: a platform call the other chats need not make)."""
        kind = self.tables.registry.get(game)
        if kind is None:
            raise Refused("unknown_game", ", ".join(self.tables.registry.names), game=game)
        count = players if players is not None else kind.default_players
        if count not in kind.players:
            raise Refused("bad_players", allowed=list(kind.players), players=count)
        if computers > 0 and level not in LEVELS:
            raise Refused("bad_level", ", ".join(LEVELS), level=level)
        await self._check_opener(chat, is_admin)
        given = dict(options or {})
        rejoin, rejoin_source = await self._rejoin_choice(chat, given.pop(seating.REJOIN, None))
        rules, sources = await self._rules_with_defaults(chat, kind, count, given)
        if rejoin_source is not None:
            sources[seating.REJOIN] = rejoin_source
        # A lobby nobody started, past its expiry, gives its place to the new table.
        replaced = await lobby_timer.close_stale(self.tables, chat)
        await self.tables.check_room(chat)
        now = self.tables.clock()
        seats: list[Seat | None] = [None] * count
        seats[0] = player_seat(user)
        for seat in range(1, 1 + min(max(computers, 0), count - 1)):
            seats[seat] = computer_seat(level)
        values = lobby_row(
            platform=chat.platform,
            chat_id=chat.chat_id,
            game=kind.name,
            family=kind.family,
            players=count,
            options=_stored_options(rules, kind),
            creator=user.user_id,
            seats=seats,
            seed=self.tables.seeds(),
            rematch_of=None,
            now=now,
        )
        timer = lobby_timer.lobby_deadline(self.tables, now)
        values["deadline"], values["deadline_kind"] = timer["deadline"], timer["deadline_kind"]
        table_id = await self.tables.store.insert_table(values, [(user.platform, user.user_id)])
        if sources:
            await self.tables.store.set_option_sources(table_id, sources)
        await seating.set_rejoin(self.tables, table_id, chat.platform, rejoin)
        row = await self.tables.store.load_table(table_id)
        assert row is not None
        live = Live(row, kind, None)
        self.tables.remember(live)
        call = Call(events=list(replaced))
        await self.turns.lobby_events(call, live)
        return Result(call.events, self.tables.info(live))

    async def join(self, chat: ChatRef, user: UserRef, table_id: int | None = None) -> Result:
        """Take the first free seat of the chat's lobby."""

        def change(live: Live) -> None:
            row = live.row
            if row.status != "lobby":
                raise Refused("not_in_lobby")
            if seat_index(row, user) is not None:
                raise Refused("already_seated")
            row.seats[first_free_seat(row)] = player_seat(user)

        return await self._lobby_change(chat, user, table_id, change)

    @use_case
    async def leave(self, chat: ChatRef, user: UserRef, table_id: int | None = None) -> Result:
        """Leave a lobby (the last human leaving closes it), or a game in progress: a computer
        of the table's level plays the seat to the end, and the game counts as lost for the
        leaver (``bot.service.seats``)."""
        found = await self.tables.find(chat, user, table_id, lobby=True)
        if found.row.status == "playing":
            async with self.tables.table(chat, user, found.row.id) as live:
                if live.row.status != "playing":
                    raise Refused("not_playing")
                seat = seat_index(live.row, user)
                if seat is None:
                    raise Refused("not_seated")
                return await seating.leave_game(self.turns, live, seat)
        table_id = found.row.id

        def change(live: Live) -> None:
            row = live.row
            if row.status != "lobby":
                raise Refused("not_in_lobby")
            index = seat_index(row, user)
            if index is None:
                raise Refused("not_seated")
            row.seats[index] = None
            if not any(is_human(s) for s in row.seats):
                row.status = "abandoned"

        return await self._lobby_change(chat, user, table_id, change)

    async def add_computer(
        self, chat: ChatRef, user: UserRef, level: str = "easy", table_id: int | None = None
    ) -> Result:
        """Seat a computer player (``easy``, ``medium``, ``hard``) in the first free seat."""

        def change(live: Live) -> None:
            row = live.row
            if row.status != "lobby":
                raise Refused("not_in_lobby")
            if level not in LEVELS:
                raise Refused("bad_level", ", ".join(LEVELS), level=level)
            if seat_index(row, user) is None and user.user_id != row.creator:
                raise Refused("not_seated")
            row.seats[first_free_seat(row)] = computer_seat(level)

        return await self._lobby_change(chat, user, table_id, change)

    async def choose_seat(
        self, chat: ChatRef, user: UserRef, seat: int, *, table_id: int | None = None
    ) -> Result:
        """Move to a free seat (4 players: seats 0+2 play against 1+3), joining if need be."""

        def change(live: Live) -> None:
            row = live.row
            if row.status != "lobby":
                raise Refused("not_in_lobby")
            if not 0 <= seat < row.players:
                raise Refused("seat_taken", seat=seat)
            if row.seats[seat] is not None:
                if seat_index(row, user) == seat:
                    return
                raise Refused("seat_taken", seat=seat)
            index = seat_index(row, user)
            moved = row.seats[index] if index is not None else player_seat(user)
            if index is not None:
                row.seats[index] = None
            row.seats[seat] = moved

        return await self._lobby_change(chat, user, table_id, change)

    @use_case
    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        table_id: int | None = None,
        *,
        fill_with: str | None = None,
    ) -> Result:
        """Deal: by the creator, with every seat taken (``fill_with`` a level seats computers
        in the free seats first)."""
        async with self.tables.table(chat, user, table_id, lobby=True) as live:
            row = live.row
            if row.status != "lobby":
                raise Refused("not_in_lobby")
            creator_seated = any(
                s is not None and is_human(s) and s.user_id == row.creator for s in row.seats
            )
            # The creator starts; if they left the lobby, any seated player may.
            if user.user_id != row.creator and (creator_seated or seat_index(row, user) is None):
                raise Refused("not_creator")
            seats = list(row.seats)
            if fill_with is not None:
                if fill_with not in LEVELS:
                    raise Refused("bad_level", ", ".join(LEVELS), level=fill_with)
                seats = [s if s is not None else computer_seat(fill_with) for s in seats]
            if any(s is None for s in seats):
                raise Refused("not_full", free=sum(s is None for s in seats))
            call = Call(caller=(user.platform, user.user_id))
            await self.turns.deal(call, live, seats)
            return Result(call.events, self.tables.info(live))

    async def _rejoin_choice(self, chat: ChatRef, given: object) -> tuple[bool, str | None]:
        """Whether a new table lets players who left take their seat back, and where that
        came from: the command's ``rejoin=on|off``, else the chat's setting, else no."""
        if given is not None:
            if not isinstance(given, bool):
                raise Refused("bad_option", f"rejoin must be on or off, not {given!r}")
            return given, "command"
        chosen = (await self.tables.kept_settings.raw(chat.platform, chat.chat_id)).get(
            seating.REJOIN
        )
        if isinstance(chosen, bool):
            return chosen, "chat"
        return False, None

    async def _check_opener(
        self, chat: ChatRef, is_admin: bool | Callable[[], Awaitable[bool]]
    ) -> None:
        """Where the chat lets only admins open tables, refuse everyone else."""
        raw = await self.tables.kept_settings.raw(chat.platform, chat.chat_id)
        if raw.get("open") != "admins":
            return
        allowed = is_admin if isinstance(is_admin, bool) else await is_admin()
        if not allowed:
            raise Refused("admins_only")

    async def _rules_with_defaults(
        self, chat: ChatRef, kind: GameKind, count: int, options: Mapping[str, object] | None
    ) -> tuple[GameRules, dict[str, str]]:
        """The rules of a new table: the command's options over the chat's defaults of the
        game; and where each option came from. A default that cannot go with the command's
        options (or this player count) is left out, never the command's own."""
        given = dict(options or {})
        defaults = await self.tables.kept_settings.game_defaults(
            chat.platform, chat.chat_id, kind.name
        )
        chosen = {k: v for k, v in defaults.items() if k not in given}
        try:
            rules = kind.rules(count, {**chosen, **given})
        except (ValueError, TypeError) as exc:
            if not chosen:
                raise Refused("bad_option", str(exc), **rule_text(exc)) from exc
            try:
                rules = kind.rules(count, given)
            except (ValueError, TypeError) as exc2:
                raise Refused("bad_option", str(exc2), **rule_text(exc2)) from exc2
            kept: dict[str, OptionValue] = {}
            for name, value in chosen.items():
                try:
                    rules = kind.rules(count, {**kept, name: value, **given})
                except (ValueError, TypeError):
                    continue
                kept[name] = value
            rules = kind.rules(count, {**kept, **given})
            chosen = kept
        sources = {name: "chat" for name in chosen}
        sources.update({name: "command" for name in given})
        return rules, sources

    @use_case
    async def _lobby_change(
        self,
        chat: ChatRef,
        user: UserRef,
        table_id: int | None,
        change: Callable[[Live], None],
    ) -> Result:
        async with self.tables.table(chat, user, table_id, lobby=True) as live:
            saved = (list(live.row.seats), live.row.status)
            live.locales = {}
            try:
                change(live)
            except Refused:
                live.row.seats, live.row.status = saved
                raise
            now = self.tables.clock()
            values: TableValues = {
                "seats": live.row.seats,
                "status": live.row.status,
                "updated_at": now,
            }
            # Every change of seats gives the lobby its full time again.
            if live.row.status == "lobby":
                values.update(lobby_timer.lobby_deadline(self.tables, now))
            else:
                values.update({"deadline": None, "deadline_kind": None})
            humans = [(s.platform, s.user_id) for s in live.row.seats if s and is_human(s)]
            if not await self.tables.save(live, values, members=humans):
                raise Refused("conflict")
            live.row.deadline = values["deadline"]
            live.row.deadline_kind = values["deadline_kind"]
            call = Call()
            await self.turns.lobby_events(call, live)
            return Result(call.events, self.tables.info(live))


def _stored_options(rules: GameRules, kind: GameKind) -> JSONObject:
    """The options a table keeps: the engine's full rules minus what the kind and the player
    count already say, so ``/rules`` shows every option the game is played with."""
    options: JSONObject = dict(rules.to_dict())
    for key in ("players", "schema", *kind.fixed, *kind.ignored):
        options.pop(key, None)
    try:
        kind.rules(rules.players, options)
    except (ValueError, TypeError):
        logger.warning("%s: Rules.to_dict() does not round-trip as options", kind.name)
        raise
    return options
