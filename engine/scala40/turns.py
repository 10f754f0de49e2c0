"""Every change of a Scala 40 state: the deal, the turn's flow, each kind of move, the end of a hand
and of the match (:class:`Turns`, on a fresh copy of the state that ``Game.play`` made).

Glossary: **mano** = one hand (deal to closing); **cartaio** = the dealer; **pozzo** = the discard
pile; **tallone** = the stock; **apertura** = opening; **chiusura** = closing (emptying the hand);
**chiusura in mano** = closing in the same turn as opening; **sballare** = reaching the elimination
score; **rientro** = re-entering after elimination.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Sequence

from engine.cards import Card, french_deck
from engine.errors import Problem

from .events import (
    Attached,
    Closed,
    Dealt,
    Discarded,
    Drew,
    Eliminated,
    GameOver,
    HandScored,
    Melded,
    Opened,
    Reentered,
    Restocked,
    Scala40Event,
    StayedOut,
    Swapped,
)
from .melds import MeldShape, analyze_meld, attach_ends, hand_penalty, sort_cards, swap_index
from .moves import IllegalMove, Move, MoveKind
from .position import Position, pile_index, without_pile
from .rules import Rules
from .state import HandResult, Phase, State, TableMeld

__all__ = ["CLOSE_IN_HAND_BONUS", "FLAT_UNOPENED", "HAND_SIZE", "Turns", "rng_for"]

logger = logging.getLogger(__name__)

HAND_SIZE = 13
CLOSE_IN_HAND_BONUS = -25
FLAT_UNOPENED = 100


def rng_for(seed: int, label: str) -> random.Random:
    # A string seed is hashed deterministically (random.seed version 2) on every platform.
    return random.Random(f"scala40/{seed}/{label}")


class Turns(Position):
    """The rules applied to a state being built (a fresh copy): every mutation lives here, and
    ``events`` tells what happened (``engine.scala40.events``)."""

    def __init__(self, rules: Rules, state: State) -> None:
        super().__init__(rules, state)
        self.events: list[Scala40Event] = []

    # -- what may be played ----------------------------------------------------------------

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

    def may_take_pile(self) -> bool:
        s = self.s
        if not s.pile:
            return False
        if not s.opened[s.current]:
            return self.pile_is_free() or self.pile_opening() is not None
        # An opened player takes it to lay it now: try, on a copy.
        trial = Turns(self.rules, s.copy())
        try:
            trial.draw_pile()
        except IllegalMove:
            return False
        return True

    # -- the flow --------------------------------------------------------------------------

    def deal(self) -> None:
        s, rules = self.s, self.rules
        deck = [*french_deck(0), *french_deck(1)]
        rng_for(s.seed, f"hand{s.hand_no}").shuffle(deck)
        self.events.append(Dealt(s.dealer, s.hand_no))
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
        s.drawn = None
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
        self.events.append(Restocked(len(s.stock), s.restocks))
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
        if closer is not None:
            self.events.append(Closed(closer, in_hand))
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
        self.events.append(
            HandScored(closer, s.hand_no, in_hand, tuple(penalties), tuple(s.scores), tuple(out))
        )
        self.events += [Eliminated(seat, s.scores[seat]) for seat in out]
        s.pile_card = None
        s.drawn = None
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
            self.events.append(GameOver(s.winner))
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
        s.drawn = s.stock.pop()
        self.hand.append(s.drawn)
        s.pile_free = False
        s.phase = Phase.MELD
        # The card stays out of the event: only the player's own view names it.
        self.events.append(Drew(s.current, "tallone"))
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
        self.events.append(Drew(s.current, "pozzo", top))

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
            pile = pile_index(hand, self.s.pile_card)
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
        first = len(s.melds) + 1
        for meld in move.melds:
            s.melds.append(TableMeld(seat, tuple(taken[position : position + len(meld)])))
            position += len(meld)
        laid = tuple(meld.cards for meld in s.melds[first - 1 :])
        if opening:
            self.events.append(Opened(seat, laid, first, total))
        else:
            self.events.append(Melded(seat, laid, first))
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
        self.events.append(Attached(s.current, card, move.target, end))
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
        self.events.append(Swapped(s.current, card, move.target))
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
        if card not in without_pile(self.hand, s.pile_card):
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
        pile = pile_index(self.hand, s.pile_card)
        copies = [i for i, held in enumerate(self.hand) if held == card and i != pile]
        exact = [i for i in copies if self.hand[i].deck == card.deck]
        s.pile.append(self.hand.pop((exact or copies)[0]))
        self.events.append(Discarded(s.current, s.pile[-1]))
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
            self.events.append(Reentered(seat, s.scores[seat]))
        else:
            self.events.append(StayedOut(seat))
        if s.pending:
            s.current = s.pending[0]
        else:
            self.after_hand()
