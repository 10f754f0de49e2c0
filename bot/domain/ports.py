"""The ports: what the store implements for the layers above it.

* :class:`TableStore`: what the service needs of the store (tables, the compare-and-set save,
  timers, moves, results, ratings, chat and user settings, the adapters' state); the service is
  given one (the composition root, ``bot.cli``, builds :class:`bot.store.Store`).
* :class:`AdapterState`: what the chat adapters remember between processes, behind one small
  interface (with :func:`check_key`, the keys it can hold, and :class:`MemoryState`).
* :class:`TableConflict`: the store's refusal of a new table that another call stored first, so
  the service handles the race without knowing the database library.

The adapter state, in detail:

Entries are keyed by ``(platform, kind, scope, table_id)``: ``kind`` says what it is (e.g.
Telegram's ``"public"``/``"hand"`` message of a table, Discord's ``"table"`` message, a
``"style"``, a ``"dm"`` wish, a ``"file"`` id of an uploaded picture), ``scope`` whose it is (a
chat or user id, or a picture digest), ``table_id`` the table (0: none). Values are JSON-safe.

:class:`bot.store.Store` implements it on the database (migration 0004, table
``adapter_state``), so a restarted or second process sees the same entries; :class:`MemoryState`
keeps them in memory for tests and single-process use. The composition root (``bot.cli``)
hands the one instance of a process to every adapter (``bot.app.App.state``).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Protocol

from bot.domain.records import (
    JSON,
    ChatRow,
    DueTimer,
    Finish,
    JSONObject,
    MoveRow,
    RatingChange,
    RatingRow,
    SaveResult,
    TableColumns,
    TableRow,
    TableUpdate,
)

__all__ = [
    "MAX_KIND",
    "MAX_SCOPE",
    "AdapterState",
    "MemoryState",
    "TableConflict",
    "TableStore",
    "check_key",
]

MAX_SCOPE = 96
MAX_KIND = 16


class TableConflict(Exception):
    """A new table the store refused because it breaks a uniqueness rule: a second rematch of
    the same table (another call, maybe in another process, stored its rematch first)."""


def check_key(*, platform: str, kind: str, scope: str, table_id: int) -> None:
    """A clear error for a key the table cannot hold (never a truncated key)."""
    if not platform or len(platform) > 16:
        raise ValueError(f"adapter state platform must be 1..16 characters: {platform!r}")
    if not kind or len(kind) > MAX_KIND:
        raise ValueError(f"adapter state kind must be 1..{MAX_KIND} characters: {kind!r}")
    if len(scope) > MAX_SCOPE:
        raise ValueError(f"adapter state scope longer than {MAX_SCOPE}: {scope!r}")
    if isinstance(table_id, bool) or not isinstance(table_id, int) or table_id < 0:
        raise ValueError(f"adapter state table_id must be a non-negative int: {table_id!r}")


class AdapterState(Protocol):
    """Entries an adapter keeps between processes (see the module docstring)."""

    async def state_get(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> JSON: ...  # the JSON value put, None when there is none

    async def state_put(
        self, value: object, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None: ...

    async def state_delete(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None: ...

    async def state_of_table(
        self, *, platform: str, kind: str, table_id: int
    ) -> list[tuple[str, JSON]]: ...

    async def state_forget_table(self, *, platform: str, table_id: int) -> None: ...


class MemoryState:
    """The adapter state in memory (one process; the most recent ``limit`` entries)."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._items: OrderedDict[tuple[str, str, str, int], str] = OrderedDict()

    async def state_get(self, *, platform: str, kind: str, scope: str, table_id: int = 0) -> JSON:
        raw = self._items.get((platform, kind, scope, table_id))
        return None if raw is None else json.loads(raw)

    async def state_put(
        self, value: object, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        check_key(platform=platform, kind=kind, scope=scope, table_id=table_id)
        key = (platform, kind, scope, table_id)
        # Stored as JSON text, as the database does: a caller's later change cannot leak in.
        self._items[key] = json.dumps(value)
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    async def state_delete(
        self, *, platform: str, kind: str, scope: str, table_id: int = 0
    ) -> None:
        self._items.pop((platform, kind, scope, table_id), None)

    async def state_of_table(
        self, *, platform: str, kind: str, table_id: int
    ) -> list[tuple[str, JSON]]:
        return [
            (key[2], json.loads(raw))
            for key, raw in self._items.items()
            if key[0] == platform and key[1] == kind and key[3] == table_id
        ]

    async def state_forget_table(self, *, platform: str, table_id: int) -> None:
        for key in [k for k in self._items if k[0] == platform and k[3] == table_id]:
            del self._items[key]


class TableStore(AdapterState, Protocol):
    """What the service needs of its store (:class:`bot.store.Store` on SQLite or PostgreSQL).

    :meth:`save` is the compare-and-set save of a table: ``None`` (and nothing written) when the
    table is no longer at ``update.expected_version``. :meth:`insert_table` raises
    :class:`TableConflict` for a second rematch of a table."""

    # Tables.
    async def insert_table(
        self, values: TableColumns, members: Iterable[tuple[str, str]]
    ) -> int: ...

    async def load_table(self, table_id: int) -> TableRow | None: ...

    async def table_version(self, table_id: int) -> int | None: ...

    async def rematch_of(self, table_id: int) -> int | None: ...

    async def open_tables(self, *, platform: str, chat_id: str) -> list[TableRow]: ...

    async def open_table_versions(self, *, platform: str) -> dict[int, int]: ...

    async def move_chat(self, *, platform: str, old: str, new: str) -> list[int]: ...

    async def user_table_ids(self, *, platform: str, user_id: str) -> list[int]: ...

    # Games in play: the save, the timers, the moves, the result.
    async def save(self, update: TableUpdate) -> SaveResult | None: ...

    async def date_lobbies(self, seconds: float) -> int: ...

    async def claim_due(self, now: float, *, lease: float, limit: int = 100) -> list[DueTimer]: ...

    async def move_deadline(
        self, table_id: int, *, version: int, kind: str, deadline: float, new_kind: str
    ) -> bool: ...

    async def moves(self, table_id: int, *, since: int = 0) -> list[MoveRow]: ...

    async def result(self, table_id: int) -> JSONObject | None: ...

    # Imported games.
    async def import_table(
        self,
        values: TableColumns,
        *,
        members: Iterable[tuple[str, str]],
        moves: Sequence[MoveRow],
        finish: Finish | None,
    ) -> tuple[int, bool, list[RatingChange]]: ...

    async def table_of_origin(self, values: TableColumns) -> int | None: ...

    # Ratings.
    async def leaderboard(
        self, *, scope: str, family: str, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]: ...

    async def player_ratings(self, *, platform: str, user_id: str) -> list[RatingRow]: ...

    async def rank(self, *, scope: str, family: str, ordinal: float) -> int: ...

    # Chats, users, per-chat settings, a table's option sources.
    async def chat(self, *, platform: str, chat_id: str) -> ChatRow: ...

    async def set_chat(
        self, *, platform: str, chat_id: str, locale: str | None, max_open_tables: int
    ) -> None: ...

    async def user_locale(self, *, platform: str, user_id: str) -> str | None: ...

    async def set_user_locale(
        self, *, platform: str, user_id: str, name: str, locale: str | None
    ) -> None: ...

    async def chat_settings(self, *, platform: str, chat_id: str) -> JSONObject: ...

    async def set_chat_setting(
        self, value: object, *, platform: str, chat_id: str, key: str
    ) -> None: ...

    async def set_option_sources(self, table_id: int, sources: dict[str, str]) -> None: ...

    async def option_sources(self, table_id: int) -> dict[str, str]: ...
