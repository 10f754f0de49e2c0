"""Scopa (2, 3 or 4 players), Scopone (FIGS) and Scopone scientifico, exact to docs/rules.md.

```python
from engine import scopa
rules = scopa.Rules(variant="scopone", target=8)       # docs/rules.md options; bad: RulesError
scopa.Rules.options()                                  # each option: kind, values, default, help
game = scopa.new_game(rules, seed=7)                   # same seed + same moves = same game
game.legal_moves(); game = game.play("7D:3C+4S")       # IllegalMove / MoveParseError otherwise
game.events                                            # what it did: Captured, Scopa, ...
scopa.capture_options(table, card)                     # [] = the card stays on the table
scopa.score_smazzata(piles, scope)                     # per side: carte, denari, ..., total
```
Move strings: ``"7D"`` (no capture), ``"7D:3C+4S"`` (capture), a trailing ``"!"`` declares fuori.
See ``engine.scopa.game`` for the state (with ``moves``, ``deal``, ``view`` and ``events`` beside
it), ``engine.scopa.playout`` for the fast path the computer players use.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card
from engine.scopa.capture import capture_masks
from engine.scopa.game import (
    SCHEMA,
    Game,
    IllegalMove,
    Move,
    MoveParseError,
    Outcome,
    ScopaView,
    Smazzata,
    new_game,
)
from engine.scopa.rules import OPTIONS, PRIMIERA_MODES, VARIANTS, Rules, RulesError
from engine.scopa.scoring import SCORE_KEYS, score_smazzata
from engine.scopa.tables import INDEX, cards_of, mask_of

__all__ = [
    "OPTIONS",
    "PRIMIERA_MODES",
    "SCHEMA",
    "SCORE_KEYS",
    "VARIANTS",
    "Game",
    "IllegalMove",
    "Move",
    "MoveParseError",
    "Outcome",
    "Rules",
    "RulesError",
    "ScopaView",
    "Smazzata",
    "capture_options",
    "new_game",
    "score_smazzata",
]


def capture_options(
    table: Iterable[Card], card: Card, rules: Rules | None = None
) -> list[frozenset[Card]]:
    """The sets of table cards that ``card`` may capture; [] means it stays on the table."""
    rules = rules or Rules()
    table_mask = mask_of(table)
    index = INDEX.get(card)
    if index is None:
        raise ValueError(f"{card} is not a card of the Italian 40-card deck")
    if table_mask >> index & 1:
        raise ValueError(f"{card} is on the table already")
    options = capture_masks(
        table_mask,
        index,
        asso_piglia_tutto=rules.asso_piglia_tutto,
        scopa_a_15=rules.scopa_a_15,
    )
    return [frozenset(cards_of(o)) for o in options]
