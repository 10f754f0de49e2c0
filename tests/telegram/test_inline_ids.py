"""Inline play's small pieces: queries, result ids within Telegram's 64 bytes, UTF-16 lengths."""

from __future__ import annotations

import pytest

from bot.service import SeatInfo, TableInfo, decode_button
from bot.telegram.inline import INDEX, MAX_RESULT_ID, InlinePlay, parse_query, utf16_length


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", (None, "")),
        ("12", (12, "")),
        ("#12", (12, "")),
        ("12 7♦", (12, "7♦")),
        ("  7♦  ", (None, "7♦")),
        ("1" * 40, (None, "1" * 40)),  # not a table id: a filter
    ],
)
def test_parse_query(query: str, expected: tuple[int | None, str]) -> None:
    assert parse_query(query) == expected


def test_utf16_length_counts_surrogate_pairs() -> None:
    assert utf16_length("Ann") == 3
    assert utf16_length("Ann🂠") == 5  # the card back is outside the BMP: two code units


def table(version: int = 123_456) -> TableInfo:
    seats = (SeatInfo(0, "A", "telegram", "1", False, None, False), None)
    return TableInfo(
        id=987_654_321,
        platform="telegram",
        chat_id="-1001234567890",
        game="scala40",
        family="scala40",
        status="playing",
        version=version,
        players=2,
        options={},
        seats=seats,
        creator="1",
    )


def test_a_move_too_long_for_a_result_id_travels_as_its_index() -> None:
    short = InlinePlay._result_id(table(), "d 7D", 3)
    assert decode_button(short).action == "d 7D"
    long_move = "o " + " ".join(["7D8D9DTDJDQDKD"] * 4)
    result_id = InlinePlay._result_id(table(), long_move, 17)
    assert len(result_id.encode()) <= MAX_RESULT_ID
    data = decode_button(result_id)
    assert data.action == f"{INDEX}17" and data.version == 123_456
