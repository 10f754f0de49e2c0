"""The action codec (``bot.domain.actions``): typed actions <-> ``<table>:<version>:<action>``."""

from __future__ import annotations

import pytest

from bot.domain import MAX_BUTTON_BYTES, Action, Verb

CASES = [
    ("12:3:7D:3C+4S", Action(12, 3, Verb.MOVE, "7D:3C+4S")),
    ("12:3:7D", Action(12, 3, Verb.MOVE, "7D")),
    ("12:3:?7D", Action(12, 3, Verb.FOCUS, "7D")),
    ("12:3:?#0", Action(12, 3, Verb.FOCUS, "#0")),
    ("1:0:@join", Action(1, 0, Verb.JOIN)),
    ("1:0:@leave", Action(1, 0, Verb.LEAVE)),
    ("1:0:@quit", Action(1, 0, Verb.QUIT)),
    ("1:0:@start", Action(1, 0, Verb.START)),
    ("1:0:@fill.easy", Action(1, 0, Verb.FILL, "easy")),
    ("1:0:@ai.hard", Action(1, 0, Verb.AI, "hard")),
    ("1:0:@seat.2", Action(1, 0, Verb.SEAT, "2")),
    ("1:0:@back", Action(1, 0, Verb.BACK)),
    ("1:0:@hand", Action(1, 0, Verb.HAND)),
    ("1:0:@rematch", Action(1, 0, Verb.REMATCH)),
    ("1:0:@abandon", Action(1, 0, Verb.ABANDON)),
    ("1:0:@kick.3", Action(1, 0, Verb.KICK, "3")),
]


@pytest.mark.parametrize(("data", "action"), CASES)
def test_an_action_round_trips_through_its_string(data: str, action: Action) -> None:
    assert Action.decode(data) == action
    assert action.encode() == data


def test_every_verb_has_a_case() -> None:
    assert {action.verb for _, action in CASES} == set(Verb)


def test_the_seat_number_is_typed() -> None:
    assert Action.decode("1:0:@kick.3").number == 3
    with pytest.raises(ValueError):
        _ = Action(1, 0, Verb.JOIN).number


def test_a_level_may_be_left_out() -> None:
    # The service reads a missing level as "easy" (as it always did for "@ai." and "@fill").
    assert Action.decode("1:0:@ai.") == Action(1, 0, Verb.AI, "")
    assert Action.decode("1:0:@fill") == Action(1, 0, Verb.FILL, "")


@pytest.mark.parametrize(
    "data",
    [
        "",
        "x:y:z",
        "1:2",
        "1:2:",
        "-1:2:@join",
        "1:-2:@join",
        "²:1:@join",
        "1:1:@nope",
        "1:1:@",
        "1:1:@@",
        "1:1:@seat.",
        "1:1:@seat.x",
        "1:1:@seat.-1",
        "1:1:@seat.²",
        "1:1:@kick.",
        "1:1:@join.x",
        "1:1:@quit.x",
        "9" * 70,
        "1:1:" + "7D" * 40,
    ],
)
def test_anything_else_is_a_value_error(data: str) -> None:
    with pytest.raises(ValueError):
        Action.decode(data)


def test_what_cannot_be_read_back_cannot_be_made() -> None:
    for verb, arg in [(Verb.MOVE, ""), (Verb.MOVE, "@join"), (Verb.SEAT, "x"), (Verb.HAND, "1")]:
        with pytest.raises(ValueError):
            Action(1, 0, verb, arg)
    with pytest.raises(ValueError):
        Action(1, 0, Verb.MOVE, "x" * MAX_BUTTON_BYTES).encode()
