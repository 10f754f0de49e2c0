"""The opening helper (docs/rules.md "A turn" 2: "lay down one or more melds from hand worth 40 or
more in total"), checked against a brute force on small hands."""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, french_deck
from engine.scala40 import Rules, best_opening, find_opening, meld_points

from .support import cards


def _text(melds: list[tuple[Card, ...]] | None) -> list[str] | None:
    return None if melds is None else [" ".join(map(str, meld)) for meld in melds]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # Opening at 39 vs 40: docs/rules.md "worth 40 or more".
        ("4D 5D 6D 7D 8D 9D KB", None),  # 39
        ("4D 5D 6D 7D 8D 9D TD", ["4D 5D 6D 7D 8D 9D TD"]),  # 49
        ("TD TC TS TB 2C", ["TD TC TS TB"]),  # 40 exactly
        ("TD TC TS 2C", None),  # 30
        # Regole Scala 40: "almeno due o più tris e/o uno o più quartetti o scale": several melds
        # add up.
        ("7D 7C 7S 2B 3B 4B 9D", None),  # 21 + 9 = 30
        ("7D 7C 7S 8B 9B TB 2D", ["7D 7C 7S", "8B 9B TB"]),  # 21 + 27
        ("AD AC AS 2D 3D", None),  # the aces are 33 as a tris; A-2-3 only 6
        ("AD AC AS AB 2D 3D", ["AD AC AS AB"]),  # 44
        # The high ace counts 11 in a scala; the low ace 1.
        ("QD KD AD JD TD", ["TD JD QD KD AD"]),  # 51
        # A joker counts as its card and goes where it is worth most.
        # Q K * as Q-K-A (31) beats * Q K as J-Q-K (30).
        ("QS KS * 7C 7D 7B", ["7D 7C 7B", "QS KS *"]),
        ("5D 5C 5S * 9C", None),  # 5 5 5 * = 20
        # J J * = 30, but J Q K with the joker as the high ace = 41: the scala wins.
        ("JD JC * QD KD 2B", ["JD QD KD *"]),
    ],
)
def test_best_opening(hand: str, expected: list[str] | None) -> None:
    assert _text(best_opening(cards(hand))) == expected


def test_opening_with_the_pile_card() -> None:
    # docs/rules.md: the discard can be taken "by a player who ... opens in this same turn using
    # that card"; Regole Scala 40: "che si possa realizzarle con la stessa carta che si prende".
    hand = cards("7D 7C 8D 9D TD 2B")
    assert best_opening(hand) is None
    (pile,) = cards("7S")
    melds = best_opening(hand, pile_card=pile)
    assert _text(melds) == ["7D 7C 7S", "8D 9D TD"]
    # The pile card must be used even when the hand could open without it.
    hand = cards("TD TC TS TB 3C 4C")
    (pile,) = cards("5C")
    opening = find_opening(hand, pile_card=pile)
    assert opening is not None
    assert any(pile in meld for meld in opening.melds)
    (useless,) = cards("9S")
    assert find_opening(hand, pile_card=useless) is None


def test_opening_points_option() -> None:
    # docs/rules.md option opening_points (default 40; 0 gives the "Machiavelli" variant of Regole
    # Scala 40).
    hand = cards("2D 3D 4D 9C")
    assert best_opening(hand) is None
    assert _text(best_opening(hand, Rules(opening_points=0))) == ["2D 3D 4D"]
    assert _text(best_opening(hand, Rules(opening_points=9))) == ["2D 3D 4D"]
    assert best_opening(hand, Rules(opening_points=10)) is None
    assert best_opening(cards("2D 3C 9S KB"), Rules(opening_points=0)) is None


def test_rest_and_min_left() -> None:
    hand = cards("2C 3C 4C 5C 6C 7C 8C 9C TC")
    whole = find_opening(hand)
    assert whole is not None and whole.points == 54 and whole.rest == ()
    # In the first round a player keeps two cards (one to discard, one to hold).
    kept = find_opening(hand, min_left=2)
    assert kept is not None and kept.points == 49
    assert " ".join(map(str, kept.rest)) == "2C 3C"


def _brute_melds(hand: list[Card], rules: Rules) -> list[tuple[tuple[int, ...], int]]:
    """Every meld of the hand as (indices, points), by trying arrangements with analyze_meld."""
    found = {}
    for size in range(3, len(hand) + 1):
        for chosen in combinations(range(len(hand)), size):
            best = None
            for order in permutations(chosen):
                points = meld_points([hand[i] for i in order], rules)
                if points is not None and (best is None or points > best):
                    best = points
            if best is not None:
                found[chosen] = best
    return list(found.items())


def _brute_best(hand: list[Card], rules: Rules) -> int | None:
    melds = _brute_melds(hand, rules)
    best: int | None = None

    def search(start: int, used: frozenset[int], points: int, count: int) -> None:
        nonlocal best
        if count and points >= rules.opening_points and (best is None or points > best):
            best = points
        for k in range(start, len(melds)):
            indices, value = melds[k]
            if used.isdisjoint(indices):
                search(k + 1, used | set(indices), points + value, count + 1)

    search(0, frozenset(), 0, 0)
    return best


# A small pool so that random hands hold many overlapping melds.
_POOL = [
    card
    for card in [*french_deck(0), *french_deck(1)]
    if card.is_joker or (card.rank in "AQK2345" and card.suit in "DCS")
]


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from([0, 20, 40]))
def test_matches_brute_force(seed: int, opening_points: int) -> None:
    rng = random.Random(seed)
    hand = rng.sample(_POOL, 6)
    rules = Rules(opening_points=opening_points)
    opening = find_opening(hand, rules)
    expected = _brute_best(hand, rules)
    assert (None if opening is None else opening.points) == expected
    if opening is not None:
        laid = [card for meld in opening.melds for card in meld]
        remaining = list(hand)
        for card in laid:
            remaining.remove(card)  # every laid card comes from the hand, once
        assert sorted(map(str, remaining)) == sorted(map(str, opening.rest))
        assert sum(meld_points(meld, rules) or 0 for meld in opening.melds) == opening.points


def test_search_refuses_a_hand_no_game_deals() -> None:
    with pytest.raises(ValueError, match="not a Scala 40 hand"):
        find_opening([*french_deck(0)][:21])
