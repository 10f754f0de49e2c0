"""What the others' plays say of their hands, as a likelihood for each deal of the unseen cards.

Glossary: **scopa** = a capture that sweeps the table; **settebello** = the 7 of denari. A *deal*
(a determinization) is one guess at the hidden cards.

The inference of ``engine.ai.determinize`` reads two signs (a sweep not taken, a capture not
made) and deals the cards they point at less often. This reads every play of the others in the
same window (the current round: in Scopone the whole smazzata) through a model of how a player
chooses: each card ``c`` of the hand held then is worth ``v(c)`` to a careful greedy player (what
it captures, the scopa it makes, minus the card's own worth when thrown, minus half a scopa when
it leaves a sum of 10 or less on the table), and the card played is drawn with probability
``exp(beta v(played)) / sum over the hand of exp(beta v(c))`` (a softmax: ``beta`` 0 = at random,
large = always the greedy's choice). The hand held at that play was the cards the seat played
since (public) plus what it holds now (the deal's guess), so a deal's likelihood is, up to a
constant, ``prod over the plays of 1 / (F + sum over the guessed hand of e(c))``: ``F`` and ``e``
worked out once per decision, a few additions a play for each deal. The flat search weighs each
deal's rewards by it (importance weighting; the deals drawn without the other inference, so that
the two are not counted twice).

Default capture rules only (no asso piglia tutto, scopa a 15, obbligo di presa): elsewhere
``evidence`` gives nothing and the search keeps the plain inference.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from engine.ai.determinize import Evidence, parse_move, recent_plays
from engine.scopa import ScopaView
from engine.scopa._tables import INDEX, VALUE
from engine.scopa.playout import (
    CARD_WORTH,
    SCOPA_WORTH,
    FastRules,
    most_valuable_capture,
    table_sum,
)

__all__ = ["DEFAULT_BETA", "Evidence", "evidence", "log_likelihood"]

# The softmax's sharpness per unit of the greedy's worth (a scopa is 12, the settebello 16).
DEFAULT_BETA = 0.3
# The share of a scopa a careful player fears when leaving a sum of 10 or less.
DANGER = 0.5


def _value(card: int, table: int) -> float:
    """A card's worth to a careful greedy player on ``table`` (see the module docstring; never
    the deal's last play, which the window leaves out)."""
    taken, worth = most_valuable_capture(table, VALUE[card], asso=False, s15=False, sweeps=True)
    if worth >= 0.0:
        rest = table ^ taken
        result = worth + CARD_WORTH[card]
    else:
        rest = table | 1 << card
        result = -CARD_WORTH[card]
    if rest and table_sum(rest) <= 10:
        result -= DANGER * SCOPA_WORTH
    return result


def evidence(
    view: ScopaView,
    fast: FastRules,
    beta: float = DEFAULT_BETA,
    seats: Collection[int] | None = None,
) -> Evidence:
    """Per play of another seat in the window (of ``seats`` only, when given): (seat, ``F``,
    ``e`` per card index) as in the module docstring; empty under other capture rules or with
    ``beta`` 0."""
    if beta <= 0.0 or fast.asso_piglia_tutto or fast.scopa_a_15 or fast.obbligo_di_presa:
        return ()
    assert view.seat is not None
    table = 0
    for shown in view.table:
        table |= 1 << INDEX[shown]
    moves = [(seat, *parse_move(text)) for seat, text in view.history]
    at = {card: k for k, (_, card, _) in enumerate(moves)}
    found = []
    for seat, card, _capture, before in recent_plays(view, fast, moves, table):
        if seat == view.seat or (seats is not None and seat not in seats):
            continue
        # The cards this seat is known to have held then: the one played and those played since
        # (the window is the current round, so no card was dealt to it in between).
        known = [c for s, c, _ in moves[at[card] :] if s == seat]
        weights = tuple(math.exp(beta * _value(c, before)) for c in range(40))
        found.append((seat, sum(weights[c] for c in known), weights))
    return tuple(found)


def log_likelihood(found: Evidence, hands: Sequence[Sequence[int]]) -> float:
    """The log of a deal's likelihood (up to a constant) under ``found``."""
    total = 0.0
    for seat, fixed, weights in found:
        s = fixed
        for c in hands[seat]:
            s += weights[c]
        total -= math.log(s)
    return total
