"""Discord's limits on messages and components, and layouts that respect them by construction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

MAX_CONTENT = 2000  # characters in a message's content
MAX_ROWS = 5  # action rows per message
MAX_ROW_BUTTONS = 5  # buttons per action row
MAX_BUTTONS = MAX_ROWS * MAX_ROW_BUTTONS
MAX_SELECT_OPTIONS = 25  # options in one select menu
MAX_LABEL = 80  # characters in a button label or a select option label
MAX_CUSTOM_ID = 100  # characters in a component's custom id
ELLIPSIS = "…"

T = TypeVar("T")


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, marked with an ellipsis when cut."""
    if limit < 1:
        raise ValueError(f"limit must be positive, not {limit}")
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def split_text(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """``text`` as consecutive messages of at most ``limit`` characters, split at line ends
    where possible (a single over-long line is split hard)."""
    if limit < 1:
        raise ValueError(f"limit must be positive, not {limit}")
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            chunks.append(current)
            current = ""
        current += line
    if current or not chunks:
        chunks.append(current)
    return [c.rstrip("\n") or c for c in chunks]


def fit_content(text: str) -> str:
    """One message's content: a message edited in place cannot become two, so it is clipped."""
    return clip(text, MAX_CONTENT)


def rows_of(
    items: Sequence[T], *, per_row: int = MAX_ROW_BUTTONS, rows: int = MAX_ROWS
) -> list[list[T]]:
    """``items`` laid out in at most ``rows`` rows of at most ``per_row``; ValueError beyond."""
    if len(items) > per_row * rows:
        raise ValueError(f"{len(items)} items do not fit in {rows} rows of {per_row}")
    return [list(items[i : i + per_row]) for i in range(0, len(items), per_row)]


def pages_of(items: Sequence[T], *, size: int) -> list[list[T]]:
    """``items`` in consecutive pages of at most ``size`` (at least one page, maybe empty)."""
    if size < 1:
        raise ValueError(f"page size must be positive, not {size}")
    return [list(items[i : i + size]) for i in range(0, len(items), size)] or [[]]
