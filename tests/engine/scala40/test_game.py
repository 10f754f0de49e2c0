"""The Scala 40 game, rule by rule (docs/rules.md "Scala 40": "A turn", "Closing and scoring a
hand", "The match"; Regole Scala 40 where docs/rules.md settles it)."""

from __future__ import annotations

import pytest

from engine.scala40 import IllegalMove, MoveParseError, Phase, Rules, new_game

from .support import cards, moves, position

OTHERS = ["KB", "QB", "JB"]


# -- the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal(players: int) -> None:
    # docs/rules.md: "2 to 6 players ... 13 cards each. One card face up starts the discard pile
    # (pozzo); the rest face down is the stock (tallone)." 104 cards and 4 jokers.
    game = new_game(Rules(players=players), seed=players)
    assert [len(game.hand(seat)) for seat in range(players)] == [13] * players
    assert game.pile_count == 1
    assert game.stock_count == 108 - 13 * players - 1
    assert len(game.all_cards()) == 108
    assert sum(card.is_joker for card in game.all_cards()) == 4
    # Play goes round from the seat after the dealer, who begins by drawing.
    assert game.current_player == (game.dealer + 1) % players
    assert game.phase is Phase.DRAW
    assert moves(game) in (["t"], ["t", "p"])


def test_dealer_fourteen() -> None:
    # docs/rules.md option dealer_fourteen: "the dealer gets 14 and discards without drawing on the
    # first turn".
    game = new_game(Rules(players=3, dealer_fourteen=True), seed=5)
    dealer = game.dealer
    assert len(game.hand(dealer)) == 14
    assert game.current_player == dealer
    assert game.phase is Phase.MELD
    assert game.pile_count == 0 and game.stock_count == 108 - 14 - 26
    assert not any(move in ("t", "p") for move in moves(game))
    with pytest.raises(IllegalMove, match="already drawn"):
        game.play("t")
    card = game.hand(dealer)[0]
    after = game.play(f"d {card}")
    assert len(after.hand(dealer)) == 13 and after.pile_top == card
    assert after.current_player == (dealer + 1) % 3 and after.phase is Phase.DRAW


def test_same_seed_same_game() -> None:
    # docs/rules.md: "The same seed and the same moves give the same game".
    a, b = new_game(Rules(), seed=42), new_game(Rules(), seed=42)
    for _ in range(12):
        assert a.to_dict() == b.to_dict()
        move = str(a.legal_moves()[-1])
        a, b = a.play(move), b.play(move)
    assert a.to_dict() == b.to_dict()
    assert new_game(Rules(), seed=43).to_dict() != new_game(Rules(), seed=42).to_dict()


# -- drawing ---------------------------------------------------------------------------------


def test_draw_from_the_stock() -> None:
    game = position(["2D 5C 9S", *OTHERS], stock_top="7S", pile="KD")
    after = game.play("t")
    assert "7S" in map(str, after.hand(0)) and after.stock_count == game.stock_count - 1
    assert after.phase is Phase.MELD
    with pytest.raises(IllegalMove, match="draw first"):
        game.play("d 2D")


def test_the_drawn_card_is_told_to_its_player_alone() -> None:
    # The player sees which card came from the tallone (their hand is shown sorted); nobody else
    # learns it: other views, the public view and the Drew event say only "from the tallone".
    game = position(["2D 5C 9S", *OTHERS], stock_top="7S", pile="KD")
    assert game.drawn is None and game.view(0).drawn is None
    after = game.play("t")
    assert str(after.drawn) == "7S" and str(after.view(0).drawn) == "7S"
    assert after.view(0).to_dict()["drawn"] == "7S"
    for other in (1, 2, 3, None):
        view = after.view(other)
        assert view.drawn is None and view.to_dict()["drawn"] is None
        assert "7S" not in map(str, view.hand)
    (drew,) = after.events
    assert drew.to_dict()["data"] == {"source": "tallone", "card": None}
    assert "7S" not in repr(drew.to_dict())
    # Kept through the turn (the card laid or not), forgotten when the turn passes.
    restored = type(after).from_dict(after.to_dict())
    assert str(restored.view(0).drawn) == "7S"
    done = after.play("d 9S")
    assert done.drawn is None and all(done.view(s).drawn is None for s in (0, 1, None))
    assert done.to_dict()["drawn"] is None
    # A draw from the pozzo is public already (pile_card_taken), not a tallone draw.
    taken = position(["2D 5C 9S", *OTHERS], pile="KD", opened=[True] * 4, melds=[(1, "TD JD QD")])
    assert taken.play("p").view(0).drawn is None


def test_a_state_saved_without_the_drawn_card_loads() -> None:
    # States saved before the drawn card was remembered have no "drawn": they load, telling none.
    after = position(["2D 5C 9S", *OTHERS], stock_top="7S", pile="KD").play("t")
    data = after.to_dict()
    del data["drawn"]
    old = type(after).from_dict(data)
    assert old.drawn is None and old.view(0).drawn is None
    assert old.hand(0) == after.hand(0)


HAND_48 = "7D 7C 8D 9D TD 2B 3B 4S 6B 8C JC 5C 9B"  # with 7S: 7D 7C 7S + 8D 9D TD = 48


def test_pile_card_only_to_open_with_it() -> None:
    # docs/rules.md: "The discard can be taken only by a player who has opened, or who opens in this
    # same turn using that card."
    useless = position([HAND_48, *OTHERS], pile="KS")
    assert moves(useless) == ["t"]
    with pytest.raises(IllegalMove, match="only to open with it"):
        useless.play("p")
    game = position([HAND_48, *OTHERS], pile="7S")
    assert moves(game) == ["t", "p"]
    taken = game.play("p")
    assert taken.must_open and str(taken.pile_card_taken) == "7S"
    # Only the opening that uses 7S is offered: no discard before opening.
    assert moves(taken) == ["o 7D7C7S 8D9DTD"]
    with pytest.raises(IllegalMove, match="open with it before discarding"):
        taken.play("d 2B")
    with pytest.raises(IllegalMove, match="opening needs 40 points, you have 27"):
        taken.play("o 8D9DTD")
    opened = taken.play("o 7D7C7S 8D9DTD")
    assert opened.has_opened(0) and not opened.must_open
    assert len(opened.melds) == 2 and opened.melds[0].owner == 0


def test_opened_player_takes_the_pile_card_only_to_lay_it() -> None:
    # docs/rules.md: "The card just taken from the pile may not be discarded in the same turn (a
    # player who takes it must use it; not written in Regole Scala 40, universal in practice)".
    game = position(
        ["2D 5C 9S", *OTHERS],
        pile="7S",
        melds=[(1, "4S 5S 6S")],
        opened=[True, True, False, False],
    )
    assert moves(game) == ["t", "p"]
    taken = game.play("p")
    assert moves(taken) == ["a1 7S"]  # the first move lays it
    with pytest.raises(IllegalMove, match="before discarding"):
        taken.play("d 9S")
    with pytest.raises(IllegalMove, match="before discarding"):
        taken.play("d 7S")
    after = taken.play("a1 7S")
    assert str(after.melds[0]) == "4S 5S 6S 7S" and "d 9S" in moves(after)
    useless = position(["2D 5C 9S", *OTHERS], pile="KD", melds=[(1, "4S 5S 6S")], opened=[True] * 4)
    assert moves(useless) == ["t"]
    with pytest.raises(IllegalMove, match="only to lay it now"):
        useless.play("p")


def test_pile_card_laid_before_anything_else() -> None:
    game = position(
        ["8C 8S 2C 3C 4C 9B", *OTHERS], pile="8D", melds=[(1, "5D 6D 7D")], opened=[True] * 4
    )
    taken = game.play("p")
    assert set(moves(taken)) == {"m 8D8C8S", "a1 8D"}
    with pytest.raises(IllegalMove, match="before anything else"):
        taken.play("m 2C3C4C")
    assert "m 2C3C4C" in moves(taken.play("m 8D8C8S"))


def test_second_copy_of_the_pile_card_may_be_discarded() -> None:
    game = position(["2S 9C 9D", *OTHERS], pile="2S", melds=[(1, "3S 4S 5S")], opened=[True] * 4)
    taken = game.play("p")
    after = taken.play("a1 2S")
    assert str(after.melds[0]) == "2S' 3S 4S 5S"  # the copy from the pozzo went down
    assert "d 2S" in moves(after)
    assert [str(c) for c in after.play("d 2S").hand(0)] == ["9D", "9C"]


def test_first_pile_card_free() -> None:
    # docs/rules.md option first_pile_card_free: "the first card turned up on the pile may be taken
    # by a player who has not opened" (Regole Scala 40: "deve continuare ad esserci solo una carta
    # nel pozzo").
    rules = Rules(first_pile_card_free=True)
    game = position([HAND_48, *OTHERS], rules=rules, pile="KS", pile_free=True)
    assert moves(game) == ["t", "p"]
    taken = game.play("p")
    assert not taken.must_open and "d 2B" in moves(taken) and "d KS" not in moves(taken)
    # Once someone drew from the tallone, the pozzo holds two cards: no longer free.
    drawn = position([HAND_48, *OTHERS], rules=rules, pile="KS", pile_free=True).play("t")
    after = drawn.play("d 2B")
    assert after.pile_count == 2 and "p" not in moves(after)
    # Without the option the same card cannot be taken.
    assert moves(position([HAND_48, *OTHERS], pile="KS")) == ["t"]


# -- opening, melding, attaching, swapping ---------------------------------------------------


def test_opening_at_39_and_40() -> None:
    # docs/rules.md: "Open (once): lay down one or more melds from hand worth 40 or more in total".
    game = position(["4D 5D 6D 7D 8D 9D TD 2C 3S", *OTHERS], phase="meld")
    with pytest.raises(IllegalMove, match="opening needs 40 points, you have 39"):
        game.play("o 4D5D6D7D8D9D")
    assert game.play("o 5D6D7D8D9DTD").has_opened(0)  # 45
    assert "o 4D5D6D7D8D9DTD" in moves(game)  # the best opening is offered
    with pytest.raises(IllegalMove, match="open first"):
        game.play("m 4D5D6D7D8D9DTD")
    with pytest.raises(IllegalMove, match="open first"):
        position(["6D 2C 3S", *OTHERS], phase="meld", melds=[(1, "5D * 7D")]).play("s1 6D")
    with pytest.raises(IllegalMove, match="do not hold"):
        game.play("o 5D6D7D8D9DTDJD")
    with pytest.raises(IllegalMove, match="not a meld"):
        game.play("o 4D5D6D7D8D9DTD 2C3S")


def test_opening_points_zero() -> None:
    # docs/rules.md: "0 gives the 'Machiavelli' variant of Regole Scala 40".
    game = position(["2D 3D 4D 9S 9C", *OTHERS], phase="meld", rules=Rules(opening_points=0))
    assert "o 2D3D4D" in moves(game)
    assert game.play("o 2D3D4D").has_opened(0)


def test_more_melds_after_opening() -> None:
    # docs/rules.md: "After opening (the same turn included): lay down more melds".
    game = position(["4D 5D 6D 7D 8D 9D TD 2C 3C 4C 5S", *OTHERS], phase="meld")
    opened = game.play("o 4D5D6D7D8D9DTD")
    assert "m 2C3C4C" in moves(opened)
    after = opened.play("m 2C3C4C")
    assert len(after.melds) == 2 and [str(c) for c in after.hand(0)] == ["5S"]
    with pytest.raises(IllegalMove, match="already opened"):
        opened.play("o 2C3C4C")


def test_attach_to_a_run_holding_a_joker() -> None:
    # docs/rules.md: "attach cards to any meld on the table" (another player's meld too).
    game = position(
        ["8D 4D 6D 2C 3S", *OTHERS],
        phase="meld",
        melds=[(2, "5D * 7D")],
        opened=[True, False, True, False],
    )
    legal = moves(game)
    assert "a1 8D" in legal and "a1 4D" in legal and "a1 6D" not in legal
    after = game.play("a1 8D").play("a1 4D")
    assert str(after.melds[0]) == "4D 5D * 7D 8D" and after.melds[0].owner == 2
    with pytest.raises(IllegalMove, match="does not fit"):
        game.play("a1 6D")
    with pytest.raises(IllegalMove, match="no meld 2"):
        game.play("a2 8D")


def test_attach_a_joker_at_either_end() -> None:
    game = position(
        ["* 2C 3S 9B", *OTHERS], phase="meld", melds=[(1, "5D 6D 7D")], opened=[True] * 4
    )
    legal = moves(game)
    assert "a1 *<" in legal and "a1 *>" in legal
    assert str(game.play("a1 *<").melds[0]) == "* 5D 6D 7D"
    assert str(game.play("a1 *").melds[0]) == "5D 6D 7D *"  # no marker: the high end
    top = position(
        ["* 2C 3S 9B", *OTHERS], phase="meld", melds=[(1, "QD KD AD")], opened=[True] * 4
    )
    assert str(top.play("a1 *").melds[0]) == "* QD KD AD"
    with pytest.raises(IllegalMove, match="high end"):
        top.play("a1 *>")


def test_swap_a_joker_only_with_its_exact_card() -> None:
    # docs/rules.md: "swap a joker: put the real card it stands for into a table meld and take the
    # joker into the hand" (Regole Scala 40: "si ha la carta che quest'ultimo sostituisce").
    game = position(
        ["6D 6C 2B 9S", *OTHERS],
        phase="meld",
        melds=[(1, "5D * 7D"), (2, "9C 9S' *")],
        opened=[True] * 4,
    )
    legal = moves(game)
    assert "s1 6D" in legal and "s1 6C" not in legal
    with pytest.raises(IllegalMove, match="stands for 6D, not 6C"):
        game.play("s1 6C")
    after = game.play("s1 6D")
    assert str(after.melds[0]) == "5D 6D 7D"
    assert "*" in map(str, after.hand(0)) and "6D" not in map(str, after.hand(0))
    # In a tris the joker stands for the rank in a suit the tris lacks (here D or B).
    with pytest.raises(IllegalMove, match="stands for 9D/9B, not 9S"):
        game.play("s2 9S")
    assert str(game.play("s1 6D").melds[1]) == "9C 9S' *"


# -- discarding ------------------------------------------------------------------------------


def test_discard_attachable_allowed() -> None:
    # docs/rules.md: Regole Scala 40 "allows discarding a card that could be attached to a table
    # meld but then forbids the next player to take it from the pile only to attach it".
    game = position(
        ["8D 2C 3S", "8C 8S 9B 4C", "QB", "JB"],
        phase="meld",
        melds=[(2, "5D 6D 7D")],
        opened=[True] * 4,
    )
    after = game.play("d 8D")
    taken = after.play("p")
    assert "a1 8D" not in moves(taken)
    with pytest.raises(IllegalMove, match="not onto a meld"):
        taken.play("a1 8D")
    # ... but it may go into a new meld with the player's own cards.
    assert "m 8D8C8S" in moves(taken)
    assert len(taken.play("m 8D8C8S").melds) == 2


def test_discard_attachable_forbidden() -> None:
    # docs/rules.md: "forbidden is the widespread variant that never allows such a discard (except
    # the last card)".
    rules = Rules(discard_attachable="forbidden")
    game = position(
        ["8D 2C 3S", *OTHERS],
        rules=rules,
        phase="meld",
        melds=[(2, "5D 6D 7D")],
        opened=[False, False, True, False],
    )
    assert "d 8D" not in moves(game)
    with pytest.raises(IllegalMove, match="forbidden"):
        game.play("d 8D")
    assert game.play("d 2C").pile_top is not None
    # The last card may always go (closing).
    last = position(
        ["8D", *OTHERS],
        rules=rules,
        phase="meld",
        melds=[(2, "5D 6D 7D")],
        opened=[True, False, True, False],
    )
    assert moves(last)[-1] == "d 8D"
    assert last.play("d 8D").last_hand is not None


# -- closing -----------------------------------------------------------------------------------


def test_no_closing_in_the_first_round() -> None:
    # docs/rules.md: "No one may close before every player has had at least one turn" (Regole Scala
    # 40: "Non è valido chiudere al primo giro").
    first = position(["5D 6D 7D 2C", *OTHERS], phase="meld", turn=3, opened=[True] * 4)
    assert not first.closing_allowed
    assert "m 5D6D7D" not in moves(first)
    with pytest.raises(IllegalMove, match="every player has had a turn"):
        first.play("m 5D6D7D")
    alone = position(["2C", *OTHERS], phase="meld", turn=3, opened=[True] * 4)
    assert moves(alone) == []
    with pytest.raises(IllegalMove, match="every player has had a turn"):
        alone.play("d 2C")
    later = position(["5D 6D 7D 2C", *OTHERS], phase="meld", turn=4, opened=[True] * 4)
    assert later.closing_allowed
    closed = later.play("m 5D6D7D").play("d 2C")
    assert closed.last_hand is not None and closed.last_hand.closer == 0
    # The opening offered in the first round keeps two cards.
    whole = position(["2C 3C 4C 5C 6C 7C 8C 9C TC", *OTHERS], phase="meld", turn=0)
    assert moves(whole)[0] == "o 4C5C6C7C8C9CTC"


HANDS_PAY = ["5D 6D 7D 2C", "KB 3C", "AS", "* 9D"]  # the others hold 13, 1 (a lone ace), 34


@pytest.mark.parametrize(
    ("rules", "opened_before", "penalties"),
    [
        # docs/rules.md: "Each other player adds the penalty of the cards still held".
        (Rules(), True, (0, 13, 1, 34)),
        # "close_in_hand (default double): a player who lays the whole hand down in one turn
        # without having opened before makes every other player pay double".
        (Rules(opening_points=0), False, (0, 26, 2, 68)),
        (Rules(opening_points=0, close_in_hand="bonus"), False, (-25, 13, 1, 34)),
        (Rules(opening_points=0, close_in_hand="off"), False, (0, 13, 1, 34)),
        # "unopened_pays (default sum): a player who never opened pays the sum, or a flat 100".
        (Rules(unopened_pays="100"), True, (0, 100, 100, 100)),
        (Rules(opening_points=0, unopened_pays="100"), False, (0, 200, 200, 200)),
    ],
)
def test_closing_and_penalties(
    rules: Rules, opened_before: bool, penalties: tuple[int, ...]
) -> None:
    game = position(HANDS_PAY, rules=rules, phase="meld", opened=[opened_before] + [False] * 3)
    move = "m 5D6D7D" if opened_before else "o 5D6D7D"
    closed = game.play(move).play("d 2C")
    result = closed.last_hand
    assert result is not None
    assert result.closer == 0 and result.in_hand is not opened_before
    assert result.penalties == penalties
    assert [closed.points(seat) for seat in range(4)] == list(penalties)
    if closed.is_over:  # 200 each: everybody else is out at once
        assert closed.winner == 0
        return
    # A new hand is dealt by the next dealer.
    assert closed.hand_number == 2 and closed.dealer == (game.dealer + 1) % 4
    assert [len(closed.hand(seat)) for seat in range(4)] == [13] * 4


def test_closing_by_melding_needs_no_discard() -> None:
    # docs/rules.md: "Discard one card onto the pile — except when the hand is already empty".
    game = position(["5D 6D 7D", *OTHERS], phase="meld", opened=[True] * 4)
    closed = game.play("m 5D6D7D")
    assert closed.last_hand is not None and closed.last_hand.penalties == (0, 10, 10, 10)


def test_opened_player_pays_the_sum_with_flat_option() -> None:
    game = position(
        ["5D 6D 7D", "KB", "QB", "JB"],
        rules=Rules(unopened_pays="100"),
        phase="meld",
        opened=[True, True, False, False],
    )
    closed = game.play("m 5D6D7D")
    assert closed.last_hand is not None and closed.last_hand.penalties == (0, 10, 100, 100)


# -- the match ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("elimination", "score", "out"),
    [
        # docs/rules.md: "A player reaching the limit, option elimination (101 default; 151, 201,
        # 501 allowed), is out."
        (101, 91, True),  # 91 + 10 = 101
        (101, 90, False),  # 100
        (151, 141, True),
        (151, 140, False),
        (201, 191, True),
        (501, 491, True),
        (501, 400, False),
    ],
)
def test_elimination(elimination: int, score: int, out: bool) -> None:
    game = position(
        ["5D 6D 7D", "KB", "2B", "2C"],
        rules=Rules(elimination=elimination),
        phase="meld",
        opened=[True] * 4,
        scores=[0, score, 0, 0],
    )
    closed = game.play("m 5D6D7D")
    assert closed.points(1) == score + 10
    assert closed.is_eliminated(1) is out
    assert closed.last_hand is not None and closed.last_hand.eliminated == ((1,) if out else ())
    if out:
        assert closed.hand(1) == () and closed.current_player != 1
        assert closed.view(None).hand_counts[1] == 0


def test_last_player_left_wins() -> None:
    # docs/rules.md: "The last player left wins."
    game = position(["5D 6D 7D", "KB"], phase="meld", opened=[True, True], scores=[50, 95])
    over = game.play("m 5D6D7D")
    assert over.is_over and over.winner == 0 and over.current_player is None
    assert over.phase is Phase.OVER and over.legal_moves() == []
    outcome = over.outcome()
    assert outcome is not None and outcome.ranks == (0, 1) and outcome.multiplier == 1
    with pytest.raises(IllegalMove, match="over"):
        over.play("t")


def test_outcome_ranks_by_elimination_order() -> None:
    game = position(
        ["5D 6D 7D", "KB", "KD", "2C"],
        phase="meld",
        opened=[True] * 4,
        scores=[0, 95, 95, 100],
        out_at=[0, 0, 0, 0],
    )
    over = game.play("m 5D6D7D")  # 1 and 2 reach 105, 3 reaches 102: all out at once
    assert over.is_over and over.winner == 0
    outcome = over.outcome()
    assert outcome is not None and outcome.ranks == (0, 2, 2, 1)


def test_reentry() -> None:
    # docs/rules.md option reentry: "an eliminated player may re-enter once with the highest score
    # among those still in."
    rules = Rules(players=3, reentry=True)
    game = position(
        ["5D 6D 7D", "KB", "2C"], rules=rules, phase="meld", opened=[True] * 3, scores=[30, 95, 60]
    )
    paused = game.play("m 5D6D7D")
    assert paused.phase is Phase.REENTRY and paused.current_player == 1
    assert moves(paused) == ["in", "out"]
    with pytest.raises(IllegalMove, match="re-enter") as refused:
        paused.play("t")
    # Said to the eliminated player, who sees no seat numbers (they count from 0 internally).
    assert str(refused.value).startswith("you were eliminated") and not refused.value.params
    back = paused.play("in")
    assert not back.is_eliminated(1) and back.points(1) == 62  # 60 + 2 for seat 2
    assert back.has_reentered(1) and back.phase is Phase.DRAW and back.hand_number == 2
    assert len(back.hand(1)) == 13
    stays_out = paused.play("out")
    assert stays_out.is_eliminated(1) and len(stays_out.hand(1)) == 0
    # Only once: a second elimination is final.
    again = position(
        ["5D 6D 7D", "KB", "2C"],
        rules=rules,
        phase="meld",
        opened=[True] * 3,
        scores=[30, 95, 60],
        reentered=[False, True, False],
    )
    assert again.play("m 5D6D7D").phase is Phase.DRAW
    # Without the option nobody is asked.
    plain = position(
        ["5D 6D 7D", "KB", "2C"],
        rules=Rules(players=3),
        phase="meld",
        opened=[True] * 3,
        scores=[30, 95, 60],
    )
    assert plain.play("m 5D6D7D").is_eliminated(1)


def test_reentry_with_two_players() -> None:
    rules = Rules(players=2, reentry=True)
    game = position(
        ["5D 6D 7D", "KB"], rules=rules, phase="meld", opened=[True] * 2, scores=[40, 95]
    )
    paused = game.play("m 5D6D7D")
    assert paused.phase is Phase.REENTRY
    assert paused.play("out").winner == 0
    back = paused.play("in")
    assert not back.is_over and back.points(1) == 40


def test_dealer_rotation_skips_eliminated_seats() -> None:
    # docs/rules.md: "Dealer random, then passes in play order."
    game = position(
        ["5D 6D 7D", "KB", "2C", "3C"],
        phase="meld",
        opened=[True] * 4,
        dealer=0,
        current=0,
        scores=[0, 95, 0, 0],
    )
    closed = game.play("m 5D6D7D")
    assert closed.is_eliminated(1) and closed.dealer == 2 and closed.current_player == 3


# -- the tallone -------------------------------------------------------------------------------


def test_stock_exhausted_pile_turned_over() -> None:
    # docs/rules.md: "When the stock runs out, the discard pile except its top card is turned over
    # to become the stock."
    game = position(["2D 9S", *OTHERS], stock="5C", pile="")
    pile_before = game.pile_count
    top = game.pile_top
    after = game.play("t")
    assert after.stock_count == pile_before - 1
    assert after.pile_count == 1 and after.pile_top == top
    assert len(after.all_cards()) == 108
    # The pile is turned over: its bottom card is drawn first.
    bottom = game.to_dict()["pile"].split()[0]
    nxt = after.play("d 2D").play("t")
    assert bottom in [str(c) for c in nxt.hand(1)]


def test_nothing_to_draw() -> None:
    # Tallone empty and the pozzo holds one card that this player may not take: the turn goes on
    # without a draw (an engine choice; the sources are silent).
    game = position(
        ["2D 9S", "3C 4B", "QB", "JB"],
        stock="",
        pile="7S",
        rest_to=3,
        melds=[(0, "4S 5S 6S")],
        opened=[True, False, False, False],
    )
    assert game.stock_count == 0 and moves(game) == ["p"]
    after = game.play("p").play("a1 7S").play("d 2D")
    assert after.current_player == 1 and after.stock_count == 0 and after.pile_count == 1
    assert after.phase is Phase.MELD  # no draw possible: straight to the meld phase
    assert moves(after) == ["d 3C", "d 4B"]
    nxt = after.play("d 3C")
    assert len(nxt.hand(1)) == 1 and nxt.current_player == 2
    assert nxt.phase is Phase.DRAW and nxt.stock_count == 1  # the pozzo is turned over again


def test_max_restocks_safeguard() -> None:
    # Not in docs/rules.md: an optional safeguard. Once the pozzo has become the tallone
    # max_restocks times, the tallone running out again ends the hand unclosed; all pay.
    rules = Rules(max_restocks=2)
    game = position(["2D 9S", "KB", "QB", "JB"], rules=rules, stock="5C", pile="", restocks=1)
    again = game.play("t")  # the second re-forming is still allowed
    assert again.last_hand is None and again.stock_count > 0
    limit = position(["2D 9S", "KB", "QB", "JB"], rules=rules, stock="5C", pile="", restocks=2)
    ended = limit.play("t")
    result = ended.last_hand
    assert result is not None and result.closer is None and not result.in_hand
    assert result.penalties == (16, 10, 10, 10)  # 2D 9S and the 5C just drawn
    assert ended.hand_number == 2
    # Off (0, the default): the tallone is re-formed as often as needed.
    plain = position(["2D 9S", "KB", "QB", "JB"], stock="5C", pile="", restocks=20)
    assert plain.play("t").last_hand is None


def test_deadlocked_hand_needs_the_safeguard() -> None:
    # Every table meld is a full quartetto, no jokers may be melded: a player left with one
    # card can never lay it, so only max_restocks ends such a hand.
    full = [(0, f"{rank}D {rank}C {rank}S {rank}B") for rank in "2345678"]
    for limit, ends in ((0, False), (1, True)):
        rules = Rules(players=2, jokers_per_meld=0, max_restocks=limit)
        game = position(["KC", "QB"], rules=rules, melds=full, opened=[True, True])
        for _ in range(400):
            if game.last_hand is not None:
                break
            game = game.play(str(game.legal_moves()[-1]))
        assert (game.last_hand is not None) is ends


def test_jokers_per_meld_in_play() -> None:
    rules = Rules(jokers_per_meld=2)
    game = position(["5D * * 8D TC JC QC 2S", *OTHERS], rules=rules, phase="meld")
    assert game.play("o 5D**8D TCJCQC").has_opened(0)
    with pytest.raises(IllegalMove, match="at most 1 joker"):
        position(["5D * * 8D TC JC QC 2S", *OTHERS], phase="meld").play("o 5D**8D TCJCQC")


# -- errors --------------------------------------------------------------------------------------


def test_errors() -> None:
    game = new_game(Rules(), seed=1)
    with pytest.raises(MoveParseError):
        game.play("hello")
    with pytest.raises(IllegalMove, match="draw first"):
        game.play("o 7D8D9D")
    with pytest.raises(IllegalMove):
        game.play("in")
    with pytest.raises(ValueError, match="seed"):
        new_game(Rules(), seed="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        game.hand(4)
    with pytest.raises(ValueError):
        type(game).from_dict({"schema": 99})
    data = game.to_dict()
    data["stock"] = data["stock"][3:]
    with pytest.raises(ValueError, match="108"):
        type(game).from_dict(data)
    assert isinstance(cards("7D")[0].rank, str)


# -- views -------------------------------------------------------------------------------------


def test_views() -> None:
    # docs/rules.md: "A player sees only their own hand; the public view shows table, melds, pile
    # top (in Scala 40 the whole discard pile ...), counts of cards in hands and stock ..., whose
    # turn it is, and the scores."
    game = position(
        [HAND_48, "KB 2C", "QB", "JB"], pile="7S", melds=[(1, "QD KD AD")], scores=[3, 5, 7, 9]
    )
    mine = game.view(0)
    assert mine.seat == 0 and mine.hand == game.hand(0)
    assert mine.legal_moves == ("t", "p")
    assert mine.hand_counts == (13, 2, 1, 1)
    assert mine.scores == (3, 5, 7, 9) and mine.eliminated == (False,) * 4
    assert mine.phase is Phase.DRAW and mine.current_player == 0
    assert str(mine.pile_top) == "7S" and mine.stock_count == game.stock_count
    assert [str(c) for c in mine.pile] == ["7S"]
    assert [str(meld) for meld in mine.melds] == ["QD KD AD"]
    theirs = game.view(1)
    assert [str(c) for c in theirs.hand] == ["2C", "KB"] and theirs.legal_moves == ()
    public = game.view(None)
    assert public.hand == () and public.legal_moves == ()
    data = public.to_dict()
    assert data["hand"] == [] and data["melds"][0]["cards"] == ["QD", "KD", "AD"]
    assert "hands" not in data and "stock" not in data
    after = game.play("p")
    seen = after.view(2)
    assert str(seen.pile_card_taken) == "7S" and seen.must_open and seen.must_use
    assert seen.last_move == (0, "p")
    with pytest.raises(ValueError, match="seat"):
        game.view(7)


def test_the_random_computer_player_plays_from_views() -> None:
    # engine.ai: Player.choose(view, rng) -> a legal move string for the view's seat.
    import random

    from engine.ai import get_player

    player = get_player("random")
    rng = random.Random(3)
    game = new_game(Rules(players=3), seed=3)
    for _ in range(200):
        seat = game.current_player
        assert seat is not None
        move = player.choose(game.view(seat), rng)
        assert move in moves(game)
        game = game.play(move)
    assert len(game.all_cards()) == 108
