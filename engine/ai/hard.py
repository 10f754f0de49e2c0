"""The "hard" Scopa-family player: its options, its budget and the parts of one search.

The search itself (the flat determinized search of ``engine.ai.pimc`` by default, or the ISMCTS
tree) is ``engine.ai.ismcts``, whose module docstring says how both spend the budget and stay
deterministic; this module turns the player's options into the parameters of each move's search
(``SearchParams``), reads the view into an information set (with the chosen inference), and
splits a search into parts for worker processes (``plan`` / ``finish``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context

from engine.ai.base import legal_moves_of
from engine.ai.determinize import InfoSet, info_set, parse_move, with_fuori
from engine.ai.evidence import DEFAULT_BEGINNER, DEFAULT_BETA, beginner_prior, evidence
from engine.ai.game_value import WinChances, win_chances
from engine.ai.ismcts import (
    DEFAULT_BIAS,
    DEFAULT_CPU_CAP,
    DEFAULT_LOSS,
    DEFAULT_MARGIN,
    DEFAULT_METHOD,
    DEFAULT_MULTI,
    DEFAULT_REPLY,
    DEFAULT_SOLVE,
    DEFAULT_WIN_BONUS,
    DEFAULT_WORK,
    MAX_DEALS,
    MAX_SOLVE,
    MIN_DEALS,
    REWARD_SCALE,
    WORK_OVERHEAD,
    Plan,
    SearchParams,
    capture_cache,
    legal_keys,
    merge,
    move_key,
    run_part,
    search,
    search_job,
)
from engine.ai.medium import Judge
from engine.ai.pimc import MULTI_SOLVERS, WIN, solve_cost, solver_kind
from engine.scopa import ScopaView
from engine.scopa._tables import CARD_TEXT, indices_of
from engine.scopa.playout import FastRules

__all__ = ["HardPlayer", "move_text"]

logger = logging.getLogger(__name__)


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
    """The hard player (Scopa family): a determinized search over this seat's information set.

    Budget (the module docstring of ``engine.ai.ismcts``): by default ``work`` units
    (``DEFAULT_WORK``, about ``DEFAULT_SECONDS`` of CPU a move on the reference machine,
    deterministic for a given ``rng``); ``iterations`` a fixed number of iterations
    (deterministic); ``seconds`` stops on the wall clock (stronger on a fast machine, not
    reproducible); ``iterations`` and ``seconds`` together: whichever comes first (not
    reproducible). ``workers`` > 1 searches in that many processes (root parallelism, the budget
    split between them); call ``close()`` when done with such a player. ``inference`` uses what
    the other players' play says about their hands (False: neither the likelihood below nor the
    plain inference).
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
    deal (no deck; 0: never; ``solve_deck`` the deck's last rounds dealt within that solution
    too, each deal's deck order known as its hands are: Scopa 2 players' fifth round; off,
    measured no better in ``benchmarks/README.md``), ``multi`` how it is solved with more than
    two sides (Scopa 3 players; ``engine.ai.pimc.MULTI_SOLVERS``: ``"maxn"``, the default,
    every side playing for its own reward, ``"paranoid"``, the others together against the seat,
    or ``"none"``, played out, the default of before: the ``v6-`` digests of
    ``tests/engine/ai/hard_identity``), ``reply`` playouts weighing each move against the next
    player's best reply, ``sweep`` playouts whose random moves never miss a sweep (not with
    ``reply``), ``blind`` playouts whose greedy fears a sweep by the cards its player cannot see
    rather than by the next player's actual cards (not with ``reply``; ``True`` every seat's,
    ``"opponents"``, the default, the other side's only: a player at the table cannot see the
    hands, while the search's own side plays on what each deal gives it), ``odds`` (the default)
    a blind greedy fears each sum by the chance that the next hand holds its value, dealt at
    random from the cards it cannot see (without it, by any such card at all; ``blind=False,
    odds=False`` is the default of before, decision for decision: the ``v5-`` digests of
    ``tests/engine/ai/hard_identity``), ``game`` the reward of
    the game rather than the smazzata in a game of two sides to a target: the chance of winning
    it from the score a deal leaves, ``engine.ai.game_value``; ``likelihood`` > 0 (the default,
    ``DEFAULT_BETA``) weighs each deal by how likely it makes the others' plays, that softmax's
    sharpness, ``engine.ai.evidence``, in place of the plain inference (0: the plain inference,
    the default before); with ``likelihood=0``, ``partner_likelihood`` > 0 the same for the
    partner's plays only, the others read by the plain inference; ``model="fitted"``: the
    likelihood's model of a player's choice is the one fitted to strong players' plays
    (``engine.ai.evidence.FITTED``, at ``likelihood / DEFAULT_BETA`` times its coefficients)
    rather than the careful greedy's softmax; ``beginner`` > 0 (the default,
    ``engine.ai.evidence.DEFAULT_BEGINNER``): each seat read by a mixture of that model and a
    beginner's (that the prior weight of the beginner, ``engine.ai.evidence.BEGINNER_SHARPNESS``),
    so that a seat playing as a beginner is read as one; ``exploit`` (the default) with
    ``beginner``: in each deal's playouts a seat plays as a beginner with the probability that
    deal gives the beginner's model (``engine.ai.pimc.evaluate``), so that the search expects a
    beginner's mistakes from a seat playing as one (``beginner=0, exploit=False`` is the default
    of before, decision for decision: the ``v4-`` digests of ``tests/engine/ai/hard_identity``);
    ``memory`` with ``beginner``: each seat's prior of the beginner is its posterior after the
    smazzata's finished rounds (Scopa deals 3 cards a round; once a round is over the hands it
    was played from are known), ``engine.ai.evidence.style_log_odds``, where without it each
    round starts again from ``beginner``;
    ``resample`` > 1 with either: the deals drawn in proportion to that likelihood from
    ``resample`` times as many, rather than weighted by it, ``engine.ai.pimc.resampled``;
    ``crn``: every move's playout of a deal draws its random moves from the same numbers
    (common random numbers), so that the moves differ by their merits rather than their luck;
    ``halving`` (with a budget in deals or work): the playouts spent in rounds of sequential
    halving, the better half of the moves going on each round, so that the closest moves get
    the most deals (``engine.ai.pimc.evaluate``; both off: measured, they choose better per unit
    of work in Scopone but won fewer Scopa 2 deals at a smaller budget; the ``v7-`` digests of
    ``tests/engine/ai/hard_identity``)) or
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
        blind: bool | str = "opponents",
        odds: bool = True,
        game: bool = False,
        likelihood: float = DEFAULT_BETA,
        partner_likelihood: float = 0.0,
        resample: int = 1,
        model: str = "greedy",
        beginner: float = DEFAULT_BEGINNER,
        exploit: bool = True,
        memory: bool = False,
        solve: int | None = None,
        multi: str = DEFAULT_MULTI,
        solve_deck: bool = False,
        reply: bool | None = None,
        crn: bool = False,
        halving: bool = False,
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
        if not (isinstance(blind, bool) or blind == "opponents"):
            raise ValueError(f"blind must be true, false or 'opponents'; got {blind!r}")
        if multi not in MULTI_SOLVERS:
            raise ValueError(f"multi must be one of {', '.join(MULTI_SOLVERS)}; got {multi!r}")
        if model not in ("greedy", "fitted"):
            raise ValueError(f"model must be 'greedy' or 'fitted'; got {model!r}")
        if type(resample) is not int or resample < 1:
            raise ValueError(f"resample must be a whole number >= 1; got {resample!r}")
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
            blind=blind,
            odds=bool(odds),
            exploit=bool(exploit),
            solve=solve,
            multi=multi,
            solve_deck=bool(solve_deck),
            reply=bool(reply),
            resample=resample,
            crn=bool(crn),
            halving=bool(halving),
        )
        likelihood = _non_negative("likelihood", likelihood)
        partner_likelihood = _non_negative("partner_likelihood", partner_likelihood)
        self.likelihood = likelihood if flat else 0.0
        self.partner_likelihood = partner_likelihood if flat else 0.0
        self.model = model
        self.beginner = beginner_prior(beginner)
        self.memory = bool(memory)
        self.game = bool(game)
        self._chances: dict[tuple[FastRules, int], WinChances] = {}
        # The playouts' greedy captures, kept from one search to the next (``capture_cache``).
        self._captures: dict[tuple[bool, bool], dict[int, tuple[int, float]]] = {}
        self.work = work
        self.workers = workers
        self.inference = inference
        self.doubtful = doubtful
        self._pool: Executor | None = None
        self.last_iterations = 0

    def _info(self, view: ScopaView) -> InfoSet:
        info = info_set(view, inference=self.inference)
        if self.likelihood and self.inference:
            fitted = self.model == "fitted"
            found = evidence(
                view,
                info.fast,
                self.likelihood,
                fitted=fitted,
                beginner=self.beginner,
                memory=self.memory,
            )
            if found:
                # The likelihood reads the same plays as the plain inference: that one is left
                # out, not counted twice.
                none = (0,) * len(info.unlikely)
                return replace(info, unlikely=none, doubtful=(), evidence=found)
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
            kind = solver_kind(info, params.solve, params.multi, params.solve_deck)
            if kind is not None:
                cost = max(cost, solve_cost(info.left, kind))
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

    def run_part(self, plan: Plan, part: int) -> dict[int, tuple[int, float]]:
        """``engine.ai.ismcts.run_part`` with this player's cache of greedy captures (the same
        result, sooner when the process that runs it ran searches before)."""
        return run_part(plan, part, capture_cache(self._captures, plan.info.fast))

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
            priors[move_key(card, capture)] = judge.score(text) / REWARD_SCALE
        return priors

    def _conclude(
        self, view: ScopaView, moves: Sequence[str], stats: dict[int, tuple[int, float]]
    ) -> str:
        if self.params.method == "pimc":  # the deals of the most dealt moves (with halving: the
            # finalists; without it every move is tried on every deal)
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
            cache = capture_cache(self._captures, info.fast)
            return search(info, params, rng.getrandbits(64), priors or None, cache)
        share = None
        if params.iterations is not None:
            share = max(1, -(-params.iterations // self.workers))
        part = replace(params, iterations=share)
        jobs = [(info, part, rng.getrandbits(64), priors or None) for _ in range(self.workers)]
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))
        # Results in job order: deterministic.
        return merge(list(self._pool.map(search_job, jobs)))

    def close(self) -> None:
        """Stop the worker processes, if any (the player still works: they restart on demand)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
