"""The data of a Scala 40 match: phases, table melds, hand results, the outcome, and the mutable
state a move works on (copied first, so a Game never changes).

Glossary: **mano** = one hand (deal to closing); **pozzo** = the discard pile; **tallone** = the
stock; **apertura** = opening; **chiusura in mano** = closing in the same turn as opening;
**rientro** = re-entering after elimination.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.cards import Card

from .melds import MeldShape, analyze_meld
from .rules import Rules

__all__ = ["HandResult", "Outcome", "Phase", "State", "TableMeld"]

# Table melds are checked with the loosest joker limit: a meld laid legally stays a meld.
_ANY_JOKERS = Rules(jokers_per_meld=4)


class Phase(StrEnum):
    """Where the turn stands: draw -> meld (open, meld, attach, swap; then discard) -> next turn.

    ``REENTRY``: between hands, an eliminated player chooses whether to re-enter.
    ``OVER``: the match has ended.
    """

    DRAW = "draw"
    MELD = "meld"
    REENTRY = "reentry"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: who laid it and its cards in laid order (a scala ascending)."""

    owner: int
    cards: tuple[Card, ...]
    shape: MeldShape = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shape = analyze_meld(self.cards, _ANY_JOKERS)
        if isinstance(shape, str):
            raise ValueError(shape)
        object.__setattr__(self, "shape", shape)

    @property
    def kind(self) -> str:
        """ "tris" (tris or quartetto) or "scala"."""
        return self.shape.kind

    @property
    def points(self) -> int:
        return self.shape.points

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "cards": str(self)}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: who closed (None: ended unclosed by the ``max_restocks`` safeguard),
    whether in hand, what each seat paid, who went out.

    ``penalties[seat]`` is what that seat added to its score (0 for seats not dealt in).
    """

    hand: int
    closer: int | None
    in_hand: bool
    penalties: tuple[int, ...]
    eliminated: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "closer": self.closer,
            "in_hand": self.in_hand,
            "penalties": list(self.penalties),
            "eliminated": list(self.eliminated),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandResult:
        return cls(
            hand=int(data["hand"]),
            closer=None if data["closer"] is None else int(data["closer"]),
            in_hand=bool(data["in_hand"]),
            penalties=tuple(int(p) for p in data["penalties"]),
            eliminated=tuple(int(s) for s in data["eliminated"]),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """The match result: the ``winner`` seat, ``ranks[seat]`` (0 = winner; a later elimination
    ranks higher, then the lower score; ties share a rank), ``points[seat]`` (the final scores,
    lower is better) and ``multiplier`` (always 1 in Scala 40)."""

    winner: int
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    multiplier: int = 1


@dataclass(slots=True)
class State:
    """Everything that changes; copied before each move so a Game never changes."""

    seed: int
    hand_no: int
    dealer: int
    current: int
    phase: Phase
    hands: list[list[Card]]
    melds: list[TableMeld]
    stock: list[Card]
    pile: list[Card]
    opened: list[bool]
    dealt: list[bool]  # in this hand
    active: list[bool]  # still in the match
    reentered: list[bool]
    out_at: list[int]  # hand number of elimination, 0 while in
    scores: list[int]
    turn: int = 0  # turns begun this hand, 0-based index of the current one
    opened_at_start: bool = False  # the current player had opened when the turn began
    pile_card: Card | None = None  # taken from the pozzo this turn and still held
    drawn: Card | None = None  # drawn from the tallone this turn (private to the player)
    must_open: bool = False  # ... by a player who has not opened: the opening must use it
    must_use: bool = False  # ... and it must be laid before anything else (not when free)
    no_attach: Card | None = None  # taken from the pozzo, discarded while it fitted a meld
    top_attachable: bool = False  # the pozzo's top fitted a table meld when discarded
    pile_free: bool = False  # first_pile_card_free still applies
    restocks: int = 0  # times the pozzo became the tallone in this hand
    pending: list[int] = field(default_factory=list)  # seats still to choose re-entry
    last_move: tuple[int, str] | None = None
    last_hand: HandResult | None = None
    winner: int | None = None

    def copy(self) -> State:
        return State(
            seed=self.seed,
            hand_no=self.hand_no,
            dealer=self.dealer,
            current=self.current,
            phase=self.phase,
            hands=[list(hand) for hand in self.hands],
            melds=list(self.melds),
            stock=list(self.stock),
            pile=list(self.pile),
            opened=list(self.opened),
            dealt=list(self.dealt),
            active=list(self.active),
            reentered=list(self.reentered),
            out_at=list(self.out_at),
            scores=list(self.scores),
            turn=self.turn,
            opened_at_start=self.opened_at_start,
            pile_card=self.pile_card,
            drawn=self.drawn,
            must_open=self.must_open,
            must_use=self.must_use,
            no_attach=self.no_attach,
            top_attachable=self.top_attachable,
            pile_free=self.pile_free,
            restocks=self.restocks,
            pending=list(self.pending),
            last_move=self.last_move,
            last_hand=self.last_hand,
            winner=self.winner,
        )
