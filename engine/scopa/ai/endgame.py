"""The reward of a smazzata for the "hard" player's search, and the exact play of its last cards.

Glossary: **smazzata** = one deal played out; **scopa** = a capture that sweeps the table. The
flat search (``engine.scopa.ai.pimc``) values a move by the reward of the smazzatas it leads to
(``Reward``: winning the smazzata, ``margin`` a point, the game when the smazzata ends it). Once
no deck is left (or with ``solve_deck`` through the deck's last round, each deal's deck order
known as its hands are) and few cards remain (``solve``), every hand of a deal is known, so its
last cards are played exactly (``Solver``): alpha-beta minimax with two sides, and with three
(Scopa 3 players) max-n (every side for its own reward) or the paranoid minimax, as ``multi``
says (``solver_kind``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.scopa.ai.determinize import InfoSet
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules, deal_round, totals, undeal_round
from engine.scopa.tables import VALUE

__all__ = [
    "GAME_WIN",
    "WIN",
    "Reward",
    "Solver",
    "final_points",
    "solve_cost",
    "solver_kind",
    "solving",
]

# The reward of winning the smazzata (the deal-level metric), against ``margin`` per point.
WIN = 1.0


def solver_kind(info: InfoSet, solve: int, multi: str = "none", deck: bool = False) -> str | None:
    """How ``evaluate`` plays this position's deals: ``None`` played out, ``"minimax"`` solved
    exactly with two sides (alpha-beta), or ``multi`` (``MULTI_SOLVERS``) with more. Solved when
    at most ``solve`` cards are left after the move and no deck is left, or with ``deck`` the
    deck's last cards dealt within the solution too (each deal's deck order known, as its hands
    are)."""
    if not solve or info.left > solve + 1 or (info.deck_count and not deck):
        return None
    if info.fast.sides == 2:
        return "minimax"
    return None if multi == "none" else multi


def solving(info: InfoSet, solve: int, multi: str = "none", deck: bool = False) -> bool:
    """Whether ``evaluate`` plays this position's deals out exactly (``solver_kind``)."""
    return solver_kind(info, solve, multi, deck) is not None


# The work units of solving one move of a three-sided deal with 9 cards to play (the last round
# of Scopa 3 players), and the factor each card more multiplies them by (the units those of a
# playout's: without alpha-beta's cuts over two sides the cost grows faster). Measured on the
# first max-n, which has since become about twice as fast; kept, so that ``hard`` deals as many
# deals as when its games were measured (a move of the last round costs less than the rest).
MULTI_COST = {"paranoid": (167, 2.6), "maxn": (430, 3.2)}


def solve_cost(left: int, kind: str = "minimax") -> int:
    """The work units of solving one move of a deal with ``left`` cards to play by the solver
    ``kind`` (``solver_kind``): with two sides each card more about doubles it (measured; 45
    units at 9 cards), more sides by ``MULTI_COST``."""
    if kind in MULTI_COST:
        base, factor = MULTI_COST[kind]
        return max(1, round(base * factor ** (left - 9)))
    return 45 << (left - 9) if left >= 9 else 45 >> (9 - left)


# The reward of winning the game (a side reaching the target alone) with this smazzata.
GAME_WIN = 2.0


class Reward:
    """A smazzata's reward for one side: ``win`` for winning it, minus ``win`` for losing it,
    nothing for a tie, ``margin`` per point over the best other side, and ``GAME_WIN`` when the
    game ends with this smazzata (a side at the target or over it, alone in the lead: plus for the
    winner, minus for the others). Zero-sum between two sides."""

    __slots__ = ("margin", "points", "target", "win")

    def __init__(self, info: InfoSet, *, margin: float, win: float) -> None:
        self.margin = margin
        self.win = win
        self.points = info.points
        self.target = info.target

    def of(self, points: Sequence[int], side: int) -> float:
        own = points[side]
        two = len(points) == 2
        if two:
            other = points[1 - side]
            diff = own - other
        else:
            diff = own - max(p for s, p in enumerate(points) if s != side)
        reward = self.margin * diff
        if diff > 0:
            reward += self.win
        elif diff < 0:
            reward -= self.win
        target = self.target
        if not (target and self.points):
            return reward
        before = self.points
        if two:
            # The game's score after the smazzata: a side alone at the target or past it won
            # (the general case below, without its lists).
            own += before[side]
            other += before[1 - side]
            if own != other and (own if own > other else other) >= target:
                reward += GAME_WIN if own > other else -GAME_WIN
        else:
            game = [a + b for a, b in zip(before, points, strict=True)]
            best = max(game)
            if best >= target and game.count(best) == 1:
                reward += GAME_WIN if game[side] == best else -GAME_WIN
        return reward


def final_points(
    table: int, captured: Sequence[int], scope: Sequence[int], last_taker: int, fast: FastRules
) -> list[int]:
    """The sides' points of a smazzata whose cards are all played: the cards left on the table go
    to the side that took last (the first side if none did)."""
    piles = captured
    if table:
        piles = list(captured)
        piles[last_taker if last_taker >= 0 else 0] |= table
    return totals(piles, scope, fast)


def _taken_first(key: int) -> int:
    """The order of the solver's captures: the most cards taken first."""
    return -(key >> 6).bit_count()


class Solver:
    """Exact play of the last cards of one deal (every hand known, and the order of the ``deck``
    left, if any: a round is dealt from it when every hand is empty): minimax over the reward of
    the side ``me`` (which maximizes it; the other sides minimize it, together when there are
    more than two: the paranoid reading) with alpha-beta pruning (``value``), or max-n
    (``rewards``: every side maximizes its own reward)."""

    __slots__ = ("by_points", "captures", "deck", "fast", "me", "nodes", "reward")

    def __init__(
        self, fast: FastRules, reward: Callable[[Sequence[int], int], float], me: int
    ) -> None:
        self.fast = fast
        self.reward = reward
        self.me = me
        self.captures: dict[int, tuple[int, ...]] = {}
        # Max-n's rewards of each side by the sides' points (``rewards``).
        self.by_points: dict[tuple[int, ...], tuple[float, ...]] = {}
        self.nodes = 0
        # The deal's deck (dealt from its end), set for each deal solved.
        self.deck: list[int] = []

    def moves(self, hand: list[int], table: int) -> list[int]:
        fast = self.fast
        captures = self.captures
        keys: list[int] = []
        throws: list[int] = []
        for card in hand:
            found = captures.get(table << 6 | card)
            if found is None:
                options = capture_masks(
                    table,
                    card,
                    asso_piglia_tutto=fast.asso_piglia_tutto,
                    scopa_a_15=fast.scopa_a_15,
                )
                found = captures[table << 6 | card] = tuple(c << 6 | card for c in options)
            if found:
                keys += found
            else:
                throws.append(card)
        if fast.obbligo_di_presa and keys:
            return keys
        # Captures first, the bigger first: alpha-beta cuts more.
        if len(keys) > 1:
            keys.sort(key=_taken_first)
        return keys + throws

    def value(
        self,
        hands: list[list[int]],
        table: int,
        captured: list[int],
        scope: list[int],
        last_taker: int,
        seat: int,
        left: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Side ``me``'s reward with best play from here (``me`` maximizes it, the other side
        minimizes it)."""
        fast = self.fast
        if not left:
            return self.reward(final_points(table, captured, scope, last_taker, fast), self.me)
        self.nodes += 1
        hand = hands[seat]
        if not hand:
            # Every hand is empty: the deck deals the next round.
            deal_round(hands, self.deck, seat)
            v = self.value(hands, table, captured, scope, last_taker, seat, left, alpha, beta)
            undeal_round(hands, self.deck, seat)
            return v
        side = fast.side_of[seat]
        after = seat + 1 if seat + 1 < fast.players else 0
        maximize = side == self.me
        best = -1e9 if maximize else 1e9
        for key in self.moves(hand, table):
            card = key & 63
            capture = key >> 6
            index = hand.index(card)
            del hand[index]
            if capture:
                rest = table ^ capture
                old = captured[side]
                captured[side] = old | capture | 1 << card
                swept = not rest and left > 1 and not (fast.asso_piglia_tutto and VALUE[card] == 1)
                if swept:
                    scope[side] += 1
                v = self.value(hands, rest, captured, scope, side, after, left - 1, alpha, beta)
                if swept:
                    scope[side] -= 1
                captured[side] = old
            else:
                v = self.value(
                    hands,
                    table | 1 << card,
                    captured,
                    scope,
                    last_taker,
                    after,
                    left - 1,
                    alpha,
                    beta,
                )
            hand.insert(index, card)
            if maximize:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def rewards(
        self,
        hands: list[list[int]],
        table: int,
        captured: list[int],
        scope: list[int],
        last_taker: int,
        seat: int,
        left: int,
    ) -> tuple[float, ...]:
        """Every side's reward when every side plays for its own (max-n; of moves equally good
        for the side playing, the one worst for ``me``, the first of those)."""
        fast = self.fast
        if not left:
            points = tuple(final_points(table, captured, scope, last_taker, fast))
            # Few different scores end a deal's last round: each side's reward is worked out once.
            found = self.by_points.get(points)
            if found is None:
                reward = self.reward
                found = self.by_points[points] = tuple(
                    reward(points, s) for s in range(len(points))
                )
            return found
        self.nodes += 1
        hand = hands[seat]
        if not hand:
            deal_round(hands, self.deck, seat)
            got = self.rewards(hands, table, captured, scope, last_taker, seat, left)
            undeal_round(hands, self.deck, seat)
            return got
        side = fast.side_of[seat]
        after = seat + 1 if seat + 1 < fast.players else 0
        me = self.me
        best: tuple[float, ...] = ()
        keys = self.moves(hand, table)
        only = len(keys) == 1
        for key in keys:
            card = key & 63
            capture = key >> 6
            index = hand.index(card)
            del hand[index]
            if capture:
                rest = table ^ capture
                old = captured[side]
                captured[side] = old | capture | 1 << card
                swept = not rest and left > 1 and not (fast.asso_piglia_tutto and VALUE[card] == 1)
                if swept:
                    scope[side] += 1
                got = self.rewards(hands, rest, captured, scope, side, after, left - 1)
                if swept:
                    scope[side] -= 1
                captured[side] = old
            else:
                got = self.rewards(
                    hands, table | 1 << card, captured, scope, last_taker, after, left - 1
                )
            hand.insert(index, card)
            if only:
                return got
            if (
                not best
                or got[side] > best[side]
                or (got[side] == best[side] and got[me] < best[me])
            ):
                best = got
        return best
