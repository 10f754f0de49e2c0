"""A tiny game that follows the engine contract, to test the service apart from the real rules.

Each seat holds cards 1..hand; on a turn a seat plays one card ("3"), or "3!" ends the game at
once. Highest total wins (sides as in Scopa: 4 players = pairs 0+2 vs 1+3). Its events let the
announcements be tested: playing a card equal to the previous one is a "scopa", "!" a "fuori".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.contract import GameEvent
from engine.options import Option


class RulesError(ValueError):
    pass


class IllegalMove(ValueError):
    pass


@dataclass(frozen=True)
class Rules:
    players: int = 2
    hand: int = 3
    variant: str = "toy"

    def __post_init__(self) -> None:
        if not 1 <= self.hand <= 9:
            raise RulesError("hand must be 1..9")

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "hand": self.hand, "variant": self.variant}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        unknown = sorted(set(d) - {"players", "hand", "variant"})
        if unknown:
            raise RulesError(f"unknown option {unknown[0]}; the options are: hand, players")
        return cls(**d)

    @staticmethod
    def options() -> tuple[Option, ...]:
        return (
            Option("players", "int", 2, low=2, high=4, help="how many seats"),
            Option("hand", "int", 3, low=1, high=9, help="cards in each hand"),
            Option("variant", "choice", "toy", ("toy",), help="the only variant"),
        )


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    sides: tuple[tuple[int, ...], ...]
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    current_player: int | None
    legal_moves: tuple[str, ...]
    points: tuple[int, ...]
    scope: tuple[int, ...]
    smazzata: int
    last_smazzata: tuple[dict[str, int], ...] | None
    is_over: bool

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": list(self.hand)}


@dataclass(frozen=True)
class ToyEvent:
    kind: str
    seat: int | None
    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}


@dataclass(frozen=True)
class Outcome:
    ranks: tuple[int, ...]
    multiplier: int = 1
    points: tuple[int, ...] = ()
    winner: int | None = None  # None: first place shared


@dataclass
class Game:
    rules: Rules
    hands: list[list[int]]
    current: int | None
    played: list[tuple[int, int]] = field(default_factory=list)
    ended: bool = False

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self.players == 4:
            return ((0, 2), (1, 3))
        return tuple((i,) for i in range(self.players))

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    @property
    def is_over(self) -> bool:
        return self.ended or not any(self.hands)

    def legal_moves(self) -> list[str]:
        if self.is_over or self.current is None:
            return []
        cards = sorted(self.hands[self.current])
        return [str(c) for c in cards] + ([f"{cards[0]}!"] if len(self.played) >= 2 else [])

    def play(self, move: object) -> Game:
        text = str(move).strip()
        if text not in self.legal_moves():
            raise IllegalMove(f"{text!r} is not legal now")
        seat = self.current
        assert seat is not None
        card = int(text.rstrip("!"))
        hands = [list(h) for h in self.hands]
        hands[seat].remove(card)
        return Game(
            self.rules,
            hands,
            (seat + 1) % self.players,
            [*self.played, (seat, card)],
            text.endswith("!"),
        )

    def _scope(self) -> list[int]:
        scope = [0] * len(self.sides)
        for i in range(1, len(self.played)):
            if self.played[i][1] == self.played[i - 1][1]:
                scope[self._side(self.played[i][0])] += 1
        return scope

    def _side(self, seat: int) -> int:
        return next(i for i, s in enumerate(self.sides) if seat in s)

    def points(self, side: int) -> int:
        return sum(c for s, c in self.played if self._side(s) == side) + self._scope()[side]

    @property
    def winner(self) -> int | None:
        o = self.outcome()
        if o is None:
            return None
        firsts = [i for i, r in enumerate(o.ranks) if r == 0]
        return firsts[0] if len(firsts) == 1 else None

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        pts = [self.points(i) for i in range(len(self.sides))]
        ranks = tuple(sum(1 for q in pts if q > p) for p in pts)
        firsts = [i for i, r in enumerate(ranks) if r == 0]
        winner = firsts[0] if len(firsts) == 1 else None
        return Outcome(ranks, points=tuple(pts), winner=winner)

    def hand(self, seat: int) -> tuple[str, ...]:
        return tuple(str(c) for c in sorted(self.hands[seat]))

    @property
    def events(self) -> tuple[GameEvent, ...]:
        """The last card's scopa (equal to the card before it) and fuori ("!")."""
        if not self.played:
            return ()
        seat, card = self.played[-1]
        side = {"side": self._side(seat)}
        out: list[GameEvent] = []
        if len(self.played) >= 2 and self.played[-2][1] == card:
            out.append(ToyEvent("scopa", seat, side))
        if self.ended:
            out.append(ToyEvent("fuori", seat, side))
        return tuple(out)

    def view(self, seat: int | None) -> View:
        over = self.is_over
        return View(
            seat=seat,
            players=self.players,
            sides=self.sides,
            hand=tuple(str(c) for c in sorted(self.hands[seat])) if seat is not None else (),
            hand_counts=tuple(len(h) for h in self.hands),
            current_player=self.current_player,
            legal_moves=tuple(self.legal_moves())
            if seat is not None and seat == self.current_player
            else (),
            points=tuple(self.points(i) for i in range(len(self.sides))),
            scope=tuple(self._scope()),
            smazzata=1,
            last_smazzata=tuple(
                {"cards": self.points(i), "total": self.points(i)} for i in range(len(self.sides))
            )
            if over
            else None,
            is_over=over,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "rules": self.rules.to_dict(),
            "hands": self.hands,
            "current": self.current,
            "played": self.played,
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Game:
        return cls(
            Rules.from_dict(d["rules"]),
            [list(h) for h in d["hands"]],
            d["current"],
            [tuple(p) for p in d["played"]],  # type: ignore[misc]
            d["ended"],
        )


def new_game(rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    return Game(
        rules,
        [list(range(1, rules.hand + 1)) for _ in range(rules.players)],
        rng.randrange(rules.players),
    )


class FirstMove:
    """A computer player: the first legal move."""

    def choose(self, view: View, rng: random.Random) -> str:
        return view.legal_moves[0]


class RandomMove:
    def choose(self, view: View, rng: random.Random) -> str:
        return rng.choice([m for m in view.legal_moves if not m.endswith("!")] or view.legal_moves)
