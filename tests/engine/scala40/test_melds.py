"""Melds, attaching, joker swaps and penalties: docs/rules.md "Scala 40" > "Melds", "Closing and
scoring a hand", and Regole Scala 40."""

from __future__ import annotations

import pytest

from engine.scala40 import (
    Rules,
    analyze_meld,
    can_attach,
    card_penalty,
    hand_penalty,
    meld_points,
    sort_cards,
    swap_position,
)

from .support import cards


@pytest.mark.parametrize(
    ("laid", "points"),
    [
        # docs/rules.md: "Tris / quartetto: 3 or 4 cards of one rank, all of different suits."
        ("7D 7C 7S", 21),
        ("7D 7C 7S 7B", 28),
        ("KD KC KS", 30),
        # "ace = ... 11 in a tris/quartetto"; Regole Scala 40: "vale 11 punti se messo in tris".
        ("AD AC AS", 33),
        ("AD AC AS AB", 44),
        # docs/rules.md: "Scala: 3 or more consecutive cards of one suit. Ace is low (A-2-3) or high
        # (Q-K-A)"; "ace = 1 low in a scala, 11 in a ... high scala".
        ("AD 2D 3D", 6),
        ("QD KD AD", 31),
        ("TC JC QC KC AC", 51),
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", 84),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", 85),
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", 95),
        # "A joker stands for any one card of a meld ... a joker counts as the card it stands for".
        ("7D 7C *", 21),
        ("7D * 7S 7B", 28),
        ("5D * 7D", 18),
        ("* 5D 6D", 15),
        ("5D 6D *", 18),
        ("* 2D 3D", 6),  # the joker is the low ace: 1
        ("QD KD *", 31),  # the joker is the high ace: 11
        ("JD * KD", 30),
        ("* * 3D", None),  # jokers_per_meld 1 (default), and two real cards at least
        # Regole Scala 40 "quatris"/quartetto at most: five of a rank is no meld.
        ("7D 7C 7S 7B 7D", None),
        ("7D 7C 7S 7B *", None),
        # Duplicate suits from the second deck: "all of different suits".
        ("7D 7D' 7C", None),
        ("7D 7D 7C 7S", None),
        # Never both ways: no K-A-2, no wrap-around, no 14-card scala.
        ("KD AD 2D", None),
        ("QD KD AD 2D", None),
        ("KD * 2D", None),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", None),
        # Ascending laid order, no gaps, one suit.
        ("3D 2D AD", None),
        ("5D 7D 8D", None),
        ("5D 6D 7C", None),
        ("5D 5C 6D", None),
        ("7D 7C", None),
        ("", None),
        ("* 7D 7C 7S 7B", None),
    ],
)
def test_meld_points(laid: str, points: int | None) -> None:
    assert meld_points(cards(laid)) == points


@pytest.mark.parametrize(
    ("laid", "limit", "points"),
    [
        # docs/rules.md option jokers_per_meld: default 1.
        ("5D * * 8D", 1, None),
        ("5D * * 8D", 2, 26),
        ("7D * *", 2, None),  # the engine asks for two real cards: 7-tris or 7-8-9? undecidable
        ("7D 7C * *", 2, 28),
        ("5D * 7D", 0, None),
        ("5D 6D 7D", 0, 18),
    ],
)
def test_jokers_per_meld(laid: str, limit: int, points: int | None) -> None:
    assert meld_points(cards(laid), Rules(jokers_per_meld=limit)) == points


def test_invalid_meld_reasons_are_readable() -> None:
    assert "different suits" in str(analyze_meld(cards("7D 7D' 7C")))
    assert "K-A-2" in str(analyze_meld(cards("KD AD 2D")))
    assert "at least 3 cards" in str(analyze_meld(cards("7D 7C")))
    assert "at most 1 joker" in str(analyze_meld(cards("5D * * 8D")))


@pytest.mark.parametrize(
    ("meld", "card", "fits"),
    [
        # docs/rules.md "attach cards to any meld on the table": at either end of a scala ...
        ("5D 6D 7D", "4D", True),
        ("5D 6D 7D", "8D", True),
        ("5D 6D 7D", "9D", False),
        ("5D 6D 7D", "6D", False),
        ("5D 6D 7D", "8C", False),
        ("QD KD AD", "JD", True),
        ("QD KD AD", "2D", False),  # no K-A-2
        ("AD 2D 3D", "KD", False),
        ("2D 3D 4D", "AD", True),
        ("JD QD KD", "AD", True),
        # ... into a tris: a missing suit, at most four.
        ("7D 7C 7S", "7B", True),
        ("7D 7C 7S", "7D", False),  # the second deck's 7D: duplicate suit
        ("7D 7C 7S 7B", "7D", False),  # five of a rank
        ("7D 7C 7S", "*", True),
        ("7D 7C *", "*", False),  # one joker per meld by default
        # Attaching to a scala holding a joker: the joker keeps its place.
        ("5D * 7D", "8D", True),
        ("5D * 7D", "4D", True),
        ("5D * 7D", "6D", False),  # 6D is the joker's card: that is a swap, not an attach
        ("5D 6D *", "8D", True),
        ("5D 6D *", "7D", False),
        ("5D 6D *", "*", False),
        ("QD KD *", "JD", True),
        ("QD KD *", "2D", False),
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS", True),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS", False),
        ("7D 8C 9S", "TD", False),  # not a meld at all
    ],
)
def test_can_attach(meld: str, card: str, fits: bool) -> None:
    (single,) = cards(card)
    assert can_attach(cards(meld), single) is fits


@pytest.mark.parametrize(
    ("meld", "card", "index"),
    [
        # docs/rules.md: "swap a joker: put the real card it stands for into a table meld".
        ("5D * 7D", "6D", 1),
        ("5D * 7D", "6C", None),
        ("5D * 7D", "4D", None),
        ("* 2D 3D", "AD", 0),
        ("QD KD *", "AD", 2),
        ("QD KD *", "JD", None),
        ("7D 7C 7S *", "7B", 3),  # quartetto: exactly the missing suit
        ("7D 7C 7S *", "7S", None),
        ("7D 7C *", "7S", 2),  # tris: its rank in a suit the tris lacks
        ("7D 7C *", "7B", 2),
        ("7D 7C *", "7D", None),
        ("7D 7C *", "8S", None),
        ("7D 7C 7S", "7B", None),  # no joker to swap
        ("5D * 7D", "*", None),
    ],
)
def test_swap_position(meld: str, card: str, index: int | None) -> None:
    (single,) = cards(card)
    result = swap_position(cards(meld), single)
    if index is None:
        assert isinstance(result, str) and result
    else:
        assert result == index


@pytest.mark.parametrize(
    ("hand", "penalty"),
    [
        # docs/rules.md: "face value, J/Q/K = 10, ace = 11 (1 if it is the only card left),
        # joker = 25".
        ("7D", 7),
        ("TD JC QS KB", 40),
        ("AD", 1),
        ("AD AC", 22),
        ("AD 2C", 13),
        ("*", 25),
        ("* AD", 36),
        ("", 0),
        ("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", 95),
    ],
)
def test_hand_penalty(hand: str, penalty: int) -> None:
    assert hand_penalty(cards(hand)) == penalty


def test_card_penalty_alone() -> None:
    (ace,) = cards("AS")
    assert card_penalty(ace) == 11 and card_penalty(ace, alone=True) == 1


def test_sorted_hand_order() -> None:
    # Suits D, C, S, B; A (low) .. K within a suit; jokers last; the first deck before the second.
    hand = cards("* KB 2C AD TD 7D' 7D AS *'")
    assert " ".join(map(str, sort_cards(hand))) == "AD 7D 7D' TD 2C AS KB * *'"
