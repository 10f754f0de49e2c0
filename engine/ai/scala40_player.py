"""The Scala 40 heuristic player (``get_player("scala40")``), from the seat's view alone.

Glossary: **pozzo** = the discard pile; **tallone** = the stock; **tris** = 3-4 cards of one rank
in different suits; **scala** = a run in one suit; **jolly** = the joker; **apertura** = the first
melds (40 points or more); **attaccare** = add a card to a table meld; **chiusura** = emptying the
hand.

The plan of a good club player, in order:
* draw from the pozzo when its card joins cards of the hand (a tris or a run in the making) or, once
  opened, fits a table meld; otherwise from the tallone;
* open as soon as the engine offers an opening (its ``find_opening`` picks the best melds);
* once opened: take jokers back by swapping, lay every meld the hand holds (the longest first),
  attach every card that fits (a joker only when that empties or nearly empties the hand);
* discard the card least useful to the hand (fewest partners for a tris or a run), the costliest
  to be caught with, and least useful to the next player (a card that fits a table meld helps an
  opened next player; the card that player has just thrown away is safe);
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
from engine.cards import FRENCH_RANKS, Card
from engine.scala40 import Scala40View, can_attach, card_penalty, parse_move
from engine.scala40.moves import MoveKind

__all__ = ["Scala40Player", "easy_scala40", "medium_scala40"]

_ORDER = {rank: i for i, rank in enumerate(FRENCH_RANKS)}


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
        opening = [m for m in moves if kinds[m].kind is MoveKind.OPEN]
        if opening:
            return opening[0]
        seat = view.seat
        assert seat is not None
        hand = list(view.hand)
        swaps = [m for m in moves if kinds[m].kind is MoveKind.SWAP]
        if swaps and self.swaps:
            return swaps[0]
        melds = [m for m in moves if kinds[m].kind is MoveKind.MELD]
        if melds:
            return max(melds, key=lambda m: (sum(len(x) for x in kinds[m].melds), -moves.index(m)))
        attaches = []
        for m in moves:
            move = kinds[m]
            if move.kind is not MoveKind.ATTACH or move.card is None:
                continue
            if move.card.is_joker and len(hand) > 2:
                continue  # a joker in hand is worth more than a card fewer, until the close
            attaches.append(m)
        if attaches:
            return attaches[0]
        discards = [m for m in moves if kinds[m].kind is MoveKind.DISCARD]
        if not discards:
            return moves[0]
        if self.mistakes and rng.random() < self.mistakes:
            return rng.choice(discards)
        return min(discards, key=lambda m: self._keep_value(view, hand, kinds[m].card))

    def _draw(self, view: Scala40View, moves: Sequence[str]) -> str:
        if "p" not in moves:
            return "t"
        if "t" not in moves:
            return "p"
        if not self.pile:
            return "t"
        top = view.pile_top
        assert view.seat is not None and top is not None
        hand = list(view.hand)
        if top.is_joker:
            return "p"
        helps = usefulness(top, hand) >= 2.0
        if view.opened[view.seat]:
            helps = helps or any(can_attach(meld.cards, top) for meld in view.melds)
        return "p" if helps else "t"

    def _keep_value(self, view: Scala40View, hand: Sequence[Card], card: Card | None) -> float:
        """Lower = discard first: useless to us, expensive to hold, no help to the next player."""
        assert card is not None and view.seat is not None
        value = 3.0 * usefulness(card, hand)
        value -= card_penalty(card) / 5.0
        n = view.players
        following = next(
            ((view.seat + k) % n for k in range(1, n) if not view.eliminated[(view.seat + k) % n]),
            view.seat,
        )
        if view.opened[following] and any(can_attach(m.cards, card) for m in view.melds):
            value += 4.0  # the next player would attach it at once
        if view.last_move is not None and view.last_move[0] == following:
            taken = view.last_move[1]
            if taken.startswith("d ") and taken[2:].upper() == f"{card.rank}{card.suit}":
                value -= 1.0  # the next player just threw its like away: safe
        return value


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
