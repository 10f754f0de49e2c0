"""Capture rules (docs/rules.md "A turn: play one card"), on card masks.

Glossary: **presa** = capture; **presa pari** = taking one table card of the played card's value;
**presa dispari** = taking two or more table cards whose values add up to it; **scopa** = a capture
that sweeps the table.
"""

from __future__ import annotations

from itertools import combinations

from engine.scopa.tables import (
    FIFTEEN_SETS,
    SUM_WAYS_BY_PRESENCE,
    VALUE,
    VALUE_MASK,
    indices_of,
)

Way = tuple[tuple[int, int], ...]


def present_values(table: int) -> int:
    """Bit v-1 set when the table holds a card of value v (the four suits folded together)."""
    return (table | table >> 10 | table >> 20 | table >> 30) & 0x3FF


def _expand(table: int, ways: tuple[Way, ...], found: list[int]) -> None:
    """Append to ``found`` every set of table cards that realises one of ``ways``."""
    for way in ways:
        partial = [0]
        for value, count in way:
            present = table & VALUE_MASK[value]
            if not present:
                break
            if count == 1:
                if present & (present - 1):  # several cards of this value: one branch each
                    bits = [1 << i for i in indices_of(present)]
                    partial = [p | b for p in partial for b in bits]
                else:
                    partial = [p | present for p in partial]
                continue
            cards = indices_of(present)
            if len(cards) < count:
                break
            picks = [sum(1 << i for i in combo) for combo in combinations(cards, count)]
            partial = [p | q for p in partial for q in picks]
        else:
            found.extend(partial)


def sum_ways(table: int, value: int) -> tuple[Way, ...]:
    """The value multisets (two or more cards) present on the table that add up to ``value``."""
    return SUM_WAYS_BY_PRESENCE[value][present_values(table) & ((1 << (value - 1)) - 1)]


def capture_masks(
    table: int,
    card: int,
    asso_piglia_tutto: bool = False,
    scopa_a_15: bool = False,
) -> list[int]:
    """The sets the card at index ``card`` may capture from ``table``; [] = it stays on the table.

    Presa pari (one card of equal value, the player's choice) excludes presa dispari (one set of two
    or more cards summing to the value, the player's choice) - Regolamento Scopa, Aiuto rule 2-3,
    FIGS art. 9.
    """
    value = VALUE[card]
    if asso_piglia_tutto and value == 1 and table:
        return [table]
    same = table & VALUE_MASK[value]
    options: list[int] = []
    if same:
        options = [1 << i for i in indices_of(same)] if same & (same - 1) else [same]
    elif table:
        _expand(table, sum_ways(table, value), options)
    if scopa_a_15 and table:
        _expand(table, FIFTEEN_SETS[value], options)
    return options
