"""Fixed games of ``hard`` against ``easy``, digested: the record that keeps ``hard`` bit-identical.

``hard`` is measured over thousands of deals at its default budget; a change that only makes it
faster must leave every decision, every random draw and every root statistic as it was, so that
results already measured stay valid. Each case plays the first smazzata of a seeded game, ``hard``
at some seats and ``easy`` at the others, one ``random.Random`` for all; the digest covers every
move and, for each search, the root's visits and reward totals (floats, by ``repr``: exact).

Run as a script to print or check digests at a given budget (the 3,000-iteration check is too slow
for the test suite):

    python -m tests.engine.ai.hard_identity --version legacy --iterations 3000 --check
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import scopa
from engine.ai import get_player
from engine.ai.determinize import InfoSet
from engine.ai.hard import HardPlayer

DATA = Path(__file__).resolve().with_suffix(".json")
# The options that make today's hard player the one of before the time budget (whose digests are
# the data file's plain keys "100", "300", "1000", "3000").
LEGACY: dict[str, Any] = {
    "lookahead": False,
    "win_bonus": 0.0,
    "epsilon": 0.3,
    "doubtful": False,
    "take_scopa": False,
}


@dataclass(frozen=True)
class Case:
    name: str
    rules: dict[str, Any]
    seed: int
    hard_seats: tuple[int, ...]


CASES: tuple[Case, ...] = (
    Case("scopone-1", {"variant": "scopone"}, 1, (0, 2)),
    Case("scopone-2", {"variant": "scopone"}, 2, (1, 3)),
    Case("scopone-8-fuori", {"variant": "scopone", "target": 8}, 3, (0, 2)),
    Case("scientifico", {"variant": "scientifico"}, 4, (0, 2)),
    Case("scientifico-asso", {"variant": "scientifico", "asso_piglia_tutto": True}, 5, (1, 3)),
    Case("scopa2-a", {}, 6, (0,)),
    Case("scopa2-b", {}, 7, (1,)),
    Case("scopa3", {"players": 3}, 8, (0,)),
    Case("scopa4", {"players": 4}, 9, (1, 3)),
    Case("scopa2-15-obbligo", {"scopa_a_15": True, "obbligo_di_presa": True}, 10, (0,)),
    Case("scopa2-bello-napola", {"re_bello": True, "napola": True}, 11, (1,)),
    Case("scopa3-primiera", {"players": 3, "primiera_missing_suit": "lenient"}, 12, (2,)),
)


# The flat search's sampling of the default (each move's playouts their own random numbers, every
# move on every deal; "v7" changes it).
BEFORE_V7: dict[str, Any] = {"crn": False, "halving": False}
# The last round of three sides played out rather than solved ("v8" solves it by max-n).
BEFORE_V8: dict[str, Any] = {"multi": "none"}
# The options of each recorded version: "legacy" the player before the time budget, "v2" the tree
# search of the time budget (lookahead playouts, win bonus, weaker inference), "v3" the
# determinized flat search (``engine.ai.pimc``) with the plain inference, "v4" the same search,
# its deals weighted by the likelihood of the others' plays, "v5" the same with each seat read as a
# mixture with a beginner (and played as one in the playouts when its plays say so), "v6" the
# other side's greedy in the playouts blind to the hands, fearing a sum by the odds that the next
# hand holds its value, "v7" common random numbers in the playouts and the deals spent by
# sequential halving over the moves (options, off), "v8" the last round of three sides (Scopa 3
# players) solved by max-n (today's defaults; only the three-player cases differ from "v6").
VERSIONS: dict[str, dict[str, Any]] = {
    "legacy": {**LEGACY, "method": "ismcts"},
    "v2": {"method": "ismcts"},
    "v3": {"likelihood": 0.0, "blind": False, "odds": False, **BEFORE_V7, **BEFORE_V8},
    "v4": {
        "beginner": 0.0,
        "exploit": False,
        "blind": False,
        "odds": False,
        **BEFORE_V7,
        **BEFORE_V8,
    },
    "v5": {"blind": False, "odds": False, **BEFORE_V7, **BEFORE_V8},
    "v6": {**BEFORE_V8},
    "v7": {"crn": True, "halving": True, **BEFORE_V8},
    "v8": {},
}


class _Recording(HardPlayer):
    """``hard``, keeping the root statistics of its last search."""

    def __init__(self, *, iterations: int, version: str) -> None:
        super().__init__(iterations=iterations, **VERSIONS[version])
        self.stats: dict[int, tuple[int, float]] = {}

    def _search(
        self, info: InfoSet, rng: random.Random, priors: Mapping[int, float] | None
    ) -> dict[int, tuple[int, float]]:
        self.stats = super()._search(info, rng, priors)
        return self.stats


def play_case(case: Case, iterations: int, *, version: str = "v8") -> tuple[str, list[str]]:
    """(sha256 hex digest, move strings) of one case at ``iterations`` (deals, for the flat
    search), with the options of ``version`` (``VERSIONS``)."""
    rules = scopa.Rules(**case.rules)
    game = scopa.new_game(rules, seed=case.seed)
    hard = _Recording(iterations=iterations, version=version)
    easy = get_player("easy")
    rng = random.Random(case.seed)
    digest = hashlib.sha256()
    moves: list[str] = []
    for _ in range(60):  # a smazzata has at most 40 moves
        if game.smazzate or game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        if seat in case.hard_seats:
            move = hard.choose(view, rng)
            digest.update(f"{hard.last_iterations};{sorted(hard.stats.items())!r};".encode())
        else:
            move = easy.choose(view, rng)
        moves.append(move)
        digest.update(f"{seat}:{move};".encode())
        game = game.play(move)
    assert game.smazzate or game.is_over
    digest.update(json.dumps(game.to_dict(), sort_keys=True).encode())
    return digest.hexdigest(), moves


def record(
    iterations: int, names: list[str] | None = None, *, version: str = "v8"
) -> dict[str, str]:
    """{case name: digest} at ``iterations`` (all cases, or those named)."""
    return {
        case.name: play_case(case, iterations, version=version)[0]
        for case in CASES
        if names is None or case.name in names
    }


def key_of(iterations: int, *, version: str) -> str:
    """The data file's key: ``"300"`` for the legacy player (the digests recorded before the
    time budget), ``"v2-300"`` for the tree search of the time budget, ``"v3-300"`` for the flat
    search with the plain inference, ``"v4-300"`` for the likelihood reading, ``"v5-300"`` for
    the beginner's mixture, ``"v6-300"`` for the odds playouts, ``"v7-300"`` for the
    sampling of common random numbers and halving, ``"v8-300"`` for today's defaults."""
    return str(iterations) if version == "legacy" else f"{version}-{iterations}"


def load() -> dict[str, dict[str, str]]:
    """The recorded digests: {key_of(...): {case name: digest}}."""
    data: dict[str, dict[str, str]] = json.loads(DATA.read_text())
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--version", choices=sorted(VERSIONS), default="v8")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="record into the data file")
    action.add_argument("--check", action="store_true", help="compare with the data file")
    args = parser.parse_args(argv)
    names = [n for n in args.cases.split(",") if n] or None
    key = key_of(args.iterations, version=args.version)
    stored = load() if DATA.exists() else {}
    failed = 0
    for case in CASES:
        if names is not None and case.name not in names:
            continue
        digest, moves = play_case(case, args.iterations, version=args.version)
        expected = stored.get(key, {}).get(case.name)
        status = "" if expected is None else ("same" if expected == digest else "DIFFERENT")
        failed += status == "DIFFERENT"
        print(f"{case.name:22} {digest[:16]} {len(moves)} moves {status}", flush=True)
        if args.write:
            stored.setdefault(key, {})[case.name] = digest
    if args.write:
        DATA.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    if args.check and failed:
        print(f"{failed} case(s) differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
