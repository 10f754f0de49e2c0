"""Scopa positions for rule tests, built through the saved-game format (so invariants hold)."""

from __future__ import annotations

import random

from engine import scopa
from engine.cards import italian_deck, parse_cards


def position(
    rules: scopa.Rules | None = None,
    *,
    hands: list[str],
    table: str = "",
    deck: str = "",
    captured: list[str] | None = None,
    scope: list[int] | None = None,
    dealer: int | None = None,
    current: int | None = None,
    totals: list[int] | None = None,
    start_totals: list[int] | None = None,
    last_taker: int | None = None,
    rest_to: int | str = 0,
) -> scopa.Game:
    """A game at a chosen position. Cards named nowhere go to side ``rest_to``'s captured pile,
    or to the bottom of the deck when ``rest_to`` is ``"deck"`` (still to come: nobody's yet).

    ``deck`` is dealt from its end. By default the dealer is the last seat and seat 0 plays.
    """
    rules = rules or scopa.Rules()
    n, sides = rules.players, rules.sides
    captured = captured or [""] * sides
    named = [c for text in [*hands, table, deck, *captured] for c in parse_cards(text)]
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in italian_deck() if c not in set(named)]
    rest_text = " ".join(str(c) for c in rest)
    piles = [f"{captured[s]} {rest_text}" if s == rest_to else captured[s] for s in range(sides)]
    if rest_to == "deck":
        deck = f"{rest_text} {deck}"
    totals = totals or [0] * sides
    data = {
        "schema": scopa.SCHEMA,
        "game": "scopa",
        "rules": rules.to_dict(),
        "seed": 1,
        "deals": 1,
        "dealer": n - 1 if dealer is None else dealer,
        "hands": hands,
        "table": table,
        "deck": deck,
        "captured": piles,
        "scope": scope or [0] * sides,
        "last_taker": last_taker,
        "current": 0 if current is None else current,
        "history": [],
        "last_move": None,
        "smazzate": [],
        "totals": totals,
        "start_totals": start_totals or list(totals),
        "winner": None,
        "multiplier": 1,
    }
    return scopa.Game.from_dict(data)


def cards(text: str) -> frozenset[object]:
    return frozenset(parse_cards(text))


def played_at_random(rules: scopa.Rules, seed: int, moves: int) -> scopa.Game:
    """A new game (``seed``) after ``moves`` legal moves drawn at random (``seed`` again)."""
    game = scopa.new_game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = game.current_player
        assert seat is not None
        game = game.play(rng.choice(game.view(seat).legal_moves))
    return game
