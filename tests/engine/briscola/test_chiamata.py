"""Briscola chiamata: the auction, the call, the socio, the scores (docs/rules.md)."""

from __future__ import annotations

import random

import pytest

from engine import briscola
from engine.cards import Card
from tests.engine.briscola.helpers import cards_worth, play_all, position

CHIAMATA = briscola.Rules(variant="chiamata")
RANKS = ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]


def auction(rules: briscola.Rules = CHIAMATA, seed: int = 4) -> briscola.Game:
    game = briscola.new_game(rules, seed=seed)
    assert game.phase is briscola.Phase.AUCTION
    return game


def test_all_40_cards_are_dealt_8_each_no_card_turned_up() -> None:
    """docs/rules.md: "5 players, all 40 cards dealt, 8 each, no card turned up."."""
    game = auction()
    assert [game.hand_count(k) for k in range(5)] == [8] * 5
    assert game.stock_count == 0 and game.briscola is None and game.briscola_suit is None
    assert len(set(game.all_cards())) == 40
    # "starting from the seat after the dealer"
    assert game.current_player == (game.dealer + 1) % 5


def test_the_first_call_may_be_any_rank() -> None:
    assert auction().legal_moves() == ["pass", *RANKS]


@pytest.mark.parametrize(
    ("bids", "legal_ranks"),
    [
        ("A", RANKS[1:]),
        ("K", RANKS[3:]),
        ("K Q", RANKS[4:]),
        ("K pass J", RANKS[5:]),
        ("4", ["2"]),
    ],
)
def test_each_call_is_a_lower_rank(bids: str, legal_ranks: list[str]) -> None:
    """docs/rules.md: "each player either calls a rank lower than the last call in the order A, 3,
    K, Q, J, 7, 6, 5, 4, 2 ... or passes"."""
    game = play_all(auction(), bids)
    assert [m for m in game.legal_moves() if m in RANKS] == legal_ranks
    assert not any(m.isdigit() and int(m) >= 61 for m in game.legal_moves())
    higher = RANKS[RANKS.index(bids.split()[-1])]
    with pytest.raises(briscola.IllegalMove):
        game.play(higher)


def test_after_the_2_bids_go_on_in_points() -> None:
    """docs/rules.md: "once the 2 has been called, a point threshold of 61 or more, higher than the
    last (option point_bids, default on)"."""
    game = play_all(auction(), "2")
    assert game.legal_moves() == ["pass", *map(str, range(61, 121))]
    game = play_all(game, "71")
    assert game.legal_moves() == ["pass", *map(str, range(72, 121))]
    for bad in ("71", "60", "121", "2", "A"):
        with pytest.raises(briscola.IllegalMove):
            game.play(bad)
    game = play_all(game, "120")
    assert game.legal_moves() == ["pass"]
    assert game.threshold == 120


def test_no_point_bids_when_the_option_is_off() -> None:
    game = play_all(auction(briscola.Rules(variant="chiamata", point_bids=False)), "2")
    assert game.legal_moves() == ["pass"]
    with pytest.raises(briscola.IllegalMove) as error:
        game.play("61")
    assert str(error.value) == "point bids are not played at this table"


def test_point_bids_only_after_the_2() -> None:
    game = play_all(auction(), "4")
    with pytest.raises(briscola.IllegalMove) as error:
        game.play("61")
    assert str(error.value) == "point bids come only after the 2 has been called"


def test_a_player_who_passes_is_out_and_the_last_caller_wins() -> None:
    """docs/rules.md: "a player who passes is out of the auction. When all others have passed, the
    last caller wins it"."""
    game = auction()
    first = game.current_player
    assert first is not None
    game = play_all(game, "K pass Q pass pass")  # seats +1 +2 +3 +4 +5(dealer)
    seat = lambda k: (first + k) % 5  # noqa: E731
    # Seat +1 called K, +3 called Q; +2, +4, +5 are out: back to +1, the +2 skipped.
    assert game.current_player == seat(0)
    game = game.play("J")
    assert game.current_player == seat(2)  # the +2, +4, +5 passed
    game = game.play("pass")
    assert game.phase is briscola.Phase.CALL
    assert game.current_player == game.caller == seat(0) and game.threshold == 61
    assert game.legal_moves() == ["call JD", "call JC", "call JS", "call JB"]
    assert [e.kind for e in game.events] == ["bid", "auction_won"]


def test_if_all_five_pass_the_next_dealer_deals_again() -> None:
    """docs/rules.md: "if all five pass, the hand is dealt again by the next dealer."."""
    game = auction()
    dealer = game.dealer
    game = play_all(game, "pass pass pass pass pass")
    assert game.phase is briscola.Phase.AUCTION and game.dealer == (dealer + 1) % 5
    assert game.auction == () and game.deal_number == 1  # not one of the match's deals
    assert game.current_player == (dealer + 2) % 5
    assert [e.kind for e in game.events] == ["bid", "redeal", "dealt"]
    assert len(set(game.all_cards())) == 40


def _won_auction(call: str) -> tuple[briscola.Game, int]:
    game = play_all(auction(), "3 pass pass pass pass")
    assert game.phase is briscola.Phase.CALL
    caller = game.caller
    assert caller is not None
    return play_all(game, f"call_{call}"), caller


def test_the_called_card_sets_the_briscola_and_the_socio() -> None:
    """docs/rules.md: "The winner (chiamante) names the suit of the called rank: that card's suit is
    the briscola for the deal, and whoever holds that card is the socio"."""
    game, _caller = _won_auction("3S")
    holder = next(k for k in range(5) if Card("3", "S") in game.hand(k))
    assert game.briscola_suit == "S" and game.called == Card("3", "S")
    assert game.socio == holder
    # "Play as in Briscola, 8 tricks, no stock; the seat after the dealer leads first."
    assert game.phase is briscola.Phase.PLAY
    assert game.current_player == (game.dealer + 1) % 5
    assert all(len(m) == 2 for m in game.legal_moves())


def test_the_socio_is_unknown_to_the_others_until_the_called_card_is_played() -> None:
    """docs/rules.md: "Views: until the called card is played, no seat's view says who the socio is
    (the socio's own view knows it, since it holds the card)."."""
    for seed in range(30):
        game = play_all(auction(seed=seed), "3 pass pass pass pass")
        caller = game.caller
        assert caller is not None
        suit = next(s for s in "DCSB" if Card("3", s) not in game.hand(caller))
        game = game.play(f"call 3{suit}")
        socio = game.socio
        assert socio is not None and socio != caller
        while not game.socio_revealed:
            for seat in (None, *range(5)):
                view = game.view(seat)
                assert view.socio == (socio if seat == socio else None)
                assert view.caller == caller and view.called == Card("3", suit)
                assert "socio" not in [e.kind for e in view.events]
            player = game.current_player
            assert player is not None
            moves = game.legal_moves()
            # The socio keeps the card as long as it can, to test every step.
            move = next((m for m in moves if m != f"3{suit}"), moves[0])
            game = game.play(move)
        assert next(e for e in game.events if e.kind == "socio").seat == socio
        for seat in (None, *range(5)):
            assert game.view(seat).socio == socio
        return
    raise AssertionError("no seed with a socio")  # pragma: no cover


def test_calling_a_card_of_ones_own_hand_plays_alone() -> None:
    """docs/rules.md: "The caller may name a card from their own hand: then they play alone, one
    against four."."""
    for seed in range(50):
        game = play_all(auction(seed=seed), "3 pass pass pass pass")
        caller = game.caller
        assert caller is not None
        own = next((c for c in game.hand(caller) if c.rank == "3"), None)
        if own is not None:
            break
    else:  # pragma: no cover
        raise AssertionError("no seed gives the caller a 3")
    game = game.play(f"call {own}")
    assert game.socio == caller
    assert game.view(caller).socio == caller
    for seat in (None, *(k for k in range(5) if k != caller)):
        assert game.view(seat).socio is None


# -- Scores: "win: caller +2, socio +1, each other player -1; loss: caller -2, socio -1, others +1;
#    alone: caller +/-4, others -/+1 each. Option cappotto (default on): all 120 points doubles
#    every score." -----------------------------------------------------------------------------


def _end_of_deal(
    rules: briscola.Rules,
    *,
    caller: int,
    socio: int,
    team_points: int,
    bid_points: int | None = None,
) -> briscola.Game:
    """The last trick of a chiamata deal: seats 0..4 hold 2D 4D 5D 6D 7D (the briscola is
    bastoni, called card 2B... already played), seat 0 leads and takes it (nothing in it).
    Before it, the caller's side holds ``team_points`` (in the caller's pile)."""
    hands = ["7D", "6D", "5D", "4D", "2D"]
    team = cards_worth(team_points, exclude=" ".join(hands)) if team_points else ""
    won = [""] * 5
    won[caller] = team
    others = next(k for k in range(5) if k not in (caller, socio))
    return position(
        rules,
        hands=hands,
        trump="B",
        won=won,
        rest_to=others,
        dealer=4,
        caller=caller,
        socio=socio,
        called="2B",
        revealed=True,
        bid_rank="2",
        bid_points=bid_points,
        high_bidder=caller,
    )


SCORE_CASES = [
    # caller, socio, caller side's points, bid points, scores per seat
    (1, 3, 61, None, (-1, 2, -1, 1, -1)),  # a rank call wins with 61
    (1, 3, 60, None, (1, -2, 1, -1, 1)),
    (1, 3, 120, None, (-2, 4, -2, 2, -2)),  # cappotto by the callers
    (1, 3, 0, None, (2, -4, 2, -2, 2)),  # cappotto by the others
    (2, 2, 61, None, (-1, -1, 4, -1, -1)),  # alone
    (2, 2, 40, None, (1, 1, -4, 1, 1)),
    (2, 2, 120, None, (-2, -2, 8, -2, -2)),
    (0, 4, 75, 75, (2, -1, -1, -1, 1)),  # the bid points are the threshold
    (0, 4, 74, 75, (-2, 1, 1, 1, -1)),
]


@pytest.mark.parametrize(("caller", "socio", "points", "bid", "scores"), SCORE_CASES)
def test_chiamata_scores(
    caller: int, socio: int, points: int, bid: int | None, scores: tuple[int, ...]
) -> None:
    """docs/rules.md: "The caller's side wins if it takes at least the threshold (61 for a rank
    call, the bid points otherwise)."."""
    rules = briscola.Rules(variant="chiamata", deals=2)
    game = _end_of_deal(rules, caller=caller, socio=socio, team_points=points, bid_points=bid)
    game = play_all(game, "7D 6D 5D 4D 2D")
    result = game.last_deal
    assert result is not None
    assert result.caller_points == points and sum(result.points) == 120
    assert result.scores == scores and sum(scores) == 0
    assert result.won is (points >= (bid or 61))
    assert result.cappotto is (points in (0, 120))
    assert result.alone is (caller == socio)
    assert game.scores == scores and not game.is_over and game.deal_number == 2


def test_cappotto_off_does_not_double() -> None:
    rules = briscola.Rules(variant="chiamata", cappotto=False, deals=2)
    game = _end_of_deal(rules, caller=1, socio=3, team_points=120)
    game = play_all(game, "7D 6D 5D 4D 2D")
    assert game.scores == (-1, 2, -1, 1, -1)


def test_the_match_is_a_fixed_number_of_deals_and_the_highest_total_wins() -> None:
    """docs/rules.md: "The match is a fixed number of deals, option deals (default 5, each player
    deals once); scores add up and the highest total wins (a tie is shared)."."""
    game = position(
        CHIAMATA,
        hands=["7D", "6D", "5D", "4D", "2D"],
        trump="B",
        won=["", cards_worth(61, exclude="7D 6D 5D 4D 2D"), "", "", ""],
        rest_to=0,
        dealer=4,
        caller=1,
        socio=3,
        called="2B",
        revealed=True,
        bid_rank="2",
        high_bidder=1,
        scores=[0, 0, 0, 1, 0],
        results=4,
    )
    game = play_all(game, "7D 6D 5D 4D 2D")
    assert game.is_over and game.scores == (-1, 2, -1, 2, -1)
    assert game.winner is None  # seats 1 and 3 share first place
    outcome = game.outcome()
    assert outcome is not None and outcome.ranks == (2, 0, 2, 0, 2) and outcome.winner is None


def test_a_whole_chiamata_match_rotates_the_dealer() -> None:
    game = briscola.new_game(CHIAMATA, seed=8)
    dealers = []
    while not game.is_over:
        if not dealers or game.dealer != dealers[-1]:
            dealers.append(game.dealer)
        moves = game.legal_moves()
        # A cautious table: one bid of K, everyone else passes.
        move = "K" if game.phase is briscola.Phase.AUCTION and not game.auction else moves[0]
        game = game.play(move)
    assert len(game.deal_results) == 5
    assert [r.dealer for r in game.deal_results] == [(dealers[0] + k) % 5 for k in range(5)]


def test_a_seats_view_adds_only_its_hand_and_moves_to_the_public_view() -> None:
    """The engine contract: what a seat sees beyond the public view is its hand and its moves (the
    socio knows itself from its hand: ``view.socio``, not a field of its own)."""
    private = {"seat", "hand", "legal_moves"}
    rng = random.Random(2)
    game = briscola.new_game(CHIAMATA, seed=12)
    while not game.is_over:
        public = {k: v for k, v in game.view(None).to_dict().items() if k not in private}
        for seat in range(5):
            doc = {k: v for k, v in game.view(seat).to_dict().items() if k not in private}
            assert doc == public
        game = game.play(rng.choice(game.legal_moves()))
