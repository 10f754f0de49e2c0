"""Inline-button callback data: ``<table>:<version>:<action>`` within Telegram's 64 bytes.

The table id and the version a button was drawn for travel with the press, so a press survives a
restart (nothing is kept in memory) and a press on an older version can be refused by the service.
The action is whatever the service understands (a move string, ``join``, ``start``...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CALLBACK_BYTES = 64  # Telegram's limit on callback_data

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class ButtonDataError(ValueError):
    """Callback data that no button of ours could have carried (forged or garbage)."""


@dataclass(frozen=True)
class ButtonData:
    """What a button press asks for: ``action`` on ``table`` as of ``version``."""

    table: str
    version: int
    action: str

    def __post_init__(self) -> None:
        if not _TABLE_ID.fullmatch(self.table):
            raise ButtonDataError(f"table id {self.table!r} is not 1-32 of A-Z a-z 0-9 _ -")
        if self.version < 0:
            raise ButtonDataError(f"version {self.version} is negative")
        if not self.action or not self.action.isprintable() or not _encodable(self.action):
            raise ButtonDataError("action must be printable and not empty")
        if len(self.encode().encode("utf-8")) > MAX_CALLBACK_BYTES:
            raise ButtonDataError(
                f"callback data for {self.action!r} is over {MAX_CALLBACK_BYTES} bytes"
            )

    def encode(self) -> str:
        return f"{self.table}:{self.version}:{self.action}"

    @classmethod
    def decode(cls, data: str | None) -> ButtonData:
        """Parse callback data; raises ``ButtonDataError`` for anything malformed."""
        if not data:
            raise ButtonDataError("empty callback data")
        if len(data.encode("utf-8", errors="replace")) > MAX_CALLBACK_BYTES:
            raise ButtonDataError("callback data over 64 bytes")
        table, sep1, rest = data.partition(":")
        version, sep2, action = rest.partition(":")
        if not (sep1 and sep2):
            raise ButtonDataError(f"callback data {data!r} is not table:version:action")
        if not version.isascii() or not version.isdigit() or len(version) > 12:
            raise ButtonDataError(f"callback data {data!r} has no numeric version")
        return cls(table, int(version), action)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
