"""Seeded random playouts of every variant and option, checking the guarantees of docs/rules.md
("What every game guarantees") at every step."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import briscola
from engine.cards import italian_deck

MAX_MOVES = 20_000  # a chiamata match of 5 deals is about 250 moves; this only bounds the loop


@st.composite
def rules_strategy(draw: st.DrawFn) -> briscola.Rules:
    if draw(st.booleans()):
        return briscola.Rules(
            variant="chiamata",
            point_bids=draw(st.booleans()),
            deals=draw(st.integers(1, 5)),
            cappotto=draw(st.booleans()),
        )
    scoring = draw(st.sampled_from(briscola.DEAL_SCORING))
    return briscola.Rules(
        players=draw(st.sampled_from([2, 3, 4])),
        target=draw(st.sampled_from([1, 2, 3] if scoring == "win" else [1, 121, 241])),
        removed_two=draw(st.sampled_from(["2B", "2D", "2C", "2S"])),
        swap=draw(st.sampled_from(briscola.SWAPS)),
        deal_scoring=scoring,
    )


def check_step(game: briscola.Game) -> None:
    rules = game.rules
    # The 40 (39) cards are always all somewhere, once.
    cards = game.all_cards()
    expected = [c for c in italian_deck() if rules.players != 3 or str(c) != rules.removed_two]
    assert Counter(cards) == Counter(expected)
    # The stock's last card is the face-up briscola while it lies there.
    if game.briscola is not None:
        assert game.stock[-1] == game.briscola and game.briscola.suit == game.briscola_suit
    # Points taken so far never exceed 120.
    assert sum(game.deal_points(s) for s in range(len(game.sides))) <= 120
    # Saves round-trip through JSON.
    data = json.loads(json.dumps(game.to_dict()))
    assert briscola.Game.from_dict(data) == game
    # Views: each seat sees its own hand and no other; nobody sees the socio before its time.
    for seat in range(rules.players):
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        if rules.chiamata and not game.socio_revealed and game.called not in game.hand(seat):
            assert view.socio is None
        json.dumps(view.to_dict())
    assert game.view(None).hand == ()


def run(rules: briscola.Rules, seed: int, play_seed: int, *, check_every: int = 1) -> int:
    rng = random.Random(play_seed)
    game = briscola.new_game(rules, seed=seed)
    deals = 0
    for step in range(MAX_MOVES):
        if step % check_every == 0:
            check_step(game)
        if game.is_over:
            break
        moves = game.legal_moves()
        assert moves and game.current_player is not None
        # Every legal move string parses back to itself.
        for move in moves:
            assert str(briscola.parse_move(move)) == move
        move = rng.choice(moves)
        after = game.play(move)
        assert game.play(move) == after  # play leaves the game as it was, and is deterministic
        for event in after.events:
            if event.kind == "deal":
                deals += 1
                result = event.data["result"]
                assert sum(result["points"]) == 120
                if rules.chiamata:
                    assert sum(result["scores"]) == 0
        game = after
    else:  # pragma: no cover
        raise AssertionError("the match did not end")
    outcome = game.outcome()
    assert outcome is not None and game.legal_moves() == []
    assert deals == len(game.deal_results)
    assert tuple(game.scores) == tuple(
        sum(r.scores[i] for r in game.deal_results) for i in range(len(game.sides))
    )
    if rules.chiamata:
        assert len(game.deal_results) == rules.deals
    else:
        assert game.winner is not None and max(game.scores) >= rules.target
    return deals


@settings(max_examples=40, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_matches_keep_every_invariant(
    rules: briscola.Rules, seed: int, play_seed: int
) -> None:
    run(rules, seed, play_seed, check_every=3)


def test_seeded_playouts_of_every_variant() -> None:
    layouts = [
        briscola.Rules(),
        briscola.Rules(players=3),
        briscola.Rules(players=4, swap="two"),
        briscola.Rules(swap="seven", target=2),
        briscola.Rules(players=3, deal_scoring="points", target=121, removed_two="2D"),
        briscola.Rules(variant="chiamata", deals=2),
        briscola.Rules(variant="chiamata", point_bids=False, cappotto=False, deals=1),
    ]
    for rules in layouts:
        for seed in range(4):
            assert run(rules, seed, seed + 100, check_every=5) >= 1


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    """docs/rules.md: "The same seed and the same moves give the same game, so any game can be
    replayed from its log."."""
    rules = briscola.Rules(variant="chiamata", deals=1)
    rng = random.Random(5)
    game = briscola.new_game(rules, seed=77)
    log = []
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        log.append(move)
        game = game.play(move)
    replay = briscola.new_game(rules, seed=77)
    for move in log:
        replay = replay.play(move)
    assert replay == game


def test_corrupt_saves_are_refused() -> None:
    game = briscola.new_game(briscola.Rules(), seed=3)
    data = game.to_dict()
    for bad in (
        {**data, "game": "scopa"},
        {**data, "schema": 99},
        {**data, "hands": data["hands"][:1]},
        {**data, "stock": data["stock"].split(" ", 1)[1]},  # a card missing
        {**data, "seed": "x"},
        {k: v for k, v in data.items() if k != "won"},
    ):
        try:
            briscola.Game.from_dict(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad}")
