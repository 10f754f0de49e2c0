"""Dealing a Scopa-family smazzata: the packets each variant deals, and the re-deal rule.

Glossary: **smazzata** = one deal played out; **mazziere** / **cartaro** = the dealer; **primo di
mano** = the seat after the dealer, served first.

Cards are indices 0-39 (``engine.scopa.tables``); hands and the table are bit masks. Each shuffle
has its own random stream (``stream(seed, n)``), so a game is fixed by its seed.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine.scopa.rules import Rules
from engine.scopa.tables import KING_MASK, VALUE, indices_of

__all__ = ["Deal", "deal", "needs_redeal", "stream"]

_MAX_REDEALS = 10_000  # a re-deal happens about once in fifty deals; this bound is never reached


class Deal(NamedTuple):
    """A smazzata dealt: each seat's hand and the table (masks), the rest of the deck (dealt
    from its end), and how many shuffles the game has made, this one's included."""

    hands: list[int]
    table: int
    deck: list[int]
    shuffles: int


def deal(rules: Rules, *, seed: int, dealer: int, shuffles: int) -> Deal:
    """Shuffle and deal a smazzata by ``dealer``, shuffling again (by the same dealer) as long as
    the table calls for it; ``shuffles`` is the count of the game's shuffles so far."""
    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    for _ in range(_MAX_REDEALS):
        shuffles += 1
        deck = list(range(40))
        random.Random(stream(seed, shuffles)).shuffle(deck)
        hands = [0] * n
        table = 0
        if rules.variant == "scopa":
            # Aiuto: three to each player, then four face up on the table.
            for seat in order:
                for _ in range(3):
                    hands[seat] |= 1 << deck.pop()
            for _ in range(4):
                table |= 1 << deck.pop()
            redeal = needs_redeal(rules.variant, table)
        elif rules.variant == "scopone":
            # FIGS art. 4: three each, two to the table, three each, two, three each.
            for packet in (3, 2, 3, 2, 3):
                if packet == 2:
                    table |= (1 << deck.pop()) | (1 << deck.pop())
                    continue
                for seat in order:
                    for _ in range(3):
                        hands[seat] |= 1 << deck.pop()
            redeal = needs_redeal(rules.variant, table)
        else:  # scientifico: ten each, in two packets of five, nothing on the table
            for _ in range(2):
                for seat in order:
                    for _ in range(5):
                        hands[seat] |= 1 << deck.pop()
            redeal = False
        if not redeal:
            break
    else:  # pragma: no cover - probability far below 1e-100
        raise RuntimeError("could not deal a valid smazzata")
    return Deal(hands, table, deck, shuffles)


def needs_redeal(variant: str, table: int) -> bool:
    """Whether the first four table cards (a mask) call for a new deal by the same dealer.

    Scopa: 3 or 4 kings (Regolamento Scopa, Aiuto, The game of Scopa); Scopone: 3 or more kings, or
    the four cards summing to 10 or less (FIGS art. 6); Scopone scientifico deals nothing to the
    table.
    """
    if variant == "scientifico":
        return False
    kings = (table & KING_MASK).bit_count() >= 3
    if variant == "scopone":
        return kings or sum(VALUE[i] for i in indices_of(table)) <= 10
    return kings


def stream(seed: int, deal: int) -> int:
    """The seed of one random stream of a game: 0 chooses the first dealer, n shuffles deal n."""
    return (seed << 32) | deal
