"""The Scala 40 heuristic player (``get_player("scala40")``), from the seat's view alone.

Glossary: **pozzo** = the discard pile; **tallone** = the stock; **tris** = 3-4 cards of one rank
in different suits; **scala** = a run in one suit; **jolly** = the joker; **apertura** = the first
melds (40 points or more); **attaccare** = add a card to a table meld; **chiusura** = emptying the
hand.

The plan of a good club player, in order:
* draw from the pozzo whenever the engine offers it (only to a player who opens with it now, or
  who has opened and lays it at once: a card nearer going down than a blind one), else the
  tallone;
* open as soon as the engine offers an opening (its ``find_opening`` picks the best melds);
* once opened: take a joker back when the hand is better for it, lay the meld that leaves the
  best hand, attach every card that fits (a joker only when that empties or nearly empties the
  hand);
* discard the card whose going leaves the best hand, priced by the exact hand evaluator of
  ``engine.scala40.ai.hand`` (melds complete and partial, the unseen cards that complete them,
  the penalty points at risk as the opponents near the close and our score nears elimination);
* closing follows: melds and attaches empty the hand, the last card is discarded.

The service's levels: ``hard`` is this player; ``medium`` (``get_player("scala40-medium")``) plays
the same plan but throws one discard in seven at random (``mistakes``); ``easy``
(``get_player("scala40-easy")``) is a beginner: it always draws from the tallone, never takes a
joker back, and throws a third of its discards at random. Both still open, meld and attach as
soon as they can.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.base import legal_moves_of
from engine.cards import FRENCH_RANKS, JOKER, Card
from engine.scala40 import Scala40View, parse_move
from engine.scala40.ai.hand import HandEvaluator
from engine.scala40.moves import Move, MoveKind

__all__ = ["Scala40Player", "easy_scala40", "medium_scala40"]

_ORDER = {rank: i for i, rank in enumerate(FRENCH_RANKS)}
JOKER_DISCARD = 6.0
LINKS_WEIGHT = 0.5


def _gap(a: Card, b: Card) -> int:
    """Rank distance of two cards of one suit, the ace counting low or high."""
    x, y = _ORDER[a.rank], _ORDER[b.rank]
    d = abs(x - y)
    if a.rank == "A" or b.rank == "A":
        d = min(d, 13 - max(x, y) + min(x, y))
    return d


def usefulness(card: Card, hand: Sequence[Card]) -> float:
    """How much ``card`` helps the melds ``hand`` could make (the card itself excluded once)."""
    if card.is_joker:
        return 100.0
    score = 0.0
    tris_suits = set()
    run_partners = set()
    for other in hand:
        if other is card or other.is_joker:
            continue
        if other.rank == card.rank and other.suit != card.suit:
            tris_suits.add(other.suit)
        elif other.suit == card.suit and other.rank != card.rank:
            gap = _gap(card, other)
            if gap <= 2:
                run_partners.add((other.rank, gap))
    score += 1.2 * len(tris_suits)
    score += sum(1.0 if gap == 1 else 0.6 for _, gap in run_partners)
    return score


class Scala40Player:
    """A heuristic Scala 40 player (see the module docstring); view-only, and deterministic for a
    given ``rng``. ``pile=False`` never draws from the pozzo, ``swaps=False`` never takes a joker
    back, ``mistakes`` is the share of discards chosen at random (a beginner's)."""

    name = "scala40"

    def __init__(self, *, pile: bool = True, swaps: bool = True, mistakes: float = 0.0) -> None:
        if not (isinstance(mistakes, int | float) and 0.0 <= mistakes <= 1.0):
            raise ValueError(f"mistakes must be between 0 and 1; got {mistakes!r}")
        self.pile = pile
        self.swaps = swaps
        self.mistakes = float(mistakes)

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        if not isinstance(view, Scala40View):
            raise TypeError("the scala40 player plays Scala 40; use another for this game")
        kinds = {m: parse_move(m) for m in moves}
        if "in" in moves:
            return "in"
        if "t" in moves or "p" in moves:
            return self._draw(view, moves)
        seat = view.seat
        assert seat is not None
        hand = list(view.hand)
        evaluator = HandEvaluator(view)
        opening = [m for m in moves if kinds[m].kind is MoveKind.OPEN]
        if opening:
            return opening[0]
        swaps = [m for m in moves if kinds[m].kind is MoveKind.SWAP]
        if swaps and self.swaps:
            now = evaluator.cost(hand)
            best = min(swaps, key=lambda m: self._after_swap(evaluator, hand, kinds[m]))
            if self._after_swap(evaluator, hand, kinds[best]) < now:
                return best
        melds = [m for m in moves if kinds[m].kind is MoveKind.MELD]
        if melds:
            return min(melds, key=lambda m: evaluator.cost(_less(hand, *kinds[m].melds)))
        attaches = []
        for m in moves:
            move = kinds[m]
            if move.kind is not MoveKind.ATTACH or move.card is None:
                continue
            if move.card.is_joker and len(hand) > 2:
                continue  # a joker in hand is worth more than a card fewer, until the close
            attaches.append(m)
        if attaches:
            return min(attaches, key=lambda m: evaluator.without(hand, _card(kinds[m].card)))
        discards = [m for m in moves if kinds[m].kind is MoveKind.DISCARD]
        if not discards:
            return moves[0]
        if self.mistakes and rng.random() < self.mistakes:
            return rng.choice(discards)
        return min(discards, key=lambda m: self._discard_cost(evaluator, hand, kinds[m].card))

    def _draw(self, view: Scala40View, moves: Sequence[str]) -> str:
        """The pozzo whenever the engine offers it: it is offered only to a player who opens
        with it now, or who has opened and lays it at once, a card nearer going down either way
        than a blind one from the tallone."""
        if "p" not in moves:
            return "t"
        if "t" not in moves:
            return "p"
        return "p" if self.pile else "t"

    @staticmethod
    def _after_swap(evaluator: HandEvaluator, hand: Sequence[Card], move: Move) -> float:
        assert move.card is not None
        return evaluator.cost([*_less(hand, (move.card,)), Card(JOKER, "")])

    @staticmethod
    def _discard_cost(evaluator: HandEvaluator, hand: Sequence[Card], card: Card | None) -> float:
        """Lower = discard first: what the hand is worth without it (``HandEvaluator``), plus a
        little for the links the card has with the others (``usefulness``: a card with several
        partners keeps several ways to a meld open, which the best split alone does not see); a
        joker never goes while another card can (the next player would take it)."""
        assert card is not None
        rest = list(hand)
        rest.remove(card)
        value = evaluator.cost(rest) + LINKS_WEIGHT * usefulness(card, hand)
        if card.is_joker:
            value += JOKER_DISCARD
        return value


def _card(card: Card | None) -> Card:
    assert card is not None
    return card


def _less(hand: Sequence[Card], *melds: Sequence[Card]) -> list[Card]:
    """``hand`` less the cards of ``melds`` (one copy each)."""
    rest = list(hand)
    for meld in melds:
        for card in meld:
            rest.remove(card)
    return rest


def easy_scala40() -> Scala40Player:
    """The beginner of the ``easy`` level (see the module docstring)."""
    player = Scala40Player(pile=False, swaps=False, mistakes=1 / 3)
    player.name = "scala40-easy"
    return player


def medium_scala40() -> Scala40Player:
    """The ``medium`` level (see the module docstring)."""
    player = Scala40Player(mistakes=1 / 7)
    player.name = "scala40-medium"
    return player
