"""Computer players: the one place that maps the service's levels to engine players.

Levels are ``easy``, ``medium``, ``hard``. Each level lists player names (of
``engine.ai.get_player``) from the preferred to the fallback, for a player source that has only
some of them (a test's toy game); with the engine's players every name must be one the engine
has: ``ComputerPlayers()`` checks them all, so a wrong name is an error at start-up, never a
silent fallback.

Moves are chosen off the event loop. ``hard`` searches for a good fraction of a second of CPU:
in a thread it would hold the GIL against the event loop (four at once put 90-180 ms of lag on
every other table), so with ``processes`` > 0 it runs in that many worker processes instead
(the same move: players keep no state between moves, and the view and ``rng`` travel with the
call). The quick levels stay in a thread: a process round trip would cost more than they do.
With two or more processes a ``hard`` move is one search per process from independent seeds,
their root statistics summed (root parallelism): the same wall time, that many times the search.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import pickle
import random
import signal
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from engine.contract import GameView

if TYPE_CHECKING:
    from engine.ai.search import RootStats

logger = logging.getLogger(__name__)


class Chooser(Protocol):
    """What the service needs of a computer player (``engine.ai.Player`` is one): a legal move
    string for the view's seat. The view is the game's own seat view."""

    def choose(self, view: GameView, rng: random.Random) -> str: ...


class SplitPlan(Protocol):
    """A search cut into parts (``engine.scopa.ai.hard.Plan``): picklable, ``parts`` long."""

    @property
    def parts(self) -> int: ...


PlanT = TypeVar("PlanT", bound=SplitPlan)  # one player's plan type


@runtime_checkable
class SplitChooser(Chooser, Protocol[PlanT]):
    """A player that can cut one search into parts run elsewhere (root parallelism): ``plan``
    gives the move at once or a picklable plan of parts, ``run_part`` runs one (in a worker
    process, by that process's own player) and returns its root statistics, ``finish`` merges
    the parts' results (``engine.ai.search``)."""

    def plan(self, view: GameView, rng: random.Random, parts: int = 1) -> str | PlanT: ...

    def run_part(self, plan: PlanT, part: int) -> RootStats: ...

    def finish(self, view: GameView, plan: PlanT, stats: Sequence[RootStats]) -> str: ...


__all__ = ["LEVELS", "ComputerPlayers", "default_processes"]

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
# (family, level) whose moves take long enough to be worth a worker process (Scala 40's players
# answer in milliseconds).
SLOW_LEVELS = frozenset({("scopa", "hard"), ("briscola", "hard"), ("chiamata", "hard")})
# Slow levels whose player can cut one search into parts (``plan`` / ``run_part`` / ``finish``):
# with two or more worker processes each part runs in its own (root parallelism).
SPLIT_LEVELS = frozenset({("scopa", "hard")})

_BRISCOLA: Mapping[str, tuple[str, ...]] = {
    "easy": ("briscola-easy", "random"),
    "medium": ("briscola-medium", "briscola-easy", "random"),
    "hard": ("briscola-hard", "briscola-medium", "briscola-easy", "random"),
}
# family -> level -> engine player names, preferred first.
CANDIDATES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "scopa": {
        "easy": ("greedy", "random"),
        "medium": ("medium", "greedy", "random"),
        "hard": ("hard", "medium", "greedy", "random"),
    },
    # "greedy" is a Scopa player: never offered for Scala 40.
    "scala40": {
        "easy": ("scala40-easy", "random"),
        "medium": ("scala40-medium", "random"),
        "hard": ("scala40", "random"),
    },
    # Briscola and Briscola chiamata share the engine's Briscola players.
    "briscola": _BRISCOLA,
    "chiamata": _BRISCOLA,
}


def _engine_get_player(name: str) -> Chooser:
    ai = importlib.import_module("engine.ai")
    player: Chooser = ai.get_player(name)
    return player


def check_candidates(candidates: Mapping[str, Mapping[str, Sequence[str]]]) -> None:
    """ValueError unless every level of every family names players the engine has."""
    ai = importlib.import_module("engine.ai")
    for family, levels in candidates.items():
        for level, names in levels.items():
            unknown = [name for name in names if name not in ai.PLAYER_NAMES]
            if unknown:
                raise ValueError(
                    f"the {level} computer for {family} names no engine player: "
                    f"{', '.join(unknown)} (there are: {', '.join(ai.PLAYER_NAMES)})"
                )


def default_processes() -> int:
    """Worker processes for the slow levels when none are configured: every core but the one
    the event loop runs on, at least one, at most four."""
    return max(1, min(4, (os.cpu_count() or 1) - 1))


class ComputerPlayers:
    """Chooses computer moves: ``choose`` synchronously, ``choose_off_loop`` from the event loop
    (the service's way). ``processes`` > 0 (only with the engine's players) runs the slow levels
    in that many worker processes, started at the first such move: the one process pool of the
    computer players, whose processes also run the parts of a split search; ``aclose`` stops
    them. With the engine's players (no ``get_player``) every level's names are checked here
    (``check_candidates``): a name the engine has not is a ValueError."""

    def __init__(
        self, get_player: Callable[[str], Chooser] | None = None, *, processes: int = 0
    ) -> None:
        if type(processes) is not int or processes < 0:
            raise ValueError(f"processes must be a whole number >= 0; got {processes!r}")
        if processes and get_player is not None:
            raise ValueError("worker processes play the engine's players only")
        if get_player is None:
            check_candidates(CANDIDATES)
        self._get_player = get_player or _engine_get_player
        self._players: dict[tuple[str, str], tuple[str, Chooser]] = {}
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def player_name(self, family: str, level: str) -> str:
        return self._resolve(family, level)[0]

    def _resolve(self, family: str, level: str) -> tuple[str, Chooser]:
        key = (family, level)
        cached = self._players.get(key)
        if cached is not None:
            return cached
        if level not in LEVELS:
            raise ValueError(f"computer level must be one of {', '.join(LEVELS)}, not {level!r}")
        names = CANDIDATES.get(family, CANDIDATES["scopa"])[level]
        for name in names:
            try:
                found = (name, self._get_player(name))
            except LookupError:  # a player source without this name (checked for the engine's)
                continue
            self._players[key] = found
            logger.info("computer level %s plays %s as %s", level, family, name)
            return found
        raise LookupError(f"no computer player for {family} at level {level}")

    def choose(self, family: str, level: str, view: GameView, rng: random.Random) -> str:
        """A legal move string for the view's seat."""
        _name, player = self._resolve(family, level)
        return str(player.choose(view, rng))

    async def choose_off_loop(
        self, family: str, level: str, view: GameView, rng: random.Random
    ) -> str:
        """``choose`` without blocking the event loop: a slow level in a worker process (when
        there are any), anything else in a thread. A worker that died is replaced, and that
        move is chosen in a thread."""
        if self.processes and (family, level) in SLOW_LEVELS:
            loop = asyncio.get_running_loop()
            pool = self._pool
            if pool is None:
                pool = self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=get_context("spawn"), initializer=_start_worker
                )
            try:
                if (
                    self.processes > 1
                    and (family, level) in SPLIT_LEVELS
                    and isinstance(self._resolve(family, level)[1], SplitChooser)
                ):
                    return await self._choose_split(family, level, view, rng, pool)
                return await loop.run_in_executor(pool, _choose_in_worker, family, level, view, rng)
            except (BrokenProcessPool, pickle.PicklingError) as error:
                logger.warning("computer worker failed (%r): choosing in a thread", error)
                if isinstance(error, BrokenProcessPool) and self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
        return await asyncio.to_thread(self.choose, family, level, view, rng)

    async def _choose_split(
        self, family: str, level: str, view: GameView, rng: random.Random, pool: ProcessPoolExecutor
    ) -> str:
        """Root parallelism over the worker processes: one independent search per worker, each
        with the level's whole budget and its own seed from ``rng``, their root statistics summed
        in a fixed order (the same move for the same ``rng`` and number of processes)."""
        player = self._split_chooser(family, level)
        plan = await asyncio.to_thread(player.plan, view, rng, self.processes)
        if isinstance(plan, str):
            return plan
        loop = asyncio.get_running_loop()
        stats = await asyncio.gather(
            *(
                loop.run_in_executor(pool, _run_part_in_worker, family, level, plan, k)
                for k in range(plan.parts)
            )
        )
        return str(player.finish(view, plan, stats))

    def run_part(self, family: str, level: str, plan: SplitPlan, part: int) -> RootStats:
        """Part ``part`` of a plan of this level's player (``SplitChooser``), run here."""
        return self._split_chooser(family, level).run_part(plan, part)

    def _split_chooser(self, family: str, level: str) -> SplitChooser[SplitPlan]:
        """This level's player, which must split its search (``TypeError`` otherwise)."""
        _name, player = self._resolve(family, level)
        if not isinstance(player, SplitChooser):
            raise TypeError(f"the {level} {family} player does not split its search")
        return player

    async def aclose(self) -> None:
        """Stop the worker processes (a move in progress is finished first)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


# The players of a worker process: set by its initializer, in the worker only.
_worker_players: ComputerPlayers | None = None


def _start_worker() -> None:
    global _worker_players
    # Ctrl-C in a terminal reaches the whole process group: the parent decides when to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_players = ComputerPlayers()


def _run_part_in_worker(family: str, level: str, plan: SplitPlan, part: int) -> RootStats:
    if _worker_players is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("not a computer worker process")
    return _worker_players.run_part(family, level, plan, part)


def _choose_in_worker(family: str, level: str, view: GameView, rng: random.Random) -> str:
    if _worker_players is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("not a computer worker process")
    return _worker_players.choose(family, level, view, rng)
