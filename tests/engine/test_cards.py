"""Card notation of docs/rules.md ("Card notation")."""

from __future__ import annotations

import pytest

from engine.cards import (
    Card,
    CardParseError,
    french_deck,
    italian_deck,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit", "deck"),
    [
        # docs/rules.md: "One card = rank + suit, e.g. 7D, KC, AS, JB."
        ("7D", "7", "D", 0),
        ("KC", "K", "C", 0),
        ("AS", "A", "S", 0),
        ("JB", "J", "B", 0),
        # docs/rules.md: "French 54-card deck (Scala 40): ranks A 2 3 4 5 6 7 8 9 T J Q K (T = 10)
        # and the joker *" ... "where identity matters, the deck index follows (7D, 7D')".
        ("TD", "T", "D", 0),
        ("10D", "T", "D", 0),
        ("7D'", "7", "D", 1),
        ("*", "*", "", 0),
        ("*'", "*", "", 1),
        (" qs ", "Q", "S", 0),
    ],
)
def test_parse_card(text: str, rank: str, suit: str, deck: int) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit, card.deck) == (rank, suit, deck)


@pytest.mark.parametrize("text", ["", "7", "D7", "7X", "1D", "11D", "7D''", "**", "7DD", "ZZ"])
def test_bad_card_names_the_token(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert isinstance(info.value, ValueError)
    assert repr(text.strip()) in str(info.value)


def test_parse_cards_separators_and_str() -> None:
    cards = parse_cards("7D 3C, KS,AB")
    assert [str(c) for c in cards] == ["7D", "3C", "KS", "AB"]
    assert parse_cards("") == ()
    with pytest.raises(CardParseError, match="'9X'"):
        parse_cards("7D 9X 3C")


def test_deck_index_is_display_only() -> None:
    # docs/rules.md: "meld rules compare rank and suit only".
    assert parse_card("7D'") == parse_card("7D")
    assert hash(parse_card("7D'")) == hash(parse_card("7D"))
    assert str(parse_card("7D'")) == "7D'"


def test_decks() -> None:
    deck = italian_deck()
    assert len(deck) == 40 and len(set(deck)) == 40
    assert all(parse_card(str(c)) == c for c in deck)
    french = french_deck() + french_deck(1)
    assert len(french) == 108
    assert sum(c.is_joker for c in french) == 4
    assert Card("7", "D") in deck
