"""The state of a Briscola match: everything that changes, in one mutable record that
:class:`engine.briscola.game.Game` copies before each move (so a Game never changes)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.briscola.moves import Phase
from engine.briscola.records import DealResult, Event, Trick
from engine.briscola.rules import Rules
from engine.cards import Card

__all__ = ["State", "fresh_state", "sides_of", "stream"]


@dataclass(slots=True)
class State:
    """Everything that changes; copied before each move so a Game never changes."""

    seed: int
    shuffles: int  # deals shuffled so far (the random stream of the next one)
    dealer: int
    phase: Phase
    hands: list[list[Card]]
    stock: list[Card]  # drawn from the end; the face-up briscola is stock[0] while it lies there
    face_up: Card | None
    turned_up: Card | None  # the last card to lie face up this deal (known after it is drawn)
    swapped: tuple[int, Card] | None  # (seat, face-up card taken) after a swap this deal
    trump: str | None
    leader: int
    trick: list[Card]
    tricks: list[Trick]
    won: list[list[Card]]  # per seat: the cards of the tricks it took this deal
    last_trick: Trick | None
    current: int | None
    auction: list[tuple[int, str]]
    passed: list[bool]
    high_bidder: int | None
    bid_rank: str | None
    bid_points: int | None
    caller: int | None
    called: Card | None
    socio: int | None
    revealed: bool
    scores: list[int]
    results: list[DealResult]
    winner: int | None
    last_move: tuple[int, str] | None
    events: list[Event]

    def copy(self) -> State:
        return State(
            seed=self.seed,
            shuffles=self.shuffles,
            dealer=self.dealer,
            phase=self.phase,
            hands=[h.copy() for h in self.hands],
            stock=self.stock.copy(),
            face_up=self.face_up,
            turned_up=self.turned_up,
            swapped=self.swapped,
            trump=self.trump,
            leader=self.leader,
            trick=self.trick.copy(),
            tricks=self.tricks.copy(),
            won=[w.copy() for w in self.won],
            last_trick=self.last_trick,
            current=self.current,
            auction=self.auction.copy(),
            passed=self.passed.copy(),
            high_bidder=self.high_bidder,
            bid_rank=self.bid_rank,
            bid_points=self.bid_points,
            caller=self.caller,
            called=self.called,
            socio=self.socio,
            revealed=self.revealed,
            scores=self.scores.copy(),
            results=self.results.copy(),
            winner=self.winner,
            last_move=self.last_move,
            events=[],
        )

    def cards(self) -> list[Card]:
        """Every card in play, wherever it is (hands, stock, trick, tricks taken)."""
        out = [c for h in self.hands for c in h]
        out += self.stock + self.trick
        out += [c for w in self.won for c in w]
        return out


def fresh_state(rules: Rules, seed: int) -> State:
    """A match before its first deal: the first dealer drawn from ``seed``'s stream 0."""
    n = rules.players
    return State(
        seed=seed,
        shuffles=0,
        dealer=random.Random(stream(seed, 0)).randrange(n),
        phase=Phase.PLAY,
        hands=[[] for _ in range(n)],
        stock=[],
        face_up=None,
        turned_up=None,
        swapped=None,
        trump=None,
        leader=0,
        trick=[],
        tricks=[],
        won=[[] for _ in range(n)],
        last_trick=None,
        current=None,
        auction=[],
        passed=[False] * n,
        high_bidder=None,
        bid_rank=None,
        bid_points=None,
        caller=None,
        called=None,
        socio=None,
        revealed=False,
        scores=[0] * rules.sides,
        results=[],
        winner=None,
        last_move=None,
        events=[],
    )


def stream(seed: int, deal: int) -> int:
    """The seed of one random stream of a match: 0 chooses the first dealer, n shuffles deal n."""
    return (seed << 32) | deal


def sides_of(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: at 4 players two pairs (0 and 2, 1 and 3), else one seat each."""
    if rules.players == 4 and not rules.chiamata:
        return ((0, 2), (1, 3))
    return tuple((k,) for k in range(rules.players))
