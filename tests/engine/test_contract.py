"""The engine contract (``engine/contract.py``) checked on every registered game kind, and on the
service's toy games: seeded random playouts in the spirit of OpenSpiel's random simulation test,
checking at every step what the service relies on (turns, legal moves as short strings, outcome),
that states survive a JSON round trip, and that views hide what they must."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameKind, default_registry
from engine.contract import GameState
from tests.discord import meldgame
from tests.service import toygame

SEEDS = range(1, 4)
MAX_PLIES = 1500  # a random Scala 40 hand can wander; every check runs on every ply anyway
# Button data is "<table>:<version>:<move>" in at most 64 bytes (Telegram): leave room for a
# 10-digit table id and a 6-digit version.
MAX_MOVE_BYTES = 64 - 18
# What a seat's view may add to the public view: its own hand and its own moves, and on its
# turn what it alone learnt (Scala 40's card drawn from the stock, checked in check_views).
PRIVATE_KEYS = {"seat", "hand", "legal_moves", "drawn"}

TOYS = [
    GameKind("toy", "toy", toygame, (2, 3, 4), 2, {"variant": "toy"}, lambda n: n == 4),
    GameKind("meld", "meld", meldgame, (2,), 2),
]


def kinds() -> list[GameKind]:
    registered = [default_registry().get(name) for name in default_registry().names]
    return [k for k in registered if k is not None] + TOYS


CASES = [
    pytest.param(kind, players, id=f"{kind.name}-{players}")
    for kind in kinds()
    for players in kind.players
]


def test_every_registered_kind_is_covered() -> None:
    names = {param.values[0].name for param in CASES}  # type: ignore[union-attr]
    assert set(default_registry().names) <= names


def test_the_toy_games_follow_the_contract_statically(tmp_path: Path) -> None:
    """The real engines are checked by mypy where they are registered (bot/service/games.py);
    the toys by mypy here, on tests/engine/contract_conformance.py."""
    root = Path(__file__).resolve().parents[2]
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "mypy"),
            str(Path(__file__).with_name("contract_conformance.py")),
        ],
        cwd=root,
        env={**os.environ, "MYPYPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in PRIVATE_KEYS}


def check_views(game: GameState) -> None:
    public = game.view(None)
    assert public.seat is None
    assert len(public.hand) == 0, "the public view shows a hand"
    assert tuple(public.legal_moves) == ()
    public_doc = json.loads(json.dumps(public.to_dict()))
    legal = [str(m) for m in game.legal_moves()]
    for seat in range(game.players):
        view = game.view(seat)
        assert view.seat == seat
        assert view.current_player == game.current_player
        assert view.is_over == game.is_over
        own = Counter(str(c) for c in game.hand(seat))
        assert Counter(str(c) for c in view.hand) == own, f"seat {seat} sees another hand"
        expected = legal if seat == game.current_player else []
        assert list(view.legal_moves) == expected
        doc = json.loads(json.dumps(view.to_dict()))
        assert public_doc.get("drawn") is None, "the public view tells a drawn card"
        if seat != game.current_player:
            assert doc.get("drawn") is None, f"seat {seat} sees the card another seat drew"
        assert _strip(doc) == _strip(public_doc), (
            f"seat {seat}'s view differs from the public view beyond its hand and moves: "
            f"{sorted(k for k in doc if k not in PRIVATE_KEYS and doc.get(k) != public_doc.get(k))}"
        )


def check_round_trip(kind: GameKind, game: GameState) -> None:
    saved = json.loads(json.dumps(game.to_dict()))
    loaded = kind.load(saved)
    assert loaded.to_dict() == game.to_dict()
    assert [str(m) for m in loaded.legal_moves()] == [str(m) for m in game.legal_moves()]
    assert loaded.current_player == game.current_player
    assert loaded.view(None).to_dict() == game.view(None).to_dict()


def check_turn(game: GameState) -> None:
    if game.is_over:
        assert game.current_player is None
        assert list(game.legal_moves()) == []
        outcome = game.outcome()
        assert outcome is not None
        sides = len(game.sides)
        assert len(outcome.ranks) == sides and len(outcome.points) == sides
        assert 0 in outcome.ranks
        assert outcome.winner == game.winner
        assert outcome.winner is None or outcome.ranks[outcome.winner] == 0
        assert outcome.multiplier >= 1
        return
    assert game.outcome() is None
    assert game.current_player in range(game.players)
    moves = [str(m) for m in game.legal_moves()]
    assert moves, "a game that is not over offers no move"
    assert len(moves) == len(set(moves)), "two legal moves share a string"
    for move in moves:
        assert len(move.encode()) <= MAX_MOVE_BYTES, move
    seated = sorted(seat for side in game.sides for seat in side)
    assert seated == list(range(game.players))
    for side in range(len(game.sides)):
        assert isinstance(game.points(side), int)


def check_events(game: GameState) -> None:
    """What the move did: events of the common shape, JSON-safe, each about a seat or none."""
    for event in game.events:
        doc = json.loads(json.dumps(event.to_dict()))
        assert doc == {"kind": event.kind, "seat": event.seat, "data": dict(event.data)}
        assert isinstance(event.kind, str) and event.kind
        assert event.seat is None or event.seat in range(game.players)


@pytest.mark.parametrize(("kind", "players"), CASES)
def test_rules_round_trip_and_refuse_an_unknown_option(kind: GameKind, players: int) -> None:
    rules = kind.rules(players, {})
    assert rules.players == players
    options = json.loads(json.dumps(rules.to_dict()))
    assert kind.module.Rules.from_dict(options) == rules
    with pytest.raises(ValueError):
        kind.module.Rules.from_dict({**options, "no_such_option": True})


@pytest.mark.parametrize(("kind", "players"), CASES)
def test_random_playouts_keep_the_contract(kind: GameKind, players: int) -> None:
    rules = kind.rules(players, {})
    for seed in SEEDS:
        game = kind.new_game(rules, seed)
        assert kind.new_game(rules, seed).to_dict() == game.to_dict(), "same seed, other game"
        rng = random.Random(seed)
        for ply in range(MAX_PLIES):
            check_turn(game)
            check_views(game)
            if ply % 7 == 0 or game.is_over:
                check_round_trip(kind, game)
            if game.is_over:
                break
            before = game.to_dict()
            move = str(rng.choice(list(game.legal_moves())))
            following = game.play(move)
            assert game.to_dict() == before, "play() changed the state it was called on"
            with pytest.raises(ValueError):
                game.play("not a move at all")
            check_events(following)
            game = following


@pytest.mark.parametrize(("kind", "players"), CASES)
def test_a_game_plays_to_its_end(kind: GameKind, players: int) -> None:
    """At least one seeded random game of every kind reaches an outcome within the bound."""
    rules = kind.rules(players, {})
    for seed in range(1, 30):
        game = kind.new_game(rules, seed)
        rng = random.Random(seed)
        for _ in range(20_000):
            if game.is_over:
                break
            game = game.play(str(rng.choice(list(game.legal_moves()))))
        if game.is_over:
            assert game.outcome() is not None
            return
    pytest.fail(f"no random {kind.name} game for {players} ended within the bound")


# The options described by each engine (Rules.options()) against what Rules.from_dict accepts.
# Some values are allowed only together with others: each is tried alone, then in these settings
# (Scopa's fuori belongs to Scopone games to 8; Briscola's 5 players to chiamata, its targets
# above 51 to deal_scoring=points). A setting an engine refuses is simply not used.
SETTINGS: list[dict[str, Any]] = [
    {},
    {"variant": "scopone", "target": 8},
    {"variant": "chiamata"},
    {"deal_scoring": "points"},
]


def _accepts(rules_class: Any, name: str, value: object) -> bool:
    for setting in SETTINGS:
        if name in setting:
            continue
        try:
            rules = rules_class.from_dict({**setting, name: value})
        except ValueError:
            continue
        if rules.to_dict()[name] == value:
            return True
    return False


def engine_kinds() -> list[GameKind]:
    """One registered kind per engine module (scopa, scopone and scientifico share one)."""
    seen: dict[int, GameKind] = {}
    for name in default_registry().names:
        kind = default_registry().get(name)
        assert kind is not None
        seen.setdefault(id(kind.module), kind)
    return list(seen.values())


ENGINES = [pytest.param(kind, id=kind.name) for kind in engine_kinds()]


@pytest.mark.parametrize("kind", ENGINES)
def test_options_describe_exactly_what_from_dict_accepts(kind: GameKind) -> None:
    rules_class = kind.module.Rules
    options = list(rules_class.options())
    names = [option.name for option in options]
    assert len(names) == len(set(names)), "an option is described twice"
    defaults = rules_class.from_dict({}).to_dict()
    assert set(names) == set(defaults), (
        f"described only {sorted(set(names) - set(defaults))}, "
        f"accepted but not described {sorted(set(defaults) - set(names))}"
    )
    for option in options:
        assert option.kind in ("choice", "int", "bool"), option
        assert option.help, f"{option.name} has no help text"
        assert option.default == defaults[option.name], (
            f"{option.name}: described default {option.default!r}, Rules() has "
            f"{defaults[option.name]!r}"
        )
        json.dumps([option.default, list(option.choices), option.low, option.high])


def _allowed(option: Any) -> list[object]:
    if option.kind == "int":
        return list(range(option.low, option.high + 1))
    if option.kind == "bool":
        return [False, True]
    return list(option.choices)


def _refused(option: Any) -> list[object]:
    # (None is left out: Scopa reads it as "the default that follows from the variant".)
    if option.kind == "int":
        return [option.low - 1, option.high + 1, str(option.low), True]
    if option.kind == "bool":
        return ["yes", 1]
    return ["no_such_value"]


@pytest.mark.parametrize("kind", ENGINES)
def test_every_described_value_is_accepted_and_nothing_else(kind: GameKind) -> None:
    rules_class = kind.module.Rules
    for option in rules_class.options():
        assert option.default in _allowed(option), option
        refused = [v for v in _allowed(option) if not _accepts(rules_class, option.name, v)]
        assert not refused, f"{option.name}: described but refused: {refused[:10]}"
        for value in _refused(option):
            with pytest.raises(ValueError):
                rules_class.from_dict({option.name: value})


def test_engine_options_are_plain_values() -> None:
    """engine.options.Option: frozen, JSON-safe, and it refuses a description that says nothing."""
    from engine.options import Option

    option = Option("target", "int", 11, low=1, high=51, help="the points that win")
    assert option.allowed() == range(1, 52)
    assert json.loads(json.dumps(option.to_dict()))["high"] == 51
    assert Option("x", "bool", False).allowed() == (False, True)
    with pytest.raises(ValueError):
        Option("x", "choice", "a")
    with pytest.raises(ValueError):
        Option("x", "int", 1, low=3, high=2)
    with pytest.raises(ValueError):
        Option("x", "float", 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="default"):
        Option("x", "int", 0, low=1, high=3)
    with pytest.raises(ValueError, match="default"):
        Option("x", "choice", "c", ("a", "b"))
