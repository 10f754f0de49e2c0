"""``greedy_move`` (sped up for the search's playouts) still picks what the plain rule picks."""

from __future__ import annotations

import random

import pytest

from engine import scopa
from engine.scopa.capture import capture_masks
from engine.scopa.playout import CARD_WORTH, SCOPA_WORTH, FastRules, greedy_move
from engine.scopa.tables import VALUE


def reference_greedy(
    hand: list[int], table: int, fast: FastRules, *, last_play: bool
) -> tuple[int, int]:
    """The rule as written before the speed-up: every card, every capture, first best wins."""
    best = (-1, 0, -1.0)
    for card in sorted(hand):
        for capture in capture_masks(table, card, fast.asso_piglia_tutto, fast.scopa_a_15):
            worth = sum(CARD_WORTH[i] for i in range(40) if capture >> i & 1) + CARD_WORTH[card]
            ace = fast.asso_piglia_tutto and VALUE[card] == 1
            if capture == table and not last_play and not ace:
                worth += SCOPA_WORTH
            if worth > best[2]:
                best = (card, capture, worth)
    if best[0] >= 0:
        return best[0], best[1]
    return min(sorted(hand), key=lambda c: (CARD_WORTH[c], -VALUE[c])), 0


@pytest.mark.parametrize(
    "rules",
    [scopa.Rules(), scopa.Rules(asso_piglia_tutto=True), scopa.Rules(scopa_a_15=True)],
    ids=["plain", "asso", "15"],
)
def test_greedy_move_matches_the_plain_rule(rules: scopa.Rules) -> None:
    fast = FastRules.of(rules)
    rng = random.Random(12)
    for _ in range(1500):
        cards = rng.sample(range(40), rng.randrange(1, 16))
        k = rng.randrange(1, min(10, len(cards)) + 1)
        hand, table = cards[:k], sum(1 << c for c in cards[k:])
        last_play = rng.random() < 0.1
        assert greedy_move(hand, table, fast, last_play=last_play) == reference_greedy(
            hand, table, fast, last_play=last_play
        )
