"""What every part of :class:`bot.store.Store` shares: the engine, and SQLite's fast path."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.group_commit import GroupCommit

__all__ = ["StoreBase"]


class StoreBase:
    """The state of a store; the mixins of :class:`bot.store.Store` build on it."""

    def __init__(self, engine: AsyncEngine, *, reader_path: str | None = None) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        # SQLite: saves group-committed, small reads in one hop (bot.store.group_commit).
        self._fast = GroupCommit(engine, reader_path=reader_path)
        # Adapter-state writes waiting for their group commit, by key.
        self._state_writes: dict[tuple[str, str, str, int], asyncio.Future[bool | None]] = {}

    @property
    def _one_hop(self) -> bool:
        """Whether SQLite's fast path is in use (tests turn it off to run the ordinary one)."""
        return self._fast.enabled

    @_one_hop.setter
    def _one_hop(self, value: bool) -> None:
        self._fast.enabled = value
