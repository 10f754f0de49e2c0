"""Briscola's and Briscola chiamata's computer players (registered in ``engine.ai``):
``briscola-easy``, ``briscola-medium``, ``briscola-hard`` (``engine.briscola.ai.players``)."""

from __future__ import annotations

from engine.briscola.ai.players import BriscolaEasy, BriscolaHard, BriscolaMedium

__all__ = ["BriscolaEasy", "BriscolaHard", "BriscolaMedium"]
