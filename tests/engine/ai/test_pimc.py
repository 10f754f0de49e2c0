"""The determinized flat search of ``hard`` (``engine.scopa.ai.pimc``): its exact endgame, its
reward, its reply playouts, and the same statistics for the same seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine import scopa
from engine.cards import parse_card
from engine.scopa import score_smazzata
from engine.scopa.ai.determinize import info_set
from engine.scopa.ai.endgame import (
    GAME_WIN,
    Reward,
    Solver,
    final_points,
    solve_cost,
    solver_kind,
    solving,
)
from engine.scopa.ai.hard import legal_keys
from engine.scopa.ai.pimc import PLAIN, evaluate, halving_rounds
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules, holds_one, play_out
from engine.scopa.tables import CARD_TEXT, FULL_MASK, VALUE

from ..scopa.helpers import played_at_random


def _played(
    fast: FastRules,
    hands: list[list[int]],
    table: int,
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    card: int,
    capture: int,
    deck: int = 0,
) -> tuple[list[list[int]], int, list[int], list[int], int, int]:
    """The position after ``seat`` plays ``card`` taking ``capture`` (0: a throw; ``deck`` cards
    still to deal), in new lists: (hands, table, captured, scope, last taker, next seat)."""
    side = fast.side_of[seat]
    rest = [h.copy() for h in hands]
    rest[seat].remove(card)
    piles, sc = captured.copy(), scope.copy()
    if capture:
        piles[side] |= capture | 1 << card
        if capture == table and sum(len(h) for h in hands) + deck > 1:
            sc[side] += 1
        after, taker = table ^ capture, side
    else:
        after, taker = table | 1 << card, last_taker
    return rest, after, piles, sc, taker, (seat + 1) % fast.players


def _brute(
    fast: FastRules,
    hands: list[list[int]],
    table: int,
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    deck: Sequence[int] = (),
) -> int:
    """Side 0's points minus side 1's with best play, by plain minimax (no pruning); with a
    ``deck`` (dealt from its end, three cards a hand, the seat to play first) when the hands are
    empty."""
    if not any(hands):
        if deck:
            n = len(hands)
            dealt = [list(h) for h in hands]
            for k in range(n):
                dealt[(seat + k) % n] = list(reversed(deck[len(deck) - 3 * (k + 1) :][:3]))
            deck = deck[: len(deck) - 3 * n]
            return _brute(fast, dealt, table, captured, scope, last_taker, seat, deck)
        points = final_points(table, captured, scope, last_taker, fast)
        return points[0] - points[1]
    side = fast.side_of[seat]
    values = []
    for card in list(hands[seat]):
        options = capture_masks(table, card) or [0]
        for capture in options:
            after = _played(
                fast, hands, table, captured, scope, last_taker, seat, card, capture, len(deck)
            )
            values.append(_brute(fast, *after, deck))
    return max(values) if side == 0 else min(values)


class _Diff:
    """A reward that is the plain point difference (to compare with the brute force)."""

    @staticmethod
    def of(points: Sequence[int], side: int) -> float:
        return float(points[side] - points[1 - side])


@pytest.mark.parametrize("players", [2, 4])
def test_the_endgame_solver_is_exact_minimax(players: int) -> None:
    fast = FastRules.of(scopa.Rules(variant="scopone" if players == 4 else "scopa"))
    rng = random.Random(11)
    per = 2 if players == 4 else 3
    solver = Solver(fast, _Diff.of, 0)
    other = Solver(fast, _Diff.of, 1)  # the same position judged by the other side
    for _ in range(25):
        cards = list(range(40))
        rng.shuffle(cards)
        hands = [cards[3 + k * per : 3 + (k + 1) * per] for k in range(players)]
        table = sum(1 << c for c in cards[:3])
        rest = cards[3 + players * per :]
        captured = [sum(1 << c for c in rest[::2]), sum(1 << c for c in rest[1::2])]
        left = players * per
        expected = _brute(fast, hands, table, captured, [0, 0], 1, 0)
        got = solver.value(hands, table, captured, [0, 0], 1, 0, left, -1e9, 1e9)
        assert got == expected
        assert other.value(hands, table, captured, [0, 0], 1, 0, left, -1e9, 1e9) == -expected


@pytest.mark.parametrize("per", [1, 2, 3])
def test_the_endgame_solver_deals_the_decks_last_round(per: int) -> None:
    """Scopa 2 players' last two rounds: the solver deals the deck's round when the hands are
    empty (each deal's deck order known) and gives plain minimax's value; it puts every card of
    the hands and the deck back."""
    fast = FastRules.of(scopa.Rules())
    rng = random.Random(17 + per)
    solver = Solver(fast, _Diff.of, 0)
    for trial in range(12):
        cards = list(range(40))
        rng.shuffle(cards)
        hands = [cards[4 : 4 + per], cards[4 + per : 4 + 2 * per]]
        table = sum(1 << c for c in cards[:4])
        deck = cards[4 + 2 * per : 10 + 2 * per]
        rest = cards[10 + 2 * per :]
        captured = [sum(1 << c for c in rest[::2]), sum(1 << c for c in rest[1::2])]
        seat = trial % 2
        expected = _brute(fast, hands, table, captured, [0, 0], 1, seat, deck)
        solver.deck = list(deck)
        left = 2 * per + 6
        got = solver.value(hands, table, captured, [0, 0], 1, seat, left, -1e9, 1e9)
        assert got == expected
        assert solver.deck == deck and [len(h) for h in hands] == [per, per]


class _Margin:
    """A three-sided reward: a side's points over the best other's."""

    @staticmethod
    def of(points: Sequence[int], side: int) -> float:
        return float(points[side] - max(p for s, p in enumerate(points) if s != side))


def _brute_multi(
    solver: Solver,
    hands: list[list[int]],
    table: int,
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    paranoid: bool,
) -> tuple[float, list[int]]:
    """(side ``me``'s reward, the sides' points) with every side playing for its own reward
    (max-n; of moves equally good for the side playing, the one worst for ``me``, the first of
    those), or with ``paranoid`` the others together against ``me``: plain recursion over the
    solver's moves, no pruning, new lists at every step."""
    fast, me, reward = solver.fast, solver.me, solver.reward
    left = sum(len(h) for h in hands)
    if not left:
        points = final_points(table, captured, scope, last_taker, fast)
        return reward(points, me), points
    side = fast.side_of[seat]
    children = []
    for key in solver.moves(list(hands[seat]), table):
        after = _played(fast, hands, table, captured, scope, last_taker, seat, key & 63, key >> 6)
        children.append(_brute_multi(solver, *after, paranoid))
    if paranoid:
        pick = max if side == me else min
        return pick(children, key=lambda child: child[0])
    best = children[0]
    for child in children[1:]:
        own, best_own = reward(child[1], side), reward(best[1], side)
        if own > best_own or (own == best_own and child[0] < best[0]):
            best = child
    return best


@pytest.mark.parametrize("paranoid", [False, True])
def test_the_three_sided_solvers_are_exact_max_n_and_paranoid_minimax(paranoid: bool) -> None:
    """Scopa 3 players' last round: ``rewards`` is max-n (every side for its own reward),
    ``value`` over three sides the paranoid minimax (the two others against the seat)."""
    fast = FastRules.of(scopa.Rules(players=3))
    rng = random.Random(13)
    for trial in range(20):
        me = trial % 3
        solver = Solver(fast, _Margin.of, me)
        cards = list(range(40))
        rng.shuffle(cards)
        per = 2 + trial % 2
        hands = [cards[4 + k * per : 4 + (k + 1) * per] for k in range(3)]
        table = sum(1 << c for c in cards[:4])
        rest = cards[4 + 3 * per :]
        captured = [sum(1 << c for c in rest[k::3]) for k in range(3)]
        scope = [0, 1, 0]
        left = 3 * per
        expected, points = _brute_multi(solver, hands, table, captured, scope, 2, 0, paranoid)
        if paranoid:
            got = solver.value(hands, table, captured, scope, 2, 0, left, -1e9, 1e9)
            assert got == expected
        else:
            each = solver.rewards(hands, table, captured, scope, 2, 0, left)
            assert each == tuple(_Margin.of(points, s) for s in range(3))
        # The solver puts every card and count back.
        assert [len(h) for h in hands] == [per] * 3 and scope == [0, 1, 0]


def _last_round_of_scopa_3() -> scopa.Game:
    # The first three rounds of 3 cards to each of 3 players.
    return played_at_random(scopa.Rules(players=3), 21, 27)


def test_three_sided_deals_are_solved_only_with_a_multi_solver() -> None:
    game = _last_round_of_scopa_3()
    seat = game.current_player
    assert seat is not None
    info = info_set(game.view(seat))
    assert info.deck_count == 0 and info.left == 9
    assert not solving(info, 11)
    assert solving(info, 11, "paranoid") and solving(info, 11, "maxn")
    assert not solving(info, 7, "maxn")  # 8 cards left after the move
    keys = legal_keys(info)
    for multi in ("paranoid", "maxn"):
        first = evaluate(info, keys, 12, 5, replace(PLAIN, solve=11, multi=multi))
        assert first == evaluate(info, keys, 12, 5, replace(PLAIN, solve=11, multi=multi))
        assert {v for v, _ in first.values()} == {12}
    # Costed as measured: dearer than a playout, and dearer by the card.
    assert solve_cost(9, "maxn") > solve_cost(9, "paranoid") > solve_cost(9) > info.left + 1
    assert [solve_cost(n, "maxn") for n in range(2, 10)] == sorted(
        solve_cost(n, "maxn") for n in range(2, 10)
    )


def test_the_decks_last_round_is_solved_only_with_solve_deck() -> None:
    """Scopa 2 players' fifth round (6 cards in the deck): played out, unless ``solve_deck``
    deals the deck within the exact solution; then deterministic, every move on every deal."""
    game = played_at_random(scopa.Rules(), 8, 24)  # four rounds of 3 cards each
    seat = game.current_player
    assert seat is not None
    info = info_set(game.view(seat))
    assert info.deck_count == 6 and info.left == 12
    assert solver_kind(info, 11) is None and not solving(info, 11)
    assert solver_kind(info, 11, deck=True) == "minimax"
    assert solver_kind(info, 10, deck=True) is None  # 11 cards left after the move
    assert solver_kind(info, 11, "maxn", deck=True) == "minimax"  # two sides
    keys = legal_keys(info)
    first = evaluate(info, keys, 6, 3, replace(PLAIN, solve=11, solve_deck=True))
    assert first == evaluate(info, keys, 6, 3, replace(PLAIN, solve=11, solve_deck=True))
    assert {v for v, _ in first.values()} == {6}
    assert first != evaluate(info, keys, 6, 3, replace(PLAIN, solve=11))


def test_the_reward_counts_the_deal_the_points_and_the_game() -> None:
    game = scopa.new_game(scopa.Rules(), seed=3)
    seat = game.current_player
    assert seat is not None
    info = info_set(game.view(seat))
    reward = Reward(info, margin=0.1, win=1.0)
    assert reward.of([3, 1], 0) == pytest.approx(1.2)
    assert reward.of([3, 1], 1) == pytest.approx(-1.2)
    assert reward.of([2, 2], 0) == 0.0
    # 11 points in one smazzata end the game (target 11, from 0 - 0).
    assert reward.of([11, 2], 0) == pytest.approx(1.9 + GAME_WIN)
    assert reward.of([11, 2], 1) == pytest.approx(-1.9 - GAME_WIN)
    assert reward.of([11, 11], 0) == 0.0  # tied at the target: the game goes on


@pytest.mark.parametrize("variant", ["scopa", "scopone"])
def test_reply_playouts_take_every_card_once_and_score_as_the_engine(variant: str) -> None:
    rules = scopa.Rules(variant=variant)
    fast = FastRules.of(rules)
    rng = random.Random(5)
    n = fast.players
    per = 3 if variant == "scopa" else 9
    for _ in range(20):
        cards = list(range(40))
        rng.shuffle(cards)
        piles = [0] * fast.sides
        scope = [0] * fast.sides
        points = play_out(
            fast,
            [cards[4 + k * per : 4 + (k + 1) * per] for k in range(n)],
            sum(1 << c for c in cards[:4]),
            cards[4 + n * per :],
            piles,
            scope,
            -1,
            0,
            random.Random(1),
            epsilon=0.0,
            lookahead=True,
            reply=True,
        )
        assert piles[0] | piles[1] == FULL_MASK and piles[0] & piles[1] == 0
        expected = score_smazzata(
            [[parse_card(CARD_TEXT[c]) for c in range(40) if p >> c & 1] for p in piles],
            scope,
            rules,
        )
        assert [s["total"] for s in expected] == points


def test_reply_playouts_do_not_leave_the_settebello_to_a_seven() -> None:
    """Seat 0 holds 7D and KC on an empty table, seat 1 a 7: the reply greedy throws the king
    (thrown, the settebello would be taken by the 7), and takes the 7 with it after."""
    fast = FastRules.of(scopa.Rules())
    i = {t: n for n, t in enumerate(CARD_TEXT)}
    piles = [0, 0]
    play_out(
        fast,
        [[i["7D"], i["KC"]], [i["7S"]]],
        0,
        [],
        piles,
        [0, 0],
        -1,
        0,
        random.Random(0),
        epsilon=0.0,
        lookahead=True,
        reply=True,
    )
    assert piles[0] >> i["7D"] & 1


def test_same_seed_same_statistics_and_every_move_on_every_deal() -> None:
    game = scopa.new_game(scopa.Rules(variant="scopone"), seed=7)
    seat = game.current_player
    assert seat is not None
    info = info_set(game.view(seat))
    keys = legal_keys(info)
    first = evaluate(info, keys, 40, 123)
    assert first == evaluate(info, keys, 40, 123)
    assert set(first) == set(keys) and {v for v, _ in first.values()} == {40}
    assert not solving(info, 11)  # 36 cards left: played out, not solved
    assert all(VALUE[k & 63] for k in keys)


@pytest.mark.parametrize("crn", [False, True])
def test_common_random_numbers_give_every_move_of_a_deal_the_same_luck(
    crn: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``crn`` every move's playout of one deal starts from the same random numbers (the
    moves differ by their merits, not their luck), each deal from new ones; the same seed gives
    the same statistics."""
    import engine.scopa.ai.pimc as pimc

    starts: list[object] = []

    def recording(*args: object, **kwargs: object) -> list[int]:
        rng = args[8]
        assert isinstance(rng, random.Random)
        starts.append(rng.getstate())
        return play_out(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pimc, "play_out", recording)
    game = scopa.new_game(scopa.Rules(variant="scopone"), seed=7)
    seat = game.current_player
    assert seat is not None
    info = info_set(game.view(seat))
    keys = legal_keys(info)
    first = evaluate(info, keys, 6, 123, replace(PLAIN, crn=crn))
    deals = [starts[i : i + len(keys)] for i in range(0, len(starts), len(keys))]
    assert len(deals) == 6
    assert all((len({repr(s) for s in deal}) == 1) is crn for deal in deals)
    assert len({repr(deal[0]) for deal in deals}) == 6
    assert first == evaluate(info, keys, 6, 123, replace(PLAIN, crn=crn))


def test_halving_rounds_share_the_budget_equally_and_halve_the_moves() -> None:
    assert halving_rounds(10, 500) == [125, 250, 416, 625]  # 10, 5, 3, 2 moves in
    assert halving_rounds(3, 40) == [20, 30]  # 3, 2 moves in
    assert halving_rounds(2, 40) == [] and halving_rounds(1, 40) == []
    assert halving_rounds(40, 1) == [1, 1, 1, 1, 2, 3]  # at least a deal a round


@pytest.mark.parametrize("weighted", [False, True])
def test_halving_spends_the_same_playouts_and_keeps_the_best_moves_longest(weighted: bool) -> None:
    """``halving``: the budget of ``deals`` x moves playouts in rounds; a move left behind keeps
    the deals it had, the finalists have the most, and each move's mean is over its own deals
    (weighted by the evidence when there is some)."""
    game = scopa.new_game(scopa.Rules(variant="scopone"), seed=7)
    for _ in range(6):  # a few plays, for the evidence to read
        game = game.play(game.view(game.current_player).legal_moves[0])
    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    from engine.scopa.ai.hard import HardPlayer

    info = HardPlayer().info(view) if weighted else info_set(view)
    assert bool(info.evidence) is weighted
    keys = legal_keys(info)
    assert len(keys) > 2
    stats = evaluate(info, keys, 60, 5, replace(PLAIN, halving=True, crn=True))
    assert stats == evaluate(info, keys, 60, 5, replace(PLAIN, halving=True, crn=True))
    schedule = halving_rounds(len(keys), 60)
    counts = sorted((d for d, _ in stats.values()), reverse=True)
    assert counts[0] == counts[1] == sum(schedule) and counts[2] < counts[1]
    assert counts[-1] == schedule[0]
    assert abs(sum(counts) - 60 * len(keys)) <= len(keys) * len(schedule)
    # A move's mean is the plain (or weighted) mean of its deals: within the rewards' range.
    assert all(-4.0 <= t / d <= 4.0 for d, t in stats.values())
    plain = evaluate(info, keys, 60, 5, replace(PLAIN, crn=True))
    assert {d for d, _ in plain.values()} == {60}


class _FirstMoveOnly(random.Random):
    """A random source that stops a playout at its second move (each greedy move draws once)."""

    class Stop(Exception):
        pass

    def __init__(self) -> None:
        super().__init__(0)
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        if self.draws > 1:
            raise self.Stop
        return 0.5


def _first_throw(
    hidden: str,
    *,
    blind: bool = False,
    partner: str = "KC",
    last: str = "KS",
    blind_seats: int = 0,
    odds: bool = False,
) -> str:
    """The card seat 0 of a Scopone deal throws on a table of 4D holding 3C 2S (neither takes),
    the next player holding KB QB (no 6 or 7), the partner ``partner`` QC, the player after the
    partner ``hidden`` ``last``."""
    fast = FastRules.of(scopa.Rules(variant="scopone"))
    index = {text: i for i, text in enumerate(CARD_TEXT)}
    hands = [
        [index["3C"], index["2S"]],
        [index["KB"], index["QB"]],
        [index[partner], index["QC"]],
        [index[hidden], index[last]],
    ]
    before = set(hands[0])
    with pytest.raises(_FirstMoveOnly.Stop):
        play_out(
            fast,
            hands,
            1 << index["4D"],
            [],
            [0, 0],
            [0, 0],
            -1,
            0,
            _FirstMoveOnly(),
            epsilon=0.0,
            lookahead=True,
            # ``blind``: every seat blind.
            blind_seats=blind_seats | (15 if blind else 0),
            odds=odds,
        )
    (thrown,) = before - set(hands[0])
    return CARD_TEXT[thrown]


def test_blind_playouts_fear_a_sweep_by_any_card_their_player_cannot_see() -> None:
    """With ``blind`` the greedy move leaves no sum that an unseen card makes (here a card of the
    player after the partner: 4D + 3C = 7 against a hidden 7, 4D + 2S = 6 against a hidden 6);
    without it only the next player's actual cards count, so the hidden card changes nothing."""
    assert _first_throw("7D", blind=True) == "2S"
    assert _first_throw("6D", blind=True) == "3C"
    assert _first_throw("7D", blind=False) == _first_throw("6D", blind=False)


def test_blind_seats_make_only_those_seats_blind() -> None:
    """``blind_seats`` (a bit per seat) makes those seats' greedy blind, the others look at the
    next player's actual hand: seat 0 blind throws as with ``blind``, seat 1 blind leaves seat 0
    as without it."""
    assert _first_throw("7D", blind_seats=1) == _first_throw("7D", blind=True) == "2S"
    assert _first_throw("6D", blind_seats=1) == "3C"
    assert _first_throw("7D", blind_seats=2) == _first_throw("7D", blind=False)


def test_blind_odds_fear_a_sum_by_the_chance_the_next_hand_makes_it() -> None:
    """With ``odds`` a blind greedy fears each sum by the chance that the next hand, dealt at
    random from the cards it cannot see, holds that value: two hidden 7s (7S, 7D) make 4D + 3C
    likelier swept than one hidden 6 (6D) makes 4D + 2S, so it throws 2S, where the plain blind
    fears both alike and throws as it would with no fear at all."""
    plain = _first_throw("7D", partner="7S", last="6D", blind=True)
    assert plain == _first_throw("7D", partner="7S", last="6D")
    assert plain == "3C"
    assert _first_throw("7D", partner="7S", last="6D", blind=True, odds=True) == "2S"
    assert _first_throw("7D", partner="7S", last="6D", blind_seats=1, odds=True) == "2S"
    assert holds_one(30, 10, 1) == pytest.approx(1 / 3)
    assert holds_one(6, 2, 2) == pytest.approx(1 - (4 / 6) * (3 / 5))
    assert holds_one(5, 5, 1) == 1.0
