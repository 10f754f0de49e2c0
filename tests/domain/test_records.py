"""The domain's typed records: a seat (``bot.domain.Seat``) and its stored document."""

from __future__ import annotations

import pytest

from bot.domain import Seat
from bot.service.events import UserRef
from bot.service.tables import computer_doc, is_human, player_doc, plays_computer


@pytest.mark.parametrize(
    "doc",
    [
        player_doc(UserRef("telegram", "7", "Ada", locale="it")),
        computer_doc("hard"),
        dict(player_doc(UserRef("discord", "9", "Bea")), away=True, level="easy", idle=2),
        dict(player_doc(UserRef("discord", "9", "Bea")), away=True, left=True, level="medium"),
    ],
)
def test_a_seat_reads_and_writes_the_document_the_service_keeps(doc: dict[str, object]) -> None:
    seat = Seat.from_dict(doc)
    assert seat.to_dict() == doc
    assert seat.computer != is_human(doc)
    assert seat.plays_computer == plays_computer(doc)
    assert seat.left == bool(doc.get("left"))


def test_an_older_or_imported_document_may_lack_the_optional_keys() -> None:
    seat = Seat.from_dict({"platform": "ai", "user_id": "easy", "name": "CPU-easy"})
    assert seat == Seat(platform="ai", user_id="easy", name="CPU-easy")
    assert seat.computer and seat.plays_computer and not seat.left


def test_a_seat_is_a_value() -> None:
    seat = Seat(platform="telegram", user_id="7", name="Ada")
    with pytest.raises(AttributeError):
        seat.name = "Bea"  # type: ignore[misc]
