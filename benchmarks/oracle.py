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

import engine.scopa.ai.pimc as pimc
from engine.scopa import ScopaView
from engine.scopa.ai.determinize import Dealer, InfoSet, State
from engine.scopa.ai.hard import HardPlayer

__all__ = ["Oracle"]


# Whose hands the oracle is told: every other seat's and the deck's order, every other seat's
# with the deck dealt at random ("hands": in Scopa 2 players, what reading the opponent's hand
# could give at best), the partner's only, or the opponents' only (the rest dealt at random
# among the others, as a fair player would).
KNOWS = ("all", "hands", "partner", "opponents")


class _TrueDealer(Dealer):
    """Deals the known seats the hands they really hold (their order shuffled, as ``Dealer``),
    or with ``only`` the cards of that set they really hold and others from outside it; the
    other hidden cards at random to the rest."""

    def __init__(
        self,
        info: InfoSet,
        rng: random.Random,
        hands: list[list[int]],
        deck: list[int],
        known: frozenset[int],
        deck_known: bool,
        only: frozenset[int] | None = None,
    ) -> None:
        super().__init__(info, rng)
        self.only = only
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
        only = self.only
        told_of = {other: self._told(self.hands[other]) for other in self.known}
        told = {c for cards in told_of.values() for c in cards}
        rest = [c for c in guessed + state.deck if c not in told]
        self.rest_rng.shuffle(rest)
        # A known seat holds what it is told of (its whole hand, or where the cards of ``only``
        # lie); the rest of its hand, if any, comes from the cards outside ``only``, so the
        # cards of ``only`` it does not hold go to the others.
        outside = [c for c in rest if only is not None and c not in only]
        for other in sorted(self.known):
            fixed = told_of[other]
            extra = outside[: len(state.hands[other]) - len(fixed)]
            del outside[: len(extra)]
            for c in extra:
                rest.remove(c)
            state.hands[other] = fixed + extra
        for other in range(len(state.hands)):
            if other != seat and other not in self.known:
                need = len(state.hands[other])
                state.hands[other] = rest[:need]
                del rest[:need]
        state.deck = self.deck.copy() if self.deck_known else rest
        for other in self.known:
            if self._told(state.hands[other]) != told_of[other]:
                raise AssertionError("a known seat was not dealt what it is known to hold")
        return state

    def _told(self, cards: list[int]) -> list[int]:
        """The cards of ``cards`` a known seat is told of (all of them with ``only`` unset)."""
        return [c for c in cards if self.only is None or c in self.only]


class Oracle:
    """``hard`` with every hand known and the deck's order (``knows="all"``), every hand but not
    the deck's order (``"hands"``), the partner's only, or the opponents' only; with ``values``
    (``"7"``, ``"1,7"``) told only where the cards of those values lie in those hands (what a
    partner's signal could carry at best); ``see(game)`` before each ``choose``."""

    name = "oracle"

    def __init__(self, *, knows: str = "all", values: str = "", **options: Any) -> None:
        if knows not in KNOWS:
            raise ValueError(f"knows must be one of {', '.join(KNOWS)}; got {knows!r}")
        self.knows = knows
        # ``values`` ("7", "1,7"): told only where the cards of those values lie in the known hands.
        refused = f"values must be card values 1-10 separated by commas; got {values!r}"
        try:
            wanted = {int(v) for v in values.split(",") if v.strip()}
        except ValueError:
            raise ValueError(refused) from None
        if not wanted <= set(range(1, 11)):
            raise ValueError(refused)
        self.only = frozenset(c for c in range(40) if c % 10 + 1 in wanted) if wanted else None
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
        deck_known = len(known) == n - 1 and self.knows != "hands" and self.only is None

        def dealer(info: InfoSet, rng: random.Random) -> Dealer:
            return _TrueDealer(info, rng, hands, list(game._deck), known, deck_known, self.only)

        pimc.Dealer = dealer  # type: ignore[misc,assignment]
        try:
            return self.hard.choose(view, rng)
        finally:
            pimc.Dealer = saved  # type: ignore[misc]
