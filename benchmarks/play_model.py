"""Fit the model of how a player chooses its card that ``hard`` reads the others' hands with
(``engine.scopa.ai.evidence``: the fitted model's coefficients ``FITTED``), and compare it with the
careful greedy's softmax.

``collect`` plays Scopone deals of ``hard`` against a baseline pair (``benchmarks/baselines``),
seats swapped, and writes every play with the hand it was chosen from (JSON lines). ``fit`` reads
such files, fits a conditional logit over the cards of each hand on ``play_features`` by maximum
likelihood (Newton's method, a small ridge), on the even deck seeds, and prints, on the odd
seeds (held out) and per kind of player, the mean log-likelihood of the card played and how
often the model's likeliest card is the one played: for the fitted model and for the careful
greedy's softmax (``engine.scopa.ai.evidence``'s default model, at its sharpness and read as the
search reads it: an empty table's plays say nothing).

    python benchmarks/play_model.py collect --count 50 --seed 9000 --baseline flatmc --out F.jsonl
    python benchmarks/play_model.py collect --count 30 --seed 9100 --baseline expert --out E.jsonl
    python benchmarks/play_model.py fit F.jsonl E.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.baselines import BASELINES
from engine import scopa
from engine.scopa.ai.determinize import parse_move
from engine.scopa.ai.evidence import (
    DEFAULT_BETA,
    FEATURES,
    careful_value,
    play_features,
    unseen_by_value,
)
from engine.scopa.ai.hard import HardPlayer
from engine.scopa.tables import mask_of

__all__ = ["collect", "fit", "main"]


class Play(NamedTuple):
    """One play of a collected deal: the hand it was chosen from, the card, what was seen."""

    seed: int
    kind: str
    hand: list[int]
    card: int
    table: int
    seen: int

    def features(self) -> tuple[list[tuple[float, ...]], int]:
        """``play_features`` of each card of the hand, and the index of the card played."""
        unseen = unseen_by_value(self.seen)
        cards = [play_features(c, self.table, unseen) for c in self.hand]
        return cards, self.hand.index(self.card)


def collect(count: int, seed: int, baseline: str, out: Path, work: int | None = None) -> int:
    """Plays ``count`` deals (seats swapped) and appends every play to ``out``; returns plays."""
    written = 0
    with out.open("a", encoding="utf-8") as f:
        for number in range((count + 1) // 2 * 2):
            deck, rotation = seed + number // 2, number % 2
            game = scopa.new_game(scopa.Rules(variant="scopone"), seed=deck)
            hard = HardPlayer() if work is None else HardPlayer(work=work)
            players = [hard if s % 2 == rotation else BASELINES[baseline]() for s in range(4)]
            moves = random.Random(deck * 7919 + rotation)
            seen = 0
            while not game.is_over and not game.smazzate:
                seat = game.current_player
                assert seat is not None
                view = game.view(seat)
                table = mask_of(view.table)
                seen |= table
                hand = [c for c in range(40) if game._hands[seat] >> c & 1]
                move = players[seat].choose(view, moves)
                card, capture = parse_move(move)
                last = view.deck_count == 0 and sum(view.hand_counts) == 1
                row = {
                    "seed": deck,
                    "kind": "hard" if players[seat] is hard else baseline,
                    "hand": hand,
                    "card": card,
                    "table": table,
                    "seen": seen,
                    "last": last,
                }
                f.write(json.dumps(row) + "\n")
                written += 1
                seen |= 1 << card | capture
                game = game.play(move)
    return written


def _rows(paths: list[Path]) -> list[Play]:
    """The plays of ``collect``'s files that had a choice (a hand of two cards or more, not the
    deal's last play)."""
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                if len(r["hand"]) > 1 and not r["last"]:
                    rows.append(
                        Play(r["seed"], r["kind"], r["hand"], r["card"], r["table"], r["seen"])
                    )
    return rows


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(a[r][i]))
        a[i], a[pivot] = a[pivot], a[i]
        for r in range(n):
            if r != i and a[i][i]:
                factor = a[r][i] / a[i][i]
                for k in range(i, n + 1):
                    a[r][k] -= factor * a[i][k]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def fit(data: list[tuple[list[tuple[float, ...]], int]], ridge: float = 1.0) -> list[float]:
    """The conditional logit's coefficients (Newton's method, at most 30 steps)."""
    n = len(data[0][0][0]) if data else len(FEATURES)
    theta = [0.0] * n
    for _ in range(30):
        grad = [-ridge * t for t in theta]
        hess = [[-ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
        for cards, chosen in data:
            utils = [sum(t * x for t, x in zip(theta, f, strict=True)) for f in cards]
            top = max(utils)
            ps = [math.exp(u - top) for u in utils]
            z = sum(ps)
            ps = [p / z for p in ps]
            mean = [sum(p * f[i] for p, f in zip(ps, cards, strict=True)) for i in range(n)]
            for i in range(n):
                grad[i] += cards[chosen][i] - mean[i]
                for j in range(i, n):
                    cov = sum(p * f[i] * f[j] for p, f in zip(ps, cards, strict=True))
                    hess[i][j] -= cov - mean[i] * mean[j]
        for i in range(n):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve([[-h for h in row] for row in hess], grad)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return theta


def _score(utils: list[float], chosen: int) -> tuple[float, bool]:
    top = max(utils)
    z = sum(math.exp(u - top) for u in utils)
    best = max(range(len(utils)), key=lambda i: utils[i])
    return utils[chosen] - top - math.log(z), best == chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/play_model.py",
        description="Collect plays and fit the model hard reads the others' hands with.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play deals and write every play")
    c.add_argument("--count", type=int, default=20, help="deals (seats swapped: even)")
    c.add_argument("--seed", type=int, default=9000, help="the first deck seed")
    c.add_argument("--baseline", default="flatmc", choices=sorted(BASELINES))
    c.add_argument("--work", type=int, default=None, help="hard's work budget a move")
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="fit on the even seeds, score on the odd ones")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args(argv)
    if args.command == "collect":
        if args.count < 1:
            parser.error("--count must be at least 1")
        plays = collect(args.count, args.seed, args.baseline, args.out, args.work)
        print(f"{plays} plays written to {args.out}")
        return 0
    rows = _rows(args.files)
    train = [r.features() for r in rows if r.seed % 2 == 0]
    theta = fit(train, args.ridge)
    print(f"{len(rows)} plays with a choice ({len(train)} fitted on)")
    for name, t in zip(FEATURES, theta, strict=True):
        print(f"  {name:18s} {t:+.3f}")
    print("  FITTED = (" + ", ".join(f"{t:.3f}" for t in theta) + ")")
    held: dict[str, list[tuple[float, bool, float, bool, float]]] = defaultdict(list)
    for row in rows:
        if row.seed % 2 == 0:
            continue
        cards, chosen = row.features()
        ours = [sum(t * x for t, x in zip(theta, f, strict=True)) for f in cards]
        greedy = [
            DEFAULT_BETA * careful_value(c, row.table) if row.table else 0.0 for c in row.hand
        ]
        scores = (*_score(ours, chosen), *_score(greedy, chosen), -math.log(len(row.hand)))
        held[row.kind].append(scores)
        held["all"].append(scores)
    print(f"held out (odd seeds): the fit above vs the careful greedy at {DEFAULT_BETA}")
    print("kind      plays  fitted loglik  right   greedy loglik  right   uniform loglik")
    for kind, rows_of in sorted(held.items()):
        n = len(rows_of)
        mean = [sum(s[i] for s in rows_of) / n for i in range(5)]
        print(
            f"{kind:8s} {n:6d}  {mean[0]:13.3f}  {mean[1]:5.1%}  {mean[2]:13.3f}"
            f"  {mean[3]:5.1%}  {mean[4]:14.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
