"""The search plumbing every game's searching player shares: root statistics merged over parts.

A determinized search (Scopa's ``engine.scopa.ai.pimc``) reports its root as
{move key: (deals or visits, total reward)}. Root parallelism cuts one search into parts, each
from its own seed, anywhere (a worker process); ``merge`` sums the parts in a fixed order and
``most_visited`` picks the move, so a search split over processes stays deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["RootStats", "merge", "most_visited"]

# {move key: (deals or visits, total reward)}: the root of one search, or of several summed.
RootStats = dict[int, tuple[int, float]]


def merge(parts: Sequence[Mapping[int, tuple[int, float]]]) -> RootStats:
    """The root statistics of several searches summed, in the given order (deterministic)."""
    merged: RootStats = {}
    for stats in parts:
        for key, (visits, total) in sorted(stats.items()):
            v, t = merged.get(key, (0, 0.0))
            merged[key] = (v + visits, t + total)
    return merged


def most_visited(stats: Mapping[int, tuple[int, float]]) -> int:
    """The most visited move; ties: the better mean, then the lowest key (deterministic)."""
    return min(stats, key=lambda k: (-stats[k][0], -stats[k][1] / max(stats[k][0], 1), k))
