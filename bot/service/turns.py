"""Turns: the deal, each move stored and announced, the computers' turns, the turn deadlines,
the result of a finished game, and the closing events of a call.

A move is committed compare-and-set on the table's version (:meth:`Turns.commit_move`), with
its move row, the timer columns of the next turn and, at the end, the result and the rating
updates (:meth:`Turns.finish`); the full state every ``SNAPSHOT_EVERY`` versions. Then the
chat hears what the move did (the engine's events: ``bot.service.announcements``, Briscola's
``bot.service.briscola``), the computers to move play off the event loop, and
:meth:`Turns.after` closes the call: the public view, the hands that changed, the turn notice.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import replace

from bot.domain import Finish, MoveRow, Participant, RatingChange, Seat, TableRow, TableValues
from bot.domain.events import (
    Announcement,
    Audience,
    GameOver,
    HandView,
    LobbyView,
    RatingDelta,
    SmazzataSummary,
    TableEvent,
    TableInfo,
    TableView,
    TurnNotice,
)
from bot.service import briscola, seasons
from bot.service.announcements import announcements
from bot.service.core import TableCore
from bot.service.ratings import COMPUTER_RATINGS
from bot.service.settings import is_timer
from bot.service.tables import (
    Call,
    Live,
    Refused,
    hand_key,
    is_human,
    plays_computer,
    present,
)
from engine.contract import GameState

logger = logging.getLogger(__name__)

__all__ = ["COMPUTER_GRACE", "MAX_COMPUTER_MOVES", "SNAPSHOT_EVERY", "Turns"]

# A safety bound: no call plays more computer moves than this in a row.
MAX_COMPUTER_MOVES = 10_000

# The full state is saved every this many versions (and at the end); in between a move writes
# only its move row, and loading replays the moves since the snapshot.
SNAPSHOT_EVERY = 16

COMPUTER_GRACE = 10.0  # seconds before a computer's turn counts as left over (a crash)


class Turns:
    """The turns of a dealt table (see the module docstring); the use cases that move a game
    on call these with the table's lock held. Given the tables (the service's core)."""

    def __init__(self, tables: TableCore) -> None:
        self.tables = tables

    async def turn_timer(self, row: TableRow) -> tuple[float, float] | None:
        """(reminder, autoplay) seconds of a turn at this table's chat; ``None``: no timers."""
        base = (
            (self.tables.timers.reminder, self.tables.timers.autoplay)
            if self.tables.timers.enabled
            else None
        )
        if not self.tables.timers.chat_timers:
            return base
        chosen = (await self.tables.kept_settings.raw(row.platform, row.chat_id)).get("timer")
        if not isinstance(chosen, int) or not is_timer(chosen):
            return base
        if chosen == 0:
            return None
        # The reminder comes at the same share of the turn as with the bot's own timers.
        reminder, autoplay = self.tables.timers.reminder, self.tables.timers.autoplay
        share = reminder / autoplay if 0 < reminder < autoplay else 0.5
        return (chosen * share, float(chosen))

    async def deal(self, call: Call, live: Live, seats: list[Seat | None]) -> None:
        row = live.row
        rules = live.kind.rules(row.players, row.options)
        game = live.kind.new_game(rules, row.seed)
        before = self.snapshot(live)
        row.seats = seats
        live.locales = {}
        row.status = "playing"
        values: TableValues = {
            "seats": seats,
            "status": "playing",
            "state": game.to_dict(),
            "state_version": row.version + 1,
            "updated_at": self.tables.clock(),
        }
        values.update(self.deadline(live, game, None, await self.turn_timer(row)))
        if not await self.tables.save(live, values, notify=False):
            raise Refused("conflict")
        row.state_version = values["state_version"]
        live.game = game
        call.dealt = True
        started = Announcement(**await self.tables.chat_head(live), kind="started")
        call.events.append(started)
        self.tables.changed(live, [started])
        await self.computer_turns(call, live)
        await self.after(call, live, before, force_hands=set(range(row.players)))

    def deadline(
        self, live: Live, game: GameState, previous: int | None, turn: tuple[float, float] | None
    ) -> TableValues:
        """Timer columns after a move: a new deadline when a human's turn starts (``turn``:
        the chat's (reminder, autoplay) seconds, ``None`` for no timers)."""
        seat = game.current_player
        if turn is None or game.is_over or seat is None:
            return {"deadline": None, "deadline_kind": None}
        if plays_computer(live.row.seats[seat]):
            # The computer plays right after this commit; should the process die first, this
            # deadline lets the timer loop (of a restarted process) play it instead.
            return {"deadline": self.tables.clock() + COMPUTER_GRACE, "deadline_kind": "computer"}
        if seat == previous and live.row.deadline is not None:
            return {}  # the same player's turn goes on (Scala 40: draw, meld, discard)
        return {"deadline": self.tables.clock() + turn[0], "deadline_kind": "remind"}

    async def commit_move(
        self,
        call: Call,
        live: Live,
        seat: int,
        move: str,
        game: GameState,
        *,
        actor: str,
        seats_changed: bool = False,
    ) -> bool:
        """Store one move compare-and-set; on success the live table moves on."""
        row = live.row
        row_version = row.version  # the move's version in the move log
        now = self.tables.clock()
        values: TableValues = {"updated_at": now}
        if game.is_over or row.version + 1 - row.state_version >= SNAPSHOT_EVERY:
            values["state"] = game.to_dict()
            values["state_version"] = row.version + 1
        if seats_changed:
            values["seats"] = row.seats
        values.update(self.deadline(live, game, seat, await self.turn_timer(row)))
        finish = None
        if game.is_over:
            values["status"] = "finished"
            finish = self.finish(live, game, now)
        saved = await self.tables.save(
            live,
            values,
            move=MoveRow(
                table_id=row.id, version=row.version, seat=seat, move=move, actor=actor, at=now
            ),
            finish=finish,
        )
        if saved is None:
            return False
        if "deadline" in values:
            row.deadline, row.deadline_kind = values["deadline"], values["deadline_kind"]
        if "state_version" in values:
            row.state_version = values["state_version"]
        live.game = game
        live.views = {}
        if game.current_player != seat:
            call.turn_passed = True
        if game.is_over:
            row.status = "finished"
        told = len(call.events)
        await self._announce(call, live, move, game, saved.rating_changes, version=row_version)
        self.tables.changed(live, call.events[told:])
        return True

    def finish(self, live: Live, game: GameState, now: float) -> Finish:
        row = live.row
        outcome = game.outcome()
        assert outcome is not None, "a finished game has an outcome"
        sides = [list(side) for side in game.sides]
        points = [game.points(i) for i in range(len(sides))]
        ranks = list(outcome.ranks)
        teams = []
        for side in sides:
            team = []
            for seat in side:
                player = row.seats[seat]
                assert player is not None
                fixed = COMPUTER_RATINGS.get(player.user_id) if player.computer else None
                # A player who left (or was kicked) lost, whatever the computer made of it.
                forfeit = fixed is None and player.left
                team.append(
                    Participant(player.platform, player.user_id, player.name, fixed, forfeit)
                )
            teams.append(team)
        result = {
            "platform": row.platform,
            "chat_id": row.chat_id,
            "game": row.game,
            "family": row.family,
            "winner_side": game.winner,
            "multiplier": int(outcome.multiplier),
            "finished_at": now,
            "data": {
                "sides": sides,
                "points": points,
                "ranks": ranks,
                "seats": [
                    {"platform": s.platform, "user_id": s.user_id, "name": s.name}
                    | ({"left": True} if s.left else {})
                    for s in row.seats
                    if s is not None
                ],
            },
        }
        season = seasons.season_of(now, self.tables.season)
        chat = f"{row.platform}:{row.chat_id}"
        computers = {i for i, s in enumerate(row.seats) if s is not None and s.computer}
        # Chiamata rates each deal's partnership (the socio shares the chiamante's result).
        rate = briscola.chiamata_rate(game, self.tables.ratings, fixed=computers)
        return Finish(
            result=result,
            # All time, and this season (bot.service.seasons).
            scopes=("global", chat, seasons.scoped("global", season), seasons.scoped(chat, season)),
            teams=teams,
            ranks=ranks,
            multiplier=int(outcome.multiplier),
            rate=rate or self.tables.ratings.rate,
            ordinal=self.tables.ratings.ordinal,
            initial=self.tables.ratings.initial,
        )

    async def computer_turns(self, call: Call, live: Live) -> None:
        for _ in range(MAX_COMPUTER_MOVES):
            game = live.started
            seat = game.current_player
            if game.is_over or seat is None or not plays_computer(live.row.seats[seat]):
                return
            player = live.row.seats[seat]
            assert player is not None
            move = await self.computer_move(live, seat, player.level or "easy")
            if not await self.commit_move(
                call, live, seat, move, game.play(move), actor="computer"
            ):
                # Another process moved this table on (it plays the computers from there); the
                # moves of this call are committed, so answer with what we have.
                logger.warning("table %s: changed by another process mid-turn", live.row.id)
                return
        logger.error("table %s: computer players did not finish", live.row.id)

    async def computer_move(self, live: Live, seat: int, level: str) -> str:
        view = live.view(seat)
        rng = random.Random(live.row.seed * 1_000_003 + live.row.version)
        family = live.kind.family
        try:
            # Off the event loop: strong players think for a while.
            return await self.tables.computers.choose_off_loop(family, level, view, rng)
        except Exception:
            logger.exception("table %s: computer player failed, playing a random move", live.row.id)
            return str(rng.choice(live.started.legal_moves()))

    async def _announce(
        self,
        call: Call,
        live: Live,
        move: str,
        game: GameState,
        rating_changes: Sequence[RatingChange],
        *,
        version: int,
    ) -> None:
        """Announcements for one move (from the engine's events: scopa, fuori, smazzata/hand
        summary), then game over. A deal's summary says in ``data["version"]`` the version of
        the move that ended it (the move log's), so that a list of moves can put it in place."""
        head = await self.tables.chat_head(live)
        told = len(call.events)
        if live.kind.family in briscola.FAMILIES:
            briscola.announce(call.events, head, live.view(None))
        else:
            call.events.extend(announcements(game.events, head=head, move=move))
        call.events[told:] = [
            replace(e, data={**e.data, "version": version}) if isinstance(e, SmazzataSummary) else e
            for e in call.events[told:]
        ]
        if game.is_over:
            outcome = game.outcome()
            assert outcome is not None, "a finished game has an outcome"
            deltas = tuple(
                RatingDelta(
                    name=c.name,
                    platform=c.platform,
                    user_id=c.user_id,
                    before=c.ordinal_before,
                    after=c.ordinal_after,
                )
                for c in rating_changes
                if c.scope == "global"
            )
            call.events.append(
                GameOver(
                    **head,
                    ranks=tuple(outcome.ranks),
                    points=tuple(game.points(i) for i in range(len(game.sides))),
                    winner=game.winner,
                    multiplier=int(outcome.multiplier),
                    ratings=deltas,
                )
            )

    def snapshot(self, live: Live) -> dict[int, object]:
        """What each human seat's private message shows (``hand_key``), to send the hands
        whose message would change: after a move, every present human's."""
        out: dict[int, object] = {}
        if live.game is None:
            return out
        for i, doc in enumerate(live.row.seats):
            if is_human(doc) and present(live.row, i):
                out[i] = hand_key(live.view(i))
        return out

    async def lobby_events(self, call: Call, live: Live) -> None:
        """The chat's lobby view of the table (and its closing, when abandoned)."""
        head = await self.tables.chat_head(live)
        if live.row.status == "abandoned":
            call.events.append(Announcement(**head, kind="abandoned", data={"by": ""}))
        call.events.append(LobbyView(**head))

    async def after(
        self,
        call: Call,
        live: Live,
        before: dict[int, object],
        *,
        force_hands: set[int] | None = None,
    ) -> None:
        """The closing events of a call: the public view, changed hands, the turn notice.

        Every event carries the final snapshot, so buttons carry the version now current."""
        info = self.tables.info(live)
        head = await self.tables.chat_head(live, info)
        call.events = [
            replace(e, table=info) if isinstance(e, TableEvent) else e for e in call.events
        ]
        call.events.append(TableView(**head, view=live.view(None)))
        if live.row.status != "playing":
            return
        current = live.started.current_player
        for seat, player in enumerate(live.row.seats):
            # A player who left sees nothing more of the deal.
            if player is None or not is_human(player) or player.left:
                continue
            forced = force_hands is not None and seat in force_hands
            if forced or before.get(seat) != hand_key(live.view(seat)):
                call.events.append(await self.hand(live, seat, info))
        # Scala 40: a player who drew or melded is still to move, and needs no new notice.
        notify = call.turn_passed or call.dealt
        if notify and current is not None and is_human(live.row.seats[current]):
            player = live.row.seats[current]
            assert player is not None
            if not player.away and call.caller != (player.platform, player.user_id):
                call.events.append(await self.turn_notice(live, current, info))

    async def turn_notice(
        self, live: Live, seat: int, info: TableInfo, *, reminder: bool = False
    ) -> TurnNotice:
        """The seat's player is to move (``reminder``: the turn timer's reminder)."""
        player = live.row.seats[seat]
        assert player is not None
        return TurnNotice(
            audience=Audience("user", player.platform, player.user_id),
            locale=await self.tables.languages.seat_locale(live, seat),
            table=info,
            seat=seat,
            reminder=reminder,
        )

    async def hand(self, live: Live, seat: int, info: TableInfo) -> HandView:
        """The seat's private view (its hand, and its legal moves on its turn)."""
        player = live.row.seats[seat]
        assert player is not None
        return HandView(
            audience=Audience("user", player.platform, player.user_id),
            locale=await self.tables.languages.seat_locale(live, seat),
            table=info,
            seat=seat,
            view=live.view(seat),
        )
