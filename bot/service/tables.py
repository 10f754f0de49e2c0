"""What the service holds of a table while it works on one: the live table (:class:`Live`),
the bookkeeping of one call (:class:`Call`), the refusal raised inside the service
(:class:`Refused`), and the seats of a table's row (the domain's :class:`~bot.domain.Seat`, one
per seat in ``TableRow.seats``, ``None`` for a free seat) with the questions asked of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.domain import COMPUTER, JSONObject, Seat, TableColumns, TableRow
from bot.domain.events import Event, RefusalParam, TableInfo, UserRef
from bot.service.games import GameKind
from engine.contract import GameState, GameView

__all__ = [
    "Call",
    "Live",
    "Refused",
    "computer_seat",
    "first_free_seat",
    "hand_key",
    "is_human",
    "lobby_row",
    "player_seat",
    "plays_computer",
    "present",
    "rule_text",
    "seat_index",
]


class Refused(Exception):
    """Raised inside the service; turned into ``Result.refusal``."""

    def __init__(self, code: str, detail: str = "", **params: RefusalParam) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.params: dict[str, RefusalParam] = params


def rule_text(exc: Exception) -> dict[str, str | dict[str, str]]:
    """The engine error's English template and its params (``RuleText``), for the renderer to
    translate; nothing for an error that carries none (the English detail is shown then)."""
    template = getattr(exc, "template", None)
    params = getattr(exc, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return {}
    return {"template": template, "params": {str(k): str(v) for k, v in params.items()}}


@dataclass(slots=True)
class Live:
    """A table kept in memory: its row (without the state document) and the live game."""

    row: TableRow
    kind: GameKind
    game: GameState | None  # None while in the lobby
    # Views of the current version, by seat (None = public): each is computed once per move.
    views: dict[int | None, GameView] = field(default_factory=dict)
    info: TableInfo | None = None
    locales: dict[int, str] = field(default_factory=dict)  # per seat
    locales_epoch: int = -1

    @property
    def started(self) -> GameState:
        """The game of a table that has been dealt (a lobby has none)."""
        if self.game is None:
            raise Refused("not_playing")
        return self.game

    def view(self, seat: int | None) -> GameView:
        found = self.views.get(seat)
        if found is None:
            found = self.started.view(seat)
            self.views[seat] = found
        return found


@dataclass(slots=True)
class Call:
    """What one use case accumulates before answering."""

    events: list[Event] = field(default_factory=list)
    # Did the turn pass to another seat during the call (so the player to move is notified)?
    turn_passed: bool = False
    dealt: bool = False
    # Who made the call (platform, user id): a turn that comes back to them needs no notice,
    # they are looking at the answer (on a phone against the computer: no ping every move).
    caller: tuple[str, str] | None = None


def player_seat(user: UserRef) -> Seat:
    """The seat of a person who sits down (``hint``: their platform's language)."""
    return Seat(
        platform=user.platform,
        user_id=user.user_id,
        name=user.name or user.user_id,
        hint=user.locale,
    )


def first_free_seat(row: TableRow) -> int:
    """The lowest empty seat of a lobby; Refused("table_full") when there is none."""
    for index, seat in enumerate(row.seats):
        if seat is None:
            return index
    raise Refused("table_full")


def lobby_row(
    *,
    platform: str,
    chat_id: str,
    game: str,
    family: str,
    players: int,
    options: JSONObject,
    creator: str,
    seats: list[Seat | None],
    seed: int,
    rematch_of: int | None,
    now: float,
) -> TableColumns:
    """The row of a new table in its lobby (a new table, or the rematch of a finished one)."""
    return {
        "platform": platform,
        "chat_id": chat_id,
        "game": game,
        "family": family,
        "players": players,
        "options": options,
        "status": "lobby",
        "creator": creator,
        "seats": seats,
        "state": None,
        "seed": seed,
        "version": 1,
        "deadline": None,
        "deadline_kind": None,
        "rematch_of": rematch_of,
        "created_at": now,
        "updated_at": now,
    }


def computer_seat(level: str) -> Seat:
    """The seat of a computer player of ``level`` (its user id is its level)."""
    return Seat(platform=COMPUTER, user_id=level, name=f"CPU-{level}", level=level)


def is_human(seat: Seat | None) -> bool:
    """A person sits in the seat (whoever plays their turns)."""
    return seat is not None and not seat.computer


def plays_computer(seat: Seat | None) -> bool:
    """A computer plays the seat's turns: its own, or an away person's."""
    return seat is not None and seat.plays_computer


def seat_index(row: TableRow, user: UserRef) -> int | None:
    for i, s in enumerate(row.seats):
        if s is not None and s.platform == user.platform and s.user_id == user.user_id:
            return i
    return None


def present(row: TableRow, seat: int) -> bool:
    """Whether the seat's player still plays it (not left, nor kicked)."""
    found = row.seats[seat]
    return found is not None and not found.left


def hand_key(view: GameView) -> object:
    """What a seat's private message shows: the seat's whole view. A hand message shows the
    table too (the trick, the auction line, the cards on the table, whose turn it is), so it
    must follow every move, not only a change of the seat's own cards or legal moves."""
    return view
