"""A determinization agrees with what the seat has seen, and only with that."""

from __future__ import annotations

import random

import pytest

from engine import scopa
from engine.cards import parse_cards
from engine.scopa.ai.determinize import determinize, info_set, parse_move, with_fuori
from engine.scopa.tables import CARD_TEXT, FULL_MASK, INDEX, mask_of

from ..scopa.helpers import position

LAYOUTS = [
    scopa.Rules(),
    scopa.Rules(players=3),
    scopa.Rules(players=4),
    scopa.Rules(variant="scopone"),
    scopa.Rules(variant="scientifico"),
]


def _seen_by(view: scopa.ScopaView) -> int:
    seen = mask_of(view.hand) | mask_of(view.table)
    for _, text in view.history:
        card, capture = parse_move(text)
        seen |= capture | 1 << card
    return seen


def _games(rules: scopa.Rules, seed: int, plies: int) -> list[scopa.Game]:
    """The positions of a seeded random game, one per ply (within its first smazzata or so)."""
    rng = random.Random(seed)
    game = scopa.new_game(rules, seed=seed)
    out = [game]
    for _ in range(plies):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_moves()))
        out.append(game)
    return out


@pytest.mark.parametrize("rules", LAYOUTS, ids=lambda r: f"{r.variant}{r.players}")
def test_determinizations_agree_with_the_view(rules: scopa.Rules) -> None:
    """Own hand exact, hidden hands of the right sizes, every card once, no seen card hidden."""
    rng = random.Random(5)
    for game in _games(rules, seed=11, plies=45):
        seat = game.current_player
        if seat is None:
            continue
        view = game.view(seat)
        info = info_set(view)
        seen = _seen_by(view)
        for _ in range(5):
            state = determinize(info, rng)
            assert sorted(state.hands[seat]) == sorted(INDEX[c] for c in view.hand)
            assert [len(h) for h in state.hands] == list(view.hand_counts)
            assert len(state.deck) == view.deck_count
            hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + state.deck
            assert len(set(hidden)) == len(hidden)
            assert not any(seen >> c & 1 for c in hidden)
            assert state.table == mask_of(view.table)
            everything = mask_of(view.hand) | state.table
            for c in hidden:
                everything |= 1 << c
            for pile in state.captured:
                assert not everything & pile
                everything |= pile
            assert everything == FULL_MASK
            assert [p.bit_count() for p in state.captured] == list(view.captured_counts)
            assert state.scope == list(view.scope)


def test_a_determinization_does_not_depend_on_the_hidden_cards() -> None:
    """Two games that differ only in hidden cards give the same view, hence the same deals."""
    a = position(hands=["7D 2S 3S", "5C 6C KB"], table="4B QS JS QC", deck="", rest_to="deck")
    b = position(hands=["7D 2S 3S", "AC 2C 3C"], table="4B QS JS QC", deck="", rest_to="deck")
    view_a, view_b = a.view(0), b.view(0)
    assert view_a == view_b
    sample_a = determinize(info_set(view_a), random.Random(3))
    sample_b = determinize(info_set(view_b), random.Random(3))
    assert sample_a == sample_b


def test_a_missed_scopa_says_the_player_lacked_the_card() -> None:
    """Seat 0 could sweep the lone 5C only with a 5; it threw the 2S instead, so seat 1 infers
    seat 0 holds no 5 (5D, 5S, 5B: the cards of value 5 that seat 1 has not seen)."""
    game = position(hands=["2S 3S 4S", "6C 7C KB"], table="5C", rest_to="deck")
    game = game.play("2S")
    info = info_set(game.view(1))
    assert info.unlikely[0] == mask_of(parse_cards("5D 5S 5B"))
    assert info.unlikely[1] == 0
    # Sampled hands of seat 0 then rarely hold a 5 (weight 0.1 against 1).
    rng = random.Random(2)
    fives = sum(
        any(CARD_TEXT[c][0] == "5" for c in determinize(info, rng).hands[0]) for _ in range(400)
    )
    unweighted = 400 * (1 - (33 - 3) / 33 * (32 - 3) / 32)  # about 1 sample in 6 would hold one
    assert fives < unweighted / 2


def test_bad_views_are_refused() -> None:
    game = scopa.new_game(scopa.Rules(), seed=1)
    with pytest.raises(ValueError, match="seat's view"):
        info_set(game.view(None))
    with pytest.raises(ValueError, match="not a Scopa move"):
        parse_move("ZZ:1D")


def test_fuori_is_declared_only_when_it_wins() -> None:
    """FIGS art. 16: the declaring pair wins if its total, counting only certain points, reaches
    8. Side 0 has 7 points and holds the settebello's capture: taking it makes 8 certain."""
    rules = scopa.Rules(variant="scopone", target=8)
    game = position(
        rules,
        hands=["7C 2S", "3C 4C", "5C 6C", "KB QB"],
        table="7D",
        totals=[7, 3],
        rest_to=1,
    )
    view = game.view(0)
    assert with_fuori(view, "7C:7D") == "7C:7D!"
    assert with_fuori(view, "2S") == "2S"
