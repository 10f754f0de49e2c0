"""How well each reading of the others' plays guesses the hidden hands (Scopone): the figures of
docs/ai-notebook.md ("What the readings guess", the third and fourth passes).

``hard`` (at ``--work``) plays a side against a baseline pair (``benchmarks/baselines``) on fixed
deals, seats swapped; at each of hard's moves from the ``--from``-th card played on, the deals of
the unseen cards each reading gives are compared with the true hands: the share of the partner's
cards, and of the opponents', that a deal puts in the right hand (weighted by the deal's weight),
and the weights' effective sample size as a share of the deals (1 for unweighted deals: the
playouts a weighted search wastes are the rest). A perfect guess scores 1; dealing at random
scores about a third early in the smazzata.

Readings: ``uniform`` (nothing read), ``inference`` (the plain inference: a sweep or a capture
not made), ``likelihood B`` (``engine.scopa.ai.evidence`` at sharpness B, every other seat; 0.3 is
hard's sharpness), ``fitted xS`` (the same with the model fitted to strong players' plays,
``HardPlayer(model="fitted")``, its coefficients times S), ``beginner P`` (the likelihood at
0.3 mixed with a beginner's model, prior P: ``HardPlayer(beginner=P)``; 0.2 is hard's default
reading), ``partner B`` (the careful greedy's likelihood for the partner's plays only).

    python benchmarks/reading.py --count 20
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.baselines import BASELINES
from engine import scopa
from engine.scopa import ScopaView
from engine.scopa.ai.determinize import Dealer, Evidence, InfoSet, info_set
from engine.scopa.ai.evidence import DEFAULT_BETA, evidence, log_likelihood
from engine.scopa.ai.hard import HardPlayer

__all__ = ["main", "readings", "score"]

SHARPNESS = (0.3, 0.6, 1.0)
FITTED_SCALES = (1.0, 1.5)
BEGINNER = 0.2


def readings(view: ScopaView) -> list[tuple[str, InfoSet, Evidence]]:
    """Each reading of ``view``: (name, the information set it deals from, its evidence)."""
    plain = info_set(view, inference=False)
    assert view.seat is not None
    partner = (view.seat + 2) % 4
    found: list[tuple[str, InfoSet, Evidence]] = [
        ("uniform", plain, ()),
        ("inference", info_set(view), ()),
    ]
    for beta in SHARPNESS:
        found.append((f"likelihood {beta}", plain, evidence(view, plain.fast, beta)))
    for scale in FITTED_SCALES:
        fitted = evidence(view, plain.fast, DEFAULT_BETA * scale, fitted=True)
        found.append((f"fitted x{scale:g}", plain, fitted))
    mixed = evidence(view, plain.fast, DEFAULT_BETA, beginner=BEGINNER)
    found.append((f"beginner {BEGINNER:g}", plain, mixed))
    for beta in SHARPNESS:
        only = evidence(view, plain.fast, beta, seats=(partner,))
        found.append((f"partner {beta}", plain, only))
    return found


def score(
    info: InfoSet, found: Evidence, hands: list[set[int]], deals: int, rng: random.Random
) -> tuple[float, float, float]:
    """(the partner's cards guessed, the opponents' cards guessed, effective sample share)."""
    seat = info.seat
    partner, opponents = (seat + 2) % 4, ((seat + 1) % 4, (seat + 3) % 4)
    deal = Dealer(info, rng).deal
    total = squares = mine = theirs = 0.0
    logs, shares = [], []
    for _ in range(deals):
        state = deal()
        logs.append(log_likelihood(found, state.hands) if found else 0.0)
        guessed = state.hands
        them = sum(len(hands[o] & set(guessed[o])) for o in opponents)
        shares.append(
            (
                len(hands[partner] & set(guessed[partner])) / max(len(hands[partner]), 1),
                them / max(sum(len(hands[o]) for o in opponents), 1),
            )
        )
    top = max(logs)
    for log, (p, o) in zip(logs, shares, strict=True):
        w = math.exp(log - top)
        total += w
        squares += w * w
        mine += w * p
        theirs += w * o
    return mine / total, theirs / total, total * total / squares / deals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/reading.py",
        description="How well each reading of the others' plays guesses the hidden hands.",
    )
    parser.add_argument("--count", type=int, default=20, help="deals (seats swapped: even)")
    parser.add_argument("--seed", type=int, default=6000, help="the first deck seed")
    parser.add_argument("--baseline", default="flatmc", choices=sorted(BASELINES))
    parser.add_argument("--work", type=int, default=None, help="hard's work budget a move")
    parser.add_argument("--deals", type=int, default=200, help="deals per reading and move")
    parser.add_argument("--from", dest="start", type=int, default=4, help="cards played first")
    args = parser.parse_args(argv)
    if args.count < 1 or args.deals < 1:
        parser.error("--count and --deals must be at least 1")
    options = {} if args.work is None else {"work": args.work}
    found: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    rng = random.Random(args.seed)
    for number in range((args.count + 1) // 2 * 2):
        seed, rotation = args.seed + number // 2, number % 2
        game = scopa.new_game(scopa.Rules(variant="scopone"), seed=seed)
        hard = HardPlayer(**options)
        players = [hard if s % 2 == rotation else BASELINES[args.baseline]() for s in range(4)]
        moves = random.Random(seed * 7919 + rotation)
        while not game.is_over and not game.smazzate:
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            if players[seat] is hard and args.start <= len(view.history) and len(view.hand) > 1:
                hands = [{c for c in range(40) if game._hands[s] >> c & 1} for s in range(4)]
                for name, info, reading in readings(view):
                    found[name].append(score(info, reading, hands, args.deals, rng))
            game = game.play(players[seat].choose(view, moves))
    print(
        f"{args.count} Scopone deals, hard vs {args.baseline}, {args.deals} deals a reading;"
        f" hard's moves from the {args.start}th card played"
    )
    print("reading            moves  partner's cards  opponents' cards  effective share")
    for name, rows in found.items():
        p, o, e = (statistics.fmean(column) for column in zip(*rows, strict=True))
        print(f"{name:18s} {len(rows):6d}  {p:15.3f}  {o:16.3f}  {e:15.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
