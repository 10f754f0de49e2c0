"""The Scala 40 heuristic player: legal, deterministic, and it plays like a club player."""

from __future__ import annotations

import random

import pytest

from engine import scala40
from engine.ai import get_player
from engine.cards import parse_cards
from engine.scala40.ai.hand import HandEvaluator, card_code
from engine.scala40.ai.player import usefulness

from ..scala40.support import position

HAND_48 = "7D 7C 8D 9D TD 2B 4S QC KB 3D 5C 6S JB"
OTHERS = ["2D 3C 4C", "5S 6B 7B", "8B 9B TB"]


def choose(game: scala40.Game) -> str:
    seat = game.current_player
    assert seat is not None
    return get_player("scala40").choose(game.view(seat), random.Random(0))


def test_usefulness_counts_tris_and_run_partners() -> None:
    hand = list(parse_cards("7D 7C 8D 9D KB AS 2S"))
    seven, king, ace = hand[0], hand[4], hand[5]
    assert usefulness(king, hand) == 0
    assert usefulness(seven, hand) > usefulness(ace, hand) > 0
    assert usefulness(next(iter(parse_cards("*"))), hand) == 100


@pytest.mark.parametrize(
    ("pile", "expected"),
    [
        # docs/rules.md: the discard "can be taken only by a player who has opened, or who opens in
        # this same turn using that card": 7S makes a tris of 7s and the opening.
        ("7S", "p"),
        ("KS", "t"),
    ],
)
def test_draws_from_the_pile_when_it_helps(pile: str, expected: str) -> None:
    assert choose(position([HAND_48, *OTHERS], pile=pile)) == expected


def test_opens_as_soon_as_it_can_then_discards_the_least_useful() -> None:
    game = position([HAND_48, *OTHERS], pile="7S").play("p")
    move = choose(game)
    assert move == "o 7D7C7S 8D9DTD"
    game = game.play(move)
    # Left: 2B 4S QC KB 3D 5C 6S JB. QC and KB are lone, costly cards: one of them goes.
    assert choose(game) in {"d QC", "d KB", "d JB"}


def test_attaches_and_swaps_once_opened() -> None:
    game = position(
        ["5S 9C 9D KB", *OTHERS],
        melds=[(1, "6S 7S 8S"), (2, "2B * 4B")],
        opened=[True, True, False, False],
        phase="meld",
    )
    first = choose(game)
    assert first in {"a1 5S<", "a1 5S"}


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_matches_against_random_players_end(seed: int) -> None:
    game = scala40.new_game(scala40.Rules(players=4), seed=seed)
    players = [
        get_player("scala40"),
        get_player("random"),
        get_player("random"),
        get_player("random"),
    ]
    rng = random.Random(seed)
    for _ in range(50_000):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        move = players[seat].choose(view, rng)
        assert move in view.legal_moves
        game = game.play(move)
    assert game.is_over


def test_the_easy_level_is_a_beginner() -> None:
    easy = get_player("scala40-easy")
    assert easy.name == "scala40-easy"
    # It never takes the pozzo, even a card that would open for it ...
    game = position([HAND_48, *OTHERS], pile="7S")
    seat = game.current_player
    assert seat is not None
    assert easy.choose(game.view(seat), random.Random(0)) == "t"
    # ... and a third of its discards, about, go at random.
    game = position([HAND_48, *OTHERS], pile="7S").play("p").play("o 7D7C7S 8D9DTD")
    view = game.view(game.current_player)
    good = {"d QC", "d KB", "d JB"}
    picks = [easy.choose(view, random.Random(seed)) for seed in range(300)]
    assert all(p in view.legal_moves for p in picks)
    assert 0.15 < sum(p not in good for p in picks) / len(picks) < 0.45
    # The same rng, the same move.
    assert easy.choose(view, random.Random(7)) == easy.choose(view, random.Random(7))


def test_bad_mistake_rates_are_refused() -> None:
    with pytest.raises(ValueError, match="mistakes"):
        get_player("scala40", mistakes=2)


def _evaluator(hand: str) -> HandEvaluator:
    game = position([hand, *OTHERS], phase="meld")
    return HandEvaluator(game.view(0))


def test_the_evaluator_prices_melds_partials_and_lone_cards() -> None:
    evaluator = _evaluator("7D 8D 9D 7C 7S 2B 5C KS QB 3D 4B 6S JB")

    def cost(text: str) -> float:
        return evaluator.cost(parse_cards(text))

    # A complete meld costs nothing but the points at risk; a partial meld less than two lone
    # cards; a joker completes a partial.
    assert cost("7D 8D 9D") < cost("7D 8D") < cost("7D KS")
    assert cost("7D 8D *") < cost("7D 8D")
    assert cost("7C 7S") < cost("7C KS")
    # The ace goes high under Q-K of its suit.
    assert cost("QB KB AB") < cost("QB KB 2B")


def test_a_partial_nothing_can_complete_is_worth_two_lone_cards() -> None:
    # Both 6D are in the opponents' melds or the hand: 5D 7D waits for nothing.
    game = position(
        ["5D 7D 6D KB 2S", *OTHERS],
        melds=[(1, "6D 6C 6S")],
        opened=[False, True, False, False],
        phase="meld",
    )
    evaluator = HandEvaluator(game.view(0))
    assert evaluator.unseen[card_code(parse_cards("6D")[0])] == 0
    assert evaluator.cost(parse_cards("5D 7D")) == pytest.approx(
        evaluator.cost(parse_cards("5D 7B"))
    )


def test_the_cards_buried_in_the_pozzo_count_as_seen() -> None:
    # Both 6D were discarded and lie under the pozzo's top (every player saw them go down):
    # 5D 7D waits for nothing, as if they were on the table.
    game = position(
        ["5D 7D KB 2S 3C", *OTHERS],
        pile="6D 6D KC",
        opened=[False, True, False, False],
        phase="meld",
    )
    view = game.view(0)
    # (The second deck's copy reads "6D'".)
    assert [str(c).rstrip("'") for c in view.pile] == ["6D", "6D", "KC"]
    assert view.pile[-1] == view.pile_top
    assert view.to_dict()["pile"] == [str(c) for c in view.pile]
    evaluator = HandEvaluator(view)
    assert evaluator.unseen[card_code(parse_cards("6D")[0])] == 0
    assert evaluator.cost(parse_cards("5D 7D")) == pytest.approx(
        evaluator.cost(parse_cards("5D 7B"))
    )


def test_it_takes_the_pozzo_whenever_it_is_offered() -> None:
    game = position(
        ["5S 9C 9D KB 2D", *OTHERS],
        melds=[(1, "6S 7S 8S")],
        opened=[True, True, False, False],
        pile="9S",
    )
    assert "p" in game.view(0).legal_moves
    assert choose(game) == "p"


def test_the_discard_keeps_the_partial_melds() -> None:
    game = position(
        ["5S 6S 9C 9D KB 2D", *OTHERS],
        melds=[(1, "3S 3C 3B")],
        opened=[True, True, False, False],
        phase="meld",
    )
    assert choose(game) in {"d KB", "d 2D"}
