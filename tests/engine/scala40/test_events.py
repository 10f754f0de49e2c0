"""What a move did, as the Scala 40 engine reports it (``Game.events``,
``engine.scala40.events``): table-driven cases on chosen positions, and seeded playouts checking
that the events tell the same story as the states and never name a card drawn from the tallone."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.cards import parse_card, parse_cards
from engine.scala40 import Game, Rules, new_game
from engine.scala40.events import (
    Attached,
    Closed,
    Dealt,
    Discarded,
    Drew,
    Eliminated,
    GameOver,
    HandScored,
    Melded,
    Opened,
    Reentered,
    Restocked,
    StayedOut,
    Swapped,
)

from .support import position

C = parse_card
OTHERS = ["KB", "QB", "JB"]
HAND_48 = "7D 7C 8D 9D TD 2B 3B 4S 6B 8C JC 5C 9B"  # with 7S: 7D 7C 7S + 8D 9D TD = 48
THREE = Rules(players=3, reentry=True)


def _paused() -> Game:
    """Seat 1 went out at 105 and is asked whether to re-enter."""
    return position(
        ["5D 6D 7D", "KB", "2C"], rules=THREE, phase="meld", opened=[True] * 3, scores=[30, 95, 60]
    ).play("m 5D6D7D")


# (case, the game, the move, the events: a value is compared whole, a class by its type only)
CASES: list[tuple[str, Callable[[], Game], str, list[Any]]] = [
    (
        "a draw from the tallone does not name the card",
        lambda: position(["2D 5C 9S", *OTHERS], stock_top="7S", pile="KD"),
        "t",
        [Drew(0, "tallone", None)],
    ),
    (
        "a draw from the pozzo names it: everybody saw it",
        lambda: position([HAND_48, *OTHERS], pile="7S"),
        "p",
        [Drew(0, "pozzo", C("7S"))],
    ),
    (
        "the opening: its melds, numbered from 1, and its points",
        lambda: position([HAND_48, *OTHERS], pile="7S").play("p"),
        "o 7D7C7S 8D9DTD",
        [Opened(0, (parse_cards("7D 7C 7S"), parse_cards("8D 9D TD")), 1, 48)],
    ),
    (
        "a further meld, numbered after those on the table",
        lambda: position(
            ["2C 3C 4C 9B 9S", *OTHERS], phase="meld", melds=[(1, "5D 6D 7D")], opened=[True] * 4
        ),
        "m 2C3C4C",
        [Melded(0, (parse_cards("2C 3C 4C"),), 2)],
    ),
    (
        "an attach at the low end of another player's meld",
        lambda: position(
            ["4D 2C 3S", *OTHERS], phase="meld", melds=[(2, "5D 6D 7D")], opened=[True] * 4
        ),
        "a1 4D",
        [Attached(0, C("4D"), 1, "<")],
    ),
    (
        "a joker swapped for the card it stands for",
        lambda: position(
            ["6D 2B 9S", *OTHERS], phase="meld", melds=[(1, "5D * 7D")], opened=[True] * 4
        ),
        "s1 6D",
        [Swapped(0, C("6D"), 1)],
    ),
    (
        "a discard ends the turn",
        lambda: position(["2D 5C 9S", *OTHERS], phase="meld"),
        "d 9S",
        [Discarded(0, C("9S"))],
    ),
    (
        "the last discard closes: the hand is scored and the next one dealt",
        lambda: position(["5D 6D 7D 2C", *OTHERS], phase="meld", opened=[True] * 4).play(
            "m 5D6D7D"
        ),
        "d 2C",
        [
            Discarded(0, C("2C")),
            Closed(0, False),
            HandScored(0, 1, False, (0, 10, 10, 10), (0, 10, 10, 10), ()),
            Dealt,
        ],
    ),
    (
        "closing in the turn of opening, by melding the last cards",
        lambda: position(["5D 6D 7D", *OTHERS], phase="meld", rules=Rules(opening_points=0)),
        "o 5D6D7D",
        [
            Opened,
            Closed(0, True),
            HandScored(0, 1, True, (0, 20, 20, 20), (0, 20, 20, 20), ()),
            Dealt,
        ],
    ),
    (
        "a player out, and the last one left wins",
        lambda: position(["5D 6D 7D", "KB"], phase="meld", opened=[True, True], scores=[50, 95]),
        "m 5D6D7D",
        [Melded, Closed(0, False), HandScored, Eliminated(1, 105), GameOver(0)],
    ),
    (
        "re-entering",
        _paused,
        "in",
        [Reentered(1, 62), Dealt],
    ),
    (
        "staying out",
        _paused,
        "out",
        [StayedOut(1), Dealt],
    ),
    (
        "the tallone runs out: the pozzo becomes the tallone",
        lambda: position(["2D 9S", *OTHERS], stock="5C", pile=""),
        "t",
        [Drew(0, "tallone", None), Restocked],
    ),
]


@pytest.mark.parametrize(
    ("game", "move", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_move_reports_what_it_did(
    game: Callable[[], Game], move: str, expected: list[Any]
) -> None:
    events = game().play(move).events
    assert [type(e) for e in events] == [e if isinstance(e, type) else type(e) for e in expected]
    for got, want in zip(events, expected, strict=True):
        if not isinstance(want, type):
            assert got == want


def test_the_hand_scored_is_the_hand_recorded_and_the_events_are_not_saved() -> None:
    game = position(["5D 6D 7D", "KB", "2C"], rules=THREE, phase="meld", opened=[True] * 3,
                    scores=[30, 95, 60])  # fmt: skip
    paused = game.play("m 5D6D7D")
    (scored,) = [e for e in paused.events if isinstance(e, HandScored)]
    last = paused.last_hand
    assert last is not None
    assert (scored.seat, scored.number, scored.in_hand) == (last.closer, last.hand, last.in_hand)
    assert scored.penalties == last.penalties and scored.eliminated == last.eliminated == (1,)
    assert scored.scores == tuple(paused.points(seat) for seat in range(3))
    assert scored.to_dict()["data"]["scores"] == [30, 105, 62]
    assert Game.from_dict(paused.to_dict()).events == ()
    new = new_game(Rules(players=3), seed=5)
    assert new.events == (Dealt(new.dealer, 1),)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2, max_restocks=3),
        Rules(players=4, max_restocks=3, opening_points=0, reentry=True),
        Rules(players=3, dealer_fourteen=True, first_pile_card_free=True, max_restocks=3),
    ],
    ids=["2", "4-machiavelli-reentry", "3-fourteen-free"],
)
def test_playouts_events_tell_the_story_of_the_states(rules: Rules) -> None:
    for seed in range(3):
        game = new_game(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            move = str(rng.choice(game.legal_moves()))
            after = game.play(move)
            events = after.events
            json.dumps([e.to_dict() for e in events])
            assert events, move
            first = events[0]
            assert first.seat == game.current_player
            kind = move.split()[0]
            expected = {"t": Drew, "p": Drew, "o": Opened, "m": Melded, "d": Discarded,
                        "in": Reentered, "out": StayedOut}.get(kind)  # fmt: skip
            if expected is None:
                expected = Attached if kind[0] == "a" else Swapped
            assert isinstance(first, expected), (move, events)
            if isinstance(first, Drew) and first.source == "tallone":
                assert first.card is None
            hand_over = after.hand_number != game.hand_number or after.is_over
            scored = [e for e in events if isinstance(e, HandScored)]
            if scored:
                assert scored[0].penalties == after.last_hand.penalties  # type: ignore[union-attr]
            assert any(isinstance(e, Dealt) for e in events) == (
                after.hand_number != game.hand_number
            )
            assert any(isinstance(e, GameOver) for e in events) == after.is_over
            if hand_over and game.phase.value != "reentry":
                assert len(scored) == 1
            game = after
