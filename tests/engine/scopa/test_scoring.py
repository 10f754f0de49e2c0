"""docs/rules.md "Scoring a smazzata", the primiera modes, re bello and napola."""

from __future__ import annotations

import pytest

from engine import scopa
from engine.cards import italian_deck, parse_cards

DECK = italian_deck()


def split(first: str, *, sides: int = 2, third: str = "") -> list[tuple[object, ...]]:
    """``first`` to side 0, ``third`` to side 2 (if 3 sides), every other card to side 1."""
    a, c = set(parse_cards(first)), set(parse_cards(third))
    piles = [tuple(x for x in DECK if x in a), tuple(x for x in DECK if x not in a | c)]
    if sides == 3:
        piles.append(tuple(x for x in DECK if x in c))
    return piles


def test_keys_and_scope() -> None:
    # docs/rules.md: "scope | 1 per scopa"; every side gets every key.
    scores = scopa.score_smazzata(split("7D"), [2, 0])
    assert set(scores[0]) == {
        "carte",
        "denari",
        "settebello",
        "primiera",
        "scope",
        "re_bello",
        "napola",
        "total",
    }
    assert scores[0]["scope"] == 2 and scores[1]["scope"] == 0


def test_settebello_carte_denari() -> None:
    # "settebello | the side holding 7D"; "carte | the side with the most cards (= 21+ of 40 with
    # two sides)"; "denari | the side with the most D cards (= 6+ of 10 with two sides)".
    first = "7D AD 2D 3D 4D 5D AC 2C 3C 4C 5C 6C 7C AS 2S 3S 4S 5S 6S 7S AB"
    piles = split(first)
    assert len(piles[0]) == 21
    s = scopa.score_smazzata(piles, [0, 0])
    assert (s[0]["settebello"], s[0]["carte"], s[0]["denari"]) == (1, 1, 1)
    assert (s[1]["settebello"], s[1]["carte"], s[1]["denari"]) == (0, 0, 0)


def test_ties_score_nothing() -> None:
    # "carte ... tie | no point"; "denari ... tie | no point": 20-20 and 5-5.
    first = "AD 2D 3D 4D 5D AC 2C 3C 4C 5C 6C 7C JC QC KC AS 2S 3S 4S 5S"
    piles = split(first)
    assert len(piles[0]) == 20 and sum(1 for c in piles[0] if c.suit == "D") == 5
    s = scopa.score_smazzata(piles, [0, 0])
    assert s[0]["carte"] == s[1]["carte"] == 0
    assert s[0]["denari"] == s[1]["denari"] == 0


def test_primiera_best_card_of_each_suit() -> None:
    # "primiera | the side with the highest primiera: the best card of each suit, four values
    # summed"; values 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, J/Q/K=10.
    # Side 0: 7D 7C 7S 6B = 21+21+21+18 = 81; side 1 has 7B 6D 6C 6S = 21+18+18+18 = 75.
    s = scopa.score_smazzata(split("7D 7C 7S 6B KD"), [0, 0])
    assert s[0]["primiera"] == 1 and s[1]["primiera"] == 0


def test_primiera_tie_no_point() -> None:
    # Side 0: 7D 6C AS 7B ... = 21+18+16+21 = 76; side 1: 6D 7C 7S AB = 18+21+21+16 = 76.
    piles = [parse_cards("7D 6C AS 7B"), parse_cards("6D 7C 7S AB")]
    s = scopa.score_smazzata(piles, [0, 0])
    assert s[0]["primiera"] == s[1]["primiera"] == 0


@pytest.mark.parametrize(
    ("mode", "first", "second", "expected"),
    [
        # void (default; Regolamento Scopa, FIGS, The game of Scopa): "a side that lacks a suit has
        # no primiera and cannot win it; if every side lacks one, nobody scores it."
        ("void", "KD KC KS", "7D 7C 7S 7B", [0, 1]),
        ("void", "7D 7C 7S", "AD AC", [0, 0]),
        # lenient (Aiuto): "if one side lacks a suit, the other wins it"
        ("lenient", "7D 7C 7S", "JD JC JS JB", [0, 1]),
        # "if both lack some suit, compare the totals over the suits that both hold"
        # common suits D and C: side 0 has 7D 6C = 39, side 1 has AD 7C = 37.
        ("lenient", "7D 6C 7S", "AD 7C 7B", [1, 0]),
        ("lenient", "7D 7S", "7C 7B", [0, 0]),  # no suit in common: nobody
    ],
)
def test_primiera_missing_suit(mode: str, first: str, second: str, expected: list[int]) -> None:
    rules = scopa.Rules(primiera_missing_suit=mode)
    s = scopa.score_smazzata([parse_cards(first), parse_cards(second)], [0, 0], rules)
    assert [s[0]["primiera"], s[1]["primiera"]] == expected


def test_three_sides_most_means_more_than_each_other() -> None:
    # docs/rules.md: "With three players 'most' means strictly more than each other side".
    piles = [
        parse_cards("AD 2D 3D 4D AC 2C 3C 4C 5C 6C 7C 5S 6S 7S"),  # 14 cards, 4 denari
        parse_cards("5D 6D 7D JD JC QC KC AS 2S 3S 4S JS QS"),  # 13 cards, 4 denari
        parse_cards("QD KD AB 2B 3B 4B 5B 6B 7B JB QB KB KS"),  # 13 cards, 2 denari
    ]
    s = scopa.score_smazzata(piles, [0, 1, 0])
    assert [r["carte"] for r in s] == [1, 0, 0]
    assert [r["denari"] for r in s] == [0, 0, 0]  # 4-4: a tie for most, nobody
    assert [r["settebello"] for r in s] == [0, 1, 0]
    assert [r["scope"] for r in s] == [0, 1, 0]


def test_re_bello_and_napola() -> None:
    # "Options (off by default): re_bello (+1 for KD), napola (A, 2, 3 of D together +3, +1 for
    # each next D in sequence: 4D, 5D, ...)".
    piles = split("KD AD 2D 3D 4D 5D 7D")
    off = scopa.score_smazzata(piles, [0, 0])
    assert off[0]["re_bello"] == 0 and off[0]["napola"] == 0
    on = scopa.score_smazzata(piles, [0, 0], scopa.Rules(re_bello=True, napola=True))
    assert on[0]["re_bello"] == 1
    assert on[0]["napola"] == 5  # A-2-3 = 3, then 4 and 5; the 6 is missing
    assert on[1]["napola"] == 0
    assert on[0]["total"] == sum(v for k, v in on[0].items() if k != "total")
    partial = scopa.score_smazzata(split("AD 2D 4D"), [0, 0], scopa.Rules(napola=True))
    assert partial[0]["napola"] == 0  # without the 3 there is no napola


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="2 or 3 sides"):
        scopa.score_smazzata([parse_cards("7D")], [0])
    with pytest.raises(ValueError, match="two piles"):
        scopa.score_smazzata([parse_cards("7D"), parse_cards("7D")], [0, 0])
