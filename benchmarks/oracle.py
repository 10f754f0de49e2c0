"""A ceiling for the Scopone figures: ``hard`` told every hand (``--level oracle`` of
``benchmarks/vs_baselines.py``).

Not a player of the product, and not fair play: it is the flat search of ``hard`` (same budget,
playouts, exact endgame and reward) whose every deal is the true one, the other hands read from
the game rather than guessed. What it wins against a baseline bounds what better guessing (the
determinization, the inference) could add to ``hard`` on those deals: a fair player that guessed
every hand right would play as it does. Scopone only (no deck: every card is in a hand, so the
true deal is fully known; a deck's order would also have to match the fast path's dealing).
"""

from __future__ import annotations

import random
from typing import Any

import engine.ai.pimc as pimc
from engine.ai.determinize import Dealer, InfoSet, State
from engine.ai.ismcts import HardPlayer
from engine.scopa import ScopaView

__all__ = ["Oracle"]


class _TrueDealer(Dealer):
    """Deals the other seats the hands they really hold (their order shuffled, as ``Dealer``)."""

    def __init__(self, info: InfoSet, rng: random.Random, hands: list[list[int]]) -> None:
        super().__init__(info, rng)
        self.hands = hands

    def deal(self) -> State:
        state = super().deal()
        guessed = sorted(c for s, h in enumerate(state.hands) if s != state.seat for c in h)
        true = sorted(c for s, h in enumerate(self.hands) if s != state.seat for c in h)
        if guessed != true or state.deck:
            raise AssertionError("the true hands are not the cards the seat has not seen")
        for seat, cards in enumerate(self.hands):
            if seat != state.seat:
                state.hands[seat] = cards.copy()
        return state


class Oracle:
    """``hard`` with every hand known; ``see(game)`` before each ``choose``."""

    name = "oracle"

    def __init__(self, **options: Any) -> None:
        self.hard = HardPlayer(**options)
        self.game: Any = None

    def see(self, game: Any) -> None:
        self.game = game

    def choose(self, view: object, rng: random.Random) -> str:
        if not isinstance(view, ScopaView) or self.game is None:
            raise TypeError("the oracle plays Scopone games it has seen")
        if view.deck_count:
            raise ValueError("the oracle knows every hand only when no card is in the deck")
        game = self.game
        hands = []
        for seat in range(view.players):
            mask = game._hands[seat]  # the true hands: the oracle's whole point
            hands.append([c for c in range(40) if mask >> c & 1])
        saved = pimc.Dealer

        def dealer(info: InfoSet, rng: random.Random) -> Dealer:
            return _TrueDealer(info, rng, hands)

        pimc.Dealer = dealer  # type: ignore[misc,assignment]
        try:
            return self.hard.choose(view, rng)
        finally:
            pimc.Dealer = saved  # type: ignore[misc]

    def close(self) -> None:
        self.hard.close()
