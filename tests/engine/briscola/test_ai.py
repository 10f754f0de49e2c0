"""The Briscola computer players: legal, deterministic, and doing what their level says."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import briscola
from engine.ai import get_player
from engine.briscola.ai.players import medium_card
from engine.briscola.playout import CARD, INDEX, determinize
from engine.cards import Card
from tests.engine.briscola.helpers import position

LAYOUTS = [
    briscola.Rules(),
    briscola.Rules(players=3),
    briscola.Rules(players=4, swap="two"),
    briscola.Rules(swap="seven"),
    briscola.Rules(variant="chiamata", deals=1),
    briscola.Rules(variant="chiamata", deals=1, point_bids=False),
]


def _player(level: str) -> object:
    options = {"iterations": 40} if level == "hard" else {}
    return get_player(f"briscola-{level}", **options)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("rules", LAYOUTS, ids=lambda r: f"{r.variant}-{r.players}-{r.swap}")
def test_every_level_plays_a_legal_move_to_the_end(level: str, rules: briscola.Rules) -> None:
    player = _player(level)
    rng = random.Random(3)
    game = briscola.new_game(rules, seed=21)
    for _ in range(1000):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        move = player.choose(game.view(seat), rng)  # type: ignore[attr-defined]
        assert move in game.legal_moves()
        game = game.play(move)
    assert game.is_over


def test_names_are_registered() -> None:
    for level in ("easy", "medium", "hard"):
        assert get_player(f"briscola-{level}").name == f"briscola-{level}"
    with pytest.raises(ValueError):
        get_player("briscola-hard", iterations=0)


def test_hard_is_deterministic_for_a_seed_and_an_iteration_count() -> None:
    game = briscola.new_game(briscola.Rules(players=4), seed=5)
    view = game.view(game.current_player)
    first = _player("hard").choose(view, random.Random(9))  # type: ignore[attr-defined]
    for _ in range(2):
        assert _player("hard").choose(view, random.Random(9)) == first  # type: ignore[attr-defined]


def test_a_player_refuses_another_game() -> None:
    from engine import scopa

    game = scopa.new_game(scopa.Rules(), seed=1)
    with pytest.raises(TypeError):
        _player("easy").choose(game.view(game.current_player), random.Random(1))  # type: ignore[attr-defined]


# -- easy: "win the trick cheaply when it holds points, else throw the least valuable card" --------

EASY_CASES = [
    # seat 0's hand, seat 1 led (its card), briscola suit, easy's answer
    ("7D JD AS", "3D", "B", "7D"),  # no winner: the least valuable card
    ("AD KD 2C", "3D", "B", "AD"),  # the only card of the suit that wins
    ("AD 2B 5C", "3D", "B", "2B"),  # the cheapest winner: a briscola worth nothing beats the Asso
    ("4D 6D KS", "2D", "B", "4D"),  # no points in the trick: the least valuable card
    ("QC 4B 3S", "KC", "B", "4B"),  # a K on the table: the briscola 4 beats the Q of coppe
]


@pytest.mark.parametrize(("hand", "led", "trump", "answer"), EASY_CASES)
def test_easy(hand: str, led: str, trump: str, answer: str) -> None:
    deck_trump = {"B": "7B"}[trump]
    other = "5S 6S" if led != "5S" else "6S 7S"
    game = position(hands=[hand, f"{led} {other}"], stock="4S 4C", face_up=deck_trump, leader=1)
    game = game.play(led)
    assert _player("easy").choose(game.view(0), random.Random(1)) == answer  # type: ignore[attr-defined]


def test_easy_leads_its_least_valuable_card() -> None:
    game = position(hands=["AS 2B 5C", "3D 5S 6S"], stock="4S 4C", face_up="7B")
    assert _player("easy").choose(game.view(0), random.Random(1)) == "5C"  # type: ignore[attr-defined]


# -- medium -------------------------------------------------------------------------------------


def test_medium_saves_its_briscole_on_a_trick_worth_nothing() -> None:
    game = position(hands=["2B 4C AS", "5D 5S 6S"], stock="4S 4D", face_up="7B", leader=1)
    game = game.play("5D")
    assert CARD[medium_card(game.view(0))] == Card("4", "C")


def test_medium_spends_a_briscola_on_a_carico() -> None:
    game = position(hands=["2B 4C AS", "3D 5S 6S"], stock="4S 4D", face_up="7B", leader=1)
    game = game.play("3D")
    assert CARD[medium_card(game.view(0))] == Card("2", "B")


def test_medium_loads_points_on_its_partners_sure_trick() -> None:
    """4 players: seat 1 led, seat 2 (seat 0's partner) took it with the briscola Asso, seat 3
    played: seat 0, last, gives its Asso of spade."""
    game = position(
        briscola.Rules(players=4),
        hands=["AS 4C 5C", "5D 6D 7D", "AB 6C 7C", "4D QD JD"],
        stock="",
        trump="B",
        leader=1,
    )
    game = game.play("5D").play("AB").play("4D")
    assert game.current_player == 0
    assert CARD[medium_card(game.view(0))] == Card("A", "S")


# -- determinization -----------------------------------------------------------------------------


def test_determinization_is_consistent_with_what_the_seat_saw() -> None:
    rng = random.Random(4)
    for rules in LAYOUTS:
        game = briscola.new_game(rules, seed=33)
        play = random.Random(8)
        while not game.is_over and not game.deal_results:
            seat = game.current_player
            assert seat is not None
            if game.phase is briscola.Phase.PLAY:
                view = game.view(seat)
                for _ in range(3):
                    deal, socio = determinize(view, rng)
                    assert sorted(deal.hands[seat]) == sorted(INDEX[c] for c in game.hand(seat))
                    assert [len(h) for h in deal.hands] == [
                        game.hand_count(k) for k in range(rules.players)
                    ]
                    assert len(deal.stock) == game.stock_count
                    if game.briscola is not None:
                        assert deal.stock[0] == INDEX[game.briscola]
                    played = {INDEX[c] for t in game.tricks for c in t.cards}
                    dealt = [c for h in deal.hands for c in h] + deal.stock + deal.trick
                    assert not played & set(dealt)
                    assert len(Counter(dealt)) == len(dealt)
                    # Whoever drew the face-up card holds it in every determinization.
                    turned = game.view(seat).turned_up
                    if turned is not None and game.briscola is None:
                        holder = [k for k in range(rules.players) if turned in game.hand(k)]
                        if holder:
                            assert INDEX[turned] in deal.hands[holder[0]]
                    if rules.chiamata:
                        called = game.called
                        assert called is not None
                        if called in game.hand(seat):
                            assert socio == seat
                        elif game.socio_revealed:
                            assert socio == game.socio
                        else:
                            assert socio is not None and socio != seat
                            assert INDEX[called] in deal.hands[socio]
            game = game.play(play.choice(game.legal_moves()))


def test_views_and_players_pickle_for_worker_processes() -> None:
    """The service plays hard in worker processes: the view and the rng travel by pickle."""
    import pickle

    game = briscola.new_game(briscola.Rules(variant="chiamata"), seed=1)
    view = game.view(game.current_player)
    again = pickle.loads(pickle.dumps(view))
    assert again == view and again.rules == view.rules
    player = pickle.loads(pickle.dumps(_player("hard")))
    assert player.choose(again, random.Random(2)) in game.legal_moves()  # type: ignore[attr-defined]
