"""Build Scala 40 positions for rule tests: name the cards that matter, the rest is the tallone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import Card, french_deck, parse_cards
from engine.scala40 import Game, Rules


def position(
    hands: list[str],
    *,
    rules: Rules | None = None,
    melds: Sequence[tuple[int, str]] = (),
    pile: str = "",
    stock: str | None = None,
    stock_top: str = "",
    rest_to: int | None = None,
    opened: list[bool] | None = None,
    current: int = 0,
    dealer: int | None = None,
    phase: str = "draw",
    turn: int = 10,
    scores: list[int] | None = None,
    **state: Any,
) -> Game:
    """A game position. ``stock`` None: every card not named elsewhere, with ``stock_top`` on
    top (drawn first); a named ``stock``: the unnamed cards lie under the pozzo's ``pile``.
    ``rest_to``: the unnamed cards go into that seat's hand instead.
    ``turn`` defaults to a later round, when closing is allowed."""
    rules = rules or Rules(players=len(hands))
    n = rules.players
    pool = Counter((c.rank, c.suit) for c in [*french_deck(0), *french_deck(1)])
    used: Counter[tuple[str, str]] = Counter()

    def take(text: str) -> list[Card]:
        cards = []
        for card in parse_cards(text):
            key = (card.rank, card.suit)
            if used[key] >= pool[key]:
                raise AssertionError(f"too many {card} in the position")
            deck = used[key] if card.rank != "*" else used[key] // 2
            used[key] += 1
            cards.append(Card(card.rank, card.suit, deck))
        return cards

    def text(cards: list[Card]) -> str:
        return " ".join(map(str, cards))

    hand_cards = [take(hand) for hand in hands]
    meld_cards = [(owner, take(cards)) for owner, cards in melds]
    pile_cards = take(pile)
    top_cards = take(stock_top)
    named_stock = take(stock) if stock is not None else []
    rest: list[Card] = []
    for card in [*french_deck(0), *french_deck(1)]:
        key = (card.rank, card.suit)
        if used[key] < pool[key]:
            used[key] += 1
            rest.append(card)
    if rest_to is not None:
        hand_cards[rest_to] += rest
        rest = []
    if stock is None:
        stock_cards = rest + list(reversed(top_cards))
    else:
        # A named tallone: every other card lies under the pozzo.
        stock_cards = named_stock + list(reversed(top_cards))
        pile_cards = rest + pile_cards
    data: dict[str, Any] = {
        "schema": 1,
        "game": "scala40",
        "rules": rules.to_dict(),
        "seed": 1,
        "hand_no": 1,
        "dealer": (current - 1) % n if dealer is None else dealer,
        "current": current,
        "phase": phase,
        "hands": [text(h) for h in hand_cards],
        "melds": [{"owner": owner, "cards": text(cards)} for owner, cards in meld_cards],
        "stock": text(stock_cards),
        "pile": text(pile_cards),
        "opened": opened or [False] * n,
        "dealt": [True] * n,
        "active": [True] * n,
        "reentered": [False] * n,
        "out_at": [0] * n,
        "scores": scores or [0] * n,
        "turn": turn,
        "opened_at_start": (opened or [False] * n)[current],
        "pile_card": None,
        "must_open": False,
        "must_use": False,
        "restocks": 0,
        "no_attach": None,
        "top_attachable": False,
        "pile_free": False,
        "pending": [],
        "last_move": None,
        "last_hand": None,
        "winner": None,
    }
    data.update(state)
    return Game.from_dict(data)


def moves(game: Game) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)
