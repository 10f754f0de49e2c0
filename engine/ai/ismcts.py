"""The "hard" Scopa-family player: a determinized search, flat (the default) or a tree.

By default (``method="pimc"``, ``engine.ai.pimc``) every legal move is tried on the same few
hundred deals of the unseen cards (weighted by what the others' play says they lack), each played
out by every seat with a greedy that looks at the next player's hand (a move now and then at
random), the last cards of a two-sided deal solved exactly; the move with the best mean reward
(winning the smazzata, then the points, then the game) is played. Measured against players written
outside the project it beats the tree search below (benchmarks/README.md "Against independent
players"): a tree over a wide information set is starved by its epsilon-greedy playouts, where the
flat search spends its whole budget comparing the moves on common deals. The budget, the parts and
the determinism below hold for both (an "iteration" of the flat search is one deal, every move
tried).

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

One module although long: the player, its budget, the tree search and the parts of one search
(plan, run_part, merge) share the search parameters and the move keys, and the bot's workers
import ``run_part`` from here.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
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
from engine.ai.evidence import evidence
from engine.ai.game_value import WinChances, win_chances
from engine.ai.medium import Judge
from engine.ai.pimc import WIN, apply_key, evaluate, solve_cost, solving
from engine.scopa import ScopaView
from engine.scopa._tables import CARD_TEXT, VALUE, indices_of
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules, play_out

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_WORK",
    "HardPlayer",
    "Plan",
    "SearchParams",
    "merge",
    "run_part",
    "search",
]

logger = logging.getLogger(__name__)

# The fixed budget before the time budget (still what ``iterations=DEFAULT_ITERATIONS`` gives).
DEFAULT_ITERATIONS = 3000
# The default time budget, in units of work: an iteration costs (cards left + WORK_OVERHEAD) units.
# Calibrated so that a move takes about DEFAULT_SECONDS of CPU on one core of the reference
# machine (benchmarks/README.md "AI", measured on a quiet machine).
DEFAULT_SECONDS = 0.45
WORK_PER_SECOND = 380_000
WORK_OVERHEAD = 1
DEFAULT_WORK = int(DEFAULT_SECONDS * WORK_PER_SECOND)
# A search in the default budget stops after this much CPU time of its thread whatever is left:
# only a machine several times slower than the reference ever reaches it.
DEFAULT_CPU_CAP = 1.5
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
    reply: bool = False
    loss: float = 1.0
    sweep: bool = False
    blind: bool = False
    chances: WinChances | None = None


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def _key(card: int, capture: int) -> int:
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
) -> dict[int, tuple[int, float]]:
    """Grow one tree from ``info``; returns the root's children as {move key: (visits, total)}.

    Stops after ``params.iterations`` iterations, or when ``params.seconds`` have passed (the
    first of the two that is set and reached; at least one iteration). ``priors`` (by root move,
    on the reward's scale) bias the root: progressive bias (Chaslot et al. 2008), a bonus of
    ``params.bias * prior / (visits + 1)`` that fades as the move's own statistics grow, and the
    root tries its moves best prior first.
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
            cpu_cap=params.cpu_cap,
            reply=params.reply,
            sweep=params.sweep,
            blind=params.blind,
            chances=params.chances,
            seconds=params.seconds,
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


def _search_job(
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


def run_part(plan: Plan, part: int) -> dict[int, tuple[int, float]]:
    """Part ``part`` of ``plan``: one tree from its own seed; the root's {key: (visits, total)}."""
    return search(plan.info, plan.params, plan.seeds[part], plan.priors)


def merge(parts: Sequence[Mapping[int, tuple[int, float]]]) -> dict[int, tuple[int, float]]:
    """The root statistics of several trees summed, in the given order (deterministic)."""
    merged: dict[int, tuple[int, float]] = {}
    for stats in parts:
        for key, (visits, total) in sorted(stats.items()):
            v, t = merged.get(key, (0, 0.0))
            merged[key] = (v + visits, t + total)
    return merged


def _non_negative(name: str, value: object) -> float:
    """``value`` as a float; ValueError naming the option unless it is a number >= 0."""
    if not (isinstance(value, int | float) and value >= 0):
        raise ValueError(f"{name} must be a number >= 0; got {value!r}")
    return float(value)


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

    Budget (see the module docstring): by default ``work`` units (``DEFAULT_WORK``, about
    ``DEFAULT_SECONDS`` of CPU a move on the reference machine, deterministic for a given
    ``rng``); ``iterations`` a fixed number of iterations (deterministic); ``seconds`` stops on the
    wall clock (stronger on a fast machine, not reproducible); ``iterations`` and ``seconds``
    together: whichever comes first (not reproducible). ``workers`` > 1 searches in that many
    processes (root parallelism, the budget split between them); call ``close()`` when done with
    such a player. ``inference`` uses what the other players' play says about their hands.
    ``bias`` > 0 steers the root's first visits by the medium player's judgement of each move
    (progressive bias); 0 is plain ISMCTS. ``lookahead`` and ``win_bonus``: the playouts (module
    docstring); ``doubtful`` uses the weaker evidence of ``engine.ai.determinize`` too.
    ``lookahead=False, win_bonus=0, epsilon=0.3, doubtful=False`` with ``iterations`` is the hard
    player of before the time budget, decision for decision (``tests/engine/ai/hard_identity``).
    ``max_depth`` limits the tree (1: flat Monte Carlo with UCB at the root; for experiments).
    ``take_scopa``: in the tree every seat sweeps the table when it can (its other moves are not
    searched there), so the search never counts on an opponent missing a scopa.
    ``method``: ``"pimc"`` (the default: the flat determinized search of ``engine.ai.pimc``;
    its knobs ``margin`` the reward per point besides winning the smazzata, ``loss`` what
    losing the smazzata costs against 1 for winning it (below 1: a chance to win is worth more
    than a safe tie), ``solve`` the most cards left after the move for an exact solution of each
    deal (two sides, no deck; 0: never), ``reply`` playouts weighing each move against the next
    player's best reply, ``sweep`` playouts whose random moves never miss a sweep (not with
    ``reply``), ``blind`` playouts whose greedy fears a sweep by any card its player cannot see
    rather than by the next player's actual cards (not with ``reply``), ``game`` the reward of
    the game rather than the smazzata in a game of two sides to a target: the chance of winning
    it from the score a deal leaves, ``engine.ai.game_value``; ``likelihood`` > 0 weighs each deal
    by how likely it makes the others' plays, that softmax's sharpness, ``engine.ai.evidence``,
    in place of the plain inference; ``partner_likelihood`` > 0 the same for the partner's plays
    only, the others read by the plain inference) or
    ``"ismcts"`` (the tree; ``bias``, ``exploration``, ``max_depth``, ``take_scopa`` and
    ``win_bonus`` apply to it only). ``lookahead=False, win_bonus=0, epsilon=0.3,
    doubtful=False, take_scopa=False, method="ismcts"`` is the legacy player above.
    """

    name = "hard"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        work: int | None = None,
        epsilon: float | None = None,
        exploration: float = 0.7,
        workers: int = 1,
        inference: bool = True,
        bias: float = DEFAULT_BIAS,
        lookahead: bool = True,
        win_bonus: float = DEFAULT_WIN_BONUS,
        cpu_cap: float | None = None,
        doubtful: bool = True,
        max_depth: int = 1 << 10,
        take_scopa: bool = True,
        method: str = DEFAULT_METHOD,
        margin: float = DEFAULT_MARGIN,
        loss: float = DEFAULT_LOSS,
        sweep: bool = False,
        blind: bool = False,
        game: bool = False,
        likelihood: float = 0.0,
        partner_likelihood: float = 0.0,
        solve: int | None = None,
        reply: bool | None = None,
    ) -> None:
        if method not in ("ismcts", "pimc"):
            raise ValueError(f"method must be 'ismcts' or 'pimc'; got {method!r}")
        flat = method == "pimc"
        if epsilon is None:
            epsilon = 0.2
        if solve is None:
            solve = DEFAULT_SOLVE if flat else 0
        if reply is None:
            reply = DEFAULT_REPLY and flat
        if type(solve) is not int or not 0 <= solve <= MAX_SOLVE:
            raise ValueError(f"solve must be a whole number from 0 to {MAX_SOLVE}; got {solve!r}")
        margin = _non_negative("margin", margin)
        if not (isinstance(loss, int | float) and 0 <= loss <= WIN):
            raise ValueError(f"loss must be a number from 0 to {WIN}; got {loss!r}")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
        if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
            raise ValueError(f"seconds must be a positive number; got {seconds!r}")
        if work is not None and (type(work) is not int or work < 1):
            raise ValueError(f"work must be a whole number >= 1; got {work!r}")
        if work is not None and (iterations is not None or seconds is not None):
            raise ValueError("give one budget: work, or iterations and/or seconds")
        if iterations is None and seconds is None and work is None:
            work = DEFAULT_WORK
            if cpu_cap is None:
                cpu_cap = DEFAULT_CPU_CAP
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1; got {epsilon!r}")
        bias = _non_negative("bias", bias)
        win_bonus = _non_negative("win_bonus", win_bonus)
        if cpu_cap is not None and not (isinstance(cpu_cap, int | float) and cpu_cap > 0):
            raise ValueError(f"cpu_cap must be a positive number; got {cpu_cap!r}")
        if type(workers) is not int or workers < 1:
            raise ValueError(f"workers must be a whole number >= 1; got {workers!r}")
        self.params = SearchParams(
            iterations=iterations,
            seconds=None if seconds is None else float(seconds),
            epsilon=epsilon,
            exploration=exploration,
            bias=bias,
            lookahead=bool(lookahead),
            win_bonus=win_bonus,
            cpu_cap=None if cpu_cap is None else float(cpu_cap),
            max_depth=max_depth,
            take_scopa=bool(take_scopa),
            method=method,
            margin=margin,
            loss=float(loss),
            sweep=bool(sweep),
            blind=bool(blind),
            solve=solve,
            reply=bool(reply),
        )
        likelihood = _non_negative("likelihood", likelihood)
        partner_likelihood = _non_negative("partner_likelihood", partner_likelihood)
        self.likelihood = likelihood if flat else 0.0
        self.partner_likelihood = partner_likelihood if flat else 0.0
        self.game = bool(game)
        self._chances: dict[tuple[FastRules, int], WinChances] = {}
        self.work = work
        self.workers = workers
        self.inference = inference
        self.doubtful = doubtful
        self._pool: Executor | None = None
        self.last_iterations = 0

    def _info(self, view: ScopaView) -> InfoSet:
        if self.likelihood and self.inference:
            plain = info_set(view, inference=False)
            found = evidence(view, plain.fast, self.likelihood)
            if found:
                return replace(plain, evidence=found)
        info = info_set(view, inference=self.inference)
        if not self.doubtful and info.doubtful:
            info = replace(info, doubtful=())
        if self.partner_likelihood and self.inference and view.players == 4:
            partner = (info.seat + 2) % 4
            found = evidence(view, info.fast, self.partner_likelihood, seats=(partner,))
            if found:
                # The partner read by the likelihood alone; the others by the plain inference.
                unlikely = list(info.unlikely)
                unlikely[partner] = 0
                doubtful = list(info.doubtful)
                if doubtful:
                    doubtful[partner] = 0
                info = replace(
                    info, unlikely=tuple(unlikely), doubtful=tuple(doubtful), evidence=found
                )
        return info

    def budget(self, info: InfoSet) -> SearchParams:
        """This move's search parameters: the work budget turned into iterations (the cost of an
        iteration grows with the cards left to play), and with ``game`` the table of the game's
        win chances (made once per rules and target)."""
        params = self._game_params(info)
        if self.work is None:
            return params
        if self.params.method == "pimc":
            # A deal costs one playout per legal move.
            moves = len(legal_keys(info))
            cost = info.left + WORK_OVERHEAD
            if self.params.reply:
                # The reply playouts weigh each move against the next hand: dearer with big hands.
                cost += cost * max(info.hand_counts) // 4
            if solving(info, self.params.solve):
                cost = max(cost, solve_cost(info.left))
            deals = self.work // (moves * cost)
            return replace(params, iterations=min(MAX_DEALS, max(MIN_DEALS, deals)))
        iterations = max(1, self.work // (info.left + WORK_OVERHEAD))
        return replace(params, iterations=iterations)

    def _game_params(self, info: InfoSet) -> SearchParams:
        if not (self.game and self.params.method == "pimc" and info.target):
            return self.params
        if info.fast.sides != 2 or len(info.points) != 2:
            return self.params
        key = (info.fast, info.target)
        chances = self._chances.get(key)
        if chances is None:
            chances = self._chances[key] = win_chances(info.fast, info.target)
        return replace(self.params, chances=chances)

    def plan(self, view: object, rng: random.Random, parts: int = 1) -> str | Plan:
        """The move when there is nothing to search (one legal move), else a ``Plan`` of
        ``parts`` independent searches, each with this player's whole budget, seeds drawn from
        ``rng`` (root parallelism over processes the caller has: ``run_part``, then ``finish``)."""
        moves = legal_moves_of(view)
        if not isinstance(view, ScopaView):
            raise TypeError("the hard player plays the Scopa family; use another for this game")
        plain = [m for m in moves if not m.endswith("!")]
        if len(plain) == 1:
            return with_fuori(view, plain[0])
        info = self._info(view)
        priors = self._priors(info, view, plain)
        seeds = tuple(rng.getrandbits(64) for _ in range(parts))
        return Plan(info, self.budget(info), seeds, priors, tuple(moves))

    def finish(
        self, view: object, plan: Plan, stats: Sequence[Mapping[int, tuple[int, float]]]
    ) -> str:
        """The move of a plan whose parts have run (``stats`` in part order)."""
        if not isinstance(view, ScopaView):
            raise TypeError("the hard player plays the Scopa family; use another for this game")
        return self._conclude(view, plan.moves, merge(stats))

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        if not isinstance(view, ScopaView):
            raise TypeError("the hard player plays the Scopa family; use another for this game")
        plain = [m for m in moves if not m.endswith("!")]
        if len(plain) == 1:
            self.last_iterations = 0
            return with_fuori(view, plain[0])
        info = self._info(view)
        priors = self._priors(info, view, plain)
        stats = self._search(info, rng, priors)
        return self._conclude(view, moves, stats)

    def _priors(self, info: InfoSet, view: ScopaView, plain: Sequence[str]) -> dict[int, float]:
        if not self.params.bias or self.params.method == "pimc":
            return {}
        judge = Judge(info, view)
        priors = {}
        for text in plain:
            card, capture = parse_move(text)
            priors[_key(card, capture)] = judge.score(text) / REWARD_SCALE
        return priors

    def _conclude(
        self, view: ScopaView, moves: Sequence[str], stats: dict[int, tuple[int, float]]
    ) -> str:
        if self.params.method == "pimc":  # every move tried on every deal: the deals
            self.last_iterations = max(v for v, _ in stats.values())
        else:
            self.last_iterations = sum(v for v, _ in stats.values())
        text = move_text(_best(stats))
        if text not in moves:  # the search follows the engine's rules: never happens
            raise AssertionError(f"the search chose {text}, which is not among {moves}")
        logger.debug("hard, seat %s: %s after %s iterations", view.seat, text, self.last_iterations)
        return with_fuori(view, text)

    def _search(
        self, info: InfoSet, rng: random.Random, priors: Mapping[int, float] | None
    ) -> dict[int, tuple[int, float]]:
        params = self.budget(info)
        if self.workers == 1:
            return search(info, params, rng.getrandbits(64), priors or None)
        share = None
        if params.iterations is not None:
            share = max(1, -(-params.iterations // self.workers))
        part = replace(params, iterations=share)
        jobs = [(info, part, rng.getrandbits(64), priors or None) for _ in range(self.workers)]
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))
        # Results in job order: deterministic.
        return merge(list(self._pool.map(_search_job, jobs)))

    def close(self) -> None:
        """Stop the worker processes, if any (the player still works: they restart on demand)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
