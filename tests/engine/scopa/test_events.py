"""What a move did, as the Scopa engine reports it (``Game.events``, ``engine.scopa.events``):
table-driven cases on chosen positions, and seeded playouts checking that the events tell the
same story as the states (every scopa counted, every smazzata scored, the end announced)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import scopa
from engine.cards import parse_card, parse_cards
from engine.scopa.events import (
    Captured,
    Dealt,
    Fuori,
    GameOver,
    Played,
    Rest,
    Scopa,
    SmazzataScored,
)

from .helpers import position

C = parse_card
SCOPONE_8 = scopa.Rules(variant="scopone", target=8)


def _scopone(**kwargs: Any) -> scopa.Game:
    defaults: dict[str, Any] = {
        "hands": ["7D 2C", "KB QB", "JB 5B", "AB 2B"],
        "table": "3C 4S",
        "dealer": 3,
        "current": 0,
        "rest_to": "deck",
    }
    return position(SCOPONE_8, **{**defaults, **kwargs})


def _last_two(totals: list[int]) -> scopa.Game:
    """Seat 0 then the dealer (seat 1) play the last two cards; side 1 captured last."""
    return position(
        hands=["2C", "KS"], dealer=1, current=0, totals=totals, rest_to=1, last_taker=1
    ).play("2C")


# (case, the game, the move, the events: a value is compared whole, a class by its type only)
CASES: list[tuple[str, Any, str, list[Any]]] = [
    (
        "a card that captures nothing stays on the table",
        lambda: position(hands=["7D 2C", "KB QB"], table="3C", deck="AS AC AB AD 5D 5C"),
        "2C",
        [Played(0, C("2C"))],
    ),
    (
        "a capture that leaves cards on the table",
        lambda: position(hands=["7D 2C", "KB QB"], table="3C 4S 5B", deck="AS AC AB AD 5D 5C"),
        "7D:3C+4S",
        [Captured(0, C("7D"), parse_cards("3C 4S"), 0)],
    ),
    (
        "a capture that sweeps the table is a scopa",
        lambda: position(hands=["7D 2C", "KB QB"], table="3C 4S", deck="AS AC AB AD 5D 5C"),
        "7D:3C+4S",
        [Captured(0, C("7D"), parse_cards("3C 4S"), 0), Scopa(0, 0)],
    ),
    (
        "at four the capture counts for the pair",
        lambda: _scopone(current=1, hands=["7D 2C", "KB 3B", "JB 5B", "AB 2B"], table="3C"),
        "3B:3C",
        [Captured(1, C("3B"), parse_cards("3C"), 1), Scopa(1, 1)],
    ),
    (
        "the last card: the rest to the last taker, the smazzata scored, the next one dealt",
        lambda: _last_two([0, 0]),
        "KS",
        [Played(1, C("KS")), Rest(1, parse_cards("2C KS")), SmazzataScored, Dealt(0, 2)],
    ),
    (
        "the last card reaching the target ends the game",
        lambda: _last_two([10, 8]),
        "KS",
        [Played(1, C("KS")), Rest, SmazzataScored, GameOver(1, 1)],
    ),
    (
        "fuori with the target reached wins",
        lambda: _scopone(totals=[6, 7]),
        "7D:3C+4S!",
        [Captured, Scopa(0, 0), Fuori(0, 0, True), SmazzataScored, GameOver(0, 1)],
    ),
    (
        "fuori short of the target loses, by the multiplier of the others' points",
        lambda: _scopone(totals=[5, 3]),
        "7D:3C+4S!",
        [Captured, Scopa(0, 0), Fuori(0, 0, False), SmazzataScored, GameOver(1, 2)],
    ),
]


@pytest.mark.parametrize(
    ("game", "move", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_move_reports_what_it_did(game: Any, move: str, expected: list[Any]) -> None:
    events = game().play(move).events
    assert [type(e) for e in events] == [e if isinstance(e, type) else type(e) for e in expected]
    for got, want in zip(events, expected, strict=True):
        if not isinstance(want, type):
            assert got == want


def test_the_smazzata_scored_is_the_one_recorded() -> None:
    game = _last_two([10, 8]).play("KS")
    (scored,) = [e for e in game.events if isinstance(e, SmazzataScored)]
    last = game.smazzate[-1]
    assert scored.number == last.number == 1
    assert scored.scores == last.scores and scored.fuori is None
    assert scored.totals == (game.points(0), game.points(1))
    assert scored.data["scores"][1]["total"] == last.scores[1]["total"]


def test_events_have_the_common_shape_and_are_not_saved() -> None:
    game = position(hands=["7D 2C", "KB QB"], table="3C 4S", deck="AS AC AB AD 5D 5C")
    played = game.play("7D:3C+4S")
    assert [e.to_dict() for e in played.events] == [
        {"kind": "captured", "seat": 0, "data": {"card": "7D", "taken": ["3C", "4S"], "side": 0}},
        {"kind": "scopa", "seat": 0, "data": {"side": 0}},
    ]
    assert game.events == ()  # a loaded game: events are not saved
    assert scopa.Game.from_dict(played.to_dict()).events == ()
    assert scopa.Game.from_dict(played.to_dict()) == played  # events take no part in equality
    new = scopa.new_game(scopa.Rules(), seed=3)
    assert new.events == (Dealt(new.dealer, 1),)


@pytest.mark.parametrize(
    "rules",
    [scopa.Rules(), scopa.Rules(players=3), SCOPONE_8, scopa.Rules(variant="scientifico")],
    ids=["scopa", "scopa-3", "scopone-8", "scientifico"],
)
def test_playouts_events_tell_the_story_of_the_states(rules: scopa.Rules) -> None:
    for seed in range(4):
        game = scopa.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            move = str(rng.choice(game.legal_moves()))
            seat = game.current_player
            after = game.play(move)
            events = after.events
            json.dumps([e.to_dict() for e in events])
            assert isinstance(events[0], Played | Captured) and events[0].seat == seat
            assert str(events[0].card) == move.split(":")[0].rstrip("!")
            scope = sum(isinstance(e, Scopa) for e in events)
            same_deal = after.smazzata_number == game.smazzata_number and not after.is_over
            if same_deal:
                assert scope == sum(after.scope(s) - game.scope(s) for s in range(rules.sides))
            scored = [e for e in events if isinstance(e, SmazzataScored)]
            assert len(scored) == (0 if same_deal else 1)
            assert any(isinstance(e, Fuori) for e in events) == move.endswith("!")
            assert any(isinstance(e, GameOver) for e in events) == after.is_over
            if after.is_over:
                outcome = after.outcome()
                assert outcome is not None
                assert events[-1] == GameOver(outcome.winner, outcome.multiplier)
            elif not same_deal:
                assert events[-1] == Dealt(after.dealer, after.smazzata_number)
            game = after
