"""The store's side of its values: a ``tables`` row read into a :class:`~bot.domain.TableRow`,
and the columns to write, JSON encoded. The records themselves are the domain's
(:mod:`bot.domain.records`), re-exported here for code that imported them from here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol

import sqlalchemy as sa

from bot.domain.records import (
    OPEN_STATUSES,
    ChatRow,
    DueTimer,
    Finish,
    MoveRow,
    Participant,
    RateFunction,
    RatingChange,
    RatingRow,
    SaveResult,
    Seat,
    TableRow,
    TableUpdate,
    dumps,
    game_origin,
)

__all__ = [
    "OPEN_STATUSES",
    "ChatRow",
    "DueTimer",
    "Finish",
    "MoveRow",
    "Participant",
    "RateFunction",
    "RatingChange",
    "RatingRow",
    "SaveResult",
    "StoreError",
    "TableRow",
    "TableUpdate",
    "dumps",
    "encode",
    "encode_result",
    "game_origin",
    "table_row",
]


class StoreError(RuntimeError):
    """The database cannot be used (bad URL, missing driver, unreachable server)."""


_JSON_COLUMNS = ("options", "seats", "state")


class _Row(Protocol):
    """A row as SQLAlchemy returns it (``sa.Row``), read by column name."""

    @property
    def _mapping(self) -> sa.RowMapping: ...


def table_row(row: _Row) -> TableRow:
    """A ``tables`` row as read, with its JSON columns decoded."""
    m = row._mapping
    return TableRow(
        id=m["id"],
        platform=m["platform"],
        chat_id=m["chat_id"],
        game=m["game"],
        family=m["family"],
        players=m["players"],
        options=json.loads(m["options"]),
        status=m["status"],
        creator=m["creator"],
        seats=seats(json.loads(m["seats"])),
        state=json.loads(m["state"]) if m["state"] is not None else None,
        state_version=m["state_version"],
        seed=m["seed"],
        version=m["version"],
        deadline=m["deadline"],
        deadline_kind=m["deadline_kind"],
        rematch_of=m["rematch_of"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        origin=m["origin"],
    )


def seats(docs: object) -> list[Seat | None]:
    """The seats of a stored ``seats`` column (older or imported documents may lack the
    optional keys: :meth:`Seat.from_dict`)."""
    if not isinstance(docs, list):
        raise StoreError(f"a table's seats are not a list: {docs!r}")
    return [None if doc is None else Seat.from_dict(doc) for doc in docs]


def seat_docs(seats: object) -> object:
    """The ``seats`` column to store: each :class:`Seat` as its document (a document already
    one, such as an imported game's, is written as it is)."""
    if not isinstance(seats, list):
        return seats
    return [seat.to_dict() if isinstance(seat, Seat) else seat for seat in seats]


def encode(values: Mapping[str, object]) -> dict[str, object]:
    """Column values of ``tables`` to write: the seats as documents, the JSON columns encoded."""
    out = dict(values)
    if "seats" in out:
        out["seats"] = seat_docs(out["seats"])
    for column in _JSON_COLUMNS:
        if column in out and out[column] is not None:
            out[column] = dumps(out[column])
    return out


def encode_result(result: Mapping[str, object]) -> dict[str, object]:
    """Column values of ``results`` to write: its data encoded."""
    out = dict(result)
    out["data"] = dumps(out["data"])
    return out
