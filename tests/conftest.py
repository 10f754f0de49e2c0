"""What every test gets: an environment that does not depend on the terminal or the locale of
whoever runs the suite. pytest-xdist hands its workers the runner's terminal width as COLUMNS
(120 in a wide terminal), and a program started by a test reads COLUMNS and LANG as a player's
would: fixed here, so that the same text is wrapped the same way everywhere. Terminal play
keeps its save in the user's data directory: every test gets a data directory of its own
(XDG_DATA_HOME), so that no test ever writes to the real home or finds another's save."""

from __future__ import annotations

from pathlib import Path

import pytest

# The width and height every test's programs see when their output is no terminal.
COLUMNS, LINES = "80", "24"


@pytest.fixture(autouse=True)
def fixed_terminal_and_locale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An 80 x 24 terminal and the C locale (UTF-8), with no language chosen by the runner,
    and a data directory of the test's own; a test that wants a width or a language sets its
    own."""
    monkeypatch.setenv("COLUMNS", COLUMNS)
    monkeypatch.setenv("LINES", LINES)
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "DEFAULT_LOCALE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
