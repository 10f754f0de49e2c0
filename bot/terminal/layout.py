"""Text laid out for a terminal: its width now, menu items in columns, lines wrapped at word
boundaries, the columns a text takes (wide emoji count two)."""

from __future__ import annotations

import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Sequence

__all__ = ["columns", "terminal_width", "wrap"]


def terminal_width() -> int:
    """The terminal's width now (it may have been resized): the terminal's own word first, as
    an exported COLUMNS may be stale; COLUMNS or 80 when the output is no terminal."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size((80, 24)).columns


def columns(items: Sequence[str], width: int) -> list[str]:
    """Lay menu items out in columns fitted to ``width``, down then across, each column as wide
    as its widest item (as ``ls`` does); never breaking an item."""
    if not items:
        return []
    widths = [_width(i) for i in items]
    for per_line in range(len(items), 0, -1):
        rows = -(-len(items) // per_line)
        cols = [list(range(c * rows, min((c + 1) * rows, len(items)))) for c in range(per_line)]
        cols = [c for c in cols if c]
        cells = [max(widths[i] for i in c) + 2 for c in cols]
        if sum(cells) - 2 <= width or len(cols) == 1:
            break
    lines = []
    for r in range(rows):
        row = [(items[c[r]], cells[k]) for k, c in enumerate(cols) if r < len(c)]
        text = "".join(item + " " * (cell - _width(item)) for item, cell in row[:-1])
        lines.append(text + row[-1][0])
    return lines


def wrap(line: str, width: int) -> list[str]:
    """``line`` cut at spaces into lines of at most ``width`` columns (the spacing within a
    line kept); an indented line's continuations are indented two more, a help row's (``  t
    draws...``) under its description. A word wider than a line is cut."""
    if _width(line) <= width:
        return [line]
    indent = line[: len(line) - len(line.lstrip(" "))]
    follow = indent + "  " if indent else ""
    column = re.match(r" +\S.*?\S {2,}(?=\S)", line)  # "  7♦ 3♥ 4♠   plays...": a help row
    if column is not None and _width(column.group()) <= width // 2:
        follow = " " * _width(column.group())  # its continuations under its description
    lines: list[str] = []
    prefix, current = indent, ""
    for piece in re.findall(r"\s*\S+", line.strip(" ")):
        word = piece.lstrip()
        if current and _width(prefix + current + piece) <= width:
            current += piece
            continue
        if current:
            lines.append(prefix + current)
            prefix, current = follow, ""
        while _width(prefix + word) > width:
            cut = _fit(word, max(width - _width(prefix), 1))
            lines.append(prefix + word[:cut])
            prefix, word = follow, word[cut:]
        current = word
    if current:
        lines.append(prefix + current)
    return lines


def _fit(text: str, width: int) -> int:
    """How many characters of ``text`` fit in ``width`` columns (at least one)."""
    used = 0
    for i, ch in enumerate(text):
        used += _width(ch)
        if used > width:
            return max(i, 1)
    return len(text)


def _width(text: str) -> int:
    """Columns a text takes in a terminal (wide emoji such as the joker take two)."""
    return sum(
        2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text if ch != "\ufe0f"
    )
