"""Two runs of ``benchmarks/vs_baselines.py`` compared deal by deal: how benchmarks/README.md
compares two variants (the passes of docs/ai-notebook.md are paired runs).

Each ``--log`` file holds one JSON line per deal (or game): its deck seed, the rotation of the
players over the sides, and whether the level won. Two runs on the same seeds (a variant and the
default, say) play the same deals, and differ on only a few of them: counting the deals only one
of them won (McNemar's test) separates smaller differences than two independent win rates do.

    python benchmarks/paired.py DEFAULT.jsonl VARIANT.jsonl
    python benchmarks/paired.py A1.jsonl A2.jsonl --vs B1.jsonl B2.jsonl

Several files on a side are read as one run (runs split over seed ranges); only the deals both
sides played count. Printed: each side's win rate (95% Wilson interval), ties, the non-dealer
side's rate; the deals only A won and only B won, McNemar's z (B's direction positive) and the
exact two-sided p-value; the same split by the dealer's and the non-dealer's side (``--unit
games``: whole games, split by who dealt first).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.vs_baselines import rate_text

__all__ = ["Deal", "Pairing", "load", "main", "mcnemar", "pair"]

Key = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Deal:
    """One logged result: won, tied, and whether the level's side was the dealer's."""

    won: bool
    tie: bool
    dealer: bool


def load(paths: Sequence[Path]) -> dict[Key, Deal]:
    """The results of ``paths`` by (seed, rotation); ValueError on a line that is not a result
    or a deal logged twice with different outcomes."""
    found: dict[Key, Deal] = {}
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key = (int(row["seed"]), int(row["rotation"]))
                deal = Deal(bool(row["won"]), bool(row["tie"]), bool(row["dealer"]))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a vs_baselines result ({error})") from None
            if found.get(key, deal) != deal:
                raise ValueError(f"{path}:{number}: seed {key[0]} rotation {key[1]} differs")
            found[key] = deal
    return found


def mcnemar(only_a: int, only_b: int) -> tuple[float, float]:
    """McNemar's z (positive when B won more of the discordant deals) and the exact two-sided
    p-value (the binomial test of ``only_b`` among the discordant deals at one half)."""
    n = only_a + only_b
    if n == 0:
        return 0.0, 1.0
    z = (only_b - only_a) / math.sqrt(n)
    low = min(only_a, only_b)
    tail = sum(math.comb(n, k) for k in range(low + 1)) / 2**n
    return z, min(1.0, 2.0 * tail)


@dataclass(frozen=True, slots=True)
class Pairing:
    """The deals both runs played, and how each side did on them."""

    n: int
    wins_a: int
    wins_b: int
    ties_a: int
    ties_b: int
    only_a: int
    only_b: int


def pair(a: dict[Key, Deal], b: dict[Key, Deal], dealer: bool | None = None) -> Pairing:
    """The comparison over the deals in both (only those of the dealer's side, or of the other,
    when ``dealer`` is given; the side is A's record of it)."""
    keys = [k for k in sorted(set(a) & set(b)) if dealer is None or a[k].dealer == dealer]
    return Pairing(
        n=len(keys),
        wins_a=sum(a[k].won for k in keys),
        wins_b=sum(b[k].won for k in keys),
        ties_a=sum(a[k].tie for k in keys),
        ties_b=sum(b[k].tie for k in keys),
        only_a=sum(a[k].won and not b[k].won for k in keys),
        only_b=sum(b[k].won and not a[k].won for k in keys),
    )


def report(a: dict[Key, Deal], b: dict[Key, Deal], unit: str = "deals") -> list[str]:
    whole = pair(a, b)
    if not whole.n:
        return [f"no {unit} in common: the runs played different seeds"]
    lines = []
    for name, wins, ties in (("A", whole.wins_a, whole.ties_a), ("B", whole.wins_b, whole.ties_b)):
        lines.append(f"{name}: won {rate_text(wins, whole.n)}, ties {100 * ties / whole.n:.1f}%")
    sides = ("dealer side", "non-dealer side")
    if unit == "games":
        sides = ("first dealer", "first to play")
    for label, side in ((f"all {unit}", None), (sides[0], True), (sides[1], False)):
        p = pair(a, b, side)
        if not p.n:
            continue
        z, value = mcnemar(p.only_a, p.only_b)
        lines.append(
            f"{label}: {p.n} {unit}, A {100 * p.wins_a / p.n:.1f}%, B {100 * p.wins_b / p.n:.1f}%;"
            f" only A won {p.only_a}, only B won {p.only_b}; z = {z:+.2f}, p = {value:.3f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/paired.py",
        description="Compare two vs_baselines --log runs deal by deal (McNemar's test).",
    )
    parser.add_argument("a", nargs="+", type=Path, help="run A's --log file(s)")
    parser.add_argument(
        "--vs", nargs="+", type=Path, help="run B's --log file(s) (else: the last file given)"
    )
    parser.add_argument(
        "--unit", default="deals", choices=("deals", "games"), help="what a line of the logs is"
    )
    args = parser.parse_args(argv)
    first, second = args.a, args.vs
    if second is None:
        if len(first) != 2:
            parser.error("give two files, or A's files then --vs and B's files")
        first, second = first[:1], first[1:]
    try:
        lines = report(load(first), load(second), args.unit)
    except (OSError, ValueError) as error:
        print(f"paired: {error}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # piped into a reader that stopped early (head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    raise SystemExit(code)
