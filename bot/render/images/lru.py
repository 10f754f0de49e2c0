"""A small thread-safe least-recently-used mapping (for drawn pieces reused across pictures)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["Lru"]

V = TypeVar("V")


class Lru(Generic[V]):
    """At most ``max_entries`` values; the least recently used goes first."""

    def __init__(self, max_entries: int) -> None:
        if max_entries < 1:
            raise ValueError("an LRU holds at least one entry")
        self._max = max_entries
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._max:
                self._items.popitem(last=False)
