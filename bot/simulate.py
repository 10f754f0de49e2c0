"""``tavolo simulate``: computer players against each other, fixed deck seeds, seats swapped.

    python -m bot.simulate --game scopone --players hard,easy --games 1000
    python -m bot.simulate --game scopone --players medium,easy --deals --games 2000 --jobs 2
    python -m bot.simulate --game briscola --players hard,easy --deals --games 1000
    python -m bot.simulate --game chiamata --players hard,easy,easy,easy,easy --deals --games 1000

``--players`` names one player per side (Scopa with 3 players: one per seat). Every deck seed is
played once per rotation of the players over the sides, so each player gets every hand: the cards
cannot favour anyone. ``--deals`` plays single smazzate (the unit of Di Palma & Lanzi's Scopone
figures) and also splits the results by the dealer's side; otherwise whole games to the target.

Win rates come with a 95% Wilson interval; a tie (same points in a deal) is not a win, and the tie
rate is printed. The progress bar goes to stderr, the figures to stdout.
"""

from __future__ import annotations

import argparse
import math
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from types import FrameType
from typing import TypeAlias, TypeVar

from engine import scopa
from engine.ai import PLAYER_NAMES, Player, get_player

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

SCOPA_GAMES = {"scopa": "scopa", "scopone": "scopone", "scientifico": "scientifico"}
GAMES = (*SCOPA_GAMES, "scala40", "briscola", "chiamata")
MAX_SCALA40_MOVES = 200_000  # a random-legal match takes a few thousand

# A computer player's options for ``get_player``, sorted by name: ``--workers``, ``--epsilon``...
PlayerOptions: TypeAlias = tuple[tuple[str, int | float], ...]
# What ``signal.signal`` returns and takes back: a function, SIG_DFL / SIG_IGN, or None.
SignalHandler: TypeAlias = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: which players sit on which side, from which deck seed."""

    game: str
    rules: dict[str, object]
    seed: int
    rotation: int
    labels: tuple[str, ...]  # per side (or seat): the label of the player sitting there
    specs: tuple[tuple[str, PlayerOptions], ...]  # per side: name and options
    deals: bool


@dataclass(frozen=True, slots=True)
class Result:
    job: Job
    points: tuple[int, ...]  # per side: smazzata points (deals) or game points
    winner: int | None  # side, None on a tie
    dealer_side: int
    seconds: float
    deals: int = 1  # smazzate (Scala 40: hands) the game took
    # Briscola chiamata: (side, role, won) per deal: role "caller", "socio" or "other".
    roles: tuple[tuple[int, str, bool], ...] = ()


@dataclass
class Tally:
    label: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    points: int = 0
    # Own points minus the best other side's (Scala 40: the best other's penalty minus own).
    margins: list[int] = field(default_factory=list)
    by_role: dict[str, list[int]] = field(default_factory=dict)  # role -> [games, wins, ties]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sensible near 0 and 1, unlike p +- 2 se)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval (0 spread for fewer than 2)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return (mean, 0.0)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, 1.96 * math.sqrt(variance / n))


class _Players(argparse.Action):
    """``--players``: a number of players at the table, as for ``tavolo play``; the older form
    ``--players hard,easy`` (the computers) is still read as ``--computers``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        text = str(values).strip()
        if text.isdigit():
            namespace.seats = int(text)
        else:
            namespace.players = text


def _program() -> str:
    """How we were started, for the usage line: tavolo, python -m bot, python -m bot.simulate."""
    stem = Path(sys.argv[0]).stem
    if stem == "tavolo":
        return "tavolo simulate"
    return "python -m bot.simulate" if stem == "simulate" else "python -m bot simulate"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_program(),
        description="Play computer players against each other; print win rates with 95% CIs.",
        epilog=f"Example: {_program()} --game scopa --players 2 --computers hard,easy --games 20",
    )
    parser.add_argument(
        "--game", choices=GAMES, default="scopone", help="the game (default: scopone)"
    )
    parser.add_argument(
        "--players",
        dest="seats",
        metavar="N",
        action=_Players,
        help="number of players at the table, as in tavolo play (default: the game's usual "
        "number: Scopa 2, Scopone 4, Briscola 2, chiamata 5; Scala 40: one per computer)",
    )
    parser.add_argument("--seats", type=int, default=None, help=argparse.SUPPRESS)  # older name
    parser.add_argument(
        "--computers",
        dest="players",
        metavar="NAMES",
        default="hard,easy",
        help="the computer players, comma-separated, one per side (Scopa with 3 players: one "
        f"per seat); names: {', '.join(PLAYER_NAMES)} (default: hard,easy)",
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games (or deals) in all (default: 100)"
    )
    parser.add_argument(
        "--deals", action="store_true", help="single smazzate, not whole games (Scopa family)"
    )
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        help="points to win (Scopa family; default: the game's, 11); Briscola: games (or "
        "points) to win; not for chiamata",
    )
    parser.add_argument("--seed", type=int, default=1, help="first deck seed (default: 1)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played in parallel processes (default: 1)"
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="hard: iterations per move, a fixed and reproducible budget (one deal with every "
        "move tried, for the default flat search; default: the player's own deterministic work "
        "budget, unless --seconds is given)",
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="hard: seconds per move (default: none)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="hard: search processes per move (default: 1)"
    )
    parser.add_argument(
        "--epsilon",
        type=float,
        default=None,
        help="hard: playout randomness (default: the hard player's own)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _player_options(name: str, args: argparse.Namespace) -> PlayerOptions:
    if name != "hard":
        return ()
    options: dict[str, int | float] = {"workers": args.workers}
    if args.epsilon is not None:
        options["epsilon"] = args.epsilon
    if args.iterations is not None:
        options["iterations"] = args.iterations
    if args.seconds is not None:
        options["seconds"] = args.seconds
    return tuple(sorted(options.items()))


def _scopa_rules(args: argparse.Namespace) -> scopa.Rules:
    # None: the variant's own number of players and target.
    return scopa.Rules(variant=SCOPA_GAMES[args.game], players=args.seats, target=args.target)


def make_jobs(args: argparse.Namespace) -> tuple[list[Job], list[str]]:
    """The games to play, and the player labels (``name`` or ``name#k`` when a name repeats)."""
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    for name in names:
        if name not in PLAYER_NAMES:
            raise ValueError(f"no computer player {name!r}; there are: {', '.join(PLAYER_NAMES)}")
    if args.game == "scala40":
        rules_dict, places = _scala40_setup(args, names)
    elif args.game in ("briscola", "chiamata"):
        from bot import simulate_briscola

        rules_dict, places = simulate_briscola.setup(args, names)
    else:
        rules = _scopa_rules(args)
        rules_dict, places = rules.to_dict(), rules.sides
    if len(names) != places:
        raise ValueError(f"give {places} players (one per side) for this game; got {len(names)}")
    labels = [
        n if names.count(n) == 1 else f"{n}#{names[:i].count(n) + 1}" for i, n in enumerate(names)
    ]
    specs = [(n, _player_options(n, args)) for n in names]
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    seeds = -(-args.games // places)
    jobs = []
    for k in range(seeds):
        for rotation in range(places):
            order = [(side - rotation) % places for side in range(places)]
            jobs.append(
                Job(
                    game=args.game,
                    rules=rules_dict,
                    seed=args.seed + k,
                    rotation=rotation,
                    labels=tuple(labels[i] for i in order),
                    specs=tuple(specs[i] for i in order),
                    deals=args.deals,
                )
            )
    return jobs, labels


def _scala40_setup(args: argparse.Namespace, names: list[str]) -> tuple[dict[str, object], int]:
    from engine import scala40

    if args.deals:
        raise ValueError("--deals is for the Scopa family; Scala 40 plays whole matches")
    seats = args.seats if args.seats is not None else len(names)
    return scala40.Rules(players=seats).to_dict(), seats


def _play_scala40(job: Job) -> Result:
    """A whole Scala 40 match; ``points`` are the penalty scores (lower is better)."""
    from engine import scala40

    start = time.perf_counter()
    game = scala40.new_game(scala40.Rules.from_dict(job.rules), seed=job.seed)
    players = [get_player(name, **dict(options)) for name, options in job.specs]
    rng = random.Random(job.seed * 7919 + job.rotation)
    dealer = game.dealer
    for _ in range(MAX_SCALA40_MOVES):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        game = game.play(players[seat].choose(game.view(seat), rng))
    else:
        raise RuntimeError(f"a Scala 40 match (seed {job.seed}) did not end in {MAX_SCALA40_MOVES}")
    scores = game.view(None).scores
    elapsed = time.perf_counter() - start
    return Result(job, tuple(scores), game.winner, dealer, elapsed, game.hand_number)


def play(job: Job) -> Result:
    """Play one job's game to its end (or its first smazzata) and say who won."""
    if job.game == "scala40":
        return _play_scala40(job)
    if job.game in ("briscola", "chiamata"):
        from bot import simulate_briscola

        return simulate_briscola.play(job)
    start = time.perf_counter()
    rules = scopa.Rules.from_dict(job.rules)
    game = scopa.new_game(rules, seed=job.seed)
    # ``--workers`` > 1: the hard player's searches in parts, run in this game's process pool.
    workers = max((int(dict(options).get("workers", 1)) for _, options in job.specs), default=1)
    pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn")) if workers > 1 else None
    try:
        players: list[Player] = [
            get_player(name, **dict(options), **({"executor": pool} if name == "hard" else {}))
            for name, options in job.specs
        ]
        rng = random.Random(job.seed * 7919 + job.rotation)
        side_of = [seat % 2 if rules.players == 4 else seat for seat in range(rules.players)]
        dealer_side = side_of[game.dealer]
        while not game.is_over and not (job.deals and game.smazzate):
            seat = game.current_player
            assert seat is not None
            move = players[side_of[seat]].choose(game.view(seat), rng)
            game = game.play(move)
    finally:
        if pool is not None:
            pool.shutdown()
    if job.deals:
        points = tuple(s["total"] for s in game.smazzate[0].scores)
        best = max(points)
        winner = points.index(best) if points.count(best) == 1 else None
        if game.smazzate[0].fuori is not None:
            outcome = game.outcome()
            winner = outcome.winner if outcome is not None else winner
    else:
        outcome = game.outcome()
        assert outcome is not None
        points, winner = outcome.points, outcome.winner
    elapsed = time.perf_counter() - start
    return Result(job, tuple(points), winner, dealer_side, elapsed, len(game.smazzate))


def in_processes(
    run: Callable[[_Job], _Result], jobs: Sequence[_Job], workers: int
) -> Iterator[_Result]:
    """``run(job)`` for every job, in order: here when ``workers`` <= 1, else in that many
    processes (``run`` and the jobs must pickle)."""
    if workers <= 1:
        for job in jobs:
            yield run(job)
        return
    pool = ProcessPoolExecutor(workers)
    try:
        yield from pool.map(run, jobs, chunksize=1)
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM): drop the games not started rather than wait for them.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _bar(done: int, total: int, started: float) -> str:
    width = 30
    filled = width * done // total
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    return (
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {elapsed:.0f}s eta {eta:.0f}s"
    )


def tally(results: Sequence[Result], labels: Sequence[str]) -> dict[str, Tally]:
    tallies = {label: Tally(label) for label in labels}
    for result in results:
        lower_wins = result.job.game == "scala40"  # penalty points
        for side, label in enumerate(result.job.labels):
            t = tallies[label]
            t.games += 1
            won = result.winner == side
            tie = result.winner is None
            t.wins += won
            t.ties += tie
            t.points += result.points[side]
            others = [p for s, p in enumerate(result.points) if s != side]
            if lower_wins:
                t.margins.append(min(others) - result.points[side])
            else:
                t.margins.append(result.points[side] - max(others))
            for role_side, role, role_won in result.roles:
                if role_side == side:
                    row = t.by_role.setdefault(role, [0, 0, 0])
                    row[0] += 1
                    row[1] += role_won
            if len(result.job.labels) == 2 and result.job.game != "scala40":
                dealer = side == result.dealer_side
                if result.job.deals:
                    role = "dealer side" if dealer else "other side"
                else:
                    role = "first dealer" if dealer else "first to play"
                row = t.by_role.setdefault(role, [0, 0, 0])
                row[0] += 1
                row[1] += won
                row[2] += tie
    return tallies


def report(tallies: dict[str, Tally], *, unit: str) -> list[str]:
    lines = []
    for t in tallies.values():
        low, high = wilson(t.wins, t.games)
        rate = t.wins / t.games if t.games else 0.0
        lines.append(
            f"{t.label:>10}: {t.wins}/{t.games} {unit} won = {100 * rate:.1f}%"
            f" (95% CI {100 * low:.1f}-{100 * high:.1f}%),"
            f" ties {100 * t.ties / max(t.games, 1):.1f}%,"
            f" average points {t.points / max(t.games, 1):.2f}"
        )
        mean, half = mean_interval(t.margins)
        lines.append(f"{'':>12}margin over the best other: {mean:+.2f} +- {half:.2f} (95% CI)")
        for role, (games, wins, ties) in sorted(t.by_role.items()):
            low, high = wilson(wins, games)
            lines.append(
                f"{'':>12}as {role}: {wins}/{games} = {100 * wins / max(games, 1):.1f}%"
                f" (95% CI {100 * low:.1f}-{100 * high:.1f}%),"
                f" ties {100 * ties / max(games, 1):.1f}%"
            )
    return lines


def _hands(game: str) -> str:
    return "hands" if game == "scala40" else "deals"


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stop_on_signals() -> dict[int, SignalHandler]:
    """SIGINT and SIGTERM stop the run and print what was played (a background job ignores
    SIGINT by default, hence SIGTERM too); returns the handlers to restore."""
    previous: dict[int, SignalHandler] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous[signum] = signal.signal(signum, _interrupt)
    return previous


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        jobs, labels = make_jobs(args)
    except ValueError as exc:
        parser.error(str(exc))
    started = time.perf_counter()
    results: list[Result] = []
    interrupted = False
    previous = _stop_on_signals()
    try:
        for result in in_processes(play, jobs, args.jobs):
            results.append(result)
            if not args.quiet:
                print(_bar(len(results), len(jobs), started), end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        # Report what was played; a partial run keeps whole rotations only (seats swapped).
        interrupted = True
        results = results[: len(results) - len(results) % len(labels)]
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if not args.quiet:
        print(file=sys.stderr)
    unit = "deals" if args.deals else "games"
    seeds = len(results) // len(labels)
    played = "" if args.deals else f" ({sum(r.deals for r in results)} {_hands(args.game)})"
    print(
        f"{args.game}: {len(results)} {unit}{played}, seeds {args.seed}..{args.seed + seeds - 1},"
        f" seats swapped; {time.perf_counter() - started:.1f}s"
        + (f" (interrupted: {len(jobs)} planned)" if interrupted else "")
    )
    for line in report(tally(results, labels), unit=unit):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
