"""Moved to :mod:`bot.domain.ports` (the one package the service and the store both import);
re-exported here for code that imported it from here."""

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

__all__ = [
    "MAX_KIND",
    "MAX_SCOPE",
    "AdapterState",
    "MemoryState",
    "TableConflict",
    "TableStore",
    "check_key",
]
