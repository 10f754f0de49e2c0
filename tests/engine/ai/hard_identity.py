"""Fixed games of ``hard`` against ``easy``, digested: the record that keeps ``hard`` bit-identical.

``hard`` is measured over thousands of deals at its default budget; a change that only makes it
faster must leave every decision, every random draw and every root statistic as it was, so that
results already measured stay valid. Each case plays the first smazzata of a seeded game, ``hard``
(today's settings, ``HardConfig()``, at a fixed number of deals) at some seats and ``easy`` at the
others, one ``random.Random`` for all; the digest covers every move and, for each search, the
root's deals and reward totals (floats, by ``repr``: exact). Only today's player is pinned: a
change of its settings records new digests (``--write``) and says so in the commit.

Run as a script to print or check digests at a given budget:

    python -m tests.engine.ai.hard_identity --iterations 300 --check
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import scopa
from engine.ai import get_player
from engine.ai.search import RootStats
from engine.scopa.ai.determinize import InfoSet
from engine.scopa.ai.hard import HardPlayer

DATA = Path(__file__).resolve().with_suffix(".json")


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


class _Recording(HardPlayer):
    """``hard``, keeping the root statistics of its last search."""

    def __init__(self, *, iterations: int) -> None:
        super().__init__(iterations=iterations)
        self.stats: RootStats = {}

    def _search(self, info: InfoSet, rng: random.Random) -> RootStats:
        self.stats = super()._search(info, rng)
        return self.stats


def play_case(case: Case, iterations: int) -> tuple[str, list[str]]:
    """(sha256 hex digest, move strings) of one case at ``iterations`` deals a search."""
    rules = scopa.Rules(**case.rules)
    game = scopa.new_game(rules, seed=case.seed)
    hard = _Recording(iterations=iterations)
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


def load() -> dict[str, dict[str, str]]:
    """The recorded digests: {str(iterations): {case name: digest}}."""
    data: dict[str, dict[str, str]] = json.loads(DATA.read_text())
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="record into the data file")
    action.add_argument("--check", action="store_true", help="compare with the data file")
    args = parser.parse_args(argv)
    names = [n for n in args.cases.split(",") if n] or None
    key = str(args.iterations)
    stored = load() if DATA.exists() else {}
    failed = 0
    for case in CASES:
        if names is not None and case.name not in names:
            continue
        digest, moves = play_case(case, args.iterations)
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
