"""The records the service and the store exchange: a table as stored, a move, a chat, a rating,
a finished game's participants and rating changes, the compare-and-set update and its result,
a claimed timer; with the one JSON encoding of the document columns (:func:`dumps`) and a game's
id across databases (:func:`game_origin`). Plain values: no database library here (the store's
conversions from and to its rows are :mod:`bot.store.rows`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypeAlias, TypedDict

__all__ = [
    "COMPUTER",
    "JSON",
    "OPEN_STATUSES",
    "ChatRow",
    "DueTimer",
    "Finish",
    "JSONObject",
    "MoveRow",
    "Participant",
    "RateFunction",
    "RatingChange",
    "RatingRow",
    "SaveResult",
    "Seat",
    "SeatDoc",
    "TableColumns",
    "TableRow",
    "TableUpdate",
    "TableValues",
    "columns",
    "dumps",
    "game_origin",
]

OPEN_STATUSES = ("lobby", "playing")
COMPUTER = "ai"  # the platform of a computer's seat (its user id is its level)


# A JSON document as decoded (``json.loads``) or to encode (:func:`dumps`): the document columns
# of a table, a result's data, a chat setting, an adapter's state entry.
JSON: TypeAlias = str | int | float | bool | list["JSON"] | dict[str, "JSON"] | None
JSONObject: TypeAlias = dict[str, JSON]


def dumps(value: object) -> str:
    """Compact JSON, the one encoding of every document column."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def game_origin(row: TableRow) -> str:
    """A game's id across databases: the one stored on an imported table, else derived from
    what never changes once a table exists (its first chat, game, seed, creation time, id)."""
    if row.origin is not None:
        return row.origin
    key = dumps([row.platform, row.chat_id, row.game, row.seed, row.created_at, row.id])
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


class SeatDoc(TypedDict):
    """A seat as stored in ``TableRow.seats`` (:class:`Seat` typed; older or imported documents
    may lack the optional keys)."""

    platform: str
    user_id: str
    name: str
    level: NotRequired[str | None]
    away: NotRequired[bool]
    idle: NotRequired[int]
    hint: NotRequired[str | None]
    left: NotRequired[bool]


@dataclass(frozen=True, slots=True, kw_only=True)
class Seat:
    """Who sits in a seat of a table: a person (``platform``, ``user_id``, ``name``; ``hint``
    their platform language), or a computer (``platform == "ai"``, ``user_id`` its level).

    ``level`` is a computer's, or the one playing an away player's turns; ``away``: a computer
    plays the seat; ``idle``: turns in a row let run out; ``left``: the player left or was
    kicked mid-game (a computer plays on). Stored as a document in ``TableRow.seats``
    (:meth:`from_dict` / :meth:`to_dict`)."""

    platform: str
    user_id: str
    name: str
    level: str | None = None
    away: bool = False
    idle: int = 0
    hint: str | None = None
    left: bool = False

    @property
    def computer(self) -> bool:
        """A computer's own seat (not a person's played by a computer)."""
        return self.platform == COMPUTER

    @property
    def plays_computer(self) -> bool:
        """A computer plays this seat's turns: its own, or an away person's."""
        return self.computer or self.away

    @classmethod
    def from_dict(cls, doc: SeatDoc | Mapping[str, object]) -> Seat:
        """The seat of a stored document (older or imported ones may lack the optional keys)."""
        return cls(
            platform=str(doc["platform"]),
            user_id=str(doc["user_id"]),
            name=str(doc["name"]),
            level=_optional_str(doc.get("level")),
            away=bool(doc.get("away", False)),
            idle=_int(doc.get("idle", 0)),
            hint=_optional_str(doc.get("hint")),
            left=bool(doc.get("left", False)),
        )

    def to_dict(self) -> JSONObject:
        """The stored document (``left`` written only once true, as the service writes it)."""
        doc: JSONObject = {
            "platform": self.platform,
            "user_id": self.user_id,
            "name": self.name,
            "level": self.level,
            "away": self.away,
            "idle": self.idle,
            "hint": self.hint,
        }
        if self.left:
            doc["left"] = True
        return doc


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def _int(value: object) -> int:
    return value if isinstance(value, int) else int(str(value))


@dataclass(slots=True)
class TableRow:
    """One ``tables`` row with its JSON columns decoded."""

    id: int
    platform: str
    chat_id: str
    game: str
    family: str
    players: int
    options: JSONObject
    status: str
    creator: str
    seats: list[Seat | None]  # ``None``: a free seat (stored as documents: Seat.to_dict)
    state: JSONObject | None
    state_version: int
    seed: int
    version: int
    deadline: float | None
    deadline_kind: str | None
    rematch_of: int | None
    created_at: float
    updated_at: float
    origin: str | None = None  # set on an imported table (migration 0005)


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveRow:
    table_id: int
    version: int
    seat: int
    move: str
    actor: str  # "human", "computer" (a computer seat or a taken-over one) or "timeout"
    at: float


@dataclass(frozen=True, slots=True)
class ChatRow:
    platform: str
    chat_id: str
    locale: str | None
    max_open_tables: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    scope: str
    family: str
    platform: str
    user_id: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    win_points: int


@dataclass(frozen=True, slots=True)
class Participant:
    """A seat in a finished game, for the rating update.

    ``fixed`` is a (mu, sigma) that is used but never updated nor stored: computer players are
    anchors of known strength, so a computer seated twice in one game is no problem.
    """

    platform: str
    user_id: str
    name: str
    fixed: tuple[float, float] | None = None
    # The player left (or was kicked) mid-game: rated and counted as a loss, whatever their
    # side's result (the computer that took the seat over plays on for the others).
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class RatingChange:
    scope: str
    platform: str
    user_id: str
    name: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    ordinal_before: float
    ordinal_after: float


# rate(teams of (mu, sigma) or None for "new player", ranks) -> teams of (mu, sigma)
RateFunction = Callable[
    [list[list[tuple[float, float] | None]], list[int]], list[list[tuple[float, float]]]
]


@dataclass(slots=True)
class Finish:
    """What a game's last save also writes: its result, and the rating updates in each scope."""

    result: Mapping[str, object]
    scopes: Sequence[str]
    teams: list[list[Participant]]
    ranks: list[int]
    multiplier: int
    rate: RateFunction
    ordinal: Callable[[float, float], float]
    initial: tuple[float, float]  # the rating a new player starts from


class TableValues(TypedDict, total=False):
    """The columns of a table an update sets (:class:`TableUpdate`): the seats as records, the
    state as its document (the store encodes both)."""

    seats: list[Seat | None]
    status: str
    state: JSONObject | None
    state_version: int
    deadline: float | None
    deadline_kind: str | None
    updated_at: float


class TableColumns(TableValues, total=False):
    """The columns of a new table (:meth:`TableStore.insert_table`, and an imported game's
    :meth:`TableStore.import_table`, which carries its ``origin``); the database gives the id."""

    platform: str
    chat_id: str
    game: str
    family: str
    players: int
    options: JSONObject
    creator: str
    seed: int
    version: int
    rematch_of: int | None
    created_at: float
    origin: str | None


def columns(row: TableRow) -> TableColumns:
    """The columns of ``row`` to insert as a new table (all of them but its id)."""
    return {
        "platform": row.platform,
        "chat_id": row.chat_id,
        "game": row.game,
        "family": row.family,
        "players": row.players,
        "options": row.options,
        "status": row.status,
        "creator": row.creator,
        "seats": row.seats,
        "state": row.state,
        "state_version": row.state_version,
        "seed": row.seed,
        "version": row.version,
        "deadline": row.deadline,
        "deadline_kind": row.deadline_kind,
        "rematch_of": row.rematch_of,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "origin": row.origin,
    }


@dataclass(slots=True, kw_only=True)
class TableUpdate:
    """A compare-and-set update of one table: ``values`` are columns to set; the version
    becomes ``expected_version + 1``."""

    table_id: int
    expected_version: int
    values: TableValues
    move: MoveRow | None = None
    members: list[tuple[str, str]] | None = None
    finish: Finish | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DueTimer:
    """A timer claimed by :meth:`Store.claim_due`: the table's version and timer kind then."""

    table_id: int
    version: int
    deadline: float
    kind: str


@dataclass(slots=True)
class SaveResult:
    version: int
    rating_changes: list[RatingChange] = field(default_factory=list)
