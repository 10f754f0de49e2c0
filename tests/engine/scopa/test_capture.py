"""docs/rules.md "A turn: play one card": presa pari, presa dispari, and the options."""

from __future__ import annotations

import pytest

from engine import scopa
from engine.cards import parse_card, parse_cards

from .helpers import cards

CASES = [
    # Regolamento Scopa: "se vi sono sul tavolo un tre, un cinque e un fante (valore 8), il
    # giocatore giocando un fante (valore 8) puo prendere solo il fante" - presa pari over the sum
    # 3+5.
    ("3C 5S JB", "JD", ["JB"]),
    # Regolamento Scopa: "se in tavola ci sono un asso (valore 1), un tre, un quattro e un cinque,
    # il giocatore, giocando un cavallo (valore 9) puo scegliere se prendere asso, tre e cinque
    # oppure quattro e cinque" - presa dispari of any size, the player's choice.
    ("AC 3C 4S 5B", "QD", ["AC 3C 5B", "4S 5B"]),
    # docs/rules.md 1. "if one or more table cards have value v, the player captures exactly one of
    # them, choosing which" (Aiuto rule 2, FIGS art. 9).
    ("7C 7S 3B 4B", "7D", ["7C", "7S"]),
    # docs/rules.md 3. "Otherwise the card stays on the table."
    ("AC 2S", "KD", []),
    ("", "5D", []),
    # A sum needs two or more cards; one card of another value is no capture.
    ("6C", "7D", []),
    # docs/rules.md 2.: "whatever its size": all four cards.
    ("AD 2C 3S 4B", "KD", ["AD 2C 3S 4B"]),
    # Several sums of different sizes, each a separate choice.
    ("AD 2C 3S 4B 5C", "6D", ["AD 5C", "2C 4B", "AD 2C 3S"]),
    # The same value twice in one sum.
    ("3C 3S 2B", "6D", ["3C 3S"]),
    # Figures sum by their capture values: Fante (8) = 5+3, Re (10) = Fante+2.
    ("5C 3S", "JD", ["5C 3S"]),
    ("JC 2S", "KD", ["JC 2S"]),
]


@pytest.mark.parametrize(("table", "card", "expected"), CASES)
def test_capture_options(table: str, card: str, expected: list[str]) -> None:
    options = scopa.capture_options(parse_cards(table), parse_card(card))
    assert sorted(options, key=sorted_key) == sorted((cards(e) for e in expected), key=sorted_key)


def sorted_key(option: frozenset[object]) -> str:
    return " ".join(sorted(map(str, option)))


def test_asso_piglia_tutto() -> None:
    # docs/rules.md option asso_piglia_tutto: "an ace captures the whole table, and is not a scopa".
    rules = scopa.Rules(asso_piglia_tutto=True)
    table = parse_cards("7C 3S KB")
    assert scopa.capture_options(table, parse_card("AD"), rules) == [cards("7C 3S KB")]
    assert scopa.capture_options((), parse_card("AD"), rules) == []
    # Without the option an ace only takes an ace.
    assert scopa.capture_options(table, parse_card("AD")) == []


def test_scopa_a_15() -> None:
    # docs/rules.md option scopa_a_15: "a played card also captures any set whose values plus its
    # own sum to 15".
    rules = scopa.Rules(scopa_a_15=True)
    # 8 + 7 = 15 and 8 + 4 + 3 = 15 (no ordinary capture of value 8 on this table).
    options = scopa.capture_options(parse_cards("7C 4S 3B"), parse_card("JD"), rules)
    assert sorted(options, key=sorted_key) == sorted([cards("7C"), cards("4S 3B")], key=sorted_key)
    # Presa pari and 15 side by side: 5 takes the 5, or the Re (5 + 10 = 15).
    options = scopa.capture_options(parse_cards("5C KS"), parse_card("5D"), rules)
    assert sorted(options, key=sorted_key) == sorted([cards("5C"), cards("KS")], key=sorted_key)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="8D"):
        scopa.capture_options(parse_cards("7C"), parse_card("8D"))
    with pytest.raises(ValueError, match="on the table"):
        scopa.capture_options(parse_cards("7C"), parse_card("7C"))
    with pytest.raises(ValueError, match="twice"):
        scopa.capture_options(parse_cards("7C 7C"), parse_card("7D"))
