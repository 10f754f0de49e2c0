"""A ceiling for the Scopa-family figures: ``hard`` told every hand (``--level oracle`` of
``benchmarks/vs_baselines.py``).

Not a player of the product, and not fair play: it is the flat search of ``hard`` (same budget,
playouts, exact endgame and reward) whose every deal is the true one, the other hands read from
the game rather than guessed. What it wins against a baseline bounds what better guessing (the
determinization, the inference) could add to ``hard`` on those deals: a fair player that guessed
every hand right would play as it does. With a deck (Scopa) it knows the deck's order too (the
fast path deals as the engine does: three each from the deck's end, the first to play first).
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

    def __init__(
        self, info: InfoSet, rng: random.Random, hands: list[list[int]], deck: list[int]
    ) -> None:
        super().__init__(info, rng)
        self.hands = hands
        self.deck = deck

    def deal(self) -> State:
        state = super().deal()
        seat = state.seat
        guessed = [c for s, h in enumerate(state.hands) if s != seat for c in h]
        true = [c for s, h in enumerate(self.hands) if s != seat for c in h]
        if sorted(guessed + state.deck) != sorted(true + self.deck):
            raise AssertionError("the true cards are not the cards the seat has not seen")
        for other, cards in enumerate(self.hands):
            if other != seat:
                state.hands[other] = cards.copy()
        state.deck = self.deck.copy()
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
            raise TypeError("the oracle plays Scopa-family games it has seen")
        game = self.game
        hands = []
        for seat in range(view.players):
            mask = game._hands[seat]  # the true hands: the oracle's whole point
            hands.append([c for c in range(40) if mask >> c & 1])
        saved = pimc.Dealer

        def dealer(info: InfoSet, rng: random.Random) -> Dealer:
            return _TrueDealer(info, rng, hands, list(game._deck))

        pimc.Dealer = dealer  # type: ignore[misc,assignment]
        try:
            return self.hard.choose(view, rng)
        finally:
            pimc.Dealer = saved  # type: ignore[misc]

    def close(self) -> None:
        self.hard.close()
