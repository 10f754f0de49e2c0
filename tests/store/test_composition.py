"""The store is composed, not inherited (``bot.store.Store``): it gives its database to its
parts and offers every public method of theirs as its own, with the same signature."""

from __future__ import annotations

import inspect

import pytest

from bot.domain import TableStore
from bot.store import Store
from bot.store.adapter_state_sql import AdapterStateStore
from bot.store.archive import ArchiveStore
from bot.store.games import GamesStore
from bot.store.ratings import RatingsStore
from bot.store.settings import SettingsStore
from bot.store.tables import TablesStore

PARTS = [TablesStore, GamesStore, RatingsStore, SettingsStore, AdapterStateStore, ArchiveStore]


@pytest.mark.parametrize("part", PARTS, ids=lambda part: part.__name__)
def test_the_store_offers_every_method_of_its_parts(part: type) -> None:
    for name, method in inspect.getmembers(part, inspect.iscoroutinefunction):
        if not name.startswith("_"):
            assert inspect.signature(getattr(Store, name)) == inspect.signature(method), name


def test_the_store_has_no_base_class_of_the_project() -> None:
    assert Store.__bases__ == (object,)
    for part in PARTS:
        assert part.__bases__ == (object,)


def test_the_store_has_what_the_service_needs() -> None:
    wanted = {
        name
        for name, _ in inspect.getmembers(TableStore, inspect.iscoroutinefunction)
        if not name.startswith("_")
    }
    assert wanted and all(inspect.iscoroutinefunction(getattr(Store, name)) for name in wanted)
