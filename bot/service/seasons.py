"""Leaderboard seasons: the all-time boards stay, and every season has its own boards too.

A season is a calendar month by default (``SEASON=quarter`` or ``year`` for longer ones), in
UTC, named ``2026-11``, ``2026-Q4`` or ``2026``. A finished game updates the ratings of four
scopes: ``global`` and the chat's ``<platform>:<chat_id>`` (all time), and the same two with
``@<season>`` (the season of the moment the game finished). A season's ratings start afresh,
like a new player's, and stay in the database when the season is over: the previous season's
board (its podium) is always there to show.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["LENGTHS", "previous", "scoped", "season_of"]

LENGTHS = ("month", "quarter", "year")
SEPARATOR = "@"


def season_of(when: float, length: str = "month") -> str:
    """The name of the season a moment (UNIX seconds) falls in."""
    if length not in LENGTHS:
        raise ValueError(f"a season is one of {', '.join(LENGTHS)}, not {length!r}")
    moment = datetime.fromtimestamp(when, UTC)
    if length == "year":
        return f"{moment.year}"
    if length == "quarter":
        return f"{moment.year}-Q{(moment.month - 1) // 3 + 1}"
    return f"{moment.year}-{moment.month:02d}"


def previous(season: str) -> str:
    """The season before ``season`` (same length)."""
    if "-Q" in season:
        year, quarter = season.split("-Q")
        q = int(quarter) - 1
        return f"{int(year) - 1}-Q4" if q == 0 else f"{year}-Q{q}"
    if "-" in season:
        year, month = season.split("-")
        m = int(month) - 1
        return f"{int(year) - 1}-12" if m == 0 else f"{year}-{m:02d}"
    return str(int(season) - 1)


def scoped(scope: str, season: str) -> str:
    """The ratings scope of a board in one season (``global@2026-11``)."""
    return f"{scope}{SEPARATOR}{season}"
