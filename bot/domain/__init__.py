"""The domain: what the service and the store exchange, the one package both import (neither
imports the other; ``tests/test_layers.py`` checks it). It imports neither of them, nor any
database or platform library.

* :mod:`bot.domain.records`: the records of a table and its seats, a move, a chat, a rating, a
  finished game (:class:`TableRow`, :class:`Seat`, :class:`MoveRow`, :class:`Finish`, ...),
  and the one spelling of a JSON document (:data:`JSON`, :data:`JSONObject`).
* :mod:`bot.domain.actions`: a player's action, typed (:class:`Action`, :class:`Verb`), and its
  one codec to and from the short string of a button, an inline result or a web request.
* :mod:`bot.domain.ports`: what the store implements (:class:`TableStore` for the service,
  :class:`AdapterState` for the adapters) and its refusal :class:`TableConflict`.
"""

from __future__ import annotations

from bot.domain.actions import MAX_BUTTON_BYTES, Action, Verb
from bot.domain.ports import (
    MAX_KIND,
    MAX_SCOPE,
    AdapterState,
    MemoryState,
    TableConflict,
    TableStore,
    check_key,
)
from bot.domain.records import (
    COMPUTER,
    JSON,
    OPEN_STATUSES,
    ChatRow,
    DueTimer,
    Finish,
    JSONObject,
    MoveRow,
    Participant,
    RateFunction,
    RatingChange,
    RatingRow,
    SaveResult,
    Seat,
    SeatDoc,
    TableColumns,
    TableRow,
    TableUpdate,
    TableValues,
    columns,
    dumps,
    game_origin,
)

__all__ = [
    "COMPUTER",
    "JSON",
    "MAX_BUTTON_BYTES",
    "MAX_KIND",
    "MAX_SCOPE",
    "OPEN_STATUSES",
    "Action",
    "AdapterState",
    "ChatRow",
    "DueTimer",
    "Finish",
    "JSONObject",
    "MemoryState",
    "MoveRow",
    "Participant",
    "RateFunction",
    "RatingChange",
    "RatingRow",
    "SaveResult",
    "Seat",
    "SeatDoc",
    "TableColumns",
    "TableConflict",
    "TableRow",
    "TableStore",
    "TableUpdate",
    "TableValues",
    "Verb",
    "check_key",
    "columns",
    "dumps",
    "game_origin",
]
