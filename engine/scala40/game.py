"""The Scala 40 match: deal, turns in explicit phases, closing, scoring, elimination, reentry.

Glossary: **mano** = one hand (deal to closing); **cartaio/mazziere** = dealer; **pozzo** = the
discard pile; **tallone** = the stock; **apertura** = opening; **chiusura** = closing (emptying
the hand); **chiusura in mano** = closing in the same turn as opening; **sballare** = reaching the
elimination score; **rientro** = re-entering after elimination.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from engine.cards import JOKER, Card, french_deck, parse_card
from engine.errors import Problem

from .melds import (
    MeldShape,
    analyze_meld,
    attach_ends,
    hand_penalty,
    sort_cards,
    swap_fits,
    swap_index,
)
from .moves import IllegalMove, Move, MoveKind, parse_move
from .opening import Opening, find_opening, hand_melds
from .rules import Rules, RulesError
from .view import Scala40View, make_view

__all__ = [
    "SCHEMA",
    "Game",
    "HandResult",
    "Outcome",
    "Phase",
    "TableMeld",
    "new_game",
]

logger = logging.getLogger(__name__)

SCHEMA = 1
HAND_SIZE = 13
DECK_SIZE = 108
CLOSE_IN_HAND_BONUS = -25
FLAT_UNOPENED = 100
# Every card of the two decks by its saved form ("7D", "7D'", "*"): loading a game is frequent.
_TOKENS: Mapping[str, Card] = MappingProxyType(
    {str(card): card for card in (*french_deck(0), *french_deck(1))}
)
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
class _State:
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

    def copy(self) -> _State:
        return _State(
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


def new_game(
    rules: Rules | None = None, seed: int | None = None, *, rng: random.Random | None = None
) -> Game:
    """A new match: random first dealer, first hand dealt. Pass ``seed`` (an int) or ``rng``
    (a ``random.Random`` that supplies the seed); the same seed and moves give the same game."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise RulesError("rules must be scala40.Rules, not {kind}", kind=type(rules).__name__)
    if seed is None:
        if rng is None:
            raise ValueError("new_game needs a seed (int) or an rng (random.Random)")
        seed = rng.getrandbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    n = rules.players
    dealer = _rng(seed, "dealer").randrange(n)
    state = _State(
        seed=seed,
        hand_no=1,
        dealer=dealer,
        current=dealer,
        phase=Phase.DRAW,
        hands=[[] for _ in range(n)],
        melds=[],
        stock=[],
        pile=[],
        opened=[False] * n,
        dealt=[True] * n,
        active=[True] * n,
        reentered=[False] * n,
        out_at=[0] * n,
        scores=[0] * n,
    )
    _Turns(rules, state).deal()
    return Game(rules, state)


def _rng(seed: int, label: str) -> random.Random:
    # A string seed is hashed deterministically (random.seed version 2) on every platform.
    return random.Random(f"scala40/{seed}/{label}")


class _Turns:
    """The rules applied to a state being built (a fresh copy): every mutation lives here."""

    def __init__(self, rules: Rules, state: _State) -> None:
        self.rules = rules
        self.s = state

    # -- questions -------------------------------------------------------------------------

    @property
    def hand(self) -> list[Card]:
        return self.s.hands[self.s.current]

    def closing_allowed(self) -> bool:
        """docs/rules.md: "No one may close before every player has had at least one turn"."""
        return self.s.turn >= sum(self.s.dealt)

    def min_left(self) -> int:
        # In the first round a player must keep two cards: one to discard, one to hold.
        return 0 if self.closing_allowed() else 2

    def pile_opening(self) -> Opening | None:
        """The best opening that uses the pozzo's top together with the hand, if any."""
        if not self.s.pile:
            return None
        return find_opening(
            self.hand, self.rules, pile_card=self.s.pile[-1], min_left=self.min_left()
        )

    def pile_is_free(self) -> bool:
        return self.s.pile_free and len(self.s.pile) == 1

    def may_take_pile(self) -> bool:
        s = self.s
        if not s.pile:
            return False
        if not s.opened[s.current]:
            return self.pile_is_free() or self.pile_opening() is not None
        # An opened player takes it to lay it now: try, on a copy.
        trial = _Turns(self.rules, s.copy())
        try:
            trial.draw_pile()
        except IllegalMove:
            return False
        return True

    def attachable(self, card: Card) -> bool:
        """Whether ``card`` fits some table meld (at an end of a scala, or into a tris)."""
        return any(attach_ends(meld.shape, card, self.rules) for meld in self.s.melds)

    def discardable(self) -> list[Card]:
        """The distinct cards (rank and suit) the current player may discard now."""
        hand = self.hand
        if self.s.phase is not Phase.MELD or not hand or self.s.must_open or self.s.must_use:
            return []
        if len(hand) == 1 and not self.closing_allowed():
            return []
        distinct = list(dict.fromkeys(_without_pile(hand, self.s.pile_card)))
        if self.rules.discard_attachable == "forbidden" and len(hand) > 1:
            # Regole Scala 40: the holder keeps such a card until able to attach it; when every card
            # fits a meld the player could not end the turn at all, so then any card may go.
            keep = [card for card in distinct if not self.attachable(card)]
            if keep:
                return keep
        return distinct

    def turn_end_problem(
        self, hand_after: Sequence[Card], pile_card_after: Card | None
    ) -> Problem | None:
        """Why a move that leaves ``hand_after`` would leave no way to end the turn, or None."""
        if not hand_after:
            if self.closing_allowed():
                return None
            return Problem(
                "no one may close before every player has had a turn: keep a card to discard"
            )
        if not _without_pile(hand_after, pile_card_after):
            return Problem(
                "you would keep only {card}, taken from the pozzo this turn, "
                "which you may not discard",
                card=pile_card_after,
            )
        if len(hand_after) == 1 and not self.closing_allowed():
            return Problem(
                "no one may close before every player has had a turn: keep two cards, "
                "one to discard"
            )
        return None

    # -- what may be played (read only) ---------------------------------------------------

    def offers(self) -> list[Move]:
        """The legal moves listed for the current player (see the package docstring)."""
        s = self.s
        if s.phase is Phase.OVER:
            return []
        if s.phase is Phase.REENTRY:
            return [Move(MoveKind.REENTER), Move(MoveKind.DECLINE)]
        if s.phase is Phase.DRAW:
            moves = [Move(MoveKind.DRAW_STOCK)] if s.stock else []
            if self.may_take_pile():
                moves.append(Move(MoveKind.DRAW_PILE))
            return moves
        moves = []
        if not s.opened[s.current]:
            opening = self.opening_offer()
            if opening is not None:
                moves.append(Move(MoveKind.OPEN, melds=opening.melds))
        else:
            moves += self.meld_offers()
        moves += [Move(MoveKind.DISCARD, card=card) for card in sort_cards(self.discardable())]
        return moves

    def opening_offer(self) -> Opening | None:
        s = self.s
        hand = self.hand
        if s.must_open and s.pile_card is not None:
            rest = list(hand)
            rest.remove(s.pile_card)
            return find_opening(rest, self.rules, pile_card=s.pile_card, min_left=self.min_left())
        opening = find_opening(hand, self.rules, min_left=self.min_left())
        if (
            opening is None
            or self.turn_end_problem(opening.rest, _still(s.pile_card, opening)) is None
        ):
            return opening
        # Only the pozzo's card (taken free) would stay in hand: keep another card too.
        return find_opening(hand, self.rules, min_left=max(2, self.min_left()))

    def meld_offers(self) -> list[Move]:
        """Melds, attaches and swaps for an opened player; while the card taken from the pozzo
        waits to be used, only the moves that lay it."""
        s = self.s
        hand = self.hand
        pending = s.pile_card if s.must_use else None
        moves: list[Move] = []
        for new in hand_melds(hand, self.rules):
            if pending is not None and pending not in new:
                continue
            after = list(hand)
            for card in new:
                after.remove(card)
            pile_after = s.pile_card if s.pile_card not in new else None
            if self.turn_end_problem(after, pile_after) is None:
                moves.append(Move(MoveKind.MELD, melds=(new,)))
        distinct = sort_cards(dict.fromkeys(hand))
        if pending is not None:
            distinct = tuple(card for card in distinct if card == pending)
        for number, meld in enumerate(s.melds, start=1):
            for card in distinct:
                if s.no_attach is not None and card == s.no_attach:
                    continue
                ends = attach_ends(meld.shape, card, self.rules)
                if not ends:
                    continue
                after = list(hand)
                after.remove(card)
                pile_after = None if card == s.pile_card else s.pile_card
                if self.turn_end_problem(after, pile_after) is not None:
                    continue
                for end in ends if len(ends) > 1 else [""]:
                    moves.append(Move(MoveKind.ATTACH, card=card, target=number, end=end))
            if meld.shape.jokers:
                for card in distinct:
                    if card.is_joker or (s.no_attach is not None and card == s.no_attach):
                        continue
                    if swap_fits(meld.shape, card) is not None:
                        pile_after = None if card == s.pile_card else s.pile_card
                        after = list(hand)
                        after.remove(card)
                        after.append(Card(JOKER, ""))
                        if self.turn_end_problem(after, pile_after) is None:
                            moves.append(Move(MoveKind.SWAP, card=card, target=number))
        return moves

    # -- the flow --------------------------------------------------------------------------

    def deal(self) -> None:
        s, rules = self.s, self.rules
        deck = [*french_deck(0), *french_deck(1)]
        _rng(s.seed, f"hand{s.hand_no}").shuffle(deck)
        n = len(s.hands)
        s.dealt = list(s.active)
        s.hands = [[] for _ in range(n)]
        order = [(s.dealer + k) % n for k in range(1, n + 1)]
        for _ in range(HAND_SIZE):
            for seat in order:
                if s.dealt[seat]:
                    s.hands[seat].append(deck.pop())
        if rules.dealer_fourteen:
            s.hands[s.dealer].append(deck.pop())
            s.pile = []
        else:
            s.pile = [deck.pop()]
        s.stock = deck
        s.melds = []
        s.opened = [False] * n
        s.turn = 0
        s.pile_free = rules.first_pile_card_free
        s.restocks = 0
        s.top_attachable = False
        s.phase = Phase.DRAW
        if rules.dealer_fourteen:
            s.current = s.dealer
            self.begin_turn(skip_draw=True)
        else:
            s.current = self.next_seat(s.dealer)
            self.begin_turn()

    def next_seat(self, seat: int) -> int:
        n = len(self.s.hands)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.s.dealt[candidate]:
                return candidate
        raise AssertionError("no seat in the hand")

    def begin_turn(self, *, skip_draw: bool = False) -> None:
        s = self.s
        s.pile_card = None
        s.must_open = False
        s.must_use = False
        s.no_attach = None
        s.opened_at_start = s.opened[s.current]
        s.phase = Phase.MELD if skip_draw else Phase.DRAW
        if skip_draw:
            return
        if not s.stock and self.recycle():
            return
        if not s.stock and not self.may_take_pile():
            # Nothing to draw (every other card is in hands and melds): the sources are silent;
            # the turn goes on without a draw rather than blocking the hand.
            logger.debug("seat %s cannot draw: turn continues without a draw", s.current)
            s.phase = Phase.MELD

    def recycle(self) -> bool:
        """docs/rules.md: the discard pile except its top card is turned over to become the stock.

        With the ``max_restocks`` safeguard, once the tallone has been re-formed that many times
        in this hand, running out again ends the hand with nobody closing; True then.
        """
        s = self.s
        if len(s.pile) <= 1:
            return False
        limit = self.rules.max_restocks
        if limit and s.restocks >= limit:
            logger.debug("tallone out for the %s time: the hand ends unclosed", limit + 1)
            self.end_hand(None)
            return True
        s.restocks += 1
        s.stock = s.pile[-2::-1]
        s.pile = s.pile[-1:]
        return False

    def next_turn(self) -> None:
        self.s.current = self.next_seat(self.s.current)
        self.s.turn += 1
        self.begin_turn()

    def end_hand(self, closer: int | None) -> None:
        """Score the hand (``closer`` None: ended unclosed by ``max_restocks``; all pay)."""
        s, rules = self.s, self.rules
        # Chiusura in mano: the closer opened in this very turn (a player who never opened and
        # runs out of cards through turns without a draw has laid nothing down).
        in_hand = closer is not None and s.opened[closer] and not s.opened_at_start
        penalties = [0] * len(s.hands)
        for seat, hand in enumerate(s.hands):
            if not s.dealt[seat] or seat == closer:
                continue
            pay = hand_penalty(hand)
            if not s.opened[seat] and rules.unopened_pays == "100":
                pay = FLAT_UNOPENED
            if in_hand and rules.close_in_hand == "double":
                pay *= 2
            penalties[seat] = pay
        if in_hand and closer is not None and rules.close_in_hand == "bonus":
            penalties[closer] = CLOSE_IN_HAND_BONUS
        out = []
        for seat, pay in enumerate(penalties):
            s.scores[seat] += pay
            if s.active[seat] and s.scores[seat] >= rules.elimination:
                s.active[seat] = False
                s.out_at[seat] = s.hand_no
                out.append(seat)
        s.last_hand = HandResult(s.hand_no, closer, in_hand, tuple(penalties), tuple(out))
        s.pile_card = None
        s.must_open = False
        s.must_use = False
        s.no_attach = None
        s.pending = [seat for seat in out if rules.reentry and not s.reentered[seat]]
        if s.pending:
            s.phase = Phase.REENTRY
            s.current = s.pending[0]
        else:
            self.after_hand()

    def after_hand(self) -> None:
        s = self.s
        left = [seat for seat, active in enumerate(s.active) if active]
        if len(left) <= 1:
            s.phase = Phase.OVER
            s.winner = left[0] if left else None
            return
        n = len(s.hands)
        s.dealer = next(
            (s.dealer + step) % n for step in range(1, n + 1) if s.active[(s.dealer + step) % n]
        )
        s.hand_no += 1
        self.deal()

    # -- moves -----------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        s = self.s
        if s.phase is Phase.OVER:
            raise IllegalMove("the match is over")
        if s.phase is Phase.REENTRY:
            self.reentry(move)
            return
        if move.kind in (MoveKind.REENTER, MoveKind.DECLINE):
            raise IllegalMove("re-entry is chosen only between hands, by an eliminated player")
        if s.phase is Phase.DRAW:
            if move.kind is MoveKind.DRAW_STOCK:
                self.draw_stock()
            elif move.kind is MoveKind.DRAW_PILE:
                self.draw_pile()
            else:
                raise IllegalMove("draw first: t (from the tallone) or p (the pozzo's top card)")
            return
        if move.kind in (MoveKind.DRAW_STOCK, MoveKind.DRAW_PILE):
            raise IllegalMove("you have already drawn this turn")
        if move.kind is MoveKind.OPEN:
            self.lay(move, opening=True)
        elif move.kind is MoveKind.MELD:
            self.lay(move, opening=False)
        elif move.kind is MoveKind.ATTACH:
            self.attach(move)
        elif move.kind is MoveKind.SWAP:
            self.swap(move)
        else:
            self.discard(move)

    def draw_stock(self) -> None:
        s = self.s
        if not s.stock:
            raise IllegalMove("the tallone is empty: take the pozzo's top card")
        self.hand.append(s.stock.pop())
        s.pile_free = False
        s.phase = Phase.MELD
        if not s.stock:
            self.recycle()

    def draw_pile(self) -> None:
        s = self.s
        if not s.pile:
            raise IllegalMove("the pozzo is empty")
        top = s.pile[-1]
        must_open = False
        free = not s.opened[s.current] and self.pile_is_free()
        if not s.opened[s.current] and not free:
            if self.pile_opening() is None:
                need = self.rules.opening_points
                if self.closing_allowed():
                    raise IllegalMove(
                        "you have not opened: you may take {card} from the pozzo only to open "
                        "with it now, and your cards with {card} do not make {points} points",
                        card=top,
                        points=need,
                    )
                raise IllegalMove(
                    "you have not opened: you may take {card} from the pozzo only to open "
                    "with it now, and your cards with {card} do not make {points} points "
                    "while keeping two cards (first round)",
                    card=top,
                    points=need,
                )
            must_open = True
        s.pile.pop()
        self.hand.append(top)
        s.pile_card = top
        s.must_open = must_open
        # docs/rules.md: "a player who takes it must use it" (the free first card excepted: Regole
        # Scala 40 lets it be taken "senza aver l'obbligo di apertura").
        s.must_use = not free
        s.no_attach = top if s.top_attachable else None
        s.top_attachable = False
        s.phase = Phase.MELD
        if s.opened[s.current] and not self.meld_offers():
            if s.no_attach is not None:
                raise IllegalMove(
                    "you may take {card} from the pozzo only to lay it now, in a new meld: "
                    "it fits nowhere with your cards and the table",
                    card=top,
                )
            raise IllegalMove(
                "you may take {card} from the pozzo only to lay it now, in a meld or on one: "
                "it fits nowhere with your cards and the table",
                card=top,
            )

    def take(self, wanted: Sequence[Card]) -> list[Card]:
        """The hand's own card objects for ``wanted`` (the named deck copy first), removed."""
        hand = self.hand
        taken: list[Card] = []
        for card in wanted:
            matches = [i for i, held in enumerate(hand) if held == card]
            if not matches:
                have = Counter(wanted)[card]
                if have == 1:
                    raise IllegalMove("you do not hold {card}", card=card)
                raise IllegalMove("you do not hold {count} x {card}", count=have, card=card)
            pile = _pile_index(hand, self.s.pile_card)
            if pile in matches:
                # Laying a card equal to the one taken from the pozzo lays that very copy.
                taken.append(hand.pop(pile))
                continue
            exact = [i for i in matches if hand[i].deck == card.deck]
            taken.append(hand.pop((exact or matches)[0]))
        return taken

    def after_laying(self, laid: Sequence[Card]) -> None:
        """Common checks once cards left the hand for the table; ends the hand when it is empty."""
        s = self.s
        uses_pile = s.pile_card is not None and any(card == s.pile_card for card in laid)
        if s.must_use and not uses_pile:
            raise IllegalMove(
                "lay {card}, taken from the pozzo, before anything else", card=s.pile_card
            )
        if uses_pile:
            s.pile_card = None
            s.must_use = False
        problem = self.turn_end_problem(self.hand, s.pile_card)
        if problem:
            raise IllegalMove.of(problem)
        if not self.hand:
            self.end_hand(s.current)

    def lay(self, move: Move, *, opening: bool) -> None:
        s = self.s
        seat = s.current
        if opening and s.opened[seat]:
            raise IllegalMove("you have already opened: lay further melds with m")
        if not opening and not s.opened[seat]:
            raise IllegalMove(
                "open first (o): your first melds must make {points} points",
                points=self.rules.opening_points,
            )
        if not move.melds:
            raise IllegalMove("name at least one meld")
        shapes: list[MeldShape] = []
        for meld in move.melds:
            shape = analyze_meld(meld, self.rules)
            if isinstance(shape, Problem):
                raise IllegalMove.of(shape)
            shapes.append(shape)
        cards = [card for meld in move.melds for card in meld]
        # A refused move leaves nothing behind: play() works on a copy of the state.
        taken = self.take(cards)
        total = sum(shape.points for shape in shapes)
        if opening:
            if total < self.rules.opening_points:
                raise IllegalMove(
                    "opening needs {points} points, you have {total}",
                    points=self.rules.opening_points,
                    total=total,
                )
            if s.must_open and s.pile_card is not None and s.pile_card not in taken:
                raise IllegalMove(
                    "you took {card} from the pozzo: your opening must use it", card=s.pile_card
                )
            s.opened[seat] = True
            s.must_open = False
        position = 0
        for meld in move.melds:
            s.melds.append(TableMeld(seat, tuple(taken[position : position + len(meld)])))
            position += len(meld)
        self.after_laying(taken)

    def table_meld(self, move: Move) -> TableMeld:
        s = self.s
        if not s.opened[s.current]:
            raise IllegalMove(
                "open first (o): only after opening may you attach or swap "
                "(opening needs {points} points)",
                points=self.rules.opening_points,
            )
        if not 1 <= move.target <= len(s.melds):
            count = len(s.melds)
            if not count:
                raise IllegalMove(
                    "there is no meld {number}: the table has no melds", number=move.target
                )
            raise IllegalMove(
                "there is no meld {number}: melds are numbered 1 to {count}",
                number=move.target,
                count=count,
            )
        assert move.card is not None
        if s.no_attach is not None and move.card == s.no_attach:
            raise IllegalMove(
                "{card} was discarded while it fitted a meld: taken from the pozzo it may "
                "go into a new meld this turn, not onto a meld on the table",
                card=move.card,
            )
        return s.melds[move.target - 1]

    def attach(self, move: Move) -> None:
        s = self.s
        meld = self.table_meld(move)
        assert move.card is not None
        options = attach_ends(meld.shape, move.card, self.rules)
        if not options:
            raise IllegalMove(
                "{card} does not fit meld {number} ({meld})",
                card=move.card,
                number=move.target,
                meld=meld,
            )
        if move.end:
            if move.end not in options:
                if move.end == "<":
                    raise IllegalMove(
                        "{card} does not fit the low end of meld {number} ({meld})",
                        card=move.card,
                        number=move.target,
                        meld=meld,
                    )
                raise IllegalMove(
                    "{card} does not fit the high end of meld {number} ({meld})",
                    card=move.card,
                    number=move.target,
                    meld=meld,
                )
            end = move.end
        else:
            end = next(e for e in (">", "<", "") if e in options)
        (card,) = self.take([move.card])
        cards = (card, *meld.cards) if end == "<" else (*meld.cards, card)
        s.melds[move.target - 1] = TableMeld(meld.owner, cards)
        self.after_laying([card])

    def swap(self, move: Move) -> None:
        s = self.s
        meld = self.table_meld(move)
        assert move.card is not None
        index = swap_index(meld.shape, move.card)
        if isinstance(index, Problem):
            raise IllegalMove.of(index)
        (card,) = self.take([move.card])
        joker = meld.cards[index]
        cards = (*meld.cards[:index], card, *meld.cards[index + 1 :])
        s.melds[move.target - 1] = TableMeld(meld.owner, cards)
        self.hand.append(joker)
        self.after_laying([card])

    def discard(self, move: Move) -> None:
        s = self.s
        card = move.card
        assert card is not None
        if s.must_open:
            raise IllegalMove(
                "you took {card} from the pozzo: open with it before discarding", card=s.pile_card
            )
        if s.must_use:
            raise IllegalMove(
                "you took {card} from the pozzo: lay it (meld, attach or swap) before discarding",
                card=s.pile_card,
            )
        if card not in self.hand:
            raise IllegalMove("you do not hold {card}", card=card)
        if card not in _without_pile(self.hand, s.pile_card):
            raise IllegalMove(
                "you may not discard {card}: you took it from the pozzo this turn", card=card
            )
        if len(self.hand) == 1 and not self.closing_allowed():
            raise IllegalMove("no one may close before every player has had a turn")
        if card not in self.discardable():
            raise IllegalMove(
                "{card} fits a meld on the table: it may not be discarded "
                "(discard_attachable = forbidden); keep it until you can attach it",
                card=card,
            )
        fits = self.attachable(card)
        pile = _pile_index(self.hand, s.pile_card)
        copies = [i for i, held in enumerate(self.hand) if held == card and i != pile]
        exact = [i for i in copies if self.hand[i].deck == card.deck]
        s.pile.append(self.hand.pop((exact or copies)[0]))
        s.top_attachable = fits
        if len(s.pile) > 1:
            s.pile_free = False
        if not self.hand:
            self.end_hand(s.current)
        else:
            self.next_turn()

    def reentry(self, move: Move) -> None:
        s = self.s
        if move.kind not in (MoveKind.REENTER, MoveKind.DECLINE):
            raise IllegalMove(
                "you were eliminated: choose 'in' (re-enter) or 'out' before the next hand"
            )
        seat = s.pending.pop(0)
        if move.kind is MoveKind.REENTER:
            s.scores[seat] = max(score for other, score in enumerate(s.scores) if s.active[other])
            s.active[seat] = True
            s.reentered[seat] = True
            s.out_at[seat] = 0
        if s.pending:
            s.current = s.pending[0]
        else:
            self.after_hand()


class Game:
    """One Scala 40 match. Immutable from the outside: ``play()`` returns a new Game."""

    __slots__ = ("_legal", "_rules", "_s")

    def __init__(self, rules: Rules, state: _State) -> None:
        self._rules = rules
        self._s = state
        self._legal: list[Move] | None = None

    # -- the generic surface -------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> int:
        return self._rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Each player is a side of their own."""
        return tuple((seat,) for seat in range(self.players))

    @property
    def current_player(self) -> int | None:
        return None if self._s.phase is Phase.OVER else self._s.current

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def is_over(self) -> bool:
        return self._s.phase is Phase.OVER

    @property
    def winner(self) -> int | None:
        """The last player left in, once the match is over."""
        return self._s.winner

    def points(self, seat: int) -> int:
        """The seat's match score: penalty points added up over the hands (lower is better)."""
        return self._s.scores[self._seat(seat)]

    def outcome(self) -> Outcome | None:
        """None until the match is over."""
        s = self._s
        if s.phase is not Phase.OVER or s.winner is None:
            return None
        # The winner has out_at 0 (never out, or re-entered); later eliminations rank higher.
        keys = [(-(s.out_at[seat] or 10**9), s.scores[seat]) for seat in range(self.players)]
        ranks = tuple(sum(other < key for other in keys) for key in keys)
        return Outcome(winner=s.winner, ranks=ranks, points=tuple(s.scores))

    # -- Scala 40 state --------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards in the sorted-hand order (``scala40.sort_key``)."""
        return sort_cards(self._s.hands[self._seat(seat)])

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        """Table melds in the order laid; move strings number them from 1."""
        return tuple(self._s.melds)

    @property
    def pile_top(self) -> Card | None:
        return self._s.pile[-1] if self._s.pile else None

    @property
    def pile_count(self) -> int:
        return len(self._s.pile)

    @property
    def stock_count(self) -> int:
        return len(self._s.stock)

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def hand_number(self) -> int:
        """The number of the hand being played (from 1)."""
        return self._s.hand_no

    @property
    def seed(self) -> int:
        return self._s.seed

    @property
    def turn(self) -> int:
        """Turns begun in this hand before the current one (0 in the first player's first turn)."""
        return self._s.turn

    @property
    def closing_allowed(self) -> bool:
        """False in the first round of a hand, when nobody may close yet."""
        return _Turns(self._rules, self._s).closing_allowed()

    def hand_count(self, seat: int) -> int:
        return len(self._s.hands[self._seat(seat)])

    def has_opened(self, seat: int) -> bool:
        return self._s.opened[self._seat(seat)]

    def is_eliminated(self, seat: int) -> bool:
        return not self._s.active[self._seat(seat)]

    def has_reentered(self, seat: int) -> bool:
        return self._s.reentered[self._seat(seat)]

    @property
    def pile_card_taken(self) -> Card | None:
        """The card the current player took from the pozzo this turn, while still held."""
        return self._s.pile_card

    @property
    def must_open(self) -> bool:
        """The current player took the pozzo's card without having opened: the next move must be
        an opening that uses it."""
        return self._s.must_open

    @property
    def must_use(self) -> bool:
        """The current player took the pozzo's card and must lay it before anything else."""
        return self._s.must_use

    @property
    def last_move(self) -> tuple[int, str] | None:
        return self._s.last_move

    @property
    def last_hand(self) -> HandResult | None:
        return self._s.last_hand

    def all_cards(self) -> list[Card]:
        """Every card somewhere in the game: hands, melds, pozzo, tallone (always 108)."""
        s = self._s
        cards = [card for hand in s.hands for card in hand]
        cards += [card for meld in s.melds for card in meld.cards]
        return cards + s.pile + s.stock

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The moves the current player may make, each legal (see the package docstring for
        what is listed: an opening is offered as the best one by points)."""
        if self._legal is None:
            self._legal = _Turns(self._rules, self._s).offers()
        return list(self._legal)

    def play(self, move: Move | str) -> Game:
        """The game after the current player's ``move``; IllegalMove / MoveParseError if bad."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, Move):
            raise IllegalMove("a move is a Move or a string, not {kind}", kind=type(move).__name__)
        state = self._s.copy()
        seat = state.current
        _Turns(self._rules, state).apply(move)
        state.last_move = (seat, str(move))
        return Game(self._rules, state)

    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat!r}")
        return seat

    # -- views and persistence ---------------------------------------------------------------

    def view(self, seat: int | None) -> Scala40View:
        """What ``seat`` may see (its own hand and everything public); None = the public view."""
        if seat is not None:
            self._seat(seat)
        return make_view(self, seat)

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data with ``"schema"``; ``Game.from_dict`` restores it."""
        s = self._s
        return {
            "schema": SCHEMA,
            "game": "scala40",
            "rules": self._rules.to_dict(),
            "seed": s.seed,
            "hand_no": s.hand_no,
            "dealer": s.dealer,
            "current": s.current,
            "phase": s.phase.value,
            "hands": [_cards_text(hand) for hand in s.hands],
            "melds": [meld.to_dict() for meld in s.melds],
            "stock": _cards_text(s.stock),
            "pile": _cards_text(s.pile),
            "opened": list(s.opened),
            "dealt": list(s.dealt),
            "active": list(s.active),
            "reentered": list(s.reentered),
            "out_at": list(s.out_at),
            "scores": list(s.scores),
            "turn": s.turn,
            "opened_at_start": s.opened_at_start,
            "pile_card": None if s.pile_card is None else str(s.pile_card),
            "must_open": s.must_open,
            "must_use": s.must_use,
            "no_attach": None if s.no_attach is None else str(s.no_attach),
            "top_attachable": s.top_attachable,
            "pile_free": s.pile_free,
            "restocks": s.restocks,
            "pending": list(s.pending),
            "last_move": None if s.last_move is None else list(s.last_move),
            "last_hand": None if s.last_hand is None else s.last_hand.to_dict(),
            "winner": s.winner,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Restore ``to_dict()`` output; bad or inconsistent data raises ValueError."""
        if not isinstance(data, dict):
            raise ValueError(f"a saved Scala 40 game is a dict, not {type(data).__name__}")
        if data.get("schema") != SCHEMA or data.get("game") != "scala40":
            raise ValueError(
                f"not a Scala 40 game of schema {SCHEMA} "
                f"(game={data.get('game')!r}, schema={data.get('schema')!r})"
            )
        rules = Rules.from_dict(data["rules"])

        def parse_cards(text: str) -> tuple[Card, ...]:
            if not isinstance(text, str):
                raise TypeError(f"expected cards as a string, got {text!r}")
            return tuple(_TOKENS.get(token) or parse_card(token) for token in text.split())

        try:
            state = _State(
                seed=_int(data["seed"]),
                hand_no=_int(data["hand_no"]),
                dealer=_int(data["dealer"]),
                current=_int(data["current"]),
                phase=Phase(data["phase"]),
                hands=[list(parse_cards(text)) for text in data["hands"]],
                melds=[TableMeld(_int(m["owner"]), parse_cards(m["cards"])) for m in data["melds"]],
                stock=list(parse_cards(data["stock"])),
                pile=list(parse_cards(data["pile"])),
                opened=_bools(data["opened"]),
                dealt=_bools(data["dealt"]),
                active=_bools(data["active"]),
                reentered=_bools(data["reentered"]),
                out_at=[_int(v) for v in data["out_at"]],
                scores=[_int(v) for v in data["scores"]],
                turn=_int(data["turn"]),
                opened_at_start=bool(data["opened_at_start"]),
                pile_card=None if data["pile_card"] is None else parse_card(data["pile_card"]),
                must_open=bool(data["must_open"]),
                must_use=bool(data["must_use"]),
                no_attach=None if data["no_attach"] is None else parse_card(data["no_attach"]),
                top_attachable=bool(data["top_attachable"]),
                pile_free=bool(data["pile_free"]),
                restocks=_int(data["restocks"]),
                pending=[_int(v) for v in data["pending"]],
                last_move=None
                if data["last_move"] is None
                else (_int(data["last_move"][0]), str(data["last_move"][1])),
                last_hand=None
                if data["last_hand"] is None
                else HandResult.from_dict(data["last_hand"]),
                winner=None if data["winner"] is None else _int(data["winner"]),
            )
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ValueError(f"bad saved Scala 40 game: {error!r}") from error
        n = rules.players
        lists = (state.hands, state.opened, state.dealt, state.active, state.reentered,
                 state.out_at, state.scores)  # fmt: skip
        if any(len(values) != n for values in lists):
            raise ValueError(f"bad saved Scala 40 game: per-seat lists must have {n} entries")
        game = cls(rules, state)
        counts = Counter((card.rank, card.suit) for card in game.all_cards())
        if sum(counts.values()) != DECK_SIZE or any(
            count != (4 if rank == "*" else 2) for (rank, _), count in counts.items()
        ):
            raise ValueError("bad saved Scala 40 game: the cards are not the 108 of two decks")
        return game

    def __repr__(self) -> str:
        return (
            f"<scala40.Game hand={self._s.hand_no} phase={self._s.phase} "
            f"current={self.current_player} scores={self._s.scores}>"
        )


def _pile_index(hand: Sequence[Card], pile_card: Card | None) -> int | None:
    """Which copy in ``hand`` is the card taken from the pozzo (its own deck copy first)."""
    if pile_card is None:
        return None
    matches = [i for i, held in enumerate(hand) if held == pile_card]
    exact = [i for i in matches if hand[i].deck == pile_card.deck]
    chosen = exact or matches
    return chosen[0] if chosen else None


def _without_pile(hand: Sequence[Card], pile_card: Card | None) -> list[Card]:
    """The hand less the copy taken from the pozzo this turn (the cards that may be discarded)."""
    index = _pile_index(hand, pile_card)
    return [card for i, card in enumerate(hand) if i != index]


def _still(pile_card: Card | None, opening: Opening) -> Card | None:
    if pile_card is None or any(pile_card in meld for meld in opening.melds):
        return None
    return pile_card


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _bools(values: Any) -> list[bool]:
    if not isinstance(values, list) or not all(isinstance(v, bool) for v in values):
        raise TypeError(f"expected a list of booleans, got {values!r}")
    return list(values)
