"""The fast playout path obeys the same rules as the readable engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import scopa
from engine.scopa.playout import (
    FastRules,
    greedy_move,
    keeps_value_counts,
    play_out,
    random_smazzata,
    totals,
    value_counts,
)
from engine.scopa.tables import INDEX, VALUE, mask_of

OPTION_SETS = [
    scopa.Rules(),
    scopa.Rules(players=3, napola=True, re_bello=True),
    scopa.Rules(players=4, primiera_missing_suit="lenient"),
    scopa.Rules(variant="scopone"),
    scopa.Rules(variant="scientifico", asso_piglia_tutto=True),
    scopa.Rules(scopa_a_15=True, obbligo_di_presa=True),
]


def fast_state(
    game: scopa.Game,
) -> tuple[list[list[int]], int, list[int], list[int], list[int], int]:
    data = game.to_dict()
    from engine.cards import parse_cards

    hands = [[INDEX[c] for c in parse_cards(h)] for h in data["hands"]]
    deck = [INDEX[c] for c in parse_cards(data["deck"])]
    captured = [mask_of(parse_cards(c)) for c in data["captured"]]
    last = data["last_taker"]
    return (
        hands,
        mask_of(parse_cards(data["table"])),
        deck,
        captured,
        list(data["scope"]),
        (-1 if last is None else last),
    )


@pytest.mark.parametrize("rules", OPTION_SETS, ids=lambda r: f"{r.variant}{r.players}")
def test_greedy_playout_matches_the_engine(rules: scopa.Rules) -> None:
    """epsilon = 0 plays greedy_move for every seat: the engine, moved the same way, must score
    the smazzata identically."""
    fast = FastRules.of(rules)
    for seed in range(25):
        game = scopa.new_game(rules.__class__(**{**rules.to_dict(), "target": 51}), seed=seed)
        hands, table, deck, captured, scope, last = fast_state(game)
        expected = play_out(
            fast,
            hands,
            table,
            deck,
            captured,
            scope,
            last,
            game.current_player or 0,
            random.Random(0),
            epsilon=0.0,
        )
        first = len(game.smazzate)
        while len(game.smazzate) == first:
            seat = game.current_player
            assert seat is not None
            hand = [INDEX[c] for c in game.hand(seat)]
            last_play = (
                game.deck_count == 0 and sum(len(game.hand(s)) for s in range(rules.players)) == 1
            )
            card, capture = greedy_move(hand, mask_of(game.table), fast, last_play=last_play)
            move = scopa.Move(
                game.hand(seat)[hand.index(card)],
                frozenset(c for c in game.table if capture >> INDEX[c] & 1),
            )
            game = game.play(move)
        assert [s["total"] for s in game.smazzate[-1].scores] == expected


@pytest.mark.parametrize("rules", OPTION_SETS, ids=lambda r: f"{r.variant}{r.players}")
def test_random_playouts_capture_every_card(rules: scopa.Rules) -> None:
    rng = random.Random(7)
    fast = FastRules.of(rules)
    for _ in range(300):
        for epsilon in (1.0, 0.3):
            points = random_smazzata(fast, rng, epsilon=epsilon)
            assert len(points) == rules.sides and all(p >= 0 for p in points)
            # carte + denari + settebello + primiera are at most 4 points, plus scope and options
            assert sum(points) <= 4 + 36 + (11 if rules.napola or rules.re_bello else 0)


def test_lean_totals_match_score_smazzata() -> None:
    rng = random.Random(3)
    lenient_3 = scopa.Rules(players=3, primiera_missing_suit="lenient")
    for rules in [*OPTION_SETS, lenient_3]:
        fast = FastRules.of(rules)
        for _ in range(400):
            # Uneven shares too: a side with few cards misses suits (primiera's other paths).
            weights = [rng.random() + 0.05 for _ in range(rules.sides)]
            owners = rng.choices(range(rules.sides), weights, k=40)
            piles = [sum(1 << i for i in range(40) if owners[i] == s) for s in range(rules.sides)]
            scope = [rng.randrange(3) for _ in range(rules.sides)]
            from engine.scopa.scoring import score_masks

            assert totals(piles, scope, fast) == [
                s["total"] for s in score_masks(piles, scope, rules)
            ]


def play_from(game: scopa.Game, fast: FastRules, seed: int, **options: Any) -> list[int]:
    """``play_out`` from ``game``'s position (its own copies), the random numbers of ``seed``."""
    hands, table, deck, captured, scope, last = fast_state(game)
    seat = game.current_player
    assert seat is not None
    rng = random.Random(seed)
    return play_out(fast, hands, table, deck, captured, scope, last, seat, rng, **options)


@pytest.mark.parametrize("variant", ["scopa", "scopone"])
def test_odds_playouts_play_the_same_with_the_callers_counts(variant: str) -> None:
    """``value_counts`` counts each value's copies in the hands and the deck, and in each hand;
    a playout given them (a search counts once a deal) plays as one that counts them itself."""
    rules = scopa.Rules(variant=variant)
    fast = FastRules.of(rules)
    rng = random.Random(5)
    for seed in range(40):
        game = scopa.new_game(rules, seed=seed)
        for _ in range(rng.randrange(0, 12)):
            game = game.play(rng.choice(game.legal_moves()))
        hands, _table, deck, _captured, _scope, _last = fast_state(game)
        remaining, held_of = value_counts(hands, deck)
        for value in range(1, 11):
            assert held_of[0][value] == sum(VALUE[c] == value for c in hands[0])
            everywhere = [c for hand in hands for c in hand] + deck
            assert remaining[value] == sum(VALUE[c] == value for c in everywhere)
        points = [
            play_from(
                game,
                fast,
                seed,
                epsilon=0.2,
                lookahead=True,
                blind_seats=0b1010,
                odds=True,
                counts=counts,
            )
            for counts in (None, (remaining, held_of))
        ]
        assert points[0] == points[1]


@pytest.mark.parametrize("rules", OPTION_SETS, ids=lambda r: f"{r.variant}{r.players}")
def test_only_the_odds_playouts_use_the_callers_counts(rules: scopa.Rules) -> None:
    """``keeps_value_counts`` says when ``play_out`` uses its ``counts``: elsewhere counts that are
    plainly wrong change nothing."""
    fast = FastRules.of(rules)
    game = scopa.new_game(rules, seed=2)
    cases = [
        {"epsilon": 0.2, "lookahead": True, "reply": False, "blind_seats": 0b10, "odds": True},
        {"epsilon": 0.2, "lookahead": True, "reply": False, "blind_seats": 0, "odds": True},
        {"epsilon": 0.2, "lookahead": True, "reply": False, "blind_seats": 0b10, "odds": False},
        {"epsilon": 0.2, "lookahead": True, "reply": True, "blind_seats": 0b10, "odds": True},
        {"epsilon": 1.0, "lookahead": True, "reply": False, "blind_seats": 0b10, "odds": True},
        {"epsilon": 0.2, "lookahead": False, "reply": False, "blind_seats": 0b10, "odds": True},
    ]
    kept = []
    for options in cases:
        wrong = ([4] * 11, [[9] * 11 for _ in range(rules.players)])
        points = [play_from(game, fast, 4, counts=counts, **options) for counts in (None, wrong)]
        keeps = keeps_value_counts(fast, **options)
        kept.append(keeps)
        if not keeps:
            assert points[0] == points[1]
    default_rules = not (rules.asso_piglia_tutto or rules.scopa_a_15)
    assert kept == [default_rules, False, False, False, False, False]
