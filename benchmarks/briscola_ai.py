"""Briscola computer players' strength and speed: prints the figures of benchmarks/README.md
"Briscola and chiamata".

Sections (``--only`` picks some; all by default):

* ``speed``: hard's CPU seconds per move (median, 90th percentile, max) in 2-player, 4-player
  and chiamata deals where hard plays every seat;
* ``duel``: single 2-player deals between two levels (``--pairs hard:easy,hard:medium,
  medium:easy``), each deck seed dealt twice with the players' seats swapped, so each player gets
  every hand; the win rate is over the deals that are not drawn (60-60), with its 95% Wilson
  interval, and the draws are counted;
* ``chiamata``: 5-player chiamata deals, one ``--chiamata-player`` (hard) against four
  ``--chiamata-field`` players (easy), its seat rotated over all five for every deck seed; the
  figure is how often the caller's side reaches 61 when hard won the auction with a rank call
  (threshold 61), with its Wilson interval; point bids and deals it did not call are counted.

Usage: nice -n 10 python benchmarks/briscola_ai.py [--only duel] [--deals N] [--pairs ...]
[--chiamata-deals N] [--iterations N] [--jobs N]. ``--deals`` is the number of deals per pair
(seeds x 2 seatings).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.simulate import in_processes, wilson
from engine import briscola
from engine.ai import get_player
from engine.briscola.ai.players import DEFAULT_ITERATIONS

SECTIONS = ("speed", "duel", "chiamata")
SEED_BASE = 10_000  # deck seeds are SEED_BASE + k, fixed, so every run deals the same hands


def _player(name: str, iterations: int) -> Any:
    full = f"briscola-{name}"
    if name == "hard":
        return get_player(full, iterations=iterations)
    return get_player(full)


def first_deal(
    rules: briscola.Rules, seed: int, names: Sequence[str], iterations: int
) -> briscola.Game:
    """Play one deal of ``rules`` from deck ``seed`` with player ``names[seat]`` per seat; the
    game just after the deal was scored."""
    players = [_player(name, iterations) for name in names]
    game = briscola.new_game(rules, seed=seed)
    rng = random.Random(seed * 7 + 1)
    while not game.deal_results:
        seat = game.current_player
        assert seat is not None
        game = game.play(players[seat].choose(game.view(seat), rng))
    return game


def _duel_job(job: tuple[str, str, int, int, int]) -> tuple[int, int]:
    """(points of ``a``, its seat) in one deal; ``a`` sits at ``seat``."""
    a, b, seed, seat, iterations = job
    names = [b, b]
    names[seat] = a
    game = first_deal(briscola.Rules(), seed, names, iterations)
    return game.deal_results[0].points[seat], seat


def _chiamata_job(job: tuple[str, str, int, int, int]) -> dict[str, Any]:
    player, field, seed, seat, iterations = job
    names = [field] * 5
    names[seat] = player
    game = first_deal(briscola.Rules(variant="chiamata"), seed, names, iterations)
    result = game.deal_results[0]
    return {
        "caller": result.caller == seat,
        "socio": result.socio == seat and result.caller != seat,
        "threshold": result.threshold,
        "won": result.won,
        "alone": result.alone,
        "score": result.scores[seat],
    }


def duel(
    pairs: Sequence[tuple[str, str]], deals: int, iterations: int, workers: int, every: int = 0
) -> None:
    """Each pair's figures; with ``every``, also the running figures every that many deals."""
    seeds = max(1, deals // 2)
    for a, b in pairs:
        jobs = [(a, b, SEED_BASE + k, seat, iterations) for k in range(seeds) for seat in (0, 1)]
        start = time.perf_counter()
        tally = [0, 0, 0]  # wins, losses, draws of a
        margin: list[int] = []
        for done, (points, _seat) in enumerate(in_processes(_duel_job, jobs, workers), 1):
            margin.append(points - (120 - points))
            tally[0 if points > 60 else 1 if points < 60 else 2] += 1
            if done == len(jobs) or (every and done % every == 0):
                _duel_line(a, b, done, tally, margin, time.perf_counter() - start)


def _duel_line(
    a: str, b: str, done: int, tally: Sequence[int], margin: Sequence[int], seconds: float
) -> None:
    wins, losses, draws = tally
    decided = wins + losses
    low, high = wilson(wins, decided)
    print(
        f"duel 2p {a} vs {b}: {done} deals (seeds x 2 seatings), "
        f"{a} wins {wins}, loses {losses}, draws {draws}; "
        f"{a} wins {wins / max(1, decided):.1%} of decided deals "
        f"(95% {low:.1%}-{high:.1%}); mean margin {statistics.mean(margin):+.1f} points; "
        f"{seconds:.0f} s",
        flush=True,
    )


def chiamata(player: str, field: str, deals: int, iterations: int, workers: int) -> None:
    seeds = max(1, deals // 5)
    jobs = [
        (player, field, SEED_BASE + k, seat, iterations) for k in range(seeds) for seat in range(5)
    ]
    start = time.perf_counter()
    rows = list(in_processes(_chiamata_job, jobs, workers))
    calls61 = [r for r in rows if r["caller"] and r["threshold"] == 61]
    won61 = sum(1 for r in calls61 if r["won"])
    alone = sum(1 for r in calls61 if r["alone"])
    points = [r for r in rows if r["caller"] and r["threshold"] != 61]
    won_points = sum(1 for r in points if r["won"])
    socio = [r for r in rows if r["socio"]]
    low, high = wilson(won61, len(calls61))
    print(
        f"chiamata {player} vs 4 {field}: {len(rows)} deals ({seeds} seeds x 5 seats); "
        f"{player} called at 61 in {len(calls61)} deals (alone {alone}) and won "
        f"{won61 / max(1, len(calls61)):.1%} of them (95% {low:.1%}-{high:.1%}); "
        f"point bids {len(points)} (won {won_points}); socio in {len(socio)} "
        f"(won {sum(1 for r in socio if r['won'])}); mean score a deal "
        f"{statistics.mean(r['score'] for r in rows):+.2f}; "
        f"{time.perf_counter() - start:.0f} s"
    )
    field_rows = _field_baseline(field, seeds, iterations, workers)
    if field_rows:
        calls = [r for r in field_rows if r["caller"] and r["threshold"] == 61]
        won = sum(1 for r in calls if r["won"])
        low, high = wilson(won, len(calls))
        print(
            f"  baseline: {field} in the same seat among 4 {field}: called at 61 in {len(calls)}"
            f" deals and won {won / max(1, len(calls)):.1%} (95% {low:.1%}-{high:.1%}); "
            f"mean score a deal {statistics.mean(r['score'] for r in field_rows):+.2f}"
        )


def _field_baseline(field: str, seeds: int, iterations: int, workers: int) -> list[Any]:
    jobs = [
        (field, field, SEED_BASE + k, seat, iterations) for k in range(seeds) for seat in range(5)
    ]
    return list(in_processes(_chiamata_job, jobs, workers))


def speed(deals: int, iterations: int) -> None:
    hard = _player("hard", iterations)
    for label, rules in (
        ("2p", briscola.Rules()),
        ("4p", briscola.Rules(players=4)),
        ("chiamata", briscola.Rules(variant="chiamata")),
    ):
        cpus: list[float] = []
        bids: list[float] = []
        for k in range(deals):
            game = briscola.new_game(rules, seed=SEED_BASE + k)
            rng = random.Random(k)
            while not game.deal_results:
                seat = game.current_player
                assert seat is not None
                view = game.view(seat)
                cpu = time.process_time()
                move = hard.choose(view, rng)
                used = time.process_time() - cpu
                if game.phase is briscola.Phase.PLAY and len(view.legal_moves) > 1:
                    cpus.append(used)
                elif game.phase is not briscola.Phase.PLAY:
                    bids.append(used)
                game = game.play(move)
        cpus.sort()
        print(
            f"speed {label}: {len(cpus)} searched moves, CPU s/move median "
            f"{statistics.median(cpus):.3f}, p90 {cpus[int(len(cpus) * 0.9)]:.3f}, "
            f"max {cpus[-1]:.3f} ({iterations} iterations)"
            + (f"; {len(bids)} bids and calls, max {max(bids):.3f}" if bids else "")
        )


def main(argv: Sequence[str] | None = None) -> None:
    global SEED_BASE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--deals", type=int, default=200, help="deals per duel pair")
    parser.add_argument("--pairs", default="hard:easy,hard:medium,medium:easy")
    parser.add_argument("--chiamata-deals", type=int, default=100)
    parser.add_argument("--chiamata-player", default="hard")
    parser.add_argument("--chiamata-field", default="easy")
    parser.add_argument("--speed-deals", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--first-seed", type=int, default=SEED_BASE, help="the first deck seed (runs combine)"
    )
    parser.add_argument("--every", type=int, default=0, help="running duel figures every N deals")
    args = parser.parse_args(argv)
    SEED_BASE = args.first_seed
    only = set(args.only.split(","))
    unknown = only - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; there are {', '.join(SECTIONS)}")
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, hard at {args.iterations} iterations, first seed {SEED_BASE}"
    )
    if "speed" in only:
        speed(args.speed_deals, args.iterations)
    if "duel" in only:
        pairs = [tuple(p.split(":", 1)) for p in args.pairs.split(",")]
        duel([(a, b) for a, b in pairs], args.deals, args.iterations, args.jobs, args.every)
    if "chiamata" in only:
        chiamata(
            args.chiamata_player,
            args.chiamata_field,
            args.chiamata_deals,
            args.iterations,
            args.jobs,
        )


if __name__ == "__main__":
    main()
