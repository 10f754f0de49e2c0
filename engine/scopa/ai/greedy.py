"""The classical beginner of the Scopa family (``greedy``, alias ``easy``).

Greedy is the "easy" level, and the baseline every strength figure is measured against: it
captures the most valuable set it can (settebello, denari, primiera cards, a scopa, cards), and
when nothing captures it throws its least valuable card.
"""

from __future__ import annotations

import random

from engine.ai.base import legal_moves_of
from engine.scopa import ScopaView
from engine.scopa.playout import FastRules, greedy_move
from engine.scopa.tables import CARD_TEXT, INDEX, indices_of, mask_of

__all__ = ["GreedyPlayer"]


class GreedyPlayer:
    """The classical beginner (Scopa family); never declares fuori.

    It always captures when it can, so it also obeys ``obbligo_di_presa``.
    """

    name = "greedy"

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        if not isinstance(view, ScopaView):
            raise TypeError("the greedy player plays the Scopa family; use another for this game")
        hand = [INDEX[c] for c in view.hand]
        last_play = view.deck_count == 0 and sum(view.hand_counts) == 1
        card, capture = greedy_move(
            hand, mask_of(view.table), FastRules.of(view.rules), last_play=last_play
        )
        text = CARD_TEXT[card]
        if capture:
            text += ":" + "+".join(CARD_TEXT[i] for i in indices_of(capture))
        if text not in moves:  # greedy_move follows the engine's capture rules: never happens
            raise AssertionError(f"greedy chose {text}, which is not among {moves}")
        return text
