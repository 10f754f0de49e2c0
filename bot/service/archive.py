"""Exported games: the ``export-game`` document, the replay that verifies it, and the checks an
import makes before anything is stored.

A document (``"schema": 1``) is one table's whole record: where it was played (``platform``,
``chat_id``), the game, player count, options and ``seed`` (with the engine they make the deal),
the seats, the table ``version``, times, the move log (``version``, ``seat``, ``move``, ``actor``,
``at`` per move) and the stored ``result`` of a finished game. ``origin`` is the game's stable id
across databases (:func:`bot.domain.game_origin`), so a second import of it is recognised;
``digest`` is the SHA-256 of the rest in canonical JSON, so an edited file is refused rather
than replayed into the leaderboards.

:func:`replay` is the one replay, shared by ``tavolo replay`` (lenient: any document with a game,
seed and move list, so older exports still replay) and :func:`read` (strict: everything an import
stores is checked first).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.domain import JSON, JSONObject, MoveRow, Seat, TableRow, game_origin
from bot.service.games import GameKind, Registry
from bot.service.players import LEVELS
from engine.contract import GameState

__all__ = [
    "FORMAT",
    "SCHEMA",
    "GameFileError",
    "GameRecord",
    "Replayed",
    "digest",
    "document",
    "read",
    "replay",
]

FORMAT = "tavolo-game"
SCHEMA = 1
ACTORS = ("human", "computer", "timeout")
# Column widths of bot.store.schema: PostgreSQL enforces them, so an import checks them first.
WIDTHS = {"platform": 16, "chat_id": 64, "user_id": 64, "creator": 64, "name": 128, "move": 128}
STATUSES = ("playing", "finished", "abandoned")
ORIGIN = re.compile(r"sha256:[0-9a-f]{64}")
MAX_INT = 2**63


class GameFileError(ValueError):
    """A document that cannot be replayed or imported; the message is one line."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A document replayed: the engine's final game and what ``tavolo replay`` prints."""

    kind: GameKind
    game: GameState
    summary: JSONObject


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """A checked document, ready to be stored (moves carry table id 0 until then)."""

    origin: str
    platform: str
    chat_id: str
    kind: GameKind
    players: int
    options: JSONObject
    seed: int
    status: str
    creator: str
    seats: list[Seat]
    version: int
    created_at: float
    updated_at: float
    moves: list[MoveRow]
    finished_at: float | None
    game: GameState  # the replayed engine game: the state the table is stored with


def digest(doc: Mapping[str, object]) -> str:
    """SHA-256 of the document without its digest, in canonical JSON (key order and
    indentation do not matter)."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def document(
    row: TableRow, moves: Sequence[MoveRow], result: Mapping[str, JSON] | None
) -> JSONObject:
    """The export-game document of a stored table (moves on or after its version are left out:
    they belong to a newer version than the row read)."""
    logged: list[JSON] = [
        {"version": m.version, "seat": m.seat, "move": m.move, "actor": m.actor, "at": m.at}
        for m in moves
        if m.version < row.version
    ]
    doc: JSONObject = {
        "format": FORMAT,
        "schema": SCHEMA,
        "origin": game_origin(row),
        "table": row.id,
        "platform": row.platform,
        "chat_id": row.chat_id,
        "game": row.game,
        "family": row.family,
        "players": row.players,
        "options": row.options,
        "seed": row.seed,
        "status": row.status,
        "creator": row.creator,
        "seats": [None if seat is None else seat.to_dict() for seat in row.seats],
        "version": row.version,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "moves": logged,
        "result": dict(result) if result is not None else None,
    }
    doc["digest"] = digest(doc)
    return doc


def replay(doc: Mapping[str, object], registry: Registry) -> Replayed:
    """Replay a document's moves with the engine: :class:`GameFileError` naming the first move
    that is not legal (or not by the seat to play). ``summary["matches_record"]`` says whether
    the replayed outcome agrees with the stored result (None when there is none)."""
    try:
        return _replay(doc, registry)
    except GameFileError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise GameFileError(f"not a valid export-game document: {_describe(exc)}") from None


def _replay(doc: Mapping[str, object], registry: Registry) -> Replayed:
    moves = doc.get("moves") if isinstance(doc, Mapping) else None
    if not isinstance(moves, list):
        raise GameFileError("not an export-game document (no move list)")
    name = doc["game"]
    if not isinstance(name, str) or (kind := registry.get(name)) is None:
        raise GameFileError(f"unknown game {name!r}")
    given = doc.get("options") or {}
    if not isinstance(given, Mapping):
        raise GameFileError("options must be an object")
    options = {k: v for k, v in given.items() if k not in kind.fixed and k != "players"}
    try:
        rules = kind.rules(_whole(doc["players"]), options)
    except (ValueError, TypeError) as exc:
        raise GameFileError(f"rules the engine refuses: {exc}") from None
    game = kind.new_game(rules, _whole(doc["seed"]))
    for number, move in enumerate(moves, start=1):
        if not isinstance(move, Mapping):
            raise GameFileError(f"move {number} is not an object")
        seat, text = move["seat"], move["move"]
        if game.current_player != seat:
            raise GameFileError(
                f"move {number} ({text}) is by seat {seat}, but seat "
                f"{game.current_player} is to play"
            )
        if not isinstance(text, str):
            raise GameFileError(f"move {number}: the move must be a string")
        try:
            game = game.play(text)
        except ValueError as exc:
            raise GameFileError(f"move {number} ({text}) is not legal: {exc}") from None
    outcome = game.outcome()
    points: list[JSON] = [game.points(side) for side in range(len(game.sides))]
    ranks: list[JSON] | None = list(outcome.ranks) if outcome is not None else None
    summary: JSONObject = {
        "game": name,
        "moves": len(moves),
        "is_over": game.is_over,
        "points": points,
        "ranks": ranks,
    }
    summary["matches_record"] = _matches(doc.get("result"), game)
    return Replayed(kind, game, summary)


def _whole(value: object) -> int:
    """A whole number of the lenient replay (a number, or its text)."""
    if not isinstance(value, int | float | str):
        raise TypeError(f"not a number: {value!r}")
    return int(value)


def _matches(recorded: object, game: GameState) -> bool | None:
    """Does the stored result agree with the replayed game? Ranks, points and sides live in the
    result's ``data`` (as the store keeps them; older documents had ``ranks`` at the top)."""
    if not isinstance(recorded, Mapping):
        return None
    outcome = game.outcome()
    if outcome is None:
        return False  # a result was stored but the replay did not end
    raw = recorded.get("data")
    data: Mapping[str, object] = raw if isinstance(raw, Mapping) else {}
    replayed: dict[str, object] = {
        "ranks": list(outcome.ranks),
        "points": [game.points(side) for side in range(len(game.sides))],
        "sides": [list(side) for side in game.sides],
        "multiplier": int(outcome.multiplier),
        "winner_side": game.winner,
    }
    for key, value in replayed.items():
        stored = recorded[key] if key in recorded else data.get(key, value)
        if stored != value:
            return False
    return True


def read(doc: object, registry: Registry) -> GameRecord:
    """Check a document for import: format, schema, digest, every field, then the replay (every
    move legal, the status and the stored result those of the replayed game)."""
    if not isinstance(doc, Mapping):
        raise GameFileError("not an export-game document (not a JSON object)")
    if doc.get("format") != FORMAT or "schema" not in doc:
        raise GameFileError(
            "not an export-game document of this version (no format/schema: export it again "
            "with tavolo export-game)"
        )
    if doc["schema"] != SCHEMA:
        raise GameFileError(f"unsupported schema {doc['schema']!r}: this tavolo reads {SCHEMA}")
    if "digest" not in doc:
        raise GameFileError("no digest: not a file written by tavolo export-game")
    if doc["digest"] != digest(doc):
        raise GameFileError("the digest does not match the content: the file was edited")
    try:
        record = _record(doc, registry)
    except GameFileError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise GameFileError(f"not a valid export-game document: {_describe(exc)}") from None
    return record


def _record(doc: Mapping[str, object], registry: Registry) -> GameRecord:
    status = _text(doc, "status")
    if status == "lobby":
        raise GameFileError("the game was never dealt (a lobby): there is nothing to import")
    if status not in STATUSES:
        raise GameFileError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    players = _integer(doc, "players")
    seats = doc["seats"]
    if not isinstance(seats, list) or len(seats) != players:
        raise GameFileError(f"seats must be a list of {players} seats")
    moves = _moves(doc["moves"], players=players)
    version = _integer(doc, "version")
    if moves and version <= moves[-1].version:
        raise GameFileError("the table version must come after its last move")
    options = _json(doc["options"], "options")
    if not isinstance(options, dict):
        raise GameFileError("options must be an object")
    replayed = replay(doc, registry)
    game = replayed.game
    if game.is_over != (status == "finished"):
        raise GameFileError(
            f"the file says {status!r} but the replayed game "
            + ("is over" if game.is_over else "is not over")
        )
    finished_at: float | None = None
    if status == "finished":
        if replayed.summary["matches_record"] is not True:
            raise GameFileError("the stored result differs from the replayed game")
        finished_at = _number(doc["result"], "finished_at")
    elif doc.get("result") is not None:
        raise GameFileError(f"a {status} game has no result")
    origin = _text(doc, "origin", width=80)
    if not ORIGIN.fullmatch(origin):
        raise GameFileError("origin must be sha256: and 64 hexadecimal digits")
    platform = _text(doc, "platform")
    seat_docs = [_seat(s, number) for number, s in enumerate(seats)]
    for number, seat in enumerate(seat_docs):
        if seat.platform not in ("ai", platform):
            raise GameFileError(f"seat {number} is a {seat.platform} user at a {platform} table")
    return GameRecord(
        origin=origin,
        platform=platform,
        chat_id=_text(doc, "chat_id"),
        kind=replayed.kind,
        players=players,
        options=dict(options),
        seed=_integer(doc, "seed"),
        status=status,
        creator=_text(doc, "creator"),
        seats=seat_docs,
        version=version,
        created_at=_number(doc, "created_at"),
        updated_at=_number(doc, "updated_at"),
        moves=moves,
        finished_at=finished_at,
        game=game,
    )


def _moves(moves: object, *, players: int) -> list[MoveRow]:
    if not isinstance(moves, list):
        raise GameFileError("moves must be a list")
    out: list[MoveRow] = []
    for number, move in enumerate(moves, start=1):
        if not isinstance(move, Mapping):
            raise GameFileError(f"move {number} is not an object")
        version, seat = _integer(move, "version"), _integer(move, "seat")
        if out and version <= out[-1].version:
            raise GameFileError(f"move {number}: versions must increase")
        if not 0 <= seat < players:
            raise GameFileError(f"move {number}: no seat {seat}")
        actor = _text(move, "actor")
        if actor not in ACTORS:
            raise GameFileError(f"move {number}: actor must be one of {', '.join(ACTORS)}")
        out.append(
            MoveRow(
                table_id=0,
                version=version,
                seat=seat,
                move=_text(move, "move"),
                actor=actor,
                at=_number(move, "at"),
            )
        )
    return out


def _seat(seat: object, number: int) -> Seat:
    """A seat as the service keeps it, rebuilt from known keys only."""
    if not isinstance(seat, Mapping):
        raise GameFileError(f"seat {number} is empty or not an object")
    platform, user_id = _text(seat, "platform"), _text(seat, "user_id")
    level = seat.get("level")
    if level is not None and level not in LEVELS:
        raise GameFileError(f"seat {number}: level must be one of {', '.join(LEVELS)}")
    if platform == "ai" and (level is None or user_id != level):
        raise GameFileError(f"seat {number}: a computer seat needs its level as user id")
    idle = seat.get("idle", 0)
    hint = seat.get("hint")
    if not isinstance(idle, int) or isinstance(idle, bool) or idle < 0:
        raise GameFileError(f"seat {number}: idle must be a count")
    if hint is not None and not (isinstance(hint, str) and len(hint) <= 8):
        raise GameFileError(f"seat {number}: hint must be a locale")
    return Seat(
        platform=platform,
        user_id=user_id,
        name=_text(seat, "name"),
        level=None if level is None else str(level),
        away=bool(seat.get("away", False)),
        idle=idle,
        hint=hint,
        # A player who left mid-game (their result counts as a loss): kept only when set, so
        # older files and seats read the same.
        left=bool(seat.get("left")),
    )


def _json(value: object, what: str) -> JSON:
    """``value`` as a JSON value (what ``json.loads`` gives); GameFileError otherwise."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list):
        return [_json(item, what) for item in value]
    if isinstance(value, dict):
        out: JSONObject = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise GameFileError(f"{what} must be JSON (names are strings)")
            out[key] = _json(item, what)
        return out
    raise GameFileError(f"{what} must be JSON, not {type(value).__name__}")


def _text(doc: Mapping[str, object], key: str, *, width: int | None = None) -> str:
    value = doc[key]
    limit = width or WIDTHS.get(key, 64)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise GameFileError(f"{key} must be a non-empty string of at most {limit} characters")
    return value


def _integer(doc: Mapping[str, object], key: str) -> int:
    value = doc[key]
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_INT <= value < MAX_INT:
        raise GameFileError(f"{key} must be an integer")
    return value


def _number(doc: object, key: str) -> float:
    value = doc[key] if isinstance(doc, Mapping) else None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise GameFileError(f"{key} must be a number")
    return float(value)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc) or type(exc).__name__
