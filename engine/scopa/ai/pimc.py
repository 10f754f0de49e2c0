"""Determinized flat search for the "hard" Scopa-family player (Perfect Information Monte Carlo).

Glossary: **smazzata** = one deal played out; **scopa** = a capture that sweeps the table. A
*determinization* (a *deal* here) is one guess at the hidden cards consistent with what the seat
has seen (``engine.scopa.ai.determinize``), weighted by how likely it makes the others' plays
(``engine.scopa.ai.evidence``; or by what they showed they lack, the plain inference).

Every legal move of the seat is tried on the **same** deals (common random numbers: the moves are
compared on the same luck, so far fewer deals separate them than independent samples would; with
``crn`` each move's playout of a deal also draws its random moves from the same numbers; with
``halving`` the deals are spent in rounds, the better half of the moves going on after each, so
the closest moves get the most deals; both off by default), and each deal is played out to the
end of the smazzata by every seat with the playout policy of ``engine.scopa.playout`` (greedy with
a look one player ahead: no sum left for the next player to sweep, captures valued by settebello,
denari, primiera cards; the other side's seats blind to the hands, fearing a sum by the chance
that the next hand holds its value, as a player who cannot see the cards does), a random move now
and then (``epsilon``), the random draws coming from the search's seed so a search is
reproducible. With no deck left (or with ``solve_deck`` through the deck's last round, its order
known as the hands are), the last cards (``solve``) are played exactly instead, every hand of the
deal known: alpha-beta minimax over the reward with two sides, and with three (Scopa 3 players) as
``multi`` says. A move's value is the mean over the deals of the reward of its smazzata, for the
seat's side: winning the smazzata (``WIN`` for a win, minus it when another side wins, nothing for
a tie) plus ``margin`` times the point difference over the best other side, which is what the
strength figures count (the deals won) with the points as a tie-break (the reward and the exact
solution: ``engine.scopa.ai.endgame``). The settings are ``HardConfig``'s
(``engine.scopa.ai.config``).

The result is the root's statistics, {move key: (deals, total reward)} (``engine.ai.search``), so
``HardPlayer`` merges parts (root parallelism) and picks a move the same way.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence

from engine.ai.search import RootStats
from engine.scopa.ai.config import HardConfig
from engine.scopa.ai.determinize import Dealer, Evidence, InfoSet, State
from engine.scopa.ai.endgame import WIN, Reward, Solver, solver_kind
from engine.scopa.ai.evidence import log_likelihood
from engine.scopa.playout import (
    FastRules,
    ValueCounts,
    keeps_value_counts,
    play_out,
    value_counts,
)
from engine.scopa.tables import VALUE

__all__ = [
    "PLAIN",
    "apply_key",
    "evaluate",
    "halving_rounds",
    "resampled",
    "root_keys",
]

# The deals ``resampled`` keeps at a time (from ``factor`` times as many).
RESAMPLE_BATCH = 32
# The settings of ``evaluate`` called without any: the defaults, with no CPU cap.
PLAIN = HardConfig(iterations=1)


def root_keys(moves: Sequence[tuple[int, int]]) -> list[int]:
    """Move keys (``capture << 6 | card``) of (card, capture) pairs, in the given order."""
    return [capture << 6 | card for card, capture in moves]


def apply_key(state: State, key: int, fast: FastRules) -> None:
    """Play the move ``key`` (``capture << 6 | card``) on ``state`` in place, for the seat to move
    (shared by the flat search and the tree)."""
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


def evaluate(
    info: InfoSet,
    keys: Sequence[int],
    deals: int | None,
    seed: int,
    config: HardConfig = PLAIN,
    *,
    cache: dict[int, tuple[int, float]] | None = None,
) -> RootStats:
    """Each move of ``keys`` played on the same ``deals`` deals of ``info`` and played out (or
    solved exactly when ``solving(info, config.solve, config.multi, config.solve_deck)``);
    {key: (deals, total reward)} for the seat's side (see the module docstring). ``deals`` None:
    until ``config.seconds`` of wall time have passed (at least one deal); ``config.cpu_cap``:
    stop dealing after that many seconds of this thread's CPU (a safety net on a far slower
    machine; the deals done so far count). With evidence: ``config.resample`` > 1 draws the deals
    by likelihood (``resampled``) rather than weighting them by it; ``config.exploit`` with
    evidence that reads seats as a mixture (a beginner's model among them): in each deal's
    playouts a seat plays as a beginner (``play_out``'s ``naive``) with the probability the deal
    gives that model, drawn once per deal. ``config.crn``: every move's playout of a deal draws
    its random moves from the same numbers; ``config.halving`` (with ``deals``, more than two
    moves): the same ``deals`` x moves playouts spent in rounds (sequential halving, Karnin et
    al. 2013): each of ``ceil(log2 moves)`` rounds gets an equal share, spread over the moves
    still in, and the better half by mean goes on to the next, so that the last two get about
    three times the deals each; a move left behind keeps the deals it had (the most dealt are
    the finalists). ``cache``: the playouts' greedy captures (``play_out``), a dict the caller
    keeps from one search to the next under the same capture rules (the same results, found
    sooner)."""
    rng = random.Random(seed)
    # The playouts' random numbers: the search's own, or with ``crn`` one stream a deal, played
    # again for every move.
    luck = random.Random() if config.crn else rng
    deal = Dealer(info, rng).deal
    # With evidence (``engine.scopa.ai.evidence``) each deal's rewards count by its likelihood
    # (``_Weights``), or with ``resample`` the deals are drawn by it (and then count alike).
    found = info.evidence
    # The readings that give each mixed seat's posterior (with ``exploit``): ``found`` too, unless
    # the deals are drawn by it (then they count alike, but the posteriors still come from it).
    reading = found
    if found and config.resample > 1:
        deal = resampled(deal, found, config.resample, rng)
        found = ()
    sums = dict.fromkeys(keys, 0.0)
    moves = _DealPlayer(info, config, {} if cache is None else cache)
    clock = _Clock(config)
    weights = _Weights()
    weight = 1.0
    mixed = sorted({r.seat for r in reading if r.model}) if config.exploit and reading else []
    # Each mixed seat's posterior of the beginner's model in the current deal.
    posterior: list[float] | None = [0.0] * info.fast.players if mixed else None
    naive = 0
    # The moves still searched; a move ``halving`` leaves behind keeps the deals and the sum of
    # weights it had then (its total stays on that scale: only the moves still in are rescaled).
    active = list(keys)
    left: dict[int, tuple[int, float]] = {}
    schedule = halving_rounds(len(keys), deals) if config.halving and deals is not None else []
    limit = sum(schedule) if schedule else deals if deals is not None else 1 << 62
    cuts = iter(itertools.accumulate(schedule))
    next_cut = next(cuts, -1)
    done = 0
    while done < limit:
        if done and clock.passed():
            break
        done += 1
        base = deal()
        if found or posterior is not None:
            # ``reading`` is ``found`` unless the deals were drawn by it (then only the posterior
            # is wanted).
            log_w = log_likelihood(reading, base.hands, posterior)
        if posterior is not None:
            naive = _naive_seats(mixed, posterior, rng)
        if found:
            weight = weights.add(log_w, sums, active)
        moves.play(base, active, sums, weight, naive, luck, rng)
        if done == next_cut:
            # A round of ``halving`` ends: the better half goes on.
            _halve(active, sums, left, (done, weights.total))
            next_cut = next(cuts, -1)
    count = {key: left.get(key, (done, weights.total)) for key in keys}
    if found and weights.total > 0.0:
        # The weighted mean, on the scale of each move's deals (parts of a search merge by sums).
        return {key: (count[key][0], sums[key] * count[key][0] / count[key][1]) for key in keys}
    return {key: (count[key][0], sums[key]) for key in keys}


class _Clock:
    """``evaluate``'s stops: ``config.cpu_cap`` seconds of this thread's CPU, ``config.seconds``
    of wall time."""

    __slots__ = ("cpu_deadline", "deadline")

    def __init__(self, config: HardConfig) -> None:
        cpu_cap = config.cpu_cap
        seconds = config.seconds
        self.cpu_deadline = None if cpu_cap is None else time.thread_time() + cpu_cap
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def passed(self) -> bool:
        return (self.cpu_deadline is not None and time.thread_time() > self.cpu_deadline) or (
            self.deadline is not None and time.perf_counter() > self.deadline
        )


class _Weights:
    """The deals' likelihood weights, kept relative to a reference log-likelihood ``ref`` and
    rescaled (with the sums they weigh) when a deal is far likelier than it, so that nothing
    overflows; ``total`` their sum."""

    __slots__ = ("ref", "total")

    def __init__(self) -> None:
        self.ref: float | None = None
        self.total = 0.0

    def add(self, log_w: float, sums: dict[int, float], active: Sequence[int]) -> float:
        """The weight of a deal of log-likelihood ``log_w`` (``sums`` of ``active`` rescaled)."""
        ref = self.ref
        if ref is None or log_w - ref > 30.0:
            if ref is not None:
                shrink = math.exp(ref - log_w)
                self.total *= shrink
                for k in active:
                    sums[k] *= shrink
            self.ref = ref = log_w
        weight = math.exp(log_w - ref)
        self.total += weight
        return weight


def _naive_seats(mixed: Sequence[int], posterior: Sequence[float], rng: random.Random) -> int:
    """The mixed seats (a bit each) played as beginners in this deal, each with its posterior."""
    naive = 0
    for seat in mixed:
        if rng.random() < posterior[seat]:
            naive |= 1 << seat
    return naive


def _halve(
    active: list[int],
    sums: Mapping[int, float],
    left: dict[int, tuple[int, float]],
    reached: tuple[int, float],
) -> None:
    """A round of sequential halving ends: the better half of ``active`` goes on (every move
    still in has seen the same deals, so their sums compare); the others keep in ``left`` the
    deals and the sum of weights ``reached``."""
    active.sort(key=lambda k: (-sums[k], k))
    keep = -(-len(active) // 2)
    for key in active[keep:]:
        left[key] = reached
    del active[keep:]


class _DealPlayer:
    """How ``evaluate`` values each move of one deal: solved exactly (``solver_kind``) or played
    out, the other side's seats blind to the hands (fearing a sum by the odds that the next hand
    holds its value; the search's own side plays on what each deal gives it)."""

    __slots__ = (
        "blind_seats",
        "cache",
        "counting",
        "crn",
        "epsilon",
        "fast",
        "maxn",
        "mover",
        "reply",
        "reward",
        "side",
        "solver",
    )

    def __init__(
        self, info: InfoSet, config: HardConfig, cache: dict[int, tuple[int, float]]
    ) -> None:
        fast = self.fast = info.fast
        side = self.side = fast.side_of[info.seat]
        self.mover = info.seat
        self.cache = cache
        self.epsilon = config.epsilon
        self.reply = config.reply
        self.crn = config.crn
        self.reward = Reward(info, margin=config.margin, win=WIN).of
        kind = solver_kind(info, config.solve, config.multi, config.solve_deck)
        self.solver = None if kind is None else Solver(fast, self.reward, side)
        self.maxn = kind == "maxn"
        blind_seats = 0
        for other in range(fast.players):
            if fast.side_of[other] != side:
                blind_seats |= 1 << other
        self.blind_seats = blind_seats
        self.counting = self.solver is None and keeps_value_counts(
            fast,
            epsilon=self.epsilon,
            lookahead=True,
            reply=self.reply,
            blind_seats=blind_seats,
            odds=True,
        )

    def play(
        self,
        base: State,
        active: Sequence[int],
        sums: dict[int, float],
        weight: float,
        naive: int,
        luck: random.Random,
        rng: random.Random,
    ) -> None:
        """Each move of ``active`` on the deal ``base``, its value times ``weight`` added to
        ``sums``."""
        # With odds, the blind seats' greedy counts each value's copies (``play_out``): counted
        # once a deal here rather than once a playout.
        tally = value_counts(base.hands, base.deck) if self.counting else None
        if self.crn:
            # Every move's playout of this deal draws its random moves from the same numbers
            # (common random numbers: the moves differ by their merits, not by their luck).
            luck.seed(rng.getrandbits(64))
            start = luck.getstate()
        for key in active:
            state = base.copy()
            if self.crn:
                luck.setstate(start)
            apply_key(state, key, self.fast)
            sums[key] += weight * self.value(state, key, naive, tally, luck)

    def value(
        self, state: State, key: int, naive: int, tally: ValueCounts | None, luck: random.Random
    ) -> float:
        """The seat's side's reward of ``state`` after the move ``key``."""
        solver = self.solver
        if solver is not None:
            solver.deck = state.deck
            if self.maxn:
                return solver.rewards(
                    state.hands,
                    state.table,
                    state.captured,
                    state.scope,
                    state.last_taker,
                    state.seat,
                    state.left,
                )[self.side]
            return solver.value(
                state.hands,
                state.table,
                state.captured,
                state.scope,
                state.last_taker,
                state.seat,
                state.left,
                -1e9,
                1e9,
            )
        counts: ValueCounts | None = None
        if tally is not None:
            # The deal's counts less the card played (``play_out`` consumes its copy).
            played = VALUE[key & 63]
            remaining = tally[0].copy()
            remaining[played] -= 1
            held_of = [held.copy() for held in tally[1]]
            held_of[self.mover][played] -= 1
            counts = (remaining, held_of)
        points = play_out(
            self.fast,
            state.hands,
            state.table,
            state.deck,
            state.captured,
            state.scope,
            state.last_taker,
            state.seat,
            luck,
            epsilon=self.epsilon,
            cache=self.cache,
            lookahead=True,
            reply=self.reply,
            naive=naive,
            blind_seats=self.blind_seats,
            odds=True,
            counts=counts,
        )
        return self.reward(points, self.side)


def halving_rounds(moves: int, deals: int) -> list[int]:
    """The deals of each round of sequential halving for ``moves`` moves and a budget of
    ``deals`` x ``moves`` playouts (``evaluate``'s ``halving``): ``ceil(log2 moves)`` rounds of
    an equal share each, the moves still in halved (rounded up) after each; at least one deal a
    round. No rounds (plain search) for two moves or fewer."""
    if moves <= 2:
        return []
    rounds = math.ceil(math.log2(moves))
    share = deals * moves / rounds
    schedule = []
    left = moves
    for _ in range(rounds):
        schedule.append(max(1, int(share / left)))
        left = -(-left // 2)
    return schedule


def resampled(
    deal: Callable[[], State], found: Evidence, factor: int, rng: random.Random
) -> Callable[[], State]:
    """Deals drawn by their likelihood under ``found`` (sampling importance resampling): every
    ``RESAMPLE_BATCH`` deals come from ``factor`` times as many dealt by ``deal``, kept by
    systematic resampling in proportion to their likelihood, so that the playouts go to the
    likely deals instead of being weighed down (a deal costs a few microseconds, its playouts a
    few hundred)."""
    pending: list[State] = []

    def draw() -> State:
        if not pending:
            candidates = [deal() for _ in range(factor * RESAMPLE_BATCH)]
            logs = [log_likelihood(found, c.hands) for c in candidates]
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
            step = sum(weights) / RESAMPLE_BATCH
            mark = rng.random() * step
            running = 0.0
            for candidate, weight in zip(candidates, weights, strict=True):
                running += weight
                while mark < running and len(pending) < RESAMPLE_BATCH:
                    pending.append(candidate.copy())
                    mark += step
            while len(pending) < RESAMPLE_BATCH:  # rounding at the very end
                pending.append(candidates[-1].copy())
            pending.reverse()
        return pending.pop()

    return draw
