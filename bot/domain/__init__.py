"""The domain: what the service and the store exchange, the one package both import (neither
imports the other; ``tests/test_layers.py`` checks it). It imports neither of them, nor any
database or platform library.

* :mod:`bot.domain.records`: the records of a table, a move, a chat, a rating, a finished game
  (:class:`TableRow`, :class:`MoveRow`, :class:`Finish`, :class:`TableUpdate`, ...).
* :mod:`bot.domain.ports`: what the store implements (:class:`TableStore` for the service,
  :class:`AdapterState` for the adapters) and its refusal :class:`TableConflict`.
"""

from __future__ import annotations

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
    TableRow,
    TableUpdate,
    dumps,
    game_origin,
)

__all__ = [
    "MAX_KIND",
    "MAX_SCOPE",
    "OPEN_STATUSES",
    "AdapterState",
    "ChatRow",
    "DueTimer",
    "Finish",
    "MemoryState",
    "MoveRow",
    "Participant",
    "RateFunction",
    "RatingChange",
    "RatingRow",
    "SaveResult",
    "TableConflict",
    "TableRow",
    "TableStore",
    "TableUpdate",
    "check_key",
    "dumps",
    "game_origin",
]
