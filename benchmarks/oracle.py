"""A ceiling for the Scopa-family figures: ``hard`` told every hand (``--level oracle`` of
``benchmarks/vs_baselines.py``).

Not a player of the product, and not fair play: it is the flat search of ``hard`` (same budget,
playouts, exact endgame and reward) whose every deal is the true one, the other hands read from
the game rather than guessed. What it wins against a baseline bounds what better guessing (the
determinization, the inference) could add to ``hard`` on those deals: a fair player that guessed
every hand right would play as it does. With a deck (Scopa) it knows the deck's order too (the
fast path deals as the engine does: three each from the deck's end, the first to play first),
unless told the hands only (``knows="hands"``).
"""

from __future__ import annotations

import random
from typing import Any

import engine.ai.pimc as pimc
from engine.ai.determinize import Dealer, InfoSet, State
from engine.ai.hard import HardPlayer
from engine.scopa import ScopaView

__all__ = ["Oracle"]


# Whose hands the oracle is told: every other seat's and the deck's order, every other seat's
# with the deck dealt at random ("hands": in Scopa 2 players, what reading the opponent's hand
# could give at best), the partner's only, or the opponents' only (the rest dealt at random
# among the others, as a fair player would).
KNOWS = ("all", "hands", "partner", "opponents")


class _TrueDealer(Dealer):
    """Deals the known seats the hands they really hold (their order shuffled, as ``Dealer``),
    the other hidden cards at random to the rest."""

    def __init__(
        self,
        info: InfoSet,
        rng: random.Random,
        hands: list[list[int]],
        deck: list[int],
        known: frozenset[int],
        deck_known: bool,
    ) -> None:
        super().__init__(info, rng)
        self.hands = hands
        self.deck = deck
        self.known = known
        self.deck_known = deck_known
        self.rest_rng = random.Random(rng.getrandbits(64))

    def deal(self) -> State:
        state = super().deal()
        seat = state.seat
        guessed = [c for s, h in enumerate(state.hands) if s != seat for c in h]
        true = [c for s, h in enumerate(self.hands) if s != seat for c in h]
        if sorted(guessed + state.deck) != sorted(true + self.deck):
            raise AssertionError("the true cards are not the cards the seat has not seen")
        told = {c for s in self.known for c in self.hands[s]}
        rest = [c for c in guessed + state.deck if c not in told]
        self.rest_rng.shuffle(rest)
        for other in range(len(state.hands)):
            if other == seat:
                continue
            if other in self.known:
                state.hands[other] = self.hands[other].copy()
            else:
                need = len(state.hands[other])
                state.hands[other] = rest[:need]
                del rest[:need]
        state.deck = self.deck.copy() if self.deck_known else rest
        return state


class Oracle:
    """``hard`` with every hand known and the deck's order (``knows="all"``), every hand but not
    the deck's order (``"hands"``), the partner's only, or the opponents' only; ``see(game)``
    before each ``choose``."""

    name = "oracle"

    def __init__(self, *, knows: str = "all", **options: Any) -> None:
        if knows not in KNOWS:
            raise ValueError(f"knows must be one of {', '.join(KNOWS)}; got {knows!r}")
        self.knows = knows
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

        me, n = view.seat, view.players
        assert me is not None
        partner = (me + 2) % n if n == 4 else -1
        known = frozenset(
            s
            for s in range(n)
            if s != me
            and (self.knows in ("all", "hands") or (s == partner) == (self.knows == "partner"))
        )
        # The deck's order is told with every hand, unless told the hands only.
        deck_known = len(known) == n - 1 and self.knows != "hands"

        def dealer(info: InfoSet, rng: random.Random) -> Dealer:
            return _TrueDealer(info, rng, hands, list(game._deck), known, deck_known)

        pimc.Dealer = dealer  # type: ignore[misc,assignment]
        try:
            return self.hard.choose(view, rng)
        finally:
            pimc.Dealer = saved  # type: ignore[misc]

    def close(self) -> None:
        self.hard.close()
