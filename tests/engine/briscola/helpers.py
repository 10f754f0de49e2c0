"""Briscola positions for rule tests, built through the saved-game format (so invariants hold)."""

from __future__ import annotations

from typing import Any

from engine import briscola
from engine.cards import italian_deck, parse_cards


def position(
    rules: briscola.Rules | None = None,
    *,
    hands: list[str],
    stock: str = "",
    face_up: str | None = None,
    trump: str | None = None,
    trick: str = "",
    leader: int = 0,
    current: int | None = None,
    dealer: int | None = None,
    won: list[str] | None = None,
    rest_to: int = 0,
    phase: str = "play",
    scores: list[int] | None = None,
    results: int = 0,
    **chiamata: Any,
) -> briscola.Game:
    """A game at a chosen position.

    ``stock`` lists the cards still to draw, the next first, *without* the face-up card
    ``face_up`` (drawn last). Cards named nowhere go to seat ``rest_to``'s tricks taken.
    By default the dealer is the seat before ``leader`` and ``leader`` is to move.
    ``chiamata`` sets the saved fields of the auction (``caller``, ``called``, ``socio``,
    ``bid_rank``, ``bid_points``, ``revealed``, ``high_bidder``, ``passed``, ``auction``).
    """
    rules = rules or briscola.Rules()
    n = rules.players
    won = won or [""] * n
    draw = list(parse_cards(stock))
    named = [c for text in [*hands, stock, trick, *won] for c in parse_cards(text)]
    if face_up:
        named += list(parse_cards(face_up))
    assert len(set(named)) == len(named), "a card is named twice"
    deck = [c for c in italian_deck() if n != 3 or str(c) != rules.removed_two]
    rest = [c for c in deck if c not in set(named)]
    piles = [list(parse_cards(w)) for w in won]
    piles[rest_to] += rest
    bottom = list(parse_cards(face_up)) if face_up else []
    if trump is None:
        trump = bottom[0].suit if bottom else None
    game = briscola.new_game(rules, seed=1)
    data = game.to_dict()
    trick_cards = parse_cards(trick)
    data.update(
        {
            "dealer": (leader - 1) % n if dealer is None else dealer,
            "phase": phase,
            "hands": hands,
            "stock": " ".join(str(c) for c in [*bottom, *reversed(draw)]),
            "face_up": face_up,
            "turned_up": face_up,
            "swapped": None,
            "trump": trump,
            "leader": leader,
            "trick": trick,
            "tricks": [],
            "won": [" ".join(map(str, p)) for p in piles],
            "last_trick": None,
            "current": (leader + len(trick_cards)) % n if current is None else current,
            "scores": scores or [0] * len(game.sides),
            "results": [
                {"number": i + 1, "dealer": 0, "points": [0] * n, "scores": [0] * n}
                for i in range(results)
            ],
            "events": [],
        }
    )
    for key, value in chiamata.items():
        assert key in data, key
        data[key] = value
    return briscola.Game.from_dict(data)


def play_all(game: briscola.Game, moves: str) -> briscola.Game:
    """Play the space-separated ``moves`` in order (``call`` takes its card: ``call_3D``)."""
    for move in moves.split():
        game = game.play(move.replace("_", " "))
    return game


def cards_worth(points: int, *, exclude: str = "") -> str:
    """Some cards (not in ``exclude``) worth exactly ``points`` card points."""
    skip = set(parse_cards(exclude))
    pool = [c for c in italian_deck() if c not in skip and briscola.card_points([c])]
    reach: dict[int, list[str]] = {0: []}
    for card in pool:
        value = briscola.card_points([card])
        for total, cards in list(reach.items()):
            if total + value not in reach:
                reach[total + value] = [*cards, str(card)]
    assert points in reach, f"{points} points cannot be made"
    return " ".join(reach[points])
