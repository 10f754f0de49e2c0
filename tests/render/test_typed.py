"""Cards typed by people: as the screen shows them, or with their language's suit letters."""

from __future__ import annotations

import pytest

from bot.render.typed import read_typed
from bot.terminal import columns


@pytest.mark.parametrize(
    ("line", "locale", "text", "cards"),
    [
        ("7♦", "en", "7D", ("7D",)),
        ("10♣", "en", "TB", ("TB",)),
        ("q♥", "it", "QC", ("QC",)),
        ("7♦ 3♥ 4♠", "en", "7D 3C 4S", ("7D", "3C", "4S")),
        ("7♦ ➜ 3♥ 4♠", "it", "7D 3C 4S", ("7D", "3C", "4S")),
        ("7D:3C+4S", "it", "7D 3C 4S", ("7D", "3C", "4S")),
        # English letters: H hearts, D diamonds, C clubs, S spades.
        ("6C", "en", "6B", ("6B",)),
        ("4h", "en", "4C", ("4C",)),
        ("KS", "en", "KS", ("KS",)),
        # Italian: denari, coppe, spade, bastoni; quadri, cuori, fiori, picche.
        ("6C", "it", "6C", ("6C",)),
        ("6B", "it", "6B", ("6B",)),
        ("AQ", "it", "AD", ("AD",)),
        ("JF", "it", "JB", ("JB",)),
        ("2P", "it", "2S", ("2S",)),
        ("🃏", "en", "*", ("*",)),
        # Scala 40 moves keep their words; melds are cards glued together.
        ("d 7♦", "en", "d 7D", None),
        ("o 7♦8♦9♦ K♥K♠🃏", "en", "o 7D8D9D KCKS*", None),
        ("a3 10♦", "it", "a3 TD", None),
        ("t", "en", "t", None),
        ("xyz", "en", "xyz", None),
    ],
)
def test_read_typed(line: str, locale: str, text: str, cards: tuple[str, ...] | None) -> None:
    typed = read_typed(line, locale)
    assert (typed.text, typed.cards) == (text, cards)


def test_the_letter_c_keeps_the_other_reading() -> None:
    # The one letter the two languages read differently: the player's language decides, the
    # other reading is offered (never silently played) when the first is not a move.
    english = read_typed("6C", "en")
    assert english.cards == ("6B",) and english.other is not None
    assert english.other.cards == ("6C",)
    italian = read_typed("6c", "it")
    assert italian.cards == ("6C",) and italian.other is not None
    assert italian.other.cards == ("6B",)
    assert read_typed("6♣", "en").other is None  # symbols are never ambiguous
    assert read_typed("a3 7D", "en").other is None


def test_menu_columns_fit_the_width() -> None:
    items = [f"{i}) Discard: {i}♦" for i in range(1, 15)]
    for width in (40, 80, 110):
        lines = columns(items, width)
        assert all(len(line) <= width for line in lines)
        assert sorted(" ".join(lines).split(") ")[0:1]) == ["1"]
        assert sum(line.count(")") for line in lines) == len(items)  # nothing broken or lost
    assert len(columns(items, 200)) < len(columns(items, 40))
