"""Scoring a smazzata (docs/rules.md "Scoring a smazzata") and the FIGS "certain points" of a fuori.

Glossary: **smazzata** = one deal played out; **carte** = most cards; **denari** = most cards of
denari; **settebello** = the 7 of denari; **primiera** = best card of each suit summed;
**scopa** (plural **scope**) = a sweep of the table; **re bello** = king of denari; **napola** =
A-2-3 of denari.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.cards import Card
from engine.scopa.rules import Rules
from engine.scopa.tables import (
    DENARI_MASK,
    FULL_MASK,
    PRIMIERA_BEST,
    RE_BELLO,
    SETTEBELLO,
    mask_of,
)

SCORE_KEYS: tuple[str, ...] = (
    "carte",
    "denari",
    "settebello",
    "primiera",
    "scope",
    "re_bello",
    "napola",
    "total",
)


def _unique_best(values: Sequence[int]) -> int | None:
    """Index of the strictly highest value, or None on a tie for first."""
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


def _suit_bests(mask: int) -> list[int]:
    return [PRIMIERA_BEST[(mask >> (10 * s)) & 0x3FF] for s in range(4)]


def primiera_winner(piles: Sequence[int], mode: str) -> int | None:
    """The side winning primiera, or None.

    ``void``: a side missing a suit has no primiera. ``lenient`` (Aiuto): a side missing a suit
    loses to one that has all four; when every side misses some suit, the totals over the suits
    every side holds are compared.
    """
    bests = [_suit_bests(p) for p in piles]
    complete = [all(b) for b in bests]
    if any(complete):
        values = [sum(b) if c else -1 for b, c in zip(bests, complete, strict=True)]
        return _unique_best(values)
    if mode == "void":
        return None
    common = [s for s in range(4) if all(b[s] for b in bests)]
    if not common:
        return None
    return _unique_best([sum(b[s] for s in common) for b in bests])


def napola_points(mask: int) -> int:
    """A, 2, 3 of denari together score 3, plus 1 for each next denari in sequence (4, 5, ...)."""
    denari = mask & DENARI_MASK
    if denari & 0b111 != 0b111:
        return 0
    run = 3
    while run < 10 and denari >> run & 1:
        run += 1
    return run


def score_masks(piles: Sequence[int], scope: Sequence[int], rules: Rules) -> list[dict[str, int]]:
    """Scores of one smazzata from each side's captured mask and scope."""
    sides = len(piles)
    scores = [dict.fromkeys(SCORE_KEYS, 0) for _ in range(sides)]
    carte = _unique_best([p.bit_count() for p in piles])
    if carte is not None:
        scores[carte]["carte"] = 1
    denari = _unique_best([(p & DENARI_MASK).bit_count() for p in piles])
    if denari is not None:
        scores[denari]["denari"] = 1
    primiera = primiera_winner(piles, rules.primiera_missing_suit)
    if primiera is not None:
        scores[primiera]["primiera"] = 1
    for side, pile in enumerate(piles):
        row = scores[side]
        row["settebello"] = pile >> SETTEBELLO & 1
        row["scope"] = scope[side]
        if rules.re_bello:
            row["re_bello"] = pile >> RE_BELLO & 1
        if rules.napola:
            row["napola"] = napola_points(pile)
        row["total"] = sum(row[k] for k in SCORE_KEYS if k != "total")
    return scores


def score_smazzata(
    piles: Sequence[Iterable[Card]],
    scope: Sequence[int],
    rules: Rules | None = None,
) -> list[Mapping[str, int]]:
    """Score one smazzata: ``piles`` are the cards each side captured, ``scope`` its scope.

    Every side gets the keys carte, denari, settebello, primiera, scope, re_bello, napola, total.
    """
    rules = rules or Rules()
    if len(piles) not in (2, 3) or len(scope) != len(piles):
        raise ValueError("give the captured cards and the scope of 2 or 3 sides")
    masks = [mask_of(p) for p in piles]
    seen = 0
    for mask in masks:
        if seen & mask:
            raise ValueError("a card appears in two piles")
        seen |= mask
    if any(type(s) is not int or s < 0 for s in scope):
        raise ValueError("scope must be whole numbers >= 0")
    return list(score_masks(masks, scope, rules))


def certain_points(
    piles: Sequence[int], scope: Sequence[int], rules: Rules
) -> list[dict[str, int]]:
    """FIGS art. 16: the points each side is already sure of, mid-smazzata.

    A point is certain when no card still to be captured can change it: scope made, settebello (and
    re bello, napola) taken, carte and denari beyond what the others could reach with every card not
    yet captured, primiera only when the others cannot reach it even with all those cards.
    """
    remaining = FULL_MASK
    for pile in piles:
        remaining &= ~pile
    sides = len(piles)
    scores = [dict.fromkeys(SCORE_KEYS, 0) for _ in range(sides)]
    for side, pile in enumerate(piles):
        others = [piles[o] for o in range(sides) if o != side]
        row = scores[side]
        row["scope"] = scope[side]
        row["settebello"] = pile >> SETTEBELLO & 1
        if pile.bit_count() > max((o | remaining).bit_count() for o in others):
            row["carte"] = 1
        if (pile & DENARI_MASK).bit_count() > max(
            ((o | remaining) & DENARI_MASK).bit_count() for o in others
        ):
            row["denari"] = 1
        bests = _suit_bests(pile)
        if all(bests):
            # An opponent short of a suit even with every free card can never win it either way.
            rivals = [_suit_bests(o | remaining) for o in others]
            if all(not all(r) or sum(r) < sum(bests) for r in rivals):
                row["primiera"] = 1
        if rules.re_bello:
            row["re_bello"] = pile >> RE_BELLO & 1
        if rules.napola:
            row["napola"] = napola_points(pile)
        row["total"] = sum(row[k] for k in SCORE_KEYS if k != "total")
    return scores
