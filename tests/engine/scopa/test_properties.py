"""Seeded random playouts of every variant and player count, checking the invariants of
docs/rules.md ("What every game guarantees") at every step."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import scopa
from engine.cards import italian_deck, parse_cards

DECK = frozenset(italian_deck())
MAX_MOVES = 5_000  # a game to 11 takes a few hundred moves; this only bounds the loop

LAYOUTS = [("scopa", 2), ("scopa", 3), ("scopa", 4), ("scopone", 4), ("scientifico", 4)]


@st.composite
def rules_strategy(draw: st.DrawFn) -> scopa.Rules:
    variant, players = draw(st.sampled_from(LAYOUTS))
    target = draw(st.sampled_from([1, 4, 8, 11]))
    return scopa.Rules(
        variant=variant,
        players=players,
        target=target,
        primiera_missing_suit=draw(st.sampled_from(["void", "lenient"])),
        win_by_two=draw(st.booleans()),
        re_bello=draw(st.booleans()),
        napola=draw(st.booleans()),
        obbligo_di_presa=draw(st.booleans()),
        asso_piglia_tutto=draw(st.booleans()),
        scopa_a_15=draw(st.booleans()),
    )


def all_cards(data: dict[str, object]) -> list[object]:
    texts = [*data["hands"], data["table"], data["deck"], *data["captured"]]  # type: ignore[misc]
    return [c for t in texts for c in parse_cards(t)]


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(rules: scopa.Rules, seed: int, play_seed: int) -> None:
    rng = random.Random(play_seed)
    game = scopa.new_game(rules, seed=seed)
    for _ in range(MAX_MOVES):
        data = game.to_dict()
        # The 40 cards are always all somewhere, once.
        cards = all_cards(data)
        assert len(cards) == 40 and set(cards) == DECK
        # The saved game round-trips exactly.
        assert scopa.Game.from_dict(data).to_dict() == data
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        moves = game.legal_moves()
        # Legal moves are exactly the capture options of each card in hand ("leave it" when none).
        expected = set()
        for card in game.hand(seat):
            options = scopa.capture_options(game.table, card, rules)
            expected |= {(card, o) for o in options} if options else {(card, frozenset())}
        if rules.obbligo_di_presa and any(o for _, o in expected):
            expected = {(c, o) for c, o in expected if o}
        assert {(m.card, m.capture) for m in moves} == expected
        # Every move string round-trips.
        assert all(scopa.Move.parse(str(m)) == m for m in moves)
        # Nobody sees another seat's hand.
        public = str(game.view(None).to_dict()["hand"])
        assert public == "[]"
        assert set(game.view(seat).legal_moves) == {str(m) for m in moves}
        move = moves[rng.randrange(len(moves))]
        smazzate, scope_before = len(game.smazzate), [game.scope(s) for s in range(rules.sides)]
        game = game.play(str(move))
        if len(game.smazzate) > smazzate:
            done = game.smazzate[-1]
            # The table is empty after each smazzata: every card is in a pile.
            assert sum(len(p) for p in done.piles) == 40 or done.fuori is not None
            if done.fuori is None:
                # No scopa on the last play of the smazzata.
                assert list(done.scope) == scope_before
                assert [dict(s) for s in done.scores] == scopa.score_smazzata(
                    done.piles, done.scope, rules
                )
    else:
        raise AssertionError("the game did not end")
    assert game.is_over and game.winner is not None
    outcome = game.outcome()
    assert outcome is not None and outcome.ranks[game.winner] == 0
    if not any(s.fuori is not None for s in game.smazzate):
        assert game.points(game.winner) >= rules.target


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), layout=st.sampled_from(LAYOUTS))
def test_every_computer_game_ends(seed: int, layout: tuple[str, int]) -> None:
    from engine.ai import get_player

    variant, players = layout
    game = scopa.new_game(scopa.Rules(variant=variant, players=players), seed=seed)
    greedy, rand = get_player("greedy"), get_player("random")
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        player = greedy if seat % 2 == 0 else rand
        game = game.play(player.choose(game.view(seat), rng))
    assert game.is_over
