"""The announcements of a move come from the engine's events (bot/service/announcements.py):
seeded playouts of every real engine give exactly the announcements the service used to work
out by comparing the public views before and after each move, and the Scala 40 hand summary
keeps a hand that no one closed."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.domain.events import Announcement, Audience, SmazzataSummary, TableInfo
from bot.service.announcements import announcements
from engine import scala40, scopa
from engine.contract import GameState

HEAD: dict[str, Any] = {
    "audience": Audience("chat", "terminal", "1"),
    "locale": "en",
    "table": TableInfo(
        id=1, platform="terminal", chat_id="1", game="scopa", family="scopa", status="playing",
        version=1, players=2, options={}, seats=(None, None), creator="1",
    ),
}  # fmt: skip


def _by_views(before: Any, after: Any, game: GameState, seat: int, move: str) -> list[Any]:
    """What the service announced before the engine reported events: views compared."""
    out: list[Any] = []
    if isinstance(after, scala40.Scala40View):
        last = after.last_hand
        if last is not None and last != before.last_hand:
            out.append(
                SmazzataSummary(
                    **HEAD,
                    number=last.hand,
                    scores=tuple({"penalty": p} for p in last.penalties),
                    points=after.scores,
                    data={
                        "closer": last.closer,
                        "in_hand": last.in_hand,
                        "eliminated": list(last.eliminated),
                    },
                )
            )
        return out
    if move.endswith("!"):
        out.append(Announcement(**HEAD, kind="fuori", data={"seat": seat, "move": move}))
    same = before.smazzata == after.smazzata
    if same:
        for side, (a, b) in enumerate(zip(before.scope, after.scope, strict=False)):
            if b > a:
                out.append(Announcement(**HEAD, kind="scopa", data={"seat": seat, "side": side}))
    if after.last_smazzata is not None and (not same or game.is_over):
        out.append(
            SmazzataSummary(
                **HEAD,
                number=before.smazzata,
                scores=tuple(dict(s) for s in after.last_smazzata),
                points=tuple(game.points(i) for i in range(len(game.sides))),
            )
        )
    return out


def _key(event: Any) -> str:
    return repr(event)


GAMES = [
    pytest.param(scopa, scopa.Rules(), id="scopa"),
    pytest.param(scopa, scopa.Rules(players=3, napola=True), id="scopa-3"),
    pytest.param(scopa, scopa.Rules(variant="scopone", target=8), id="scopone-8-fuori"),
    pytest.param(scala40, scala40.Rules(players=2, max_restocks=2), id="scala40-2"),
    pytest.param(scala40, scala40.Rules(players=4, reentry=True, opening_points=0), id="scala40-4"),
]


@pytest.mark.parametrize(("module", "rules"), GAMES)
def test_events_announce_what_the_views_did(module: Any, rules: Any) -> None:
    seen: set[str] = set()
    for seed in range(3):
        game: GameState = module.new_game(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(4000):
            if game.is_over:
                break
            seat = game.current_player
            assert seat is not None
            move = str(rng.choice(list(game.legal_moves())))
            after = game.play(move)
            expected = _by_views(game.view(None), after.view(None), after, seat, move)
            got = announcements(after.events, head=HEAD, move=move)
            # Scopa's summary also says where the cards left on the table went: the cards of
            # the table before the last card, and that card, not taken by it.
            rests = [e.data.get("rest") for e in got if isinstance(e, SmazzataSummary)]
            for rest in [r for r in rests if isinstance(r, dict)]:
                left = {str(c) for c in game.view(None).table} | {move.rstrip("!").split(":")[0]}
                assert rest["cards"] and set(rest["cards"]) <= left, (rest, left)
                assert 0 <= rest["side"] < len(game.sides)
            got = [
                replace(e, data={k: v for k, v in e.data.items() if k != "rest"})
                if isinstance(e, SmazzataSummary)
                else e
                for e in got
            ]
            # The same announcements; a fuori that also swept the table is now announced after
            # its scopa, in the order the engine reports them.
            assert sorted(map(_key, got)) == sorted(map(_key, expected)), move
            seen.update(getattr(e, "kind", "summary") for e in got)
            game = after
    assert "summary" in seen


def test_a_hand_no_one_closed_is_summed_up_with_no_closer() -> None:
    event = scala40.events.HandScored(None, 3, False, (5, 7), (40, 60), ())
    (summary,) = announcements([event], head=HEAD, move="t")
    assert isinstance(summary, SmazzataSummary)
    assert summary.number == 3 and summary.points == (40, 60)
    assert summary.scores == ({"penalty": 5}, {"penalty": 7})
    assert summary.data == {"closer": None, "in_hand": False, "eliminated": []}
