"""A small game with more moves per turn than 25 buttons hold, following the engine contract, to
drive the Discord hand's card picker for any game whose moves the renderer must truncate.

Each of 2 players holds 16 cards of a 40-card Italian deck; on a turn a player lays a pair of
cards of one suit (``m 7D3D``) or discards one card (``d 7D``). The game ends when a hand is
empty; fewer cards left wins. Cards are written as in ``engine.cards`` (``7D``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.contract import GameEvent
from engine.options import Option

SUITS = "DCSB"
RANKS = "A234567JQK"


class RulesError(ValueError):
    pass


class IllegalMove(ValueError):
    pass


@dataclass(frozen=True)
class Rules:
    players: int = 2
    hand: int = 16

    def __post_init__(self) -> None:
        if self.players != 2 or not 2 <= self.hand <= 20:
            raise RulesError("players must be 2, hand 2..20")

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "hand": self.hand}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        unknown = sorted(set(data) - {"players", "hand"})
        if unknown:
            raise RulesError(f"unknown option {unknown[0]}; the options are: hand, players")
        return cls(**data)

    @staticmethod
    def options() -> tuple[Option, ...]:
        return (
            Option("players", "int", 2, low=2, high=2, help="how many seats"),
            Option("hand", "int", 16, low=2, high=20, help="cards in each hand"),
        )


@dataclass(frozen=True)
class Outcome:
    ranks: tuple[int, ...]
    multiplier: int = 1
    points: tuple[int, ...] = ()
    winner: int | None = None  # None: first place shared


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    sides: tuple[tuple[int, ...], ...]
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    current_player: int | None
    legal_moves: tuple[str, ...]
    last_move: tuple[int, str] | None
    is_over: bool
    # What the service reads of a Scopa-family view (this game has one deal and no scope).
    smazzata: int = 1
    scope: tuple[int, ...] = (0, 0)
    last_smazzata: tuple[dict[str, int], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"hand_counts": list(self.hand_counts), "last_move": self.last_move}


@dataclass
class Game:
    rules: Rules
    hands: list[list[str]]
    current: int
    log: list[tuple[int, str]] = field(default_factory=list)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), (1,))

    @property
    def is_over(self) -> bool:
        return any(not h for h in self.hands)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    def legal_moves(self) -> list[str]:
        if self.is_over:
            return []
        hand = self.hands[self.current]
        pairs = [f"m {a}{b}" for a, b in itertools.combinations(hand, 2) if a[-1] == b[-1]]
        return pairs + [f"d {c}" for c in hand]

    def play(self, move: object) -> Game:
        text = str(move).strip()
        if text not in self.legal_moves():
            raise IllegalMove(f"{text!r} is not legal now")
        _kind, cards = text.split(" ", 1)
        laid = [cards[i : i + 2] for i in range(0, len(cards), 2)]
        hands = [list(h) for h in self.hands]
        for card in laid:
            hands[self.current].remove(card)
        return Game(self.rules, hands, 1 - self.current, [*self.log, (self.current, text)])

    def points(self, side: int) -> int:
        return -len(self.hands[side])

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        left = [len(h) for h in self.hands]
        ranks = tuple(sum(1 for q in left if q < p) for p in left)
        firsts = [i for i, r in enumerate(ranks) if r == 0]
        winner = firsts[0] if len(firsts) == 1 else None
        return Outcome(ranks, points=tuple(-n for n in left), winner=winner)

    def hand(self, seat: int) -> tuple[str, ...]:
        return tuple(self.hands[seat])

    @property
    def winner(self) -> int | None:
        o = self.outcome()
        if o is None:
            return None
        firsts = [i for i, r in enumerate(o.ranks) if r == 0]
        return firsts[0] if len(firsts) == 1 else None

    @property
    def events(self) -> tuple[GameEvent, ...]:
        return ()  # a toy: the service's tests check its announcements on the views

    def view(self, seat: int | None) -> View:
        return View(
            seat=seat,
            players=self.players,
            sides=self.sides,
            hand=tuple(self.hands[seat]) if seat is not None else (),
            hand_counts=tuple(len(h) for h in self.hands),
            current_player=self.current_player,
            legal_moves=(
                tuple(self.legal_moves()) if seat is not None and seat == self.current else ()
            ),
            last_move=self.log[-1] if self.log else None,
            is_over=self.is_over,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "rules": self.rules.to_dict(),
            "hands": self.hands,
            "current": self.current,
            "log": [list(entry) for entry in self.log],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Game:
        return cls(
            Rules(**d["rules"]),
            [list(h) for h in d["hands"]],
            int(d["current"]),
            [(int(s), str(m)) for s, m in d["log"]],
        )


def new_game(rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    deck = [r + s for s in SUITS for r in RANKS]
    rng.shuffle(deck)
    hands = [deck[i * rules.hand : (i + 1) * rules.hand] for i in range(rules.players)]
    return Game(rules, hands, 0)


class LastMove:
    """A computer player: the last legal move (a discard, so games last a while)."""

    def choose(self, view: View, rng: random.Random) -> str:
        return view.legal_moves[-1]
