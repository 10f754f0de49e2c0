"""What a Scopa-family game shows: one seat's view, the record of a finished smazzata, and the
outcome of a finished game.

Glossary: **smazzata** = one deal played out; **scopa** (plural **scope**) = a capture that sweeps
the table; **fuori** = declaring the game won during play (FIGS art. 16).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, parse_cards
from engine.scopa.rules import Rules

__all__ = ["Outcome", "ScopaView", "Smazzata"]


@dataclass(frozen=True, slots=True)
class Smazzata:
    """A finished smazzata: the cards each side took, its scope, and its scores.

    ``fuori`` is the side that declared fuori (the smazzata stopped there and the scores are the
    points then certain), else None.
    """

    number: int
    dealer: int
    piles: tuple[tuple[Card, ...], ...]
    scope: tuple[int, ...]
    scores: tuple[Mapping[str, int], ...]
    fuori: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "piles": [" ".join(map(str, p)) for p in self.piles],
            "scope": list(self.scope),
            "scores": [dict(s) for s in self.scores],
            "fuori": self.fuori,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Smazzata:
        return cls(
            number=int(data["number"]),
            dealer=int(data["dealer"]),
            piles=tuple(parse_cards(p) for p in data["piles"]),
            scope=tuple(int(s) for s in data["scope"]),
            scores=tuple({str(k): int(v) for k, v in s.items()} for s in data["scores"]),
            fuori=None if data.get("fuori") is None else int(data["fuori"]),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``ranks[side]`` (0 = first, ties share), ``points[side]``,
    ``winner``, and the FIGS ``multiplier`` (1 single, 2 double, 3 triple; 1 outside Scopone
    games to 8)."""

    winner: int
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    multiplier: int = 1


@dataclass(frozen=True, slots=True)
class ScopaView:
    """What one seat may see (``seat`` None: the public view, no hand at all)."""

    seat: int | None
    variant: str
    players: int
    sides: tuple[tuple[int, ...], ...]
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    table: tuple[Card, ...]
    deck_count: int
    dealer: int
    current_player: int | None
    captured_counts: tuple[int, ...]
    scope: tuple[int, ...]
    points: tuple[int, ...]
    target: int
    smazzata: int
    legal_moves: tuple[str, ...]
    last_move: tuple[int, str] | None
    history: tuple[tuple[int, str], ...]
    last_smazzata: tuple[Mapping[str, int], ...] | None
    is_over: bool
    winner: int | None
    rules: Rules = field(repr=False, compare=False, default_factory=Rules)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "variant": self.variant,
            "players": self.players,
            "sides": [list(s) for s in self.sides],
            "hand": [str(c) for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "table": [str(c) for c in self.table],
            "deck_count": self.deck_count,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "captured_counts": list(self.captured_counts),
            "scope": list(self.scope),
            "points": list(self.points),
            "target": self.target,
            "smazzata": self.smazzata,
            "legal_moves": list(self.legal_moves),
            "last_move": list(self.last_move) if self.last_move else None,
            "history": [list(h) for h in self.history],
            "last_smazzata": (
                [dict(s) for s in self.last_smazzata] if self.last_smazzata is not None else None
            ),
            "is_over": self.is_over,
            "winner": self.winner,
            "rules": self.rules.to_dict(),
        }
