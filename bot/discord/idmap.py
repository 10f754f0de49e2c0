"""Small int -> int maps kept in memory or in a JSON file.

Before the store kept the adapter's state (migration 0004), the handler kept which channel message
shows each table and which users asked for DMs in such maps; ``bot.discord.app`` still reads the
files of those versions once (``import_legacy_files``).
"""

from __future__ import annotations

import json
import logging
import os
from collections import OrderedDict
from pathlib import Path
from typing import Protocol

logger = logging.getLogger(__name__)

MAX_REMEMBERED = 10_000


class IdMap(Protocol):
    """A small int -> int map the handler keeps: which channel message shows each table (so it
    is edited in place), which users asked for DMs. Persistent implementations make both
    survive a restart."""

    def get(self, key: int) -> int | None: ...

    def remember(self, key: int, value: int) -> None: ...

    def forget(self, key: int) -> None: ...


class MemoryIdMap:
    """The map in memory, for the most recently used keys only."""

    def __init__(self, limit: int = MAX_REMEMBERED) -> None:
        self.limit = limit
        self._ids: OrderedDict[int, int] = OrderedDict()

    def get(self, key: int) -> int | None:
        return self._ids.get(key)

    def remember(self, key: int, value: int) -> None:
        self._ids[key] = value
        self._ids.move_to_end(key)
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def forget(self, key: int) -> None:
        self._ids.pop(key, None)

    def items(self) -> list[tuple[int, int]]:
        return list(self._ids.items())


class FileIdMap(MemoryIdMap):
    """The map in a small JSON file (one process per file), rewritten atomically on change."""

    def __init__(self, path: Path, limit: int = MAX_REMEMBERED) -> None:
        super().__init__(limit)
        self.path = path
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            for key, value in list(stored.items())[-limit:]:
                self._ids[int(key)] = int(value)
        except FileNotFoundError:
            pass
        except (ValueError, AttributeError) as exc:
            logger.warning("ignoring the unreadable %s: %s", path, exc)

    def remember(self, key: int, value: int) -> None:
        if self._ids.get(key) == value:
            return
        super().remember(key, value)
        self._write()

    def forget(self, key: int) -> None:
        if key in self._ids:
            super().forget(key)
            self._write()

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(self.path.suffix + ".tmp")
        temporary.write_text(json.dumps({str(k): v for k, v in self._ids.items()}), "utf-8")
        os.replace(temporary, self.path)
