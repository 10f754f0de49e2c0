"""The domain's typed records: a seat (``bot.domain.Seat``) and its stored document."""

from __future__ import annotations

import pytest

from bot.domain import Seat, dumps
from bot.domain.events import UserRef
from bot.service.tables import computer_seat, is_human, player_seat, plays_computer

# The documents the service has always stored for a person and a computer sitting down.
PLAYER = {
    "platform": "telegram",
    "user_id": "7",
    "name": "Ada",
    "level": None,
    "away": False,
    "idle": 0,
    "hint": "it",
}
CPU = {
    "platform": "ai",
    "user_id": "hard",
    "name": "CPU-hard",
    "level": "hard",
    "away": False,
    "idle": 0,
    "hint": None,
}


def test_a_seat_taken_is_stored_as_before() -> None:
    """Byte for byte, key order included: the ``seats`` column does not change."""
    assert dumps(player_seat(UserRef("telegram", "7", "Ada", locale="it")).to_dict()) == dumps(
        PLAYER
    )
    assert dumps(computer_seat("hard").to_dict()) == dumps(CPU)
    assert player_seat(UserRef("discord", "9", "")).name == "9"  # no name: the user id


@pytest.mark.parametrize(
    "doc",
    [
        PLAYER,
        CPU,
        dict(PLAYER, away=True, level="easy", idle=2),
        dict(PLAYER, away=True, level="medium", idle=0, left=True),
    ],
)
def test_a_seat_reads_and_writes_the_document_the_service_keeps(doc: dict[str, object]) -> None:
    seat = Seat.from_dict(doc)
    assert dumps(seat.to_dict()) == dumps(doc)
    assert is_human(seat) == (doc["platform"] != "ai") != seat.computer
    assert seat.plays_computer == plays_computer(seat) == (doc["platform"] == "ai" or doc["away"])
    assert seat.left == bool(doc.get("left"))
    assert not is_human(None) and not plays_computer(None)


def test_an_older_or_imported_document_may_lack_the_optional_keys() -> None:
    seat = Seat.from_dict({"platform": "ai", "user_id": "easy", "name": "CPU-easy"})
    assert seat == Seat(platform="ai", user_id="easy", name="CPU-easy")
    assert seat.computer and seat.plays_computer and not seat.left


def test_a_seat_is_a_value() -> None:
    seat = Seat(platform="telegram", user_id="7", name="Ada")
    with pytest.raises(AttributeError):
        seat.name = "Bea"  # type: ignore[misc]
