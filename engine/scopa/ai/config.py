"""The settings of the "hard" Scopa-family player, in one frozen object: ``HardConfig``.

The defaults are today's player, the one whose strength ``benchmarks/README.md`` reports and
whose decisions ``tests/engine/ai/hard_identity`` pins; the research behind each setting (and the
options tried and dropped) is in ``docs/ai-notebook.md``.

Budget, by default a **time budget made deterministic**: ``work`` units, spent as deals of
``cards left + WORK_OVERHEAD`` units each times the legal moves (a deal's cost grows with the
cards still to play), calibrated so that every move takes about ``DEFAULT_SECONDS`` of CPU on the
reference machine, the early moves fewer deals than the late ones. The same view and ``rng`` give
the same move, on any machine; a safety cap (``cpu_cap``, seconds of the thread's CPU) stops a
search on a machine far slower than the reference (only then is a move not reproducible). Or
``iterations`` (deals: deterministic, for tests and replays), or ``seconds`` (wall clock: as strong
as the machine allows, **not** reproducible); ``iterations`` and ``seconds`` together: whichever
comes first.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.scopa.ai.evidence import DEFAULT_BEGINNER, DEFAULT_BETA, beginner_prior

__all__ = [
    "CACHE_LIMIT",
    "DEFAULT_CPU_CAP",
    "DEFAULT_SECONDS",
    "DEFAULT_WORK",
    "MAX_DEALS",
    "MAX_SOLVE",
    "MIN_DEALS",
    "MULTI_SOLVERS",
    "WORK_OVERHEAD",
    "HardConfig",
]

# The default time budget, in units of work: a deal costs (cards left + WORK_OVERHEAD) units a
# legal move. Calibrated so that a move takes about DEFAULT_SECONDS of CPU on one core of the
# reference machine (benchmarks/README.md).
DEFAULT_SECONDS = 0.45
WORK_PER_SECOND = 380_000
WORK_OVERHEAD = 1
DEFAULT_WORK = int(DEFAULT_SECONDS * WORK_PER_SECOND)
# A search in the default budget stops after this much CPU time of its thread whatever is left:
# only a machine several times slower than the reference ever reaches it.
DEFAULT_CPU_CAP = 1.5
# The most greedy captures a player keeps between searches (``capture_cache``; about 240 bytes
# each, so about 24 MB): twelve Scopone searches find about 70,000.
CACHE_LIMIT = 100_000
# The fewest deals the search compares the moves on ...
MIN_DEALS = 32
# ... and the most: beyond, the moves' means no longer move (late moves finish early).
MAX_DEALS = 2000
# The most cards left after the move for an exact solution of each deal.
MAX_SOLVE = 15
# How the last cards are solved with more than two sides (Scopa 3 players): not at all (played
# out), "paranoid" (the others together minimize the seat's reward) or "maxn" (each seat
# maximizes its own; Luckhardt and Irani 1986).
MULTI_SOLVERS = ("none", "paranoid", "maxn")


def _number(name: str, value: object, *, positive: bool = False) -> None:
    ok = isinstance(value, int | float) and (value > 0 if positive else value >= 0)
    if not ok:
        raise ValueError(
            f"{name} must be a {'positive number' if positive else 'number >= 0'}; got {value!r}"
        )


def _whole(name: str, value: object, low: int, high: int | None = None) -> None:
    if type(value) is not int or value < low or (high is not None and value > high):
        limit = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be a whole number {limit}; got {value!r}")


@dataclass(frozen=True, slots=True)
class HardConfig:
    """The hard player's settings (picklable: the search's parts carry it to worker processes).

    Budget (the module docstring): ``work``, or ``iterations`` and/or ``seconds``; none of them:
    ``DEFAULT_WORK`` with the safety cap ``DEFAULT_CPU_CAP`` (``cpu_cap`` seconds of the thread's
    CPU). ``workers`` > 1 cuts each search into that many parts (root parallelism, the budget split
    between them), run in the executor the player is given, else one after the other.

    Reading the others' hands: ``inference`` uses what their plays say (False: nothing);
    ``likelihood`` > 0 weighs each deal by how likely it makes the others' plays, that softmax's
    sharpness (``engine.scopa.ai.evidence``; 0: the plain inference of
    ``engine.scopa.ai.determinize``, what the others showed they lack); ``model="fitted"`` the
    likelihood's model of a player's choice is the one fitted to strong players' plays rather than
    the careful greedy's softmax; ``beginner`` the prior weight of a beginner's model mixed into
    each seat's reading, so that a seat playing as a beginner is read as one; ``memory`` each
    seat's prior of the beginner carried over the smazzata's finished rounds.

    The search (``engine.scopa.ai.pimc``): ``epsilon`` the playouts' share of random moves;
    ``margin`` the reward per point besides 1 for winning the smazzata; ``solve`` the most cards
    left after the move for an exact solution of each deal (0: never), ``multi`` how with three
    sides (``MULTI_SOLVERS``), ``solve_deck`` the deck's last rounds dealt within that solution;
    ``reply`` playouts weighing each move against the next player's best reply; ``exploit`` a seat
    read as a beginner plays as one in the playouts; ``resample`` > 1 the deals drawn by their
    likelihood from that many times as many rather than weighted by it; ``crn`` every move's
    playout of a deal draws its random moves from the same numbers; ``halving`` the deals spent in
    rounds of sequential halving over the moves.
    """

    work: int | None = None
    iterations: int | None = None
    seconds: float | None = None
    cpu_cap: float | None = None
    workers: int = 1
    inference: bool = True
    likelihood: float = DEFAULT_BETA
    model: str = "greedy"
    beginner: float = DEFAULT_BEGINNER
    memory: bool = False
    epsilon: float = 0.2
    margin: float = 0.1
    solve: int = 11
    multi: str = "maxn"
    solve_deck: bool = False
    reply: bool = False
    exploit: bool = True
    resample: int = 1
    crn: bool = False
    halving: bool = False

    def __post_init__(self) -> None:
        if self.iterations is not None:
            _whole("iterations", self.iterations, 1)
        if self.seconds is not None:
            _number("seconds", self.seconds, positive=True)
        if self.work is not None:
            _whole("work", self.work, 1)
            if self.iterations is not None or self.seconds is not None:
                raise ValueError("give one budget: work, or iterations and/or seconds")
        if self.cpu_cap is not None:
            _number("cpu_cap", self.cpu_cap, positive=True)
        if self.iterations is None and self.seconds is None and self.work is None:
            object.__setattr__(self, "work", DEFAULT_WORK)
            if self.cpu_cap is None:
                object.__setattr__(self, "cpu_cap", DEFAULT_CPU_CAP)
        _whole("workers", self.workers, 1)
        _number("likelihood", self.likelihood)
        if self.model not in ("greedy", "fitted"):
            raise ValueError(f"model must be 'greedy' or 'fitted'; got {self.model!r}")
        object.__setattr__(self, "beginner", beginner_prior(self.beginner))
        if not (isinstance(self.epsilon, int | float) and 0.0 <= self.epsilon <= 1.0):
            raise ValueError(f"epsilon must be between 0 and 1; got {self.epsilon!r}")
        _number("margin", self.margin)
        _whole("solve", self.solve, 0, MAX_SOLVE)
        if self.multi not in MULTI_SOLVERS:
            raise ValueError(f"multi must be one of {', '.join(MULTI_SOLVERS)}; got {self.multi!r}")
        _whole("resample", self.resample, 1)
        for name in ("seconds", "cpu_cap", "likelihood", "margin"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, float(value))
