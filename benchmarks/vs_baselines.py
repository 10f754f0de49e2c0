"""Our computer levels against players written independently of the engine's players
(``benchmarks/baselines``): the figures of benchmarks/README.md "Computer players".

Protocol (Di Palma & Lanzi, IEEE Trans. Games 2018): fixed deals (deck seeds ``--seed`` ..), every
seed played once per rotation of the players over the sides (**seats swapped**: with two sides the
same deal twice, hands exchanged), win rates with 95% Wilson intervals, a tie (equal points) not a
win, split by whether the level's side is the dealer's.

    python benchmarks/vs_baselines.py --game scopone --level hard --baseline flatmc --count 100
    python benchmarks/vs_baselines.py --game scopa --level hard --baseline flatmc --count 20
    python benchmarks/vs_baselines.py --game scopa --seats 3 --level medium --baseline expert
    python benchmarks/vs_baselines.py --game scala40 --seats 4 --level scala40 --baseline rummy

``--count`` is deals (Scopone, or ``--deals``) or games (Scopa: whole games to 11; Scala 40:
whole matches), rounded up to whole rotations. Levels: ``easy``, ``medium``, ``hard`` (options
``--iterations`` / ``--seconds``), Scala 40: ``scala40``, ``scala40-medium``, ``scala40-easy``;
``oracle`` is ``hard`` told every hand and the deck, a ceiling (``benchmarks/oracle.py``).
Baselines: ``flatmc``, ``expert``, ``greedy`` (the beginner), ``simgreedy`` (Scopa family),
``rummy`` (Scala 40). With
three or more seats the level plays one seat against baselines in all the others.
A partial run (SIGINT / SIGTERM) prints what was played in whole rotations; a running summary is
printed every ``--every`` results, so a killed run still leaves its figures; ``--log FILE``
appends each deal's or game's result as a JSON line (to pair two runs on the same seeds).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.baselines import BASELINES
from benchmarks.oracle import Oracle
from bot.simulate import in_processes, mean_interval, wilson
from engine import scala40, scopa
from engine.ai import get_player

MAX_SCALA40_MOVES = 200_000


@dataclass(frozen=True, slots=True)
class Job:
    game: str
    seats: int
    seed: int
    rotation: int  # the level's side (Scopone, Scopa 2) or seat
    level: str
    options: tuple[tuple[str, Any], ...]
    baseline: str
    deals: bool


@dataclass(frozen=True, slots=True)
class Result:
    job: Job
    won: bool
    tie: bool
    dealer: bool  # the level's side dealt (the first deal, for whole games)
    margin: float
    move_wall: tuple[float, ...]
    move_cpu: tuple[float, ...]
    smazzate: int


def _side_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def _level(job: Job) -> Any:
    """The level's player: an engine player by name, or ``oracle`` (``benchmarks/oracle.py``)."""
    if job.level == "oracle":
        return Oracle(**dict(job.options))
    return get_player(job.level, **dict(job.options))


def _play_scopa(job: Job) -> Result:
    variant = "scopone" if job.game == "scopone" else "scopa"
    rules = scopa.Rules(variant=variant, players=job.seats)
    game = scopa.new_game(rules, seed=job.seed)
    level = _level(job)
    n = rules.players
    players: list[Any] = []
    for seat in range(n):
        own = _side_of(seat, n) == job.rotation
        players.append(level if own else BASELINES[job.baseline]())
    rng = random.Random(job.seed * 7919 + job.rotation)
    walls: list[float] = []
    cpus: list[float] = []
    dealer = _side_of(game.dealer, n) == job.rotation
    while not game.is_over and not (job.deals and game.smazzate):
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        player = players[seat]
        if player is level and isinstance(level, Oracle):
            level.see(game)
        began, cpu = time.perf_counter(), time.process_time()
        move = player.choose(view, rng)
        if player is level and len([m for m in view.legal_moves if not m.endswith("!")]) > 1:
            walls.append(time.perf_counter() - began)
            cpus.append(time.process_time() - cpu)
        game = game.play(move)
    if job.deals:
        points = [s["total"] for s in game.smazzate[0].scores]
        outcome = game.outcome() if game.smazzate[0].fuori is not None else None
        winner = outcome.winner if outcome is not None else None
        if outcome is None:
            best = max(points)
            winner = points.index(best) if points.count(best) == 1 else None
    else:
        final = game.outcome()
        assert final is not None
        points, winner = list(final.points), final.winner
    own = points[job.rotation]
    margin = own - max(p for s, p in enumerate(points) if s != job.rotation)
    return Result(
        job,
        winner == job.rotation,
        winner is None,
        dealer,
        float(margin),
        tuple(walls),
        tuple(cpus),
        len(game.smazzate),
    )


def _play_scala40(job: Job) -> Result:
    game = scala40.new_game(scala40.Rules(players=job.seats), seed=job.seed)
    level = get_player(job.level, **dict(job.options))
    players = [
        level if seat == job.rotation else BASELINES[job.baseline]() for seat in range(job.seats)
    ]
    rng = random.Random(job.seed * 7919 + job.rotation)
    dealer = game.dealer == job.rotation
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(MAX_SCALA40_MOVES):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        player = players[seat]
        began, cpu = time.perf_counter(), time.process_time()
        move = player.choose(view, rng)
        if player is level and len(view.legal_moves) > 1:
            walls.append(time.perf_counter() - began)
            cpus.append(time.process_time() - cpu)
        game = game.play(move)
    else:
        raise RuntimeError(f"a Scala 40 match (seed {job.seed}) did not end")
    scores = game.view(None).scores
    own = scores[job.rotation]
    margin = min(s for i, s in enumerate(scores) if i != job.rotation) - own
    return Result(
        job,
        game.winner == job.rotation,
        game.winner is None,
        dealer,
        float(margin),
        tuple(walls),
        tuple(cpus),
        0,
    )


def play(job: Job) -> Result:
    return _play_scala40(job) if job.game == "scala40" else _play_scopa(job)


@dataclass
class Tally:
    n: int = 0
    wins: int = 0
    ties: int = 0
    margins: list[float] = field(default_factory=list)
    roles: dict[bool, list[int]] = field(default_factory=dict)
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    smazzate: int = 0

    def add(self, r: Result) -> None:
        self.n += 1
        self.wins += r.won
        self.ties += r.tie
        self.margins.append(r.margin)
        row = self.roles.setdefault(r.dealer, [0, 0, 0])
        row[0] += 1
        row[1] += r.won
        row[2] += r.tie
        self.walls.extend(r.move_wall)
        self.cpus.extend(r.move_cpu)
        self.smazzate += r.smazzate


def rate_text(wins: int, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins}/{n} = {100 * wins / max(n, 1):.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f})"


def summary(t: Tally, *, unit: str, level: str, baseline: str, seats: int) -> list[str]:
    lines = [
        f"{level} vs {baseline}: {rate_text(t.wins, t.n)} {unit} won;"
        f" ties {100 * t.ties / max(t.n, 1):.1f}%,"
        f" the other side(s) {100 * (t.n - t.wins - t.ties) / max(t.n, 1):.1f}%"
    ]
    if t.smazzate and unit == "games":
        lines[0] += f"; {t.smazzate} deals played"
    mean, half = mean_interval(t.margins)
    lines.append(f"  margin over the best other: {mean:+.2f} +- {half:.2f} (95% CI)")
    if seats in (2, 4):
        for dealer, (n, wins, ties) in sorted(t.roles.items(), reverse=True):
            role = "dealer side" if dealer else "non-dealer side"
            if unit == "games":
                role = "first dealer" if dealer else "first to play"
            lines.append(f"  as {role}: {rate_text(wins, n)}, ties {100 * ties / max(n, 1):.1f}%")
    if t.walls:
        walls, cpus = sorted(t.walls), sorted(t.cpus)
        lines.append(
            f"  {level}'s searched moves: {len(walls)}; wall s median"
            f" {statistics.median(walls):.3f}, p90 {walls[int(0.9 * (len(walls) - 1))]:.3f},"
            f" max {walls[-1]:.3f}; CPU s median {statistics.median(cpus):.3f},"
            f" max {cpus[-1]:.3f}"
        )
    return lines


def _log_line(r: Result) -> dict[str, Any]:
    """One result as a JSON object (``--log``): enough to pair two runs deal by deal."""
    return {
        "seed": r.job.seed,
        "rotation": r.job.rotation,
        "won": r.won,
        "tie": r.tie,
        "dealer": r.dealer,
        "margin": r.margin,
        "moves": len(r.move_cpu),
        "cpu": round(sum(r.move_cpu), 3),
    }


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _level_options(args: argparse.Namespace) -> dict[str, Any]:
    """The level's player's options: hard's budget, then every ``--option NAME=VALUE``."""
    options: dict[str, Any] = {}
    if args.level == "hard":
        if args.iterations is not None:
            options["iterations"] = args.iterations
        if args.seconds is not None:
            options["seconds"] = args.seconds
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = json.loads(value)
    return options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("scopone", "scopa", "scala40"), default="scopone")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--baseline", choices=sorted(BASELINES), default="flatmc")
    parser.add_argument("--count", type=int, default=20, help="deals or games in all")
    parser.add_argument("--deals", action="store_true", help="Scopa: single deals, not games")
    parser.add_argument("--seed", type=int, default=1, help="first deck seed")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=None, help="hard: iterations per move")
    parser.add_argument("--seconds", type=float, default=None, help="hard: seconds per move")
    parser.add_argument("--every", type=int, default=50, help="print a running summary")
    parser.add_argument(
        "--log", type=Path, default=None, help="append one JSON line per deal or game played"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="another option of the level's player (a JSON value), e.g. --option epsilon=0.1",
    )
    args = parser.parse_args(argv)
    seats = args.seats or (4 if args.game in ("scopone", "scala40") else 2)
    if args.game == "scopone" and seats != 4:
        parser.error("Scopone is played by 4")
    deals = args.game == "scopone" or args.deals
    places = 2 if seats == 4 and args.game != "scala40" else seats
    options = _level_options(args)
    seeds = -(-args.count // places)
    jobs = [
        Job(
            args.game,
            seats,
            args.seed + k,
            rotation,
            args.level,
            tuple(sorted(options.items())),
            args.baseline,
            deals,
        )
        for k in range(seeds)
        for rotation in range(places)
    ]
    unit = "deals" if deals else ("matches" if args.game == "scala40" else "games")
    budget = " ".join(f"{k}={v}" for k, v in sorted(options.items())) or "default budget"
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load"
        f" {os.getloadavg()[0]:.1f}; {args.game} {seats} seats, {args.level} ({budget}) vs"
        f" {args.baseline}; seeds {args.seed}..{args.seed + seeds - 1}, {len(jobs)} {unit}",
        flush=True,
    )
    tally = Tally()
    started = time.perf_counter()
    previous = {s: signal.signal(s, _interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    done: list[Result] = []
    try:
        for result in in_processes(play, jobs, args.jobs):
            done.append(result)
            if args.log is not None:
                with args.log.open("a") as log:
                    log.write(json.dumps(_log_line(result)) + "\n")
            if len(done) % args.every == 0 and len(done) % places == 0:
                t = Tally()
                for r in done:
                    t.add(r)
                print(
                    f"-- after {len(done)} {unit}, {time.perf_counter() - started:.0f}s", flush=True
                )
                for line in summary(
                    t, unit=unit, level=args.level, baseline=args.baseline, seats=seats
                ):
                    print(line, flush=True)
    except KeyboardInterrupt:
        # A second signal (a wrapper such as timeout forwarding it) must not cut the summary.
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)
        print(f"(interrupted after {len(done)} {unit})", flush=True)
        done = done[: len(done) - len(done) % places]
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    for r in done:
        tally.add(r)
    print(f"== final: {len(done)} {unit}, {time.perf_counter() - started:.0f}s", flush=True)
    for line in summary(tally, unit=unit, level=args.level, baseline=args.baseline, seats=seats):
        print(line)
    played = len(done) // places
    print(f"  (next seeds: --seed {args.seed + played})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
