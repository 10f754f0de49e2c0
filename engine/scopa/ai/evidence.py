"""What the others' plays say of their hands, as a likelihood for each deal of the unseen cards.

Glossary: **scopa** = a capture that sweeps the table; **settebello** = the 7 of denari. A *deal*
(a determinization) is one guess at the hidden cards.

The inference of ``engine.scopa.ai.determinize`` reads two signs (a sweep not taken, a capture not
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

Two other models, options of the hard player: ``fitted`` puts a conditional logit fitted to
strong players' plays (``FITTED`` on ``play_features``, public features of each card; it reads
an empty table's plays too) in place of the careful greedy; ``beginner`` reads each seat as a
mixture of that model and a beginner's (``log_likelihood`` sums the two models' likelihoods of
the seat's plays, each ``Reading`` carrying its model, prior and card played).

Default capture rules only (no asso piglia tutto, scopa a 15, obbligo di presa): elsewhere
``evidence`` gives nothing and the search keeps the plain inference.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from engine.scopa import ScopaView
from engine.scopa.ai.determinize import Evidence, Reading, parse_move, recent_plays, round_plays
from engine.scopa.playout import (
    CARD_WORTH,
    SCOPA_WORTH,
    FastRules,
    most_valuable_capture,
    table_sum,
)
from engine.scopa.tables import VALUE, mask_of

__all__ = [
    "BEGINNER_SHARPNESS",
    "DEFAULT_BEGINNER",
    "DEFAULT_BETA",
    "FEATURES",
    "FITTED",
    "Evidence",
    "beginner_prior",
    "careful_value",
    "evidence",
    "log_likelihood",
    "play_features",
    "unseen_by_value",
    "window",
]

# The softmax's sharpness per unit of the greedy's worth (a scopa is 12, the settebello 16).
DEFAULT_BETA = 0.3
# The share of a scopa a careful player fears when leaving a sum of 10 or less.
DANGER = 0.5


def _capture(card: int, table: int) -> tuple[int, float]:
    """``card``'s most valuable capture on ``table`` and its worth, the scopa bonus in it (worth
    below 0: it captures nothing, as on an empty table)."""
    if not table:
        return 0, -1.0
    return most_valuable_capture(table, VALUE[card], asso=False, s15=False, sweeps=True)


def careful_value(card: int, table: int) -> float:
    """A card's worth to a careful greedy player on ``table`` (see the module docstring; never
    the deal's last play, which the window leaves out)."""
    taken, worth = _capture(card, table)
    if worth >= 0.0:
        rest = table ^ taken
        result = worth + CARD_WORTH[card]
    else:
        rest = table | 1 << card
        result = -CARD_WORTH[card]
    if rest and table_sum(rest) <= 10:
        result -= DANGER * SCOPA_WORTH
    return result


# The fitted model's features of a card ``c`` played on ``table`` (``play_features``), every one
# from what all the players have seen: the worth of its most valuable capture (the scopa bonus in
# it) / 10; it captures; the cards it takes / 4; it sweeps; its own worth / 10 when it captures,
# and when it is thrown; when it leaves a sum of 10 or less (a card of that value sweeps it), the
# unseen cards of that value / 4; for a throw, the other cards of its value already seen / 3, its
# value / 10; the cards left on the table / 4; the sum left / 30 (at most 1).
FEATURES = (
    "capture worth",
    "captures",
    "cards taken",
    "sweeps",
    "own worth taking",
    "own worth thrown",
    "sum left live",
    "thrown card dead",
    "thrown value",
    "cards left",
    "sum left",
)
# The coefficients of the features, fitted by maximum likelihood (a conditional logit over the
# cards of each hand) to the plays of hard, flatmc and expert in Scopone deals (on the even seeds
# of 50 deals against flatmc from seed 9000 and 30 against expert from 9100, 1,344 plays with a
# choice): ``python benchmarks/play_model.py`` (its docstring has the commands).
FITTED: tuple[float, ...] = (
    1.038,
    1.112,
    0.697,
    1.579,
    1.533,
    -1.822,
    -3.412,
    1.272,
    -1.326,
    -0.975,
    1.535,
)


def play_features(card: int, table: int, unseen: Sequence[int]) -> tuple[float, ...]:
    """``FEATURES`` of ``card`` played on ``table``; ``unseen[v]``: the cards of value ``v`` no
    player has seen yet (before this play)."""
    value = VALUE[card]
    own = CARD_WORTH[card] / 10.0
    taken, worth = _capture(card, table)
    if worth >= 0.0:
        rest = table ^ taken
        sweeps = 1.0 if not rest else 0.0
        head = (worth / 10.0, 1.0, taken.bit_count() / 4.0, sweeps, own, 0.0)
        throw = (0.0, 0.0)
    else:
        rest = table | 1 << card
        head = (0.0, 0.0, 0.0, 0.0, 0.0, own)
        throw = ((4 - unseen[value]) / 3.0, value / 10.0)  # the card itself unseen
    left = table_sum(rest) if rest else 0
    live = unseen[left] / 4.0 if rest and left <= 10 else 0.0
    return (*head, live, *throw, rest.bit_count() / 4.0, min(left, 30) / 30.0)


def _fitted_weights(table: int, unseen: Sequence[int], scale: float) -> tuple[float, ...]:
    weights = []
    for c in range(40):
        u = sum(t * f for t, f in zip(FITTED, play_features(c, table, unseen), strict=True))
        weights.append(math.exp(scale * u))
    return tuple(weights)


# The beginner's model (``evidence(beginner=...)``): the most valuable capture if a card of the
# hand captures (a sweep above all), else the card worth least, drawn by a softmax this sharp per
# unit of worth; ``CAPTURE_FIRST`` puts every capture before every throw.
BEGINNER_SHARPNESS = 1.5
CAPTURE_FIRST = 12.0
# hard's default prior on a beginner at every seat (``HardPlayer(beginner=...)``).
DEFAULT_BEGINNER = 0.2


def _beginner_value(card: int, table: int) -> float:
    """A card's worth to a beginner on ``table`` (see ``BEGINNER_SHARPNESS``)."""
    worth = _capture(card, table)[1]
    if worth >= 0.0:
        return CAPTURE_FIRST + worth + CARD_WORTH[card]
    return -CARD_WORTH[card]


def beginner_prior(value: object) -> float:
    """``value`` as the beginner's prior; ValueError unless a number from 0 to below 1."""
    if not (isinstance(value, int | float) and 0 <= value < 1):
        raise ValueError(f"beginner must be a number from 0 to below 1; got {value!r}")
    return float(value)


def window(
    view: ScopaView, fast: FastRules, moves: Sequence[tuple[int, int, int]], table: int
) -> list[tuple[int, int, int, int, int]]:
    """``(seat, card, capture, table before, cards seen before)`` for each play in the window of
    ``engine.scopa.ai.determinize.round_plays`` (an empty table's too): what the fitted model
    reads."""
    seen = 0
    found = []
    for (seat, card, capture), (before, read) in zip(
        moves, round_plays(view, fast, moves, table), strict=True
    ):
        seen |= before
        if read:
            found.append((seat, card, capture, before, seen))
        seen |= 1 << card | capture
    return found


def _log_first(scores: Sequence[float]) -> float:
    """The log of a softmax's probability of the first of ``scores`` (each a log weight)."""
    top = max(scores)
    return scores[0] - top - math.log(sum(math.exp(x - top) for x in scores))


def style_log_odds(
    view: ScopaView,
    fast: FastRules,
    moves: Sequence[tuple[int, int, int]],
    table: int,
    beta: float,
    beginner: float,
) -> tuple[list[float], set[int]]:
    """Per seat, the log odds of the beginner's model against the careful greedy's after the
    seat's plays in the smazzata's finished rounds (before the window of ``round_plays``), from
    the prior ``beginner``. In Scopa each round's hands are played out whole, so once a round
    is over the hand held at each of its plays is known (the cards its seat played from that
    play to the round's end) and each model's likelihood of the play is exact; a beginner is
    recognised over the whole smazzata rather than afresh each round. Plays that met an empty
    table, or had no choice, say nothing. Also the seats that made such a play."""
    odds = [math.log(beginner) - math.log(1.0 - beginner)] * fast.players
    counted: set[int] = set()
    plays = round_plays(view, fast, moves, table)
    per_round = 3 * fast.players if fast.variant == "scopa" else len(moves) + 1
    for k, ((seat, _, _), (before, read)) in enumerate(zip(moves, plays, strict=True)):
        if read or not before or seat == view.seat:
            continue
        end = (k // per_round + 1) * per_round
        if end > len(moves):  # the current round (only the deal's very last play gets here)
            continue
        held = [c for s, c, _ in moves[k:end] if s == seat]
        if len(held) < 2:
            continue
        # ``held[0]`` is the card played: each model's log-likelihood of that choice.
        main = _log_first([beta * careful_value(c, before) for c in held])
        alt = _log_first([BEGINNER_SHARPNESS * _beginner_value(c, before) for c in held])
        odds[seat] += alt - main
        counted.add(seat)
    return odds, counted


def evidence(
    view: ScopaView,
    fast: FastRules,
    beta: float = DEFAULT_BETA,
    seats: Collection[int] | None = None,
    *,
    fitted: bool = False,
    beginner: float = 0.0,
    memory: bool = False,
) -> Evidence:
    """Per play of another seat in the window (of ``seats`` only, when given): a ``Reading``
    (seat, ``F``, ``e`` per card index) as in the module docstring; empty under other capture
    rules or with ``beta`` 0. ``fitted``: each card's worth is the fitted model's (``FITTED``,
    times ``beta / DEFAULT_BETA``), an empty table's plays read too. ``beginner`` > 0: each seat
    is read by a mixture, that prior weight on a beginner (``BEGINNER_SHARPNESS``) and the rest
    on the model above, so that a seat whose plays are a beginner's is read as one; with
    ``memory`` each seat's prior is its posterior after the smazzata's finished rounds
    (``style_log_odds``; in Scopone there are none), and a seat with no play in the window but
    some in those rounds is read by that posterior alone (a ``Reading`` pair that weighs every
    deal alike)."""
    if beta <= 0.0 or fast.asso_piglia_tutto or fast.scopa_a_15 or fast.obbligo_di_presa:
        return ()
    beginner = beginner_prior(beginner)
    assert view.seat is not None
    table = mask_of(view.table)
    moves = [(seat, *parse_move(text)) for seat, text in view.history]
    at = {card: k for k, (_, card, _) in enumerate(moves)}
    if fitted:
        plays = [
            (seat, card, before, unseen_by_value(seen))
            for seat, card, _, before, seen in window(view, fast, moves, table)
        ]
    else:
        plays = [(s, c, b, ()) for s, c, _, b in recent_plays(view, fast, moves, table)]
    found = []
    # Per seat, the log priors of the two models (the careful greedy's, the beginner's).
    main = [math.log(1.0 - beginner)] * fast.players
    alt = [math.log(beginner) if beginner else 0.0] * fast.players
    if beginner and memory:
        log_odds, counted = style_log_odds(view, fast, moves, table, beta, beginner)
        for seat in counted:
            # log p = -log(1 + e^-x), log (1 - p) = -log(1 + e^x), computed without overflow.
            alt[seat] = -_softplus(-log_odds[seat])
            main[seat] = -_softplus(log_odds[seat])
        read = {seat for seat, *_ in plays}
        for seat in sorted(counted - read):
            if seats is None or seat in seats:
                found.append(Reading(seat, 1.0, _NOTHING, 1, main[seat], 0.0))
                found.append(Reading(seat, 1.0, _NOTHING, 2, alt[seat], 0.0))
    for seat, card, before, unseen in plays:
        if seat == view.seat or (seats is not None and seat not in seats):
            continue
        # The cards this seat is known to have held then: the one played and those played since
        # (the window is the current round, so no card was dealt to it in between).
        known = [c for s, c, _ in moves[at[card] :] if s == seat]
        if fitted:
            weights = _fitted_weights(before, unseen, beta / DEFAULT_BETA)
        else:
            weights = tuple(math.exp(beta * careful_value(c, before)) for c in range(40))
        fixed = sum(weights[c] for c in known)
        if not beginner:
            found.append(Reading(seat, fixed, weights))
            continue
        found.append(Reading(seat, fixed, weights, 1, main[seat], math.log(weights[card])))
        # The beginner's weights, relative to its likeliest card (nothing overflows).
        values = [_beginner_value(c, before) for c in range(40)]
        top = max(values)
        odds = tuple(math.exp(BEGINNER_SHARPNESS * (v - top)) for v in values)
        played = BEGINNER_SHARPNESS * (values[card] - top)
        found.append(Reading(seat, sum(odds[c] for c in known), odds, 2, alt[seat], played))
    return tuple(found)


# A reading's weights that make every deal alike (its likelihood is 1 whatever the hand).
_NOTHING: tuple[float, ...] = (0.0,) * 40


def _softplus(x: float) -> float:
    """``log(1 + e^x)`` without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def unseen_by_value(seen: int) -> tuple[int, ...]:
    """Per value (index 1..10; 0 and the rest unused), the cards of it not in ``seen``."""
    counts = [4] * 11
    for c in range(40):
        if seen >> c & 1:
            counts[VALUE[c]] -= 1
    return tuple(counts)


def log_likelihood(
    found: Evidence, hands: Sequence[Sequence[int]], posterior: list[float] | None = None
) -> float:
    """The log of a deal's likelihood (up to a constant) under ``found``; a seat read by a
    mixture of two models counts the mixture's likelihood of its plays. ``posterior`` (one entry
    per seat): each mixed seat's posterior of the second model (the beginner's) is written
    there."""
    total = 0.0
    mixed: dict[int, list[float]] = {}
    for seat, fixed, weights, model, log_prior, log_played in found:
        s = fixed
        for c in hands[seat]:
            s += weights[c]
        if not model:
            total -= math.log(s)
            continue
        # Per seat: each model's log-likelihood of its plays (1, 2), then each model's log prior.
        logs = mixed.setdefault(seat, [0.0, 0.0, 0.0, 0.0])
        logs[model - 1] += log_played - math.log(s)
        logs[model + 1] = log_prior
    for seat in sorted(mixed):
        first, second, first_prior, second_prior = mixed[seat]
        a, b = first_prior + first, second_prior + second
        top = max(a, b)
        ea, eb = math.exp(a - top), math.exp(b - top)
        total += top + math.log(ea + eb)
        if posterior is not None:
            posterior[seat] = eb / (ea + eb)
    return total
