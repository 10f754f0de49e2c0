"""The "hard" Scopa-family player: Information-Set Monte Carlo Tree Search with determinization.

Single-observer ISMCTS (Cowling, Powley, Whitehouse 2012), as Di Palma & Lanzi (IEEE Trans. Games
2018) used it for Scopone: one tree over this seat's information set; every iteration deals the
unseen cards anew (``engine.ai.determinize``), walks the tree choosing among the moves that deal
allows (UCB1 with availability counts), adds one node, plays the smazzata out with epsilon-greedy
moves on the engine's fast path, and backs up the smazzata's score difference, each node from the
side of the player who made its move. The root's first visits are steered by the medium player's
judgement of each move (progressive bias, fading with visits; ``bias=0`` turns it off).

Budget: ``iterations`` (deterministic: the same view and ``rng`` give the same move) or
``seconds`` (wall clock: as strong as the machine allows, **not** reproducible). With ``workers``
> 1 the iterations are split over processes (root parallelism: each worker grows its own tree from
its own seed, and the root statistics are summed); the seeds come from ``rng`` and the sums are
taken in a fixed order, so iterations mode stays deterministic.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

from engine.ai.base import legal_moves_of
from engine.ai.determinize import (
    Dealer,
    InfoSet,
    State,
    info_set,
    parse_move,
    with_fuori,
)
from engine.ai.medium import Judge
from engine.scopa import ScopaView
from engine.scopa._tables import CARD_TEXT, VALUE, indices_of
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules, play_out

__all__ = ["DEFAULT_ITERATIONS", "HardPlayer", "SearchParams", "search"]

logger = logging.getLogger(__name__)

# Calibrated so that the first Scopone move, the costliest, takes about 0.9 s of CPU on one core of
# the reference machine (benchmarks/README.md "AI"); later moves, with fewer cards left, take less.
DEFAULT_ITERATIONS = 3000
# A smazzata's score difference is a few points: dividing by this keeps rewards near [-1, 1],
# where the exploration constant below is the usual one.
REWARD_SCALE = 6.0
# Progressive bias weight of the medium player's judgement at the root (0: plain ISMCTS).
DEFAULT_BIAS = 10.0


@dataclass(frozen=True, slots=True)
class SearchParams:
    """The knobs of one search (picklable: workers receive it)."""

    iterations: int | None
    seconds: float | None
    epsilon: float = 0.3
    exploration: float = 0.7
    bias: float = 0.0


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def _key(card: int, capture: int) -> int:
    return capture << 6 | card


def _moves(state: State, fast: FastRules, captures: dict[int, tuple[int, ...]]) -> list[int]:
    """The legal moves of the seat to move in ``state``, as keys ``capture << 6 | card``.

    ``captures`` keeps each (table, card)'s capturing moves for the whole search: the tree's
    tables come back at every visit.
    """
    hand = state.hands[state.seat]
    if not hand:
        # Every hand is empty: deal three more each, the next to play first (as play_out does).
        n = fast.players
        deck = state.deck
        for k in range(n):
            target = state.hands[(state.seat + k) % n]
            target.append(deck.pop())
            target.append(deck.pop())
            target.append(deck.pop())
    table = state.table
    keys: list[int] = []
    capturing: list[int] = []
    for card in hand:
        found = captures.get(table << 6 | card)
        if found is None:
            options = capture_masks(
                table, card, asso_piglia_tutto=fast.asso_piglia_tutto, scopa_a_15=fast.scopa_a_15
            )
            found = captures[table << 6 | card] = tuple(capture << 6 | card for capture in options)
        if found:
            capturing += found
        else:
            keys.append(card)
    if fast.obbligo_di_presa and capturing:
        return capturing
    return capturing + keys


def _apply(state: State, key: int, fast: FastRules) -> None:
    card = key & 63
    capture = key >> 6
    seat = state.seat
    state.hands[seat].remove(card)
    state.left -= 1
    if capture:
        side = fast.side_of[seat]
        state.table ^= capture
        state.captured[side] |= capture | 1 << card
        state.last_taker = side
        if not state.table and state.left and not (fast.asso_piglia_tutto and VALUE[card] == 1):
            state.scope[side] += 1
    else:
        state.table |= 1 << card
    state.seat = seat + 1 if seat + 1 < fast.players else 0


def _rewards(points: Sequence[int]) -> list[float]:
    """Per side: its points minus the best other side's, scaled."""
    if len(points) == 2:
        a, b = points
        return [(a - b) / REWARD_SCALE, (b - a) / REWARD_SCALE]
    out = []
    for side, own in enumerate(points):
        best_other = max(p for s, p in enumerate(points) if s != side)
        out.append((own - best_other) / REWARD_SCALE)
    return out


def search(
    info: InfoSet,
    params: SearchParams,
    seed: int,
    priors: Mapping[int, float] | None = None,
) -> dict[int, tuple[int, float]]:
    """Grow one tree from ``info``; returns the root's children as {move key: (visits, total)}.

    Stops after ``params.iterations`` iterations, or when ``params.seconds`` have passed (the
    first of the two that is set and reached; at least one iteration). ``priors`` (by root move,
    on the reward's scale) bias the root: progressive bias (Chaslot et al. 2008), a bonus of
    ``params.bias * prior / (visits + 1)`` that fades as the move's own statistics grow, and the
    root tries its moves best prior first.
    """
    rng = random.Random(seed)
    fast = info.fast
    side_of = fast.side_of
    root = _Node()
    c = params.exploration
    epsilon = params.epsilon
    bias = params.bias
    if not bias:
        priors = None
    limit = params.iterations if params.iterations is not None else 1 << 62
    deadline = None if params.seconds is None else time.perf_counter() + params.seconds
    greedy_cache: dict[int, tuple[int, float]] = {}
    deal = Dealer(info, rng).deal
    random_ = rng.random
    log = math.log
    sqrt = math.sqrt
    captures: dict[int, tuple[int, ...]] = {}
    done = 0
    while done < limit:
        if deadline is not None and done and (done & 15) == 0 and time.perf_counter() > deadline:
            break
        done += 1
        state = deal()
        node = root
        path: list[tuple[_Node, int]] = []
        while state.left:
            keys = _moves(state, fast, captures)
            children = node.children
            # Progressive bias at the root only.
            biased = priors if node is root else None
            untried = []
            best_key = keys[0]
            best = -math.inf
            # One pass: every child present in this deal gains an availability; UCB1 scores are
            # needed only while no move is untried.
            for key in keys:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                    continue
                avail = child.avail + 1
                child.avail = avail
                if untried:
                    continue
                visits = child.visits
                score = child.total / visits + c * sqrt(log(avail) / visits)
                if biased is not None:
                    score += bias * biased.get(key, 0.0) / (visits + 1)
                if score > best:
                    best, best_key = score, key
            mover = side_of[state.seat]
            if untried:
                if biased is not None:
                    key = max(untried, key=lambda k: biased.get(k, 0.0))
                else:
                    key = untried[int(random_() * len(untried))]
                child = _Node()
                children[key] = child
                _apply(state, key, fast)
                path.append((child, mover))
                break
            node = children[best_key]
            _apply(state, best_key, fast)
            path.append((node, mover))
        points = play_out(
            fast,
            state.hands,
            state.table,
            state.deck,
            state.captured,
            state.scope,
            state.last_taker,
            state.seat,
            rng,
            epsilon=epsilon,
            cache=greedy_cache,
        )
        rewards = _rewards(points)
        for child, mover in path:
            child.visits += 1
            child.total += rewards[mover]
    return {key: (child.visits, child.total) for key, child in root.children.items()}


def _search_job(
    args: tuple[InfoSet, SearchParams, int, Mapping[int, float] | None],
) -> dict[int, tuple[int, float]]:
    return search(*args)


def _best(stats: dict[int, tuple[int, float]]) -> int:
    """The most visited move; ties: the better mean, then the lowest key (deterministic)."""
    return min(stats, key=lambda k: (-stats[k][0], -stats[k][1] / max(stats[k][0], 1), k))


def move_text(key: int) -> str:
    card, capture = key & 63, key >> 6
    text = CARD_TEXT[card]
    if capture:
        text += ":" + "+".join(CARD_TEXT[i] for i in indices_of(capture))
    return text


class HardPlayer:
    """ISMCTS over this seat's information set (Scopa family).

    ``iterations`` (default ``DEFAULT_ITERATIONS``) makes it deterministic for a given ``rng``;
    ``seconds`` instead stops on the wall clock (stronger on a fast machine, not reproducible);
    both: whichever comes first (not reproducible). ``workers`` > 1 searches in that many processes
    (root parallelism); call ``close()`` when done with such a player. ``inference`` uses what the
    other players' missed sweeps say about their hands. ``bias`` > 0 steers the root's first
    visits by the medium player's judgement of each move (progressive bias); 0 is plain ISMCTS.
    """

    name = "hard"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        epsilon: float = 0.3,
        exploration: float = 0.7,
        workers: int = 1,
        inference: bool = True,
        bias: float = DEFAULT_BIAS,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
        if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
            raise ValueError(f"seconds must be a positive number; got {seconds!r}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1; got {epsilon!r}")
        if not (isinstance(bias, int | float) and bias >= 0):
            raise ValueError(f"bias must be a number >= 0; got {bias!r}")
        if type(workers) is not int or workers < 1:
            raise ValueError(f"workers must be a whole number >= 1; got {workers!r}")
        self.params = SearchParams(
            iterations=iterations,
            seconds=None if seconds is None else float(seconds),
            epsilon=epsilon,
            exploration=exploration,
            bias=float(bias),
        )
        self.workers = workers
        self.inference = inference
        self._pool: Executor | None = None
        self.last_iterations = 0

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        if not isinstance(view, ScopaView):
            raise TypeError("the hard player plays the Scopa family; use another for this game")
        plain = [m for m in moves if not m.endswith("!")]
        if len(plain) == 1:
            self.last_iterations = 0
            return with_fuori(view, plain[0])
        info = info_set(view, inference=self.inference)
        priors = None
        if self.params.bias:
            judge = Judge(info, view)
            priors = {}
            for text in plain:
                card, capture = parse_move(text)
                priors[_key(card, capture)] = judge.score(text) / REWARD_SCALE
        stats = self._search(info, rng, priors)
        self.last_iterations = sum(v for v, _ in stats.values())
        text = move_text(_best(stats))
        if text not in moves:  # the search follows the engine's rules: never happens
            raise AssertionError(f"the search chose {text}, which is not among {moves}")
        logger.debug("hard, seat %s: %s after %s iterations", view.seat, text, self.last_iterations)
        return with_fuori(view, text)

    def _search(
        self, info: InfoSet, rng: random.Random, priors: Mapping[int, float] | None
    ) -> dict[int, tuple[int, float]]:
        params = self.params
        if self.workers == 1:
            return search(info, params, rng.getrandbits(64), priors)
        share = None
        if params.iterations is not None:
            share = max(1, -(-params.iterations // self.workers))
        part = SearchParams(share, params.seconds, params.epsilon, params.exploration, params.bias)
        jobs = [(info, part, rng.getrandbits(64), priors) for _ in range(self.workers)]
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))
        merged: dict[int, tuple[int, float]] = {}
        for stats in self._pool.map(_search_job, jobs):  # results in job order: deterministic
            for key, (visits, total) in sorted(stats.items()):
                v, t = merged.get(key, (0, 0.0))
                merged[key] = (v + visits, t + total)
        return merged

    def close(self) -> None:
        """Stop the worker processes, if any (the player still works: they restart on demand)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
