"""Scala 40's computer players (registered in ``engine.ai``): ``scala40`` (a heuristic club
player, the hard level), ``scala40-medium`` and ``scala40-easy`` (``engine.scala40.ai.player``),
pricing hands with the exact hand evaluator of ``engine.scala40.ai.hand``."""

from __future__ import annotations

from engine.scala40.ai.hand import HandEvaluator
from engine.scala40.ai.player import Scala40Player, easy_scala40, medium_scala40

__all__ = ["HandEvaluator", "Scala40Player", "easy_scala40", "medium_scala40"]
