"""What every part of :class:`bot.store.Store` is given: the database (its engine, and SQLite's
fast path)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.group_commit import GroupCommit

__all__ = ["Database"]


class Database:
    """The engine of a store and SQLite's fast path, shared by the store's parts."""

    def __init__(self, engine: AsyncEngine, *, reader_path: str | None = None) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        # SQLite: saves group-committed, small reads in one hop (bot.store.group_commit).
        self.fast = GroupCommit(engine, reader_path=reader_path)

    @property
    def one_hop(self) -> bool:
        """Whether SQLite's fast path is in use (tests turn it off to run the ordinary one)."""
        return self.fast.enabled

    @one_hop.setter
    def one_hop(self, value: bool) -> None:
        self.fast.enabled = value
