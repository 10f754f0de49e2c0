"""Service fixtures: a real store on SQLite (a temporary file) and, when TAVOLO_TEST_PG_URL
is set, on PostgreSQL too (with CI set, a missing PostgreSQL fails instead of skipping)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import ComputerPlayers, Registry, TableService, TimerSettings
from bot.service.games import GameKind
from bot.store import Store
from tests.service import toygame
from tests.store import conftest as store_fixtures

# The database fixture (SQLite always, PostgreSQL when configured), shared with tests/store.
db_url = store_fixtures.db_url


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def toy_registry() -> Registry:
    mod = sys.modules["tests.service.toygame"]
    return Registry(
        [
            GameKind("toy", "toy", mod, (2, 3, 4), 2, {"variant": "toy"}, lambda n: n == 4),
        ]
    )


def toy_computers() -> ComputerPlayers:
    players = {"greedy": toygame.FirstMove(), "random": toygame.RandomMove()}

    def get(name: str) -> Any:
        if name not in players:
            raise KeyError(name)
        return players[name]

    return ComputerPlayers(get)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def make_service(db_url: str, clock: Clock) -> AsyncIterator[Callable[..., Any]]:
    """Builds services over one database (several = a restart, or two processes); every store
    it opened is closed at the end of the test (a test may close some itself first)."""
    stores: list[Store] = []
    counter = iter(range(1, 1_000_000))

    async def make(**kwargs: Any) -> TableService:
        store = Store.open(db_url)
        await store.upgrade()
        stores.append(store)
        kwargs.setdefault("registry", toy_registry())
        kwargs.setdefault("computers", toy_computers())
        kwargs.setdefault("timers", TimerSettings(reminder=60, autoplay=120, takeover_after=2))
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("seeds", lambda: next(counter))
        return TableService(store, **kwargs)

    make.stores = stores  # type: ignore[attr-defined]
    yield make
    for store in stores:
        await store.close()


@pytest.fixture
async def service(make_service: Callable[..., Any]) -> AsyncIterator[TableService]:
    svc = await make_service()
    yield svc
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()


__all__ = ["Clock", "Path"]
