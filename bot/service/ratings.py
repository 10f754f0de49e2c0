"""Ratings with OpenSkill (Plackett-Luce): 1v1, pairs, and 3-6 player free-for-all alike."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

__all__ = ["COMPUTER_RATINGS", "Ratings"]

# Computer players are fixed anchors (mu, sigma): never updated, so the same level may sit twice.
COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (20.0, 2.0),
    "medium": (25.0, 2.0),
    "hard": (30.0, 2.0),
}


class Ratings:
    def __init__(self) -> None:
        self.model = PlackettLuce()
        start = self.model.rating()
        self.initial: tuple[float, float] = (float(start.mu), float(start.sigma))

    def rate(
        self, teams: list[list[tuple[float, float] | None]], ranks: Sequence[int]
    ) -> list[list[tuple[float, float]]]:
        """New (mu, sigma) for every member of every team; ``None`` = a new player."""
        model_teams = [
            [
                self.model.rating(mu=r[0], sigma=r[1]) if r is not None else self.model.rating()
                for r in team
            ]
            for team in teams
        ]
        rated = self.model.rate(model_teams, ranks=[float(r) for r in ranks])
        return [[(float(p.mu), float(p.sigma)) for p in team] for team in rated]

    @staticmethod
    def ordinal(mu: float, sigma: float) -> float:
        """The conservative rating the leaderboard sorts by."""
        return mu - 3.0 * sigma
