"""The "hard" Scopa-family player: a determinized search, flat (the default) or a tree.

By default (``method="pimc"``, ``engine.ai.pimc``) every legal move is tried on the same few hundred
deals of the unseen cards (each weighted by how likely it makes the others' plays,
``engine.ai.evidence``), each played out by every seat with a greedy that looks at the next player's
hand (a move now and then at random), the last cards of a deal solved exactly (with three sides by
max-n); the move with the best mean reward (winning the smazzata, then the points, then the game) is
played. Measured against players written outside the project it beats the tree search below
(benchmarks/README.md "Against independent players"): a tree over a wide information set is starved
by its epsilon-greedy playouts, where the flat search spends its whole budget comparing the moves on
common deals. The budget, the parts and the determinism below hold for both (an "iteration" of the
flat search is one deal, every move tried).

``method="ismcts"``: single-observer ISMCTS (Cowling, Powley, Whitehouse 2012), as Di Palma & Lanzi
(IEEE Trans. Games 2018) used it for Scopone: one tree over this seat's information set; every
iteration deals the unseen cards anew (``engine.ai.determinize``), walks the tree choosing among
the moves that deal allows (UCB1 with availability counts), adds one node, plays the smazzata out
with epsilon-greedy moves on the engine's fast path, and backs up the smazzata's score difference,
each node from the side of the player who made its move. The root's first visits are steered by the
medium player's judgement of each move (progressive bias, fading with visits; ``bias=0`` turns it
off).

Playouts (``lookahead``, the default): epsilon-greedy where the greedy move also looks at the next
player's hand of the deal being played out and counts a scopa it would leave against itself
(``engine.scopa.playout``); the reward adds ``win_bonus`` points for winning the smazzata to the
score difference, so that a sure small win is preferred to a risky larger one.

Budget, by default a **time budget made deterministic**: ``work`` units, spent as iterations of
``cards left + WORK_OVERHEAD`` units each (an iteration's cost grows with the cards still to play:
dealing them, walking the tree and playing out), calibrated so that every move takes about
``DEFAULT_SECONDS`` of CPU on the reference machine (benchmarks/README.md "AI"), the early moves
fewer iterations than the late ones. The same view and ``rng`` give the same move, on any machine;
a safety cap (``cpu_cap``, seconds of this thread's CPU) stops a search on a machine far slower
than the reference (only then is a move not reproducible). Or ``iterations`` (deterministic: tests
and replays), or ``seconds`` (wall clock: as strong as the machine allows, **not** reproducible).
With ``workers`` > 1 the iterations are split over processes (root parallelism: each worker grows
its own tree from its own seed, and the root statistics are summed); the seeds come from ``rng``
and the sums are taken in a fixed order, so iterations mode stays deterministic.
``HardPlayer.plan`` / ``finish`` let a caller run the parts of one search in processes it already
has (the bot's computer workers) and merge them the same way.

The player itself (its options, its budget, the parts of one search) is ``engine.ai.hard``;
this module is the search it runs and the parts' plumbing (``Plan``, ``run_part``, ``merge``),
which the bot's workers import from here.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.ai.determinize import (
    Dealer,
    InfoSet,
    State,
)
from engine.ai.game_value import WinChances
from engine.ai.pimc import apply_key, evaluate
from engine.scopa._tables import VALUE, indices_of
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules, play_out

__all__ = [
    "CACHE_LIMIT",
    "DEFAULT_ITERATIONS",
    "DEFAULT_WORK",
    "Plan",
    "SearchParams",
    "capture_cache",
    "legal_keys",
    "merge",
    "move_key",
    "run_part",
    "search",
    "search_job",
]

logger = logging.getLogger(__name__)

# The fixed budget before the time budget (still what ``iterations=DEFAULT_ITERATIONS`` gives).
DEFAULT_ITERATIONS = 3000
# The default time budget, in units of work: an iteration costs (cards left + WORK_OVERHEAD) units.
# Calibrated so that a move takes about DEFAULT_SECONDS of CPU on one core of the reference
# machine (benchmarks/README.md "AI", measured on a quiet machine; the reference machine of the
# eighth pass of issue #21 is slower: there hard in every seat of two Scopone deals took a median
# 0.69 s a move, and 0.43 s after the ninth pass made the same search cheaper,
# benchmarks/README.md "The same search for less CPU").
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
# Points for winning the smazzata, added to the score difference in the playouts' reward.
DEFAULT_WIN_BONUS = 1.0
# A smazzata's score difference is a few points: dividing by this keeps rewards near [-1, 1],
# where the exploration constant below is the usual one.
REWARD_SCALE = 6.0
# Progressive bias weight of the medium player's judgement at the root (0: plain ISMCTS).
DEFAULT_BIAS = 10.0
# The search: "pimc", the determinized flat search of ``engine.ai.pimc`` (every move on the same
# deals, strong deterministic playouts, the last cards solved exactly), or "ismcts", the tree.
DEFAULT_METHOD = "pimc"
# The flat search's reward per point of difference, besides 1 for winning the smazzata.
DEFAULT_MARGIN = 0.1
# What losing a smazzata costs the flat search, against WIN for winning it (pimc only).
DEFAULT_LOSS = 1.0
# The flat search solves a deal exactly when at most this many cards are left after the move.
DEFAULT_SOLVE = 11
# ... and with more than two sides (Scopa 3 players) solves it by max-n (``engine.ai.pimc``;
# measured: more games won against two flat Monte Carlo players than playing it out).
DEFAULT_MULTI = "maxn"
MAX_SOLVE = 15
# The flat search's playouts weigh each move against the next player's best reply (measured: no
# better, at three times the cost of a playout; off).
DEFAULT_REPLY = False
# The fewest deals a determinized flat search ("pimc") compares the moves on.
MIN_DEALS = 32
# ... and the most: beyond, the moves' means no longer move (late moves finish early).
MAX_DEALS = 2000


@dataclass(frozen=True, slots=True)
class SearchParams:
    """The knobs of one search (picklable: workers receive it)."""

    iterations: int | None
    seconds: float | None
    epsilon: float = 0.3
    exploration: float = 0.7
    bias: float = 0.0
    lookahead: bool = False
    win_bonus: float = 0.0
    cpu_cap: float | None = None
    max_depth: int = 1 << 10
    take_scopa: bool = False
    method: str = "ismcts"
    margin: float = 0.1
    solve: int = 0
    # How the last cards are solved with more than two sides (``engine.ai.pimc.MULTI_SOLVERS``).
    multi: str = "none"
    # The exact solution also deals the deck's last rounds (``engine.ai.pimc.solver_kind``).
    solve_deck: bool = False
    reply: bool = False
    loss: float = 1.0
    sweep: bool = False
    # The playouts' greedy blind to the hands: False, True (every seat), "opponents" (the other
    # sides' seats; ``engine.ai.pimc.evaluate``).
    blind: bool | str = False
    odds: bool = False
    exploit: bool = False
    chances: WinChances | None = None
    resample: int = 1
    # The playouts' random moves drawn from the same numbers for every move of a deal
    # (``engine.ai.pimc.evaluate``).
    crn: bool = False
    # The deals spent in rounds of sequential halving over the moves (``engine.ai.pimc``).
    halving: bool = False


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def move_key(card: int, capture: int) -> int:
    return capture << 6 | card


def _moves(
    state: State,
    fast: FastRules,
    captures: dict[int, tuple[int, ...]],
    take_scopa: bool = False,
) -> list[int]:
    """The legal moves of the seat to move in ``state``, as keys ``capture << 6 | card``.

    ``captures`` keeps each (table, card)'s capturing moves for the whole search: the tree's
    tables come back at every visit. ``take_scopa``: when a move sweeps the table (a scopa), only
    the sweeping moves (Chitarrella's first rule; a sure point is never worth refusing).
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
    if take_scopa and capturing and state.left > 1:
        sweeps = [
            k
            for k in capturing
            if k >> 6 == table and not (fast.asso_piglia_tutto and VALUE[k & 63] == 1)
        ]
        if sweeps:
            return sweeps
    if fast.obbligo_di_presa and capturing:
        return capturing
    return capturing + keys


def legal_keys(info: InfoSet) -> list[int]:
    """The seat's legal moves in ``info`` as move keys, in a fixed order (the engine's rules)."""
    hands: list[list[int]] = [[] for _ in range(info.fast.players)]
    hands[info.seat] = indices_of(info.hand)
    state = State(hands, info.table, [], [], [], -1, info.seat, info.left)
    return sorted(_moves(state, info.fast, {}))


def _rewards(points: Sequence[int], win_bonus: float = 0.0) -> list[float]:
    """Per side: its points minus the best other side's (plus ``win_bonus`` for a win, minus it
    for a loss), scaled."""
    if len(points) == 2:
        a, b = points
        d: float = a - b
        if win_bonus and d:
            d += win_bonus if d > 0 else -win_bonus
        return [d / REWARD_SCALE, -d / REWARD_SCALE]
    out = []
    for side, own in enumerate(points):
        diff: float = own - max(p for s, p in enumerate(points) if s != side)
        if win_bonus and diff:
            diff += win_bonus if diff > 0 else -win_bonus
        out.append(diff / REWARD_SCALE)
    return out


def search(
    info: InfoSet,
    params: SearchParams,
    seed: int,
    priors: Mapping[int, float] | None = None,
    cache: dict[int, tuple[int, float]] | None = None,
) -> dict[int, tuple[int, float]]:
    """Grow one tree from ``info``; returns the root's children as {move key: (visits, total)}.

    Stops after ``params.iterations`` iterations, or when ``params.seconds`` have passed (the
    first of the two that is set and reached; at least one iteration). ``priors`` (by root move,
    on the reward's scale) bias the root: progressive bias (Chaslot et al. 2008), a bonus of
    ``params.bias * prior / (visits + 1)`` that fades as the move's own statistics grow, and the
    root tries its moves best prior first. ``cache``: the playouts' greedy captures, kept by
    the caller from one search to the next under the same capture rules (``capture_cache``).
    """
    if params.method == "pimc":
        return evaluate(
            info,
            legal_keys(info),
            params.iterations,
            seed,
            epsilon=params.epsilon,
            margin=params.margin,
            loss=params.loss,
            lookahead=params.lookahead,
            solve=params.solve,
            multi=params.multi,
            solve_deck=params.solve_deck,
            cpu_cap=params.cpu_cap,
            reply=params.reply,
            sweep=params.sweep,
            blind=params.blind,
            odds=params.odds,
            exploit=params.exploit,
            chances=params.chances,
            seconds=params.seconds,
            resample=params.resample,
            crn=params.crn,
            halving=params.halving,
            cache=cache,
        )
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
    cpu_deadline = None if params.cpu_cap is None else time.thread_time() + params.cpu_cap
    lookahead = params.lookahead
    win_bonus = params.win_bonus
    max_depth = params.max_depth
    take_scopa = params.take_scopa
    greedy_cache: dict[int, tuple[int, float]] = {} if cache is None else cache
    deal = Dealer(info, rng).deal
    random_ = rng.random
    log = math.log
    sqrt = math.sqrt
    captures: dict[int, tuple[int, ...]] = {}
    done = 0
    while done < limit:
        if deadline is not None and done and (done & 15) == 0 and time.perf_counter() > deadline:
            break
        if cpu_deadline is not None and (done & 63) == 63 and time.thread_time() > cpu_deadline:
            break
        done += 1
        state = deal()
        node = root
        path: list[tuple[_Node, int]] = []
        while state.left:
            if len(path) >= max_depth:
                break
            keys = _moves(state, fast, captures, take_scopa)
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
                apply_key(state, key, fast)
                path.append((child, mover))
                break
            node = children[best_key]
            apply_key(state, best_key, fast)
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
            lookahead=lookahead,
        )
        rewards = _rewards(points, win_bonus)
        for child, mover in path:
            child.visits += 1
            child.total += rewards[mover]
    return {key: (child.visits, child.total) for key, child in root.children.items()}


def search_job(
    args: tuple[InfoSet, SearchParams, int, Mapping[int, float] | None],
) -> dict[int, tuple[int, float]]:
    return search(*args)


@dataclass(frozen=True, slots=True)
class Plan:
    """One search cut into independent parts (root parallelism), picklable: ``run_part(plan, k)``
    grows part ``k``'s tree (anywhere: a worker process), ``HardPlayer.finish`` merges them."""

    info: InfoSet
    params: SearchParams
    seeds: tuple[int, ...]
    priors: Mapping[int, float] | None
    moves: tuple[str, ...]

    @property
    def parts(self) -> int:
        return len(self.seeds)


def run_part(
    plan: Plan, part: int, cache: dict[int, tuple[int, float]] | None = None
) -> dict[int, tuple[int, float]]:
    """Part ``part`` of ``plan``: one tree from its own seed; the root's {key: (visits, total)}.
    ``cache``: as ``search``'s (``HardPlayer.run_part`` passes the player's)."""
    return search(plan.info, plan.params, plan.seeds[part], plan.priors, cache)


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


def merge(parts: Sequence[Mapping[int, tuple[int, float]]]) -> dict[int, tuple[int, float]]:
    """The root statistics of several trees summed, in the given order (deterministic)."""
    merged: dict[int, tuple[int, float]] = {}
    for stats in parts:
        for key, (visits, total) in sorted(stats.items()):
            v, t = merged.get(key, (0, 0.0))
            merged[key] = (v + visits, t + total)
    return merged
