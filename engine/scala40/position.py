"""What a Scala 40 position allows, read only: closing, discards, openings, melds, attaches and
swaps on offer, and why a move would leave a turn with no end (:class:`Position`).

Glossary: **pozzo** = the discard pile; **tallone** = the stock; **apertura** = opening;
**attaccare** = to add a card to a table meld; **chiusura** = closing (emptying the hand).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import JOKER, Card
from engine.errors import Problem

from .melds import attach_ends, sort_cards, swap_fits
from .moves import Move, MoveKind
from .opening import Opening, find_opening, hand_melds
from .rules import Rules
from .state import Phase, State, TableMeld

__all__ = ["Position", "pile_index", "still_held", "without_pile"]


class Position:
    """Questions about a state, for the player to move; nothing here changes it (the moves are
    :class:`engine.scala40.turns.Turns`)."""

    def __init__(self, rules: Rules, state: State) -> None:
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
        distinct = list(dict.fromkeys(without_pile(hand, self.s.pile_card)))
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
        if not without_pile(hand_after, pile_card_after):
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
            or self.turn_end_problem(opening.rest, still_held(s.pile_card, opening)) is None
        ):
            return opening
        # Only the pozzo's card (taken free) would stay in hand: keep another card too.
        return find_opening(hand, self.rules, min_left=max(2, self.min_left()))

    def meld_offers(self) -> list[Move]:
        """Melds, attaches and swaps for an opened player; while the card taken from the pozzo
        waits to be used, only the moves that lay it."""
        s = self.s
        pending = s.pile_card if s.must_use else None
        moves = self._meld_moves(pending)
        distinct = sort_cards(dict.fromkeys(self.hand))
        if pending is not None:
            distinct = tuple(card for card in distinct if card == pending)
        for number, meld in enumerate(s.melds, start=1):
            moves += self._attach_moves(number, meld, distinct)
            if meld.shape.jokers:
                moves += self._swap_moves(number, meld, distinct)
        return moves

    def _meld_moves(self, pending: Card | None) -> list[Move]:
        """The new melds the hand can lay (each laying ``pending``, if any)."""
        s = self.s
        hand = self.hand
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
        return moves

    def _attach_moves(self, number: int, meld: TableMeld, distinct: Sequence[Card]) -> list[Move]:
        """The cards of ``distinct`` that attach to table meld ``number``, at each end."""
        s = self.s
        moves: list[Move] = []
        for card in distinct:
            if s.no_attach is not None and card == s.no_attach:
                continue
            ends = attach_ends(meld.shape, card, self.rules)
            if not ends:
                continue
            after = list(self.hand)
            after.remove(card)
            pile_after = None if card == s.pile_card else s.pile_card
            if self.turn_end_problem(after, pile_after) is not None:
                continue
            for end in ends if len(ends) > 1 else [""]:
                moves.append(Move(MoveKind.ATTACH, card=card, target=number, end=end))
        return moves

    def _swap_moves(self, number: int, meld: TableMeld, distinct: Sequence[Card]) -> list[Move]:
        """The cards of ``distinct`` that take a joker back from table meld ``number``."""
        s = self.s
        moves: list[Move] = []
        for card in distinct:
            if card.is_joker or (s.no_attach is not None and card == s.no_attach):
                continue
            if swap_fits(meld.shape, card) is not None:
                pile_after = None if card == s.pile_card else s.pile_card
                after = list(self.hand)
                after.remove(card)
                after.append(Card(JOKER, ""))
                if self.turn_end_problem(after, pile_after) is None:
                    moves.append(Move(MoveKind.SWAP, card=card, target=number))
        return moves


def pile_index(hand: Sequence[Card], pile_card: Card | None) -> int | None:
    """Which copy in ``hand`` is the card taken from the pozzo (its own deck copy first)."""
    if pile_card is None:
        return None
    matches = [i for i, held in enumerate(hand) if held == pile_card]
    exact = [i for i in matches if hand[i].deck == pile_card.deck]
    chosen = exact or matches
    return chosen[0] if chosen else None


def without_pile(hand: Sequence[Card], pile_card: Card | None) -> list[Card]:
    """The hand less the copy taken from the pozzo this turn (the cards that may be discarded)."""
    index = pile_index(hand, pile_card)
    return [card for i, card in enumerate(hand) if i != index]


def still_held(pile_card: Card | None, opening: Opening) -> Card | None:
    if pile_card is None or any(pile_card in meld for meld in opening.melds):
        return None
    return pile_card
