"""A simple sensible Scala 40 player written from scratch (no ``engine.ai``): what a rummy player
who knows the usual advice would do, reading only the seat's view and its legal moves.

Glossary: **pozzo** = the discard pile; **tallone** = the stock; **tris** = cards of one rank;
**scala** = a run in one suit; **jolly** = the joker; **apertura** = the first melds (40 points).

* Draw: the pozzo when the engine lets us take it and its card joins cards of the hand (or, once
  opened, can be laid now); else the tallone.
* Open as soon as an opening is offered; then lay every meld (the longest first), take jokers back
  by swapping, attach every card that fits (a joker only to empty the hand).
* Discard the card with the fewest partners in the hand (same rank, or same suit within two
  ranks), the costliest on ties; never a joker while another card will do; avoid feeding a table
  meld.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["RummyPlayer"]

RANKS = "A23456789TJQK"
PENALTY = {r: (11 if r == "A" else min(RANKS.index(r) + 1, 10)) for r in RANKS}


def _plain(card: Any) -> str:
    return str(card).rstrip("'")


def _partners(card: str, hand: list[str]) -> int:
    if card == "*":
        return 99
    rank, suit = card[0], card[1]
    r = RANKS.index(rank)
    count = 0
    for other in hand:
        if other == "*":
            count += 1
            continue
        if other == card:
            continue  # the twin from the other deck: no help for a meld
        o_rank, o_suit = other[0], other[1]
        if o_rank == rank and o_suit != suit:
            count += 2
        elif o_suit == suit:
            d = abs(RANKS.index(o_rank) - r)
            if d in (1, 2) or (rank == "A" and o_rank in "QK") or (o_rank == "A" and rank in "QK"):
                count += 3 - min(d, 2) if d else 1
    return count


class RummyPlayer:
    """The simple rummy player (Scala 40)."""

    name = "rummy"

    def choose(self, view: Any, rng: random.Random) -> str:
        moves: list[str] = [str(m) for m in view.legal_moves]
        if not moves:
            raise ValueError("no legal move for this seat")
        if len(moves) == 1:
            return str(moves[0])
        if "in" in moves:
            return "in"
        hand = [_plain(c) for c in view.hand]
        if "p" in moves and view.pile_top is not None:
            opened = view.seat is not None and view.opened[view.seat]
            if opened or _partners(_plain(view.pile_top), hand) >= 2:
                return "p"
        if "t" in moves:
            return "t"
        opens = [m for m in moves if m.startswith("o ")]
        if opens:
            return max(opens, key=len)
        melds = [m for m in moves if m.startswith("m ")]
        if melds:
            return max(melds, key=len)
        swaps = [m for m in moves if m.startswith("s")]
        if swaps:
            return swaps[0]
        attaches = [m for m in moves if m.startswith("a")]
        plain_attaches = [m for m in attaches if "*" not in m.split()[1]]
        if plain_attaches:
            return plain_attaches[0]
        discards = [m for m in moves if m.startswith("d ")]
        if attaches and len(hand) <= 2:
            return attaches[0]
        if not discards:
            return moves[0]
        feeding = {m.split()[1] for m in attaches}

        def badness(move: str) -> tuple[int, int, int]:
            card = move.split()[1]
            if card == "*":
                return (99, 0, 0)
            return (
                _partners(card, hand),
                1 if card in feeding else 0,
                -PENALTY.get(card[0], 10),
            )

        return min(discards, key=badness)
