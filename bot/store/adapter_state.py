"""The adapter-state interface lives in the domain (:mod:`bot.domain.ports`); the SQL behind
it is :class:`bot.store.Store`'s. Re-exported here for code that imported it from here."""

from __future__ import annotations

from bot.domain.ports import MAX_KIND, MAX_SCOPE, AdapterState, MemoryState, check_key

__all__ = ["MAX_KIND", "MAX_SCOPE", "AdapterState", "MemoryState", "check_key"]
