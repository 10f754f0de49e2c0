"""The "hard" Scopa-family player: a determinized flat search (``engine.scopa.ai.pimc``).

Every legal move is tried on the same few hundred deals of the unseen cards (each weighted by how
likely it makes the others' plays, ``engine.scopa.ai.evidence``), each played out by every seat
with a greedy that looks at the next player's hand (a move now and then at random), the last cards
of a deal solved exactly (with three sides by max-n); the move with the best mean reward (winning
the smazzata, then the points, then the game) is played. Its settings are one ``HardConfig``
(``engine.scopa.ai.config``, whose docstring says how the budget is spent and stays
deterministic); this module reads the view into an information set, turns the budget into each
move's deals, and splits a search into parts for worker processes (``plan`` / ``run_part`` /
``finish``: root parallelism, each part from its own seed, the parts' root statistics summed in
a fixed order, so a split search stays deterministic).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any

from engine.ai.base import legal_moves_of
from engine.ai.search import RootStats, merge, most_visited
from engine.scopa import ScopaView
from engine.scopa.ai.config import (
    CACHE_LIMIT,
    MAX_DEALS,
    MIN_DEALS,
    WORK_OVERHEAD,
    HardConfig,
)
from engine.scopa.ai.determinize import InfoSet, info_set, with_fuori
from engine.scopa.ai.endgame import solve_cost, solver_kind
from engine.scopa.ai.evidence import evidence
from engine.scopa.ai.pimc import evaluate
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules
from engine.scopa.tables import CARD_TEXT, indices_of

__all__ = [
    "HardConfig",
    "HardPlayer",
    "Plan",
    "capture_cache",
    "legal_keys",
    "move_key",
    "move_text",
    "run_part",
]

logger = logging.getLogger(__name__)


def move_key(card: int, capture: int) -> int:
    """A move's key in the search's statistics: ``capture << 6 | card``."""
    return capture << 6 | card


def move_text(key: int) -> str:
    """The engine's move string of a move key."""
    card, capture = key & 63, key >> 6
    text = CARD_TEXT[card]
    if capture:
        text += ":" + "+".join(CARD_TEXT[i] for i in indices_of(capture))
    return text


def legal_keys(info: InfoSet) -> list[int]:
    """The seat's legal moves in ``info`` as move keys, in a fixed order (the engine's rules)."""
    fast = info.fast
    table = info.table
    keys: list[int] = []
    capturing: list[int] = []
    for card in indices_of(info.hand):
        options = capture_masks(
            table, card, asso_piglia_tutto=fast.asso_piglia_tutto, scopa_a_15=fast.scopa_a_15
        )
        if options:
            capturing += (move_key(card, capture) for capture in options)
        else:
            keys.append(card)
    if fast.obbligo_di_presa and capturing:
        return sorted(capturing)
    return sorted(capturing + keys)


def capture_cache(
    caches: dict[tuple[bool, bool], dict[int, tuple[int, float]]], fast: FastRules
) -> dict[int, tuple[int, float]]:
    """The playouts' cache of greedy captures for ``fast``'s capture rules, from ``caches`` (one
    per rules, kept by a player between searches; all emptied once they hold ``CACHE_LIMIT``
    entries together): a search finds most of its captures among those of the searches before
    it."""
    if sum(len(cache) for cache in caches.values()) >= CACHE_LIMIT:
        for cache in caches.values():
            cache.clear()
    key = (fast.asso_piglia_tutto, fast.scopa_a_15)
    found = caches.get(key)
    if found is None:
        found = caches[key] = {}
    return found


@dataclass(frozen=True, slots=True)
class Plan:
    """One search cut into independent parts (root parallelism), picklable: ``run_part(plan, k)``
    runs part ``k`` (anywhere: a worker process), ``HardPlayer.finish`` merges them."""

    info: InfoSet
    config: HardConfig
    deals: int | None
    seeds: tuple[int, ...]
    moves: tuple[str, ...]

    @property
    def parts(self) -> int:
        return len(self.seeds)


def run_part(plan: Plan, part: int, cache: dict[int, tuple[int, float]] | None = None) -> RootStats:
    """Part ``part`` of ``plan``: one search from its own seed; the root's {key: (deals, total)}.
    ``cache``: the playouts' greedy captures (``HardPlayer.run_part`` passes the player's)."""
    info = plan.info
    return evaluate(info, legal_keys(info), plan.deals, plan.seeds[part], plan.config, cache=cache)


def _search_job(args: tuple[InfoSet, int | None, int, HardConfig]) -> RootStats:
    info, deals, seed, config = args
    return evaluate(info, legal_keys(info), deals, seed, config)


def _scopa_view(view: object) -> ScopaView:
    if not isinstance(view, ScopaView):
        raise TypeError("the hard player plays the Scopa family; use another for this game")
    return view


class HardPlayer:
    """The hard player (Scopa family): a determinized search over this seat's information set.

    ``HardPlayer()`` is today's player; ``HardPlayer(config)`` or ``HardPlayer(**settings)`` (the
    fields of ``HardConfig``, as ``get_player("hard", iterations=200)`` passes them) another.
    ``executor``: where the parts of a search run when ``config.workers`` > 1 (the caller's
    process pool; without one they run here, one after the other: the same move).
    """

    name = "hard"

    def __init__(
        self,
        config: HardConfig | None = None,
        *,
        executor: Executor | None = None,
        **settings: Any,
    ) -> None:
        if config is not None and settings:
            raise TypeError("give a HardConfig or its settings, not both")
        self.config = config if config is not None else HardConfig(**settings)
        self.executor = executor
        # The playouts' greedy captures, kept from one search to the next (``capture_cache``).
        self._captures: dict[tuple[bool, bool], dict[int, tuple[int, float]]] = {}
        self.last_iterations = 0

    def info(self, view: ScopaView) -> InfoSet:
        """What this seat knows (its information set), read from its view with the inference
        the settings ask for."""
        config = self.config
        info = info_set(view, inference=config.inference)
        if config.likelihood and config.inference:
            found = evidence(
                view,
                info.fast,
                config.likelihood,
                fitted=config.model == "fitted",
                beginner=config.beginner,
                memory=config.memory,
            )
            if found:
                # The likelihood reads the same plays as the plain inference: that one is left
                # out, not counted twice.
                none = (0,) * len(info.unlikely)
                return replace(info, unlikely=none, doubtful=(), evidence=found)
        return info

    def deals(self, info: InfoSet) -> int | None:
        """This move's deals: the work budget turned into deals (a deal costs one playout per
        legal move, dearer with more cards left to play, or an exact solution's cost), or the
        fixed ``iterations`` (None: until ``seconds``)."""
        config = self.config
        if config.work is None:
            return config.iterations
        moves = len(legal_keys(info))
        cost = info.left + WORK_OVERHEAD
        if config.reply:
            # The reply playouts weigh each move against the next hand: dearer with big hands.
            cost += cost * max(info.hand_counts) // 4
        kind = solver_kind(info, config.solve, config.multi, config.solve_deck)
        if kind is not None:
            cost = max(cost, solve_cost(info.left, kind))
        return min(MAX_DEALS, max(MIN_DEALS, config.work // (moves * cost)))

    def plan(self, view: object, rng: random.Random, parts: int = 1) -> str | Plan:
        """The move when there is nothing to search (one legal move), else a ``Plan`` of
        ``parts`` independent searches, each with this player's whole budget, seeds drawn from
        ``rng`` (root parallelism over processes the caller has: ``run_part``, then ``finish``)."""
        moves = legal_moves_of(view)
        scopa_view = _scopa_view(view)
        plain = [m for m in moves if not m.endswith("!")]
        if len(plain) == 1:
            return with_fuori(scopa_view, plain[0])
        info = self.info(scopa_view)
        seeds = tuple(rng.getrandbits(64) for _ in range(parts))
        return Plan(info, self.config, self.deals(info), seeds, tuple(moves))

    def run_part(self, plan: Plan, part: int) -> RootStats:
        """``run_part`` with this player's cache of greedy captures (the same result, sooner
        when the process that runs it ran searches before)."""
        return run_part(plan, part, capture_cache(self._captures, plan.info.fast))

    def finish(
        self, view: object, plan: Plan, stats: Sequence[Mapping[int, tuple[int, float]]]
    ) -> str:
        """The move of a plan whose parts have run (``stats`` in part order)."""
        return self._conclude(_scopa_view(view), plan.moves, merge(stats))

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        scopa_view = _scopa_view(view)
        plain = [m for m in moves if not m.endswith("!")]
        if len(plain) == 1:
            self.last_iterations = 0
            return with_fuori(scopa_view, plain[0])
        info = self.info(scopa_view)
        return self._conclude(scopa_view, moves, self._search(info, rng))

    def _conclude(self, view: ScopaView, moves: Sequence[str], stats: RootStats) -> str:
        # The deals of the most dealt moves (with halving: the finalists; without it every move
        # is tried on every deal).
        self.last_iterations = max(v for v, _ in stats.values())
        text = move_text(most_visited(stats))
        if text not in moves:  # the search follows the engine's rules: never happens
            raise AssertionError(f"the search chose {text}, which is not among {moves}")
        logger.debug("hard, seat %s: %s after %s deals", view.seat, text, self.last_iterations)
        return with_fuori(view, text)

    def _search(self, info: InfoSet, rng: random.Random) -> RootStats:
        deals = self.deals(info)
        workers = self.config.workers
        if workers == 1:
            cache = capture_cache(self._captures, info.fast)
            return evaluate(
                info, legal_keys(info), deals, rng.getrandbits(64), self.config, cache=cache
            )
        share = None if deals is None else max(1, -(-deals // workers))
        jobs = [(info, share, rng.getrandbits(64), self.config) for _ in range(workers)]
        if self.executor is None:
            return merge([_search_job(job) for job in jobs])
        # Results in job order: deterministic.
        return merge(list(self.executor.map(_search_job, jobs)))
