"""docs/rules.md "Scopa family": seats, dealing, turns, scope, the end of a smazzata, winning,
fuori."""

from __future__ import annotations

import pytest

from engine import scopa
from engine.cards import parse_card, parse_cards
from engine.scopa.game import needs_redeal
from engine.scopa.tables import mask_of

from .helpers import position

# ---------------------------------------------------------------- rules options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "briscola"}, "variant must be one of scopa, scopone, scientifico"),
        ({"players": 5}, "scopa is played by 2 or 3 or 4 players"),
        ({"variant": "scopone", "players": 2}, "scopone is played by 4 players"),
        ({"target": 0}, "target must be a whole number from 1 to 51"),
        ({"target": 52}, "from 1 to 51"),
        ({"primiera_missing_suit": "strict"}, "void, lenient"),
        ({"win_by_two": "yes"}, "win_by_two must be true or false"),
        ({"fuori": True}, "fuori is played only in Scopone"),
        ({"variant": "scopone", "target": 11, "fuori": True}, "games to 8"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, object], message: str) -> None:
    with pytest.raises(scopa.RulesError, match=message):
        scopa.Rules(**options)  # type: ignore[arg-type]


def test_defaults_and_unknown_options() -> None:
    # docs/rules.md "Winning the game": "default 11 for Scopa (Aiuto, The game of Scopa); 11 for
    # Scopone".
    rules = scopa.Rules()
    assert (rules.variant, rules.players, rules.target) == ("scopa", 2, 11)
    assert scopa.Rules(variant="scopone").players == 4
    assert not rules.fuori and not rules.win_by_two and rules.primiera_missing_suit == "void"
    # "option fuori, default on when target = 8 in Scopone"
    assert scopa.Rules(variant="scopone", target=8).fuori
    assert not scopa.Rules(variant="scopone", target=8, fuori=False).fuori
    assert scopa.Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(scopa.RulesError, match="unknown option sette_e_mezzo; the options are"):
        scopa.Rules.from_dict({"sette_e_mezzo": True})
    # Keys that are not even strings are named too (no TypeError from sorting them).
    with pytest.raises(scopa.RulesError, match="unknown options 1, sette_e_mezzo; the options"):
        scopa.Rules.from_dict({1: "x", "sette_e_mezzo": True})


# ---------------------------------------------------------------- dealing


@pytest.mark.parametrize(
    ("rules", "hand", "table", "deck"),
    [
        # "Scopa (2, 3 or 4 players) | 3 now, ... | 4 at the first deal only"
        (scopa.Rules(players=2), 3, 4, 30),
        (scopa.Rules(players=3), 3, 4, 27),
        (scopa.Rules(players=4), 3, 4, 24),
        # "Scopone (FIGS) | 9 ... | 4"
        (scopa.Rules(variant="scopone"), 9, 4, 0),
        # "Scopone scientifico | 10 | 0"
        (scopa.Rules(variant="scientifico"), 10, 0, 0),
    ],
)
def test_deal_sizes(rules: scopa.Rules, hand: int, table: int, deck: int) -> None:
    for seed in range(20):
        game = scopa.new_game(rules, seed=seed)
        assert all(len(game.hand(s)) == hand for s in range(rules.players))
        assert len(game.table) == table and game.deck_count == deck


@pytest.mark.parametrize(
    ("variant", "table", "redeal"),
    [
        # "re-deal when the table shows ... 3 or 4 kings (Regolamento Scopa, Aiuto, The game of
        # Scopa)"
        ("scopa", "KD KC KS 7B", True),
        ("scopa", "KD KC KS KB", True),
        ("scopa", "KD KC 7S 7B", False),
        # Scopone: "3 or 4 kings, or the 4 cards sum to 10 or less (FIGS art. 4, 6)"
        ("scopone", "KD KC KS 2B", True),
        ("scopone", "AD 2C 3S 4B", True),
        ("scopone", "AD 2C 3S 5B", False),
        ("scopone", "AD AC AS 7B", True),
    ],
)
def test_redeal_condition(variant: str, table: str, redeal: bool) -> None:
    assert needs_redeal(variant, mask_of(parse_cards(table))) is redeal


def test_redeal_is_by_the_same_dealer_and_games_never_start_on_a_bad_table() -> None:
    # "A re-deal is by the same dealer (Aiuto) with a fresh shuffle."
    redealt = 0
    for seed in range(400):
        game = scopa.new_game(scopa.Rules(variant="scopone"), seed=seed)
        assert not needs_redeal("scopone", mask_of(game.table))
        data = game.to_dict()
        if data["deals"] > 1:
            redealt += 1
            assert game.current_player == (game.dealer + 1) % 4
    assert redealt > 0  # some of these seeds needed a re-deal


def test_same_seed_same_game() -> None:
    # docs/rules.md: "The same seed and the same moves give the same game".
    a = scopa.new_game(scopa.Rules(), seed=42)
    b = scopa.new_game(scopa.Rules(), seed=42)
    assert a.to_dict() == b.to_dict()
    assert scopa.new_game(scopa.Rules(), seed=43).to_dict() != a.to_dict()


# ---------------------------------------------------------------- turns


def test_first_to_play_is_after_the_dealer_and_the_dealer_plays_last() -> None:
    # "the first to play is the seat after the dealer, the dealer plays last (Regolamento Scopa,
    # Aiuto, FIGS art. 3, 7)"; play goes round the seats in one direction.
    for players in (2, 3, 4):
        game = scopa.new_game(scopa.Rules(players=players), seed=players)
        dealer = game.dealer
        seen = []
        for _ in range(players):
            seen.append(game.current_player)
            game = game.play(game.legal_moves()[0])
        assert seen == [(dealer + 1 + k) % players for k in range(players)]
        assert seen[-1] == dealer


def test_deal_passes_to_the_next_seat() -> None:
    # "After each smazzata the deal passes to the next seat in play order".
    game = scopa.new_game(scopa.Rules(players=3, target=51), seed=5)
    dealers = [game.dealer]
    while len(game.smazzate) < 3:
        game = game.play(game.legal_moves()[0])
        if game.dealer != dealers[-1]:
            dealers.append(game.dealer)
    assert dealers[:3] == [dealers[0], (dealers[0] + 1) % 3, (dealers[0] + 2) % 3]
    assert [s.dealer for s in game.smazzate] == dealers[:3]


def test_three_more_cards_each_when_hands_are_empty() -> None:
    # "3 more each time all hands are empty, until the deck is out"
    game = scopa.new_game(scopa.Rules(), seed=1)
    for _ in range(6):
        game = game.play(game.legal_moves()[0])
    assert [len(game.hand(s)) for s in (0, 1)] == [3, 3] and game.deck_count == 24


def test_any_card_may_be_played_but_a_possible_capture_is_compulsory() -> None:
    # "any card may be played (Aiuto: there is no duty to play a card that captures)"; "A capture
    # that is possible is compulsory (Regolamento Scopa, Aiuto, FIGS art. 11)".
    game = position(hands=["7D 2C 5S", "KB QB JB"], table="7C 4S")
    moves = {str(m) for m in game.legal_moves()}
    assert moves == {"7D:7C", "2C", "5S"}
    with pytest.raises(scopa.IllegalMove, match="7D must capture: take 7C"):
        game.play("7D")
    with pytest.raises(scopa.IllegalMove, match="7D cannot take 4S"):
        game.play("7D:4S")
    with pytest.raises(scopa.IllegalMove, match="2C cannot capture"):
        game.play("2C:4S")
    with pytest.raises(scopa.IllegalMove, match="KB is not in your hand"):
        game.play("KB")
    with pytest.raises(scopa.MoveParseError, match="not a move"):
        game.play("7D:")
    with pytest.raises(scopa.MoveParseError, match="'9X'"):
        game.play("9X")


def test_obbligo_di_presa() -> None:
    # "Option obbligo_di_presa (off): when any card of the hand can capture, a card that captures
    # must be played".
    rules = scopa.Rules(obbligo_di_presa=True)
    game = position(rules, hands=["7D 2C 5S", "KB QB JB"], table="7C 4S")
    assert {str(m) for m in game.legal_moves()} == {"7D:7C"}
    with pytest.raises(scopa.IllegalMove, match="obbligo di presa"):
        game.play("2C")
    # With nothing to capture, any card.
    game = position(rules, hands=["AD 2C 5S", "KB QB JB"], table="7C")
    assert {str(m) for m in game.legal_moves()} == {"AD", "2C", "5S"}


def test_capture_order_in_a_move_string_is_free() -> None:
    game = position(hands=["QD 2C 5S", "KB QB JB"], table="AC 3C 4S 5B")
    assert str(game.play("QD:5B+4S").last_move[1]) == "QD:4S+5B"  # type: ignore[index]
    assert game.play("qd:5b+4s").captured(0)[-3:] != ()


# ---------------------------------------------------------------- scopa and the end


def test_scopa_sweeps_the_table() -> None:
    # "A capture that leaves the table empty is a scopa worth 1 point".
    game = position(hands=["7D 2C", "KB QB"], table="3C 4S", deck="")
    game = game.play("7D:3C+4S")
    assert game.scope(0) == 1 and game.table == ()


def test_no_scopa_on_the_last_play_and_last_taker_collects() -> None:
    # "except on the very last card of the smazzata (dealer's last play)"; "the table's remaining
    # cards go to the last player (pair) who captured, and that is not a scopa".
    game = position(hands=["2C", "5S"], table="5C", dealer=1, current=0, last_taker=0, rest_to=1)
    game = game.play("2C")  # leaves 5C 2C on the table
    assert game.table == parse_cards("2C 5C") or set(game.table) == set(parse_cards("2C 5C"))
    game = game.play("5S:5C")  # the dealer's last card sweeps: not a scopa
    last = game.smazzate[-1]
    assert last.scope == (0, 0)
    # The 2C left on the table goes to seat 1, who captured last.
    assert parse_card("2C") in last.piles[1]
    assert sum(len(p) for p in last.piles) == 40


def test_table_goes_to_the_last_taker_not_the_last_player() -> None:
    game = position(hands=["3C", "KS"], table="3S", dealer=1, current=0, rest_to=1)
    game = game.play("3C:3S")  # seat 0 takes, table empty: a scopa (not the last card)
    assert game.scope(0) == 1
    game = game.play("KS")  # the dealer's last card captures nothing and stays
    last = game.smazzate[-1]
    assert parse_card("KS") in last.piles[0]  # collected by seat 0, the last taker
    assert last.scope == (1, 0)


def _end_with(
    totals: list[int], *, rules: scopa.Rules | None = None, seat0_gets: str = ""
) -> scopa.Game:
    """Finish a smazzata in which side 0 took ``seat0_gets`` and side 1 everything else."""
    game = position(
        rules,
        hands=["2C", "KS"],
        table="",
        dealer=1,
        current=0,
        totals=totals,
        captured=[seat0_gets, ""],
        rest_to=1,
        last_taker=1,
    )
    game = game.play("2C")
    return game.play("KS")  # nothing captured: the table goes to side 1


def test_target_reached_most_points_wins() -> None:
    # "If at least one side reached the target: the side with the most points wins".
    # Side 1 takes carte, denari, settebello, primiera: +4.
    game = _end_with([10, 8])
    assert game.is_over and game.winner == 1 and game.points(1) == 12
    assert game.current_player is None
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.ranks == (1, 0)


def test_tie_for_first_plays_another_smazzata() -> None:
    # "a tie for first place plays another smazzata, as often as needed"
    game = _end_with([12, 8])  # 12 - 12
    assert not game.is_over and game.points(0) == game.points(1) == 12
    assert game.smazzata_number == 2 and len(game.hand(0)) == 3


def test_checked_only_at_the_end_of_a_smazzata() -> None:
    # "Checked only at the end of a smazzata (every started smazzata is finished, The game of
    # Scopa)."
    game = position(hands=["7D 2C", "KB QB"], table="3C 4S", deck="AS 2S", totals=[10, 0])
    game = game.play("7D:3C+4S")  # a scopa: side 0 has 11 counting it, but plays on
    assert not game.is_over


def test_win_by_two() -> None:
    # "Option win_by_two (Aiuto): a side must also lead by two or more points, else play on."
    game = _end_with([8, 8], rules=scopa.Rules(win_by_two=True), seat0_gets="")
    assert game.points(1) == 12 and game.is_over and game.winner == 1  # 12 - 8
    seven = "7D 7C 7S 7B 6D 6C 6S"  # side 0: settebello + primiera; side 1: carte + denari
    game = _end_with([10, 9], rules=scopa.Rules(win_by_two=True), seat0_gets=seven)
    assert (game.points(0), game.points(1)) == (12, 11)
    assert not game.is_over  # 12 - 11 is not enough
    game = _end_with([10, 9], seat0_gets=seven)
    assert game.is_over and game.winner == 0  # without the option it is


def test_three_players_and_four_players_sides() -> None:
    # "4 players (two pairs, partners sit opposite: seats 0+2 vs 1+3)"
    game = scopa.new_game(scopa.Rules(players=4), seed=3)
    assert game.sides == ((0, 2), (1, 3))
    assert scopa.new_game(scopa.Rules(players=3), seed=3).sides == ((0,), (1,), (2,))


# ---------------------------------------------------------------- options in play


def test_asso_piglia_tutto_is_not_a_scopa() -> None:
    rules = scopa.Rules(asso_piglia_tutto=True)
    game = position(rules, hands=["AD 2C", "KB QB"], table="7C 3S", deck="4S 5S")
    game = game.play("AD:7C+3S")
    assert game.table == () and game.scope(0) == 0


# ---------------------------------------------------------------- fuori (FIGS art. 16)

SCOPONE_8 = scopa.Rules(variant="scopone", target=8)


def _scopone(**kwargs: object) -> scopa.Game:
    defaults: dict[str, object] = {
        "hands": ["7D 2C", "KB QB", "JB 5B", "AB 2B"],
        "table": "3C 4S",
        "dealer": 3,
        "current": 0,
        "rest_to": "deck",
    }
    defaults.update(kwargs)
    return position(SCOPONE_8, **defaults)  # type: ignore[arg-type]


def test_fuori_with_enough_certain_points_wins() -> None:
    # "The declaring pair wins if its total, counting only points already certain in this
    # smazzata, is 8 or more". Side 0 had 6; 7D:3C+4S is a scopa and takes the settebello: 8.
    game = _scopone(totals=[6, 7])
    assert "7D:3C+4S!" in {str(m) for m in game.legal_moves()}
    game = game.play("7D:3C+4S!")
    assert game.is_over and game.winner == 0 and game.points(0) == 8
    assert game.smazzate[-1].fuori == 0
    assert game.outcome() is not None and game.outcome().multiplier == 1  # type: ignore[union-attr]


def test_fuori_short_of_the_target_loses() -> None:
    game = _scopone(totals=[5, 3])
    game = game.play("7D:3C+4S!")  # 5 + scopa + settebello = 7 < 8
    assert game.is_over and game.winner == 1
    # "the pair loses as it would have won: by the others' points, or its own if lower": as if
    # the others had 3 points -> double.
    outcome = game.outcome()
    assert outcome is not None and outcome.multiplier == 2
    game = _scopone(totals=[0, 7]).play("2C!")  # declaring with 0 points: lower is 0 -> triple
    assert game.winner == 1 and game.outcome().multiplier == 3  # type: ignore[union-attr]


def test_fuori_certain_points_only() -> None:
    # "carte at 21+, denari at 6+, primiera only when the other pair cannot reach it even with
    # every card not yet captured". Side 0 holds 21 cards (carte certain) but only 5 denari
    # (not certain); side 1 could still reach primiera, so it is not certain.
    piles0 = "AD 2D 3D 4D 5D AC 2C 3C 4C 5C 6C AS 2S 3S 5S 6S 7S QS KS JS QC"
    game = _scopone(
        captured=[piles0, ""],
        rest_to=1,
        totals=[6, 0],
        hands=["7D KC", "KB QB", "JB 5B", "AB 2B"],
        table="4S",
    )
    certain = game.play("KC!").smazzate[-1].scores[0]
    assert certain["carte"] == 1 and certain["denari"] == 0 and certain["settebello"] == 0


def test_no_fuori_for_the_dealer_on_the_last_play_or_after_a_tie_at_8() -> None:
    # "any player except the dealer on the very last play may declare fuori"
    game = _scopone(hands=["", "", "", "2B"], table="3C", current=3, totals=[7, 7], rest_to=1)
    assert all(not m.fuori for m in game.legal_moves())
    with pytest.raises(scopa.IllegalMove, match="dealer may not declare fuori"):
        game.play("2B!")
    # "Fuori is not allowed when the smazzata started with both pairs tied at 8 or more."
    game = _scopone(totals=[8, 8])
    assert all(not m.fuori for m in game.legal_moves())
    with pytest.raises(scopa.IllegalMove, match="tied"):
        game.play("7D:3C+4S!")
    # Not at a table without fuori.
    game = position(hands=["7D 2C", "KB QB"], table="3C 4S")
    with pytest.raises(scopa.IllegalMove, match="not played at this table"):
        game.play("7D:3C+4S!")


@pytest.mark.parametrize(("loser_points", "multiplier"), [(4, 1), (6, 1), (3, 2), (1, 2), (0, 3)])
def test_single_double_triple(loser_points: int, multiplier: int) -> None:
    # "the win is single if the losers have 4+ points, double with 1-3, triple with 0"
    game = _scopone(totals=[7, loser_points])
    game = game.play("7D:3C+4S!")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.multiplier == multiplier


# ---------------------------------------------------------------- views and saving


def test_view_shows_only_the_own_hand() -> None:
    # "A player sees only their own hand; the public view shows table, ..., counts of cards in
    # hands and stock, captured-card counts and scope, whose turn it is, and the scores."
    game = scopa.new_game(scopa.Rules(players=4), seed=9)
    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    assert view.hand == game.hand(seat) and view.legal_moves
    other = game.view((seat + 1) % 4)
    assert other.hand == game.hand((seat + 1) % 4) and other.legal_moves == ()
    public = game.view(None)
    assert public.hand == () and public.legal_moves == ()
    text = str(public.to_dict())
    for s in range(4):
        for card in game.hand(s):
            assert f"'{card}'" not in text
    assert public.hand_counts == (3, 3, 3, 3) and public.deck_count == 24
    with pytest.raises(ValueError, match="no seat 4"):
        game.view(4)


def test_round_trip_and_corruption() -> None:
    game = scopa.new_game(scopa.Rules(variant="scopone", target=8), seed=4)
    for _ in range(10):
        game = game.play(game.legal_moves()[0])
    data = game.to_dict()
    again = scopa.Game.from_dict(data)
    assert again.to_dict() == data and again == game
    broken = dict(data, table="")
    with pytest.raises(ValueError, match="40 cards"):
        scopa.Game.from_dict(broken)
    with pytest.raises(ValueError, match="schema"):
        scopa.Game.from_dict(dict(data, schema=99))
    with pytest.raises(ValueError, match="not a saved Scopa game"):
        scopa.Game.from_dict({"game": "scala40"})


def test_play_does_not_change_the_old_game() -> None:
    game = scopa.new_game(scopa.Rules(), seed=2)
    before = game.to_dict()
    after = game.play(game.legal_moves()[0])
    assert game.to_dict() == before and after.to_dict() != before


def test_first_dealer_is_random() -> None:
    # "First dealer: random (Regolamento Scopa, Aiuto)": fixed by the seed, spread over every seat.
    dealers = {scopa.new_game(scopa.Rules(players=4), seed=s).dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert (
        scopa.new_game(scopa.Rules(), seed=8).dealer == scopa.new_game(scopa.Rules(), seed=8).dealer
    )
