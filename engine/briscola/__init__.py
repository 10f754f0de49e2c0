"""Briscola (2, 3 or 4 players; at 4 in pairs) and Briscola chiamata (5), exact to docs/rules.md.

Glossary:

* **briscola**: the trump suit of a deal, and the face-up card under the stock that shows it.
* **carico**: a loaded card, the Asso (11 points) or the 3 (10); **liscio**: a card worth nothing.
* **mano** / **presa**: a trick; **mazzo** / **tallone**: the stock; **mazziere**: the dealer.
* **scambio**: the swap of the briscola 2 (or 7) for the face-up card (option ``swap``).
* **a punti**: deals scored by card points (``deal_scoring="points"``); **due su tre**: target 2.
* **chiamata**: Briscola chiamata, 5 players; **asta**: its auction; **chiamante**: the player
  who wins it and calls a card; **socio**: the secret partner who holds the called card;
  **cappotto**: one side taking all 120 points.

```python
from engine import briscola
rules = briscola.Rules(players=4, swap="seven")        # options: docs/rules.md; bad: RulesError
game = briscola.new_game(rules, seed=7)                # same seed + same moves = same game
game.legal_moves(); game = game.play("AS")             # IllegalMove / MoveParseError otherwise
game.view(seat); game.view(None)                       # what a seat / the public may see
briscola.card_points(["AS", "3D"])                     # 21
briscola.trick_winner(["AS", "2B", "3S"], "B")         # 1: the briscola takes it
```
Move strings: a card (``"AS"``), ``"swap"``, in the chiamata auction a rank (``"3"``), points
(``"71"``) or ``"pass"``, then ``"call 3D"``. See ``engine.briscola.game`` for the state, the
views and the engine's choices where docs/rules.md is silent.
"""

from __future__ import annotations

from engine.briscola.game import (
    SCHEMA,
    BriscolaView,
    DealResult,
    Event,
    Game,
    IllegalMove,
    Move,
    MoveParseError,
    Outcome,
    Phase,
    Trick,
    new_game,
    parse_move,
    sort_hand,
)
from engine.briscola.rules import (
    DEAL_SCORING,
    OPTIONS,
    SWAPS,
    VARIANTS,
    Option,
    Rules,
    RulesError,
)
from engine.briscola.tricks import POINTS, RANK_ORDER, TOTAL_POINTS, card_points, trick_winner

__all__ = [
    "DEAL_SCORING",
    "OPTIONS",
    "POINTS",
    "RANK_ORDER",
    "SCHEMA",
    "SWAPS",
    "TOTAL_POINTS",
    "VARIANTS",
    "BriscolaView",
    "DealResult",
    "Event",
    "Game",
    "IllegalMove",
    "Move",
    "MoveParseError",
    "Option",
    "Outcome",
    "Phase",
    "Rules",
    "RulesError",
    "Trick",
    "card_points",
    "new_game",
    "parse_move",
    "sort_hand",
    "trick_winner",
]
