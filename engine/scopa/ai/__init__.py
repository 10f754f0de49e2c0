"""The Scopa family's computer players (registered in ``engine.ai``): ``greedy`` alias ``easy``
(``engine.scopa.ai.greedy``), ``medium`` (``engine.scopa.ai.medium``) and ``hard``
(``engine.scopa.ai.hard``: a determinized flat search, ``engine.scopa.ai.pimc``, over the deals
of ``engine.scopa.ai.determinize`` weighted by ``engine.scopa.ai.evidence``; its settings one
``HardConfig``, ``engine.scopa.ai.config``)."""

from __future__ import annotations

from engine.scopa.ai.config import HardConfig
from engine.scopa.ai.greedy import GreedyPlayer
from engine.scopa.ai.hard import HardPlayer
from engine.scopa.ai.medium import MediumPlayer

__all__ = ["GreedyPlayer", "HardConfig", "HardPlayer", "MediumPlayer"]
