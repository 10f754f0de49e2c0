"""``hard`` decides exactly as it did when its strength was measured (see ``hard_identity``).

Speed-ups of the search, the determinizations and the playouts must keep every random draw, every
tie-break and every root statistic: the digests pin today's player (``HardConfig()``) at 100 and
300 deals a search.
"""

from __future__ import annotations

import pytest

from .hard_identity import CASES, Case, load, play_case

QUICK = ("scopone-1", "scopa2-a", "scopa3")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_same_decisions_at_100_iterations(case: Case) -> None:
    assert play_case(case, 100)[0] == load()["100"][case.name]


@pytest.mark.parametrize("name", QUICK)
def test_same_decisions_at_300_iterations(name: str) -> None:
    case = next(c for c in CASES if c.name == name)
    assert play_case(case, 300)[0] == load()["300"][name]
