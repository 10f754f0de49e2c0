"""``hard``'s budget (a deterministic time budget), its settings (one frozen ``HardConfig``), its
playouts, the weaker inference, and one search cut into parts for processes the caller owns (root
parallelism)."""

from __future__ import annotations

import random

import pytest

from engine import scopa
from engine.ai import get_player
from engine.ai.search import merge
from engine.cards import parse_card
from engine.scopa import score_smazzata
from engine.scopa.ai.config import CACHE_LIMIT, DEFAULT_WORK, MAX_DEALS, WORK_OVERHEAD, HardConfig
from engine.scopa.ai.determinize import info_set
from engine.scopa.ai.endgame import solve_cost
from engine.scopa.ai.hard import HardPlayer, capture_cache, legal_keys, run_part
from engine.scopa.ai.pimc import halving_rounds
from engine.scopa.playout import FastRules, play_out
from engine.scopa.tables import CARD_TEXT, FULL_MASK

from ..scopa.helpers import played_at_random


def a_view(seed: int = 4, variant: str = "scopone") -> scopa.ScopaView:
    game = scopa.new_game(scopa.Rules(variant=variant), seed=seed)
    seat = game.current_player
    assert seat is not None
    return game.view(seat)


def test_the_default_budget_is_work_turned_into_iterations() -> None:
    """Same view and seed, same move and the same number of iterations: the budget depends on the
    cards left, never on the clock (unless the CPU cap of a far slower machine is reached)."""
    view = a_view()
    left = sum(view.hand_counts) + view.deck_count
    # A deal costs one playout per legal move.
    count = len([m for m in view.legal_moves if not m.endswith("!")])
    work = 40 * count * (left + WORK_OVERHEAD)
    flat = HardPlayer(work=work, reply=False, solve=0, halving=False)
    moves = {flat.choose(view, random.Random(3)) for _ in range(2)}
    assert len(moves) == 1 and flat.last_iterations == 40
    # With halving the same playouts in rounds: the finalists get the most deals.
    halved = HardPlayer(work=work, reply=False, solve=0, halving=True)
    moves = {halved.choose(view, random.Random(3)) for _ in range(2)}
    assert len(moves) == 1 and halved.last_iterations == sum(halving_rounds(count, 40))
    default = HardPlayer().config
    assert default == HardConfig() and default.work == DEFAULT_WORK
    assert default.cpu_cap is not None and default.iterations is None
    fixed = HardPlayer(iterations=50).config
    assert fixed.work is None and fixed.cpu_cap is None
    assert HardPlayer(HardConfig(iterations=50)).config == fixed
    with pytest.raises(TypeError):
        HardPlayer(fixed, iterations=50)
    with pytest.raises(AttributeError):
        fixed.iterations = 3  # type: ignore[misc]


def test_a_position_solved_exactly_is_costed_as_a_solution() -> None:
    """Scopa 2 players' fifth round: played out it gets the most deals; with ``solve_deck`` (the
    deck dealt within the exact solution) each deal costs a solution of 12 cards."""
    game = played_at_random(scopa.Rules(), 8, 24)
    seat = game.current_player
    assert seat is not None
    info = info_set(game.view(seat))
    moves = len(legal_keys(info))
    assert HardPlayer().deals(info) == MAX_DEALS
    solved = HardPlayer(solve_deck=True).deals(info)
    assert solved == DEFAULT_WORK // (moves * solve_cost(12))


@pytest.mark.parametrize(
    "options",
    [
        {"work": 0},
        {"work": 10, "iterations": 5},
        {"cpu_cap": 0},
        {"solve": 40},
        {"margin": -1},
        {"multi": "alliance"},
        {"epsilon": 2},
        {"workers": 0},
        {"likelihood": -1},
        {"method": "ismcts"},
    ],
)
def test_bad_budget_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        get_player("hard", **options)


def test_a_plan_in_parts_is_a_search_per_part_summed() -> None:
    view = a_view()
    # Every move on every deal (no halving), for the counts below.
    hard = HardPlayer(iterations=30, halving=False)
    plan = hard.plan(view, random.Random(2), 3)
    assert not isinstance(plan, str)
    assert plan.parts == 3 and len(set(plan.seeds)) == 3
    parts = [run_part(plan, k) for k in range(3)]
    # The flat search tries every move on each deal.
    assert all(max(v for v, _ in stats.values()) == 30 for stats in parts)
    move = hard.finish(view, plan, parts)
    assert move in view.legal_moves and hard.last_iterations == 90
    again = HardPlayer(iterations=30, halving=False)
    plan_again = again.plan(view, random.Random(2), 3)
    assert not isinstance(plan_again, str)
    assert again.finish(view, plan_again, [run_part(plan_again, k) for k in range(3)]) == move
    merged = merge(parts)
    assert max(v for v, _ in merged.values()) == 90


def test_a_part_run_by_the_player_is_the_part_run_alone() -> None:
    """``HardPlayer.run_part`` (what a worker process runs, with its player's warm cache of
    greedy captures) gives the same statistics as ``run_part`` with a cold one."""
    view = a_view(seed=9)
    hard = HardPlayer(iterations=40)
    plan = hard.plan(view, random.Random(3), 2)
    assert not isinstance(plan, str)
    cold = [run_part(plan, k) for k in range(2)]
    warm = [hard.run_part(plan, k) for k in range(2)]
    assert warm == cold
    assert [hard.run_part(plan, k) for k in range(2)] == cold  # the cache now full of them


def test_the_capture_cache_is_one_per_capture_rules_and_emptied_at_its_limit() -> None:
    caches: dict[tuple[bool, bool], dict[int, tuple[int, float]]] = {}
    plain = FastRules.of(scopa.Rules())
    asso = FastRules.of(scopa.Rules(asso_piglia_tutto=True))
    first = capture_cache(caches, plain)
    assert capture_cache(caches, plain) is first
    assert capture_cache(caches, FastRules.of(scopa.Rules(variant="scopone"))) is first
    other = capture_cache(caches, asso)
    assert other is not first
    # The limit counts every rules' captures together.
    first.update((k, (0, 0.0)) for k in range(CACHE_LIMIT - 1))
    other[1] = (0, 0.0)
    assert capture_cache(caches, plain) is first and not first and not other


def test_a_plan_with_one_legal_move_is_the_move() -> None:
    game = scopa.new_game(scopa.Rules(), seed=3)
    easy = get_player("easy")
    while True:
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        if len(view.legal_moves) == 1:
            break
        game = game.play(easy.choose(view, random.Random(0)))
    assert HardPlayer(iterations=5).plan(view, random.Random(0), 2) == view.legal_moves[0]


@pytest.mark.parametrize("variant", ["scopa", "scopone"])
def test_lookahead_playouts_take_every_card_once(variant: str) -> None:
    fast = FastRules.of(scopa.Rules(variant=variant))
    rng = random.Random(5)
    n = fast.players
    per = 3 if variant == "scopa" else 9
    for _ in range(30):
        cards = list(range(40))
        rng.shuffle(cards)
        for epsilon in (0.0, 0.5):
            piles = [0] * fast.sides
            points = play_out(
                fast,
                [cards[4 + k * per : 4 + (k + 1) * per] for k in range(n)],
                sum(1 << c for c in cards[:4]),
                cards[4 + n * per :],
                piles,
                [0] * fast.sides,
                -1,
                0,
                random.Random(1),
                epsilon=epsilon,
                lookahead=True,
            )
            assert piles[0] | piles[1] == FULL_MASK and piles[0] & piles[1] == 0
            assert len(points) == fast.sides


def test_lookahead_does_not_leave_a_scopa() -> None:
    """Seat 0 holds 5C and 7C on a table of 3C; seat 1 holds JS (an 8): the beginner throws 5C (the
    cheaper card) and seat 1 sweeps 3 + 5 with the J; the lookahead throws 7C instead, unless
    seat 0 is marked ``naive`` (played as a beginner: ``exploit``), when it throws 5C again; a
    naive seat 1 changes nothing for seat 0."""
    fast = FastRules.of(scopa.Rules())
    i = {t: n for n, t in enumerate(CARD_TEXT)}
    results = {}
    for lookahead, naive in ((False, 0), (True, 0), (True, 1), (True, 2)):
        scope = [0, 0]
        play_out(
            fast,
            [[i["5C"], i["7C"]], [i["JS"], i["2B"]]],
            1 << i["3C"],
            [],
            [0, 0],
            scope,
            -1,
            0,
            random.Random(0),
            epsilon=0.0,
            lookahead=lookahead,
            naive=naive,
        )
        results[lookahead, naive] = scope[1]
    assert results == {(False, 0): 1, (True, 0): 0, (True, 1): 1, (True, 2): 0}


def test_a_throw_on_a_table_it_could_take_from_makes_those_values_doubtful() -> None:
    """Seat 1 threw a king on a table holding a 2 and a 3: it probably held no 2, 3 nor 5 (they
    would have taken), weaker evidence than a missed scopa."""
    game = scopa.new_game(scopa.Rules(players=2), seed=1)
    for _ in range(200):
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        info = info_set(view)
        if info.doubtful:
            assert all(d & u == 0 for d, u in zip(info.doubtful, info.unlikely, strict=True))
            assert info.doubtful[seat] == 0
            assert all(d & ~info.unseen == 0 for d in info.doubtful)
            return
        game = game.play(get_player("easy").choose(view, random.Random(0)))
        if game.is_over:
            break
    pytest.fail("no doubtful evidence in a whole game")


def test_scores_agree_with_the_engine_scoring() -> None:
    """play_out's totals on the piles it leaves equal the engine's score_smazzata."""
    rules = scopa.Rules()
    fast = FastRules.of(rules)
    rng = random.Random(9)
    for _ in range(20):
        cards = list(range(40))
        rng.shuffle(cards)
        hands = [cards[4:7], cards[7:10]]
        deck = cards[10:]
        piles = [0, 0]
        scope = [0, 0]
        points = play_out(
            fast,
            hands,
            sum(1 << c for c in cards[:4]),
            deck,
            piles,
            scope,
            -1,
            0,
            random.Random(2),
            epsilon=0.0,
            lookahead=True,
        )
        assert (piles[0] | piles[1]) == FULL_MASK and piles[0] & piles[1] == 0
        expected = score_smazzata(
            [[parse_card(CARD_TEXT[c]) for c in range(40) if p >> c & 1] for p in piles], scope
        )
        assert [s["total"] for s in expected] == points
