"""Benchmark opponents written independently of ``engine/ai``: the players someone outside the
project would pit against ours.

They read only what a seat may see (the engine's public view: hand, table, history, counts, legal
moves) and use nothing of ``engine.ai`` nor the engine's fast path: their card arithmetic, deals
and playouts are their own (``scopa_sim``), so a flaw shared with our players cannot flatter them.

* ``FlatMonteCarlo`` (Scopa family): sampled deals consistent with the view, the same samples for
  every candidate move, greedy playouts to the end of the smazzata, the best mean score difference;
* ``ExpertPlayer`` (Scopa family): the classical rules of Chitarrella with Saracino's additions;
* ``SimGreedy`` (Scopa family): the classical beginner (``greedy``) or the playouts' policy;
* ``RummyPlayer`` (Scala 40): a simple sensible rummy player.
"""

from __future__ import annotations

from benchmarks.baselines.expert import ExpertPlayer
from benchmarks.baselines.flat_mc import FlatMonteCarlo
from benchmarks.baselines.rummy import RummyPlayer
from benchmarks.baselines.scopa_sim import SimGreedy

__all__ = ["BASELINES", "ExpertPlayer", "FlatMonteCarlo", "RummyPlayer", "SimGreedy"]


def _beginner() -> SimGreedy:
    return SimGreedy(careful=False)


# name -> factory, for the benchmark scripts: "greedy" is the classical beginner, "simgreedy"
# the flat Monte Carlo player's playout policy (a greedy that keeps the table over 10).
BASELINES = {
    "flatmc": FlatMonteCarlo,
    "expert": ExpertPlayer,
    "greedy": _beginner,
    "simgreedy": SimGreedy,
    "rummy": RummyPlayer,
}
