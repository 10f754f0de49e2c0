"""Scala 40 engine figures: random hands per second and the opening helper's worst case.

Run from the repository root: ``python benchmarks/engine_scala40.py`` (``--quick`` for a short
run). ``main()`` is what ``benchmarks/engine.py`` calls.

* Hands per second: 4 players, each move chosen at random among the legal moves, except that a
  player who can open does so at once (the best opening the engine offers). Every hand is played
  to its close; matches are restarted as needed.
* Opening helper: ``best_opening`` on random 14-card hands holding exactly 2 jokers and 12
  random cards of the two decks, timed one by one; then a few crafted hands full of overlapping
  melds, the search's hardest inputs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import Card, french_deck, parse_cards
from engine.scala40 import MoveKind, Rules, best_opening, new_game

CRAFTED = [
    "5D 6D 7D 5C 6C 7C 5S 6S 7S 5B 6B 7B * *",
    "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD * *",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD * *",
    "5D 5D' 6D 6D' 7D 7D' 8D 8D' 9D 9D' TD TD' * *",
    "AD AC AS AB KD KC KS KB QD QC QS QB * *",
    "9D TD JD QD 9C TC JC QC 9S TS JS QS * *",
    "3D 4D 5D 3C 4C 5C 3S 4S 5S 4B 5B 6B * *",
]


def hands_per_second(hands: int, seed: int) -> tuple[float, int, float]:
    """Play ``hands`` hands; return (hands per second, moves played, seconds)."""
    rng = random.Random(seed)
    # The max_restocks safeguard only guarantees that a rare deadlocked hand cannot hang the run.
    rules = Rules(players=4, max_restocks=10)
    done = moves = 0
    match = 0
    start = time.perf_counter()
    while done < hands:
        game = new_game(rules, seed=seed * 1000 + match)
        match += 1
        while not game.is_over and done < hands:
            legal = game.legal_moves()
            opening = [m for m in legal if m.kind is MoveKind.OPEN]
            number = game.hand_number
            game = game.play(opening[0] if opening else rng.choice(legal))
            moves += 1
            if game.last_hand is not None and (game.hand_number != number or game.is_over):
                done += 1
    seconds = time.perf_counter() - start
    return done / seconds, moves, seconds


def opening_times(count: int, seed: int) -> list[tuple[float, float, str]]:
    """(wall seconds, CPU seconds, hand) per ``best_opening`` call on ``count`` random 14-card
    hands with 2 jokers. CPU time (``thread_time``) leaves out the time the shared machine gave
    to other processes."""
    rng = random.Random(seed)
    deck = [*french_deck(0), *french_deck(1)]
    real = [card for card in deck if not card.is_joker]
    jokers = [card for card in deck if card.is_joker][:2]
    times = []
    for _ in range(count):
        hand: list[Card] = rng.sample(real, 12) + jokers
        rng.shuffle(hand)
        wall, cpu = time.perf_counter(), time.thread_time()
        best_opening(hand)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        times.append((wall, cpu, " ".join(map(str, hand))))
    return times


def retime(text: str, repeat: int = 5) -> float:
    """The best wall time of ``repeat`` runs on one hand (noise from other processes removed)."""
    hand = parse_cards(text)
    return min(_timed(hand) for _ in range(repeat))


def crafted_times() -> list[tuple[str, float, float]]:
    """(hand, best wall seconds, best CPU seconds) of 3 runs on each crafted hand."""
    results = []
    for text in CRAFTED:
        hand = parse_cards(text)
        runs = [_timed_both(hand) for _ in range(3)]
        results.append((text, min(w for w, _ in runs), min(c for _, c in runs)))
    return results


def _timed_both(hand: tuple[Card, ...]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.thread_time()
    best_opening(hand)
    return time.perf_counter() - wall, time.thread_time() - cpu


def _timed(hand: tuple[Card, ...]) -> float:
    start = time.perf_counter()
    best_opening(hand)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Print the Scala 40 figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands to play")
    parser.add_argument("--openings", type=int, default=10_000, help="random opening hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="20 hands, 1,000 opening hands")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.openings = 20, 1000
    print("Scala 40 engine")
    print(f"  machine: {os.cpu_count()} cores, Python {platform.python_version()}")
    rate, moves, seconds = hands_per_second(args.hands, args.seed)
    print(
        f"  random hands (4 players, random legal moves, opening when possible): "
        f"{rate:.1f} hands/s ({args.hands} hands, {moves} moves, {seconds:.1f} s, "
        f"{moves / seconds:.0f} moves/s)"
    )
    results = opening_times(args.openings, args.seed)
    walls = sorted(wall for wall, _, _ in results)
    cpus = sorted(cpu for _, cpu, _ in results)
    *_, worst_hand = max(results, key=lambda item: item[1])
    print(
        f"  best_opening, {args.openings} random 14-card hands with 2 jokers: "
        f"worst {walls[-1] * 1000:.2f} ms wall / {cpus[-1] * 1000:.2f} ms CPU, "
        f"p99 {walls[int(len(walls) * 0.99)] * 1000:.2f} ms, "
        f"mean {statistics.fmean(walls) * 1000:.2f} ms"
    )
    print(
        f"  best_opening, the hand with the worst CPU time, re-run: "
        f"{retime(worst_hand) * 1000:.2f} ms ({worst_hand})"
    )
    crafted = crafted_times()
    worst_text, worst, worst_cpu = max(crafted, key=lambda item: item[2])
    print(
        f"  best_opening, {len(crafted)} crafted hands full of overlapping melds: worst "
        f"{worst * 1000:.2f} ms wall / {worst_cpu * 1000:.2f} ms CPU ({worst_text})"
    )


if __name__ == "__main__":
    main()
