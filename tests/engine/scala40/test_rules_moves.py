"""Rule options (docs/rules.md "Scala 40": every option and its default) and move strings."""

from __future__ import annotations

import json

import pytest

from engine.scala40 import Move, MoveKind, MoveParseError, Rules, RulesError, parse_move

from .support import cards


def test_defaults_are_the_ones_rules_md_names() -> None:
    assert Rules().to_dict() == {
        "players": 4,
        "dealer_fourteen": False,  # "Option dealer_fourteen (off)"
        "jokers_per_meld": 1,  # "Option jokers_per_meld: default 1"
        "opening_points": 40,  # "option opening_points, default 40"
        "first_pile_card_free": False,  # "Option first_pile_card_free (off)"
        "discard_attachable": "allowed",  # "(default allowed)"
        "close_in_hand": "double",  # "(default double)"
        "unopened_pays": "sum",  # "(default sum)"
        "elimination": 101,  # "(101 default; 151, 201, 501 allowed)"
        "reentry": False,  # "Option reentry (off)"
        "max_restocks": 0,  # the engine's safeguard against deadlocked hands: off
    }


@pytest.mark.parametrize(
    ("options", "allowed"),
    [
        ({"players": 1}, "from 2 to 6"),  # "2 to 6 players"
        ({"players": 7}, "from 2 to 6"),
        ({"players": "4"}, "from 2 to 6"),
        ({"dealer_fourteen": "yes"}, "true or false"),
        ({"jokers_per_meld": 5}, "from 0 to 4"),
        ({"jokers_per_meld": True}, "from 0 to 4"),
        ({"opening_points": -1}, "from 0 to 100"),
        ({"opening_points": 101}, "from 0 to 100"),
        ({"first_pile_card_free": 1}, "true or false"),
        ({"discard_attachable": "sometimes"}, "'allowed', 'forbidden'"),
        ({"close_in_hand": "triple"}, "'double', 'bonus', 'off'"),
        ({"unopened_pays": "50"}, "'sum', '100'"),
        ({"elimination": 100}, "101, 151, 201, 501"),
        ({"elimination": 301}, "101, 151, 201, 501"),
        ({"reentry": None}, "true or false"),
        ({"max_restocks": -1}, "from 0 \\(no limit\\) to 20"),
    ],
)
def test_bad_options_list_what_is_allowed(options: dict[str, object], allowed: str) -> None:
    with pytest.raises(RulesError, match=allowed):
        Rules(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 6, "elimination": 501},
        {"elimination": 151, "reentry": True},
        {"elimination": 201},
        {"dealer_fourteen": True, "first_pile_card_free": True},
        {"jokers_per_meld": 2, "opening_points": 0},
        {"discard_attachable": "forbidden", "close_in_hand": "bonus", "unopened_pays": "100"},
        {"close_in_hand": "off"},
        {"max_restocks": 3},
    ],
)
def test_rules_round_trip(options: dict[str, object]) -> None:
    rules = Rules(**options)  # type: ignore[arg-type]
    data = json.loads(json.dumps(rules.to_dict()))
    assert Rules.from_dict(data) == rules


def test_unopened_pays_accepts_the_number() -> None:
    assert Rules(unopened_pays=100).unopened_pays == "100"  # type: ignore[arg-type]


def test_unknown_option_is_named() -> None:
    with pytest.raises(RulesError, match="target"):
        Rules.from_dict({"target": 11})
    with pytest.raises(RulesError):
        Rules.from_dict([])


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("t", "t"),
        ("P", "p"),
        ("o 7D8D9D KCKSKD", "o 7D8D9D KCKSKD"),
        ("o 7d8d9d,kckskd", "o 7D8D9D KCKSKD"),
        ("o 10DJDQD", "o TDJDQD"),
        ("o 10D JD QD", "o TD JD QD"),  # spaces separate melds (this one is refused by play)
        ("O 5D*7D", "o 5D*7D"),
        ("m 4C5C6C", "m 4C5C6C"),
        ("a3 TD", "a3 TD"),
        ("a 3 *<", "a3 *<"),
        ("a12 AS>", "a12 AS>"),
        ("s3 7D", "s3 7D"),
        ("d QS", "d QS"),
        ("dQS", "d QS"),
        ("d 7D'", "d 7D"),
        ("in", "in"),
        ("OUT", "out"),
    ],
)
def test_move_strings_round_trip(text: str, canonical: str) -> None:
    move = parse_move(text)
    assert str(move) == canonical
    assert parse_move(str(move)) == move
    assert Move.parse(canonical) == move


@pytest.mark.parametrize(
    "text",
    ["", "x", "draw", "o", "o 7D8", "o 7Z8D9D", "a 7D", "a0 7D", "s3 7D<", "d", "d 7D 8D", 7, None],
)
def test_unparseable_moves(text: object) -> None:
    with pytest.raises(MoveParseError):
        parse_move(text)  # type: ignore[arg-type]


def test_longest_move_is_well_under_64_bytes() -> None:
    # 14 cards (13 dealt + 1 drawn) laid as 4 melds is the longest move string.
    move = Move(
        MoveKind.OPEN,
        melds=(
            cards("TD JD QD KD"),
            cards("TC JC QC KC"),
            cards("TS JS QS"),
            cards("TB JB *"),
        ),
    )
    assert len(str(move).encode()) == 32  # 2 + 27 + 3
