"""Table-driven rule cases, each quoting docs/rules.md "Briscola"."""

from __future__ import annotations

import pytest

from engine import briscola
from engine.cards import Card, italian_deck
from tests.engine.briscola.helpers import cards_worth, play_all, position

# -- "Card points: A = 11, 3 = 10, K = 4, Q (Cavallo) = 3, J (Fante) = 2, 7 6 5 4 2 = 0. The deck
#    holds 120 points." -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["AS"], 11),
        (["3D"], 10),
        (["KC"], 4),
        (["QB"], 3),
        (["JS"], 2),
        (["7D", "6C", "5S", "4B", "2D"], 0),
        (["AS", "3S", "KS", "QS", "JS"], 30),
        ([], 0),
        ([Card("A", "D"), "3B"], 21),
    ],
)
def test_card_points(cards: list[Card | str], points: int) -> None:
    assert briscola.card_points(cards) == points


def test_the_deck_holds_120_points() -> None:
    assert briscola.card_points(italian_deck()) == 120


def test_card_points_refuses_what_is_not_an_italian_card() -> None:
    with pytest.raises(ValueError):
        briscola.card_points(["8D"])
    with pytest.raises(ValueError):
        briscola.card_points(["XX"])


# -- "The trick goes to the highest briscola in it; if there is none, to the highest card of the
#    suit led." "Trick strength within a suit, high to low: A, 3, K, Q, J, 7, 6, 5, 4, 2." ---------


@pytest.mark.parametrize(
    ("cards", "briscola_suit", "winner"),
    [
        (["AS", "3S"], "B", 0),  # A over 3
        (["3S", "AS"], "B", 1),
        (["3S", "KS"], "B", 0),  # 3 over K
        (["KS", "QS"], "B", 0),
        (["QS", "JS"], "B", 0),
        (["JS", "7S"], "B", 0),  # Fante over 7
        (["2S", "4S"], "B", 1),  # the 2 is the lowest
        (["7S", "6S"], "B", 0),
        (["AS", "2B"], "B", 1),  # the lowest briscola beats the highest of another suit
        (["2B", "AS"], "B", 0),
        (["5D", "AS"], "B", 0),  # no duty to follow: a card of another suit never takes
        (["5D", "AS", "4D"], "C", 0),
        (["5D", "AS", "6D"], "C", 2),
        (["KD", "2B", "AB"], "B", 2),  # the highest briscola
        (["KD", "2B", "AD", "3B"], "B", 3),
        (["AD", "3D", "KD", "QD"], "D", 0),
        (["4C", "5S", "6B", "7D"], "D", 3),
        (["4C", "5S", "6B", "7D"], "S", 1),
        (["4C", "5S", "6B", "2C"], "D", 0),
        (["JC"], "D", 0),
    ],
)
def test_trick_winner(cards: list[str], briscola_suit: str, winner: int) -> None:
    assert briscola.trick_winner(cards, briscola_suit) == winner


def test_trick_winner_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        briscola.trick_winner([], "D")
    with pytest.raises(ValueError):
        briscola.trick_winner(["AD"], "X")


# -- Seats and dealing ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stock", "cards"), [(2, 34, 40), (3, 30, 39), (4, 28, 40)])
def test_each_player_gets_3_cards_and_the_next_is_turned_face_up(
    players: int, stock: int, cards: int
) -> None:
    """docs/rules.md: "Each player gets 3 cards; the next card is turned face up: its suit is the
    briscola (trump) for the whole deal, and it lies crosswise under the stock, so it is the stock's
    last card."."""
    game = briscola.new_game(briscola.Rules(players=players), seed=11)
    assert [game.hand_count(k) for k in range(players)] == [3] * players
    assert game.stock_count == stock
    assert game.briscola is not None and game.briscola_suit == game.briscola.suit
    assert game.stock[-1] == game.briscola
    assert len(game.all_cards()) == cards
    # "the seat after the dealer leads first."
    assert game.current_player == (game.dealer + 1) % players


@pytest.mark.parametrize("two", ["2B", "2D", "2C", "2S"])
def test_at_3_players_one_2_is_taken_out(two: str) -> None:
    """docs/rules.md: "At 3 players one 2 is taken out before dealing (option removed_two, default
    2B, the 2 of bastoni)"."""
    rules = briscola.Rules(players=3) if two == "2B" else briscola.Rules(players=3, removed_two=two)
    for seed in range(5):
        cards = briscola.new_game(rules, seed=seed).all_cards()
        assert len(cards) == 39 and len(set(cards)) == 39
        assert Card("2", two[1]) not in cards


def test_the_first_dealer_is_random_and_the_deal_rotates() -> None:
    """docs/rules.md: "First dealer random, then the deal rotates like Scopa"."""
    dealers = {briscola.new_game(briscola.Rules(), seed=s).dealer for s in range(40)}
    assert dealers == {0, 1}
    game = briscola.new_game(briscola.Rules(target=3), seed=5)
    first = game.dealer
    while game.deal_number == 1:
        game = game.play(game.legal_moves()[0])
    assert game.dealer == (first + 1) % 2


# -- A trick ---------------------------------------------------------------------------------------


def test_any_card_may_be_played_there_is_no_duty_to_follow_suit() -> None:
    """docs/rules.md: "each other player in turn plays any card (there is no duty to follow suit or
    to trump)"."""
    game = position(hands=["AD 4C 5S", "KD 2B 7C"], stock="6D 6C", face_up="3B")
    game = game.play("AD")
    assert game.legal_moves() == ["KD", "7C", "2B"]


def test_the_winner_draws_first_and_leads_the_next_trick() -> None:
    """docs/rules.md: "The winner takes the cards, draws first from the stock, then the others in
    turn order draw one each, and the winner leads the next trick."."""
    game = position(hands=["AD 4C 5S", "KD 2B 7C"], stock="6D 6C JD JC", face_up="3B")
    game = play_all(game, "AD 2B")  # seat 1 trumps
    assert game.current_player == 1
    assert Card("6", "D") in game.hand(1) and Card("6", "C") in game.hand(0)
    assert game.last_trick == briscola.Trick(0, (Card("A", "D"), Card("2", "B")), 1)
    assert game.won_cards(1) == (Card("A", "D"), Card("2", "B"))


def test_the_face_up_briscola_is_the_last_card_drawn() -> None:
    """docs/rules.md: "When the stock runs out, the face-up briscola is the last card drawn; the
    last tricks are played with the cards in hand."."""
    game = position(hands=["AD 4C 5S", "KD 2B 7C"], stock="6D", face_up="3B")
    game = play_all(game, "AD KD")
    assert game.stock_count == 0 and game.briscola is None and game.briscola_suit == "B"
    assert game.view(0).turned_up == Card("3", "B")  # seen by all, drawn last by seat 1
    assert Card("6", "D") in game.hand(0) and Card("3", "B") in game.hand(1)
    assert game.hand_count(0) == game.hand_count(1) == 3


def test_a_deal_ends_when_the_hands_are_played_out() -> None:
    game = position(briscola.Rules(target=2), hands=["AD", "2B"], trump="B", rest_to=1)
    game = game.play("AD")
    assert game.deal_number == 1
    game = game.play("2B")
    assert game.deal_number == 2 and game.last_deal is not None
    assert game.last_deal.winner == 1 and sum(game.last_deal.points) == 120


# -- The swap -------------------------------------------------------------------------------------

SWAP_CASES = [
    # swap, hand of seat 0, face-up, stock to draw (besides the face-up card), legal?
    ("off", "2B 4C 5S", "3B", "6D 6C", False),
    ("two", "2B 4C 5S", "3B", "6D 6C", True),
    ("two", "2B 4C 5S", "3B", "6D", True),  # the stock holds 2 cards: the face-up one and 6D
    ("two", "2B 4C 5S", "3B", "", False),  # only the face-up card is left
    ("two", "7B 4C 5S", "3B", "6D 6C", False),  # the 7 is not the 2
    ("two", "2D 4C 5S", "3B", "6D 6C", False),  # a 2 of another suit
    ("seven", "7B 4C 5S", "3B", "6D 6C", True),
    ("seven", "2B 4C 5S", "3B", "6D 6C", False),
]


@pytest.mark.parametrize(("swap", "hand", "face_up", "stock", "legal"), SWAP_CASES)
def test_swap_legality(swap: str, hand: str, face_up: str, stock: str, legal: bool) -> None:
    """docs/rules.md: "Option swap (default off; the regional "scambio"): two or seven lets the
    player holding that card of the briscola suit exchange it, on their turn and before playing, for
    the face-up card, while the stock still has at least 2 cards."."""
    game = position(
        briscola.Rules(swap=swap), hands=[hand, "KD JB 7C"], stock=stock, face_up=face_up
    )
    assert ("swap" in game.legal_moves()) is legal
    if not legal:
        with pytest.raises(briscola.IllegalMove):
            game.play("swap")


def test_the_swap_is_a_move_of_its_own_and_the_turn_goes_on() -> None:
    """docs/rules.md: "It is a move of its own; the turn then goes on."."""
    game = position(
        briscola.Rules(swap="two"), hands=["4C 2B 5S", "KD JB 7C"], stock="6D", face_up="3B"
    )
    game = game.play("swap")
    assert game.current_player == 0
    assert Card("3", "B") in game.hand(0) and Card("2", "B") not in game.hand(0)
    assert game.briscola == Card("2", "B") and game.stock[-1] == Card("2", "B")
    assert "swap" not in game.legal_moves()
    assert [e.kind for e in game.events] == ["swap"]
    # Everybody saw it: who took which card.
    assert game.view(1).swapped == (0, Card("3", "B")) and game.view(1).turned_up == Card("2", "B")
    # Not on the other player's turn either: nobody holds the face-up 2.
    game = game.play("3B")
    assert "swap" not in game.legal_moves()


def test_swap_only_on_ones_turn() -> None:
    game = position(
        briscola.Rules(swap="seven"), hands=["4C 2D 5S", "KD 7B 7C"], stock="6D 6C", face_up="3B"
    )
    assert "swap" not in game.legal_moves()  # seat 0 to play, seat 1 holds the 7
    game = game.play("4C")
    assert "swap" in game.legal_moves()


# -- Scoring and the match -------------------------------------------------------------------------


def _last_trick(rules: briscola.Rules, won0: int) -> briscola.Game:
    """Seat 0 leads AD, seat 1 answers 2D: seat 0 takes it; seat 0 already holds ``won0``
    points besides, seat 1 the rest."""
    mine = cards_worth(won0, exclude="AD 2D")
    return position(rules, hands=["AD", "2D"], trump="B", won=[mine, ""], rest_to=1)


@pytest.mark.parametrize(
    ("points0", "winner", "scores"),
    [(61 - 11, 0, (1, 0)), (60 - 11, None, (0, 0)), (59 - 11, 1, (0, 1)), (120 - 11, 0, (1, 0))],
)
def test_more_than_60_wins_the_deal_and_60_60_is_a_draw(
    points0: int, winner: int | None, scores: tuple[int, int]
) -> None:
    """docs/rules.md: "At the end of the deal each side counts card points: more than 60 wins the
    deal; 60-60 is a draw (no side scores). ... the winner of a deal scores 1 game"."""
    game = play_all(_last_trick(briscola.Rules(target=2), points0), "AD 2D")
    result = game.last_deal
    assert result is not None and result.winner == winner and result.scores == scores
    assert sum(result.points) == 120 and result.points[0] == points0 + 11
    assert game.scores == scores and not game.is_over


def test_target_1_ends_the_match_with_the_first_deal_won() -> None:
    """docs/rules.md: "Option target (default 1): games (or points) to win the match"."""
    game = play_all(_last_trick(briscola.Rules(), 61 - 11), "AD 2D")
    assert game.is_over and game.winner == 0
    outcome = game.outcome()
    assert outcome is not None and outcome.ranks == (0, 1) and outcome.points == (1, 0)
    assert game.legal_moves() == [] and game.current_player is None
    with pytest.raises(briscola.IllegalMove):
        game.play("AD")


def test_on_a_tie_the_match_goes_on() -> None:
    """docs/rules.md: "On a tie after a deal the match goes on with another deal."."""
    game = play_all(_last_trick(briscola.Rules(), 60 - 11), "AD 2D")
    assert not game.is_over and game.deal_number == 2
    game = position(briscola.Rules(target=2), hands=["AD", "2D"], trump="B", scores=[1, 1])
    game = play_all(game, "AD 2D")
    assert game.is_over and game.winner == 0 and game.scores == (2, 1)


def test_deal_scoring_by_points() -> None:
    """docs/rules.md: "points keeps a running total of card points instead (the target is then in
    points, e.g. 121 or 241, "a punti")."."""
    rules = briscola.Rules(deal_scoring="points", target=121)
    game = play_all(_last_trick(rules, 70 - 11), "AD 2D")
    assert game.scores == (70, 50) and not game.is_over
    game = position(rules, hands=["AD", "2D"], trump="B", scores=[60, 100], rest_to=1)
    game = play_all(game, "AD 2D")  # seat 0 takes 11, seat 1 the other 109
    assert game.is_over and game.winner == 1 and game.scores == (71, 209)


def test_at_4_players_the_pairs_points_are_summed() -> None:
    """docs/rules.md: "at 4 the pair's points are summed." Seats 0+2 vs 1+3."""
    rules = briscola.Rules(players=4)
    game = position(
        rules, hands=["AD", "3D", "KD", "QD"], trump="B", won=["", "", "AB 3B KB", ""], rest_to=3
    )
    game = play_all(game, "AD 3D KD QD")
    result = game.last_deal
    assert result is not None
    assert result.points == (25 + 11 + 10 + 4 + 3, 120 - 53)
    assert game.sides == ((0, 2), (1, 3)) and game.winner == 1


def test_at_3_players_the_most_points_win_the_deal() -> None:
    """docs/rules.md: "At 3 players each plays alone" (engine choice: the most points win the
    deal)."""
    rules = briscola.Rules(players=3, target=2)
    game = position(rules, hands=["AD", "3D", "KD"], trump="B", won=["", "AB 3B", ""], rest_to=2)
    game = play_all(game, "AD 3D KD")
    result = game.last_deal
    assert result is not None and sum(result.points) == 120
    assert result.winner == 2 and result.scores == (0, 0, 1)


# -- Public information ------------------------------------------------------------------------


def test_views_show_no_card_points_during_a_deal() -> None:
    """docs/rules.md: "Card points taken are not shown during the deal, not even to their own side
    (players count them in their heads); they are shown at the end of the deal."."""
    game = briscola.new_game(briscola.Rules(players=4, target=2), seed=3)
    while game.deal_number == 1:
        for seat in (None, 0, 1, 2, 3):
            view = game.view(seat)
            assert view.last_deal is None
            assert view.scores == (0, 0)
            assert "points" not in " ".join(view.to_dict())  # no field of points at all
        game = game.play(game.legal_moves()[-1])
    view = game.view(0)
    assert view.last_deal is not None and sum(view.last_deal.points) == 120


def test_every_player_sees_the_briscola_the_trick_the_stock_and_tricks_won() -> None:
    """docs/rules.md: "Every player sees the face-up briscola, the cards on the table in the current
    trick, the number of cards in the stock, and each side's number of tricks won."."""
    game = position(
        briscola.Rules(players=4),
        hands=["AD 4C 5S", "KD 2B 7C", "6S 6B 7S", "JD JB JC"],
        stock="6D 6C 5D 5C",
        face_up="3B",
    )
    game = play_all(game, "AD KD 6S JD")
    game = game.play("4C")
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view.briscola == Card("3", "B") and view.briscola_suit == "B"
        assert view.trick == ((0, Card("4", "C")),)
        assert view.stock_count == 1
        assert view.side_tricks == (1, 0) and view.tricks_won == (1, 0, 0, 0)


def test_the_last_trick_stays_visible_until_the_next_is_led() -> None:
    """docs/rules.md: "The last trick taken stays visible until the next trick is led."."""
    game = position(hands=["AD 4C 5S", "KD 2B 7C"], stock="6D 6C JD JC", face_up="3B")
    game = play_all(game, "AD KD")
    taken = briscola.Trick(0, (Card("A", "D"), Card("K", "D")), 0)
    assert game.view(1).last_trick == taken and game.view(None).last_trick == taken
    game = game.play("4C")
    assert game.view(1).last_trick is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_sees_only_its_own_hand(players: int) -> None:
    """docs/rules.md: "A player sees only their own hand" and "the view of a seat never includes the
    partner's hand."."""
    game = briscola.new_game(briscola.Rules(players=players), seed=9)
    for seat in range(players):
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        text = repr({k: v for k, v in view.to_dict().items() if k != "rules"})
        for other in range(players):
            if other != seat:
                for card in game.hand(other):
                    assert f"'{card}'" not in text
    public = game.view(None)
    assert public.hand == () and public.legal_moves == ()
    assert public.hand_counts == (3,) * players


def test_only_the_seat_to_move_gets_legal_moves_in_its_view() -> None:
    game = briscola.new_game(briscola.Rules(), seed=2)
    seat = game.current_player
    assert seat is not None
    assert game.view(seat).legal_moves == tuple(game.legal_moves())
    assert game.view(1 - seat).legal_moves == ()


# -- Moves and errors --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "ZZ", "8D", "10D", "call", "call 9D", "AS AS AS AS AS AS"])
def test_a_string_that_is_not_a_move(text: str) -> None:
    game = briscola.new_game(briscola.Rules(), seed=1)
    with pytest.raises(briscola.MoveParseError) as error:
        game.play(text)
    assert isinstance(error.value, ValueError)


def test_a_move_that_is_not_allowed_now() -> None:
    game = position(hands=["AD 4C 5S", "KD 2B 7C"], stock="6D 6C", face_up="3B")
    for text, reason in [
        ("KD", "KD is not in your hand"),
        ("pass", "the auction is over: play a card"),
        ("3", "the auction is over: play a card"),
        ("call 3D", "the auction is over: play a card"),
        ("swap", "the swap is not played at this table"),
    ]:
        with pytest.raises(briscola.IllegalMove) as error:
            game.play(text)
        assert str(error.value) == reason and isinstance(error.value, ValueError)
    assert game.play("ad") == game.play("AD")  # case-insensitive


def test_moves_are_validated_not_trusted() -> None:
    game = briscola.new_game(briscola.Rules(), seed=1)
    with pytest.raises(briscola.MoveParseError):
        game.play(3)  # type: ignore[arg-type]
    before = game.to_dict()
    with pytest.raises(briscola.IllegalMove):
        game.play("pass")
    assert game.to_dict() == before


# -- Rules options ----------------------------------------------------------------------------


def test_defaults_are_those_of_rules_md() -> None:
    rules = briscola.Rules()
    assert rules.to_dict() == {
        "variant": "classic",
        "players": 2,
        "target": 1,
        "removed_two": "2B",
        "swap": "off",
        "deal_scoring": "win",
        "point_bids": True,
        "deals": 5,
        "cappotto": True,
    }
    assert briscola.Rules(variant="chiamata").players == 5
    assert briscola.Rules.from_dict(rules.to_dict()) == rules
    assert briscola.Rules.from_dict({"players": 5, "variant": "chiamata"}).variant == "chiamata"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 1}, "unknown option colour; the options are: cappotto, deal_scoring, deals,"),
        ({"a": 1, "b": 2}, "unknown options a, b; the options are:"),
        ({"players": 5}, "briscola is played by 2, 3 or 4 players (5: variant chiamata); got 5"),
        ({"players": 4, "variant": "chiamata"}, "chiamata is played by 5 players; got 4"),
        ({"variant": "a5"}, "variant must be one of classic, chiamata; got 'a5'"),
        ({"swap": "three"}, "swap must be one of off, two, seven; got 'three'"),
        ({"deal_scoring": "x"}, "deal_scoring must be one of win, points; got 'x'"),
        ({"removed_two": "3B"}, "removed_two must be one of 2D, 2C, 2S, 2B; got '3B'"),
        ({"target": 0}, "target must be a whole number from 1 to 51; got 0"),
        ({"target": True}, "target must be a whole number from 1 to 51; got True"),
        ({"point_bids": "yes"}, "point_bids must be true or false; got 'yes'"),
        ({"cappotto": 1}, "cappotto must be true or false; got 1"),
        ({"deals": 0}, "deals must be a whole number from 1 to 100; got 0"),
    ],
)
def test_bad_options_are_named(options: dict[str, object], message: str) -> None:
    with pytest.raises(briscola.RulesError) as error:
        briscola.Rules.from_dict(options)
    assert str(error.value).startswith(message)
    assert isinstance(error.value, ValueError)


def test_points_target_may_be_241() -> None:
    assert briscola.Rules(deal_scoring="points", target=241).target == 241


def test_options_are_described() -> None:
    names = [o.name for o in briscola.Rules.options()]
    assert sorted(names) == sorted(briscola.Rules.option_names())
    for option in briscola.Rules.options():
        assert getattr(briscola.Rules(), option.name) == option.default
