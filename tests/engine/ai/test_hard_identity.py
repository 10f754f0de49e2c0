"""``hard`` decides exactly as it did when its strength was measured (see ``hard_identity``).

Speed-ups of the search, the determinizations and the playouts must keep every random draw, every
tie-break and every root statistic. The plain digests were recorded from the code before the
speed-ups and still hold for the legacy options (``hard_identity.LEGACY``: the player before the
time budget); the ``v2-`` digests pin today's defaults (lookahead playouts, the win bonus, the
weaker inference), recorded when they were introduced, and still hold for ``method="ismcts"``;
the ``v3-`` digests the determinized flat search of ``engine.ai.pimc`` with the plain inference
(``likelihood=0``), the ``v4-`` digests its deals weighted by the likelihood of the others'
plays, the ``v5-`` digests each seat read as a mixture with a beginner (and played as one when
its plays say so), the ``v6-`` digests the other side's playout greedy blind to the hands,
fearing a sum by the odds that the next hand holds its value, the ``v7-`` digests the options
``crn`` and ``halving`` (common random numbers in the playouts, the deals spent by sequential
halving), and the ``v8-`` digests today's defaults (the last round of Scopa 3 players solved by
max-n; the other cases as ``v6-``).
"""

from __future__ import annotations

import pytest

from .hard_identity import CASES, Case, key_of, load, play_case

QUICK = ("scopone-1", "scopa2-a", "scopa3")


VERSIONS = ["legacy", "v2", "v3", "v4", "v5", "v6", "v7", "v8"]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_same_decisions_at_100_iterations(case: Case, version: str) -> None:
    key = key_of(100, version=version)
    assert play_case(case, 100, version=version)[0] == load()[key][case.name]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", QUICK)
def test_same_decisions_at_300_iterations(name: str, version: str) -> None:
    case = next(c for c in CASES if c.name == name)
    key = key_of(300, version=version)
    assert play_case(case, 300, version=version)[0] == load()[key][name]
