"""Tournament statistics: win-rate intervals, placements from final states, OpenSkill ratings.

- ``wilson_interval``: the Wilson score interval of a win rate (shared with ``simulate``).
- ``placements``: each seat's place in a finished game: the ranking of its ``outcome()``
  (standard competition ranking, 1 the best, ties sharing; a game won outright ranks the
  winner 1 and every other seat 2; a game ended by a safeguard ranks the seats by the
  game's own order). A state whose outcome carries no ranking is placed by its returns:
  1 plus the number of seats whose return is strictly higher.
- ``SkillRatings``: Plackett–Luce ratings (``openskill.models.PlackettLuce``, default
  parameters) updated one game at a time, each seat a team of one ranked by its placement.
  When one contestant holds several seats of a game (fewer contestants than seats), every
  seat-instance is rated from the contestant's rating before the game and the contestant's
  new mu and sigma are the means of its instances' new values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from openskill.models import PlackettLuce

from pyramids.analysis.simulate import wilson_interval
from pyramids.core.game import State

ORDINAL_Z = 3.0
"""The ordinal reported is mu - ORDINAL_Z * sigma (openskill's default): a cautious skill."""


def placements_from_returns(returns: Sequence[float]) -> list[int]:
    """Competition ranks from returns: 1 plus the number of seats with a strictly higher one."""
    return [1 + sum(1 for r in returns if r > mine) for mine in returns]


def placements(state: State) -> list[int]:
    """Each seat's place (1 the best, ties sharing) in the finished game ``state``.

    The ranking of ``state.outcome()``, else ranks from ``returns()``.
    """
    if not state.is_terminal():
        raise ValueError("placements are defined for finished games only")
    ranking = state.outcome().ranking
    if ranking is not None:
        return [int(r) for r in ranking]
    return placements_from_returns(state.returns())


@dataclass(frozen=True)
class Rating:
    """A contestant's skill estimate: mean, uncertainty and ordinal (mu - 3 sigma)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The cautious estimate mu - 3 sigma, by which standings are sorted."""
        return self.mu - ORDINAL_Z * self.sigma

    def to_json(self) -> dict[str, float]:
        """JSON-ready data, rounded to 4 decimals."""
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
        }


class SkillRatings:
    """OpenSkill Plackett–Luce ratings of ``contestants`` players, updated game by game."""

    def __init__(self, contestants: int, model: PlackettLuce | None = None) -> None:
        if contestants < 1:
            raise ValueError("rate at least one contestant")
        self.model = model if model is not None else PlackettLuce()
        self._ratings = [Rating(self.model.mu, self.model.sigma) for _ in range(contestants)]

    @property
    def ratings(self) -> list[Rating]:
        """The current rating of each contestant, by contestant index."""
        return list(self._ratings)

    def update(self, seats: Sequence[int], places: Sequence[int]) -> None:
        """Rate one game: ``seats[j]`` is the contestant in seat j, ``places[j]`` its place."""
        if len(seats) != len(places):
            raise ValueError(f"{len(seats)} seats but {len(places)} placements")
        if len(seats) < 2:
            raise ValueError("a rated game needs at least two seats")
        teams = [
            [self.model.rating(mu=self._ratings[c].mu, sigma=self._ratings[c].sigma)] for c in seats
        ]
        rated = self.model.rate(teams, ranks=[float(p) for p in places])
        new: dict[int, list[tuple[float, float]]] = {}
        for contestant, team in zip(seats, rated, strict=True):
            new.setdefault(contestant, []).append((team[0].mu, team[0].sigma))
        for contestant, values in new.items():
            self._ratings[contestant] = Rating(
                sum(mu for mu, _ in values) / len(values),
                sum(sigma for _, sigma in values) / len(values),
            )

    def describe_model(self) -> dict[str, Any]:
        """The model and its parameters, as JSON-ready data (part of a tournament report)."""
        return {
            "model": "openskill PlackettLuce",
            "openskill": version("openskill"),
            "mu": round(self.model.mu, 6),
            "sigma": round(self.model.sigma, 6),
            "beta": round(self.model.beta, 6),
            "tau": round(self.model.tau, 6),
            "ordinal": f"mu - {ORDINAL_Z:g} * sigma",
            "order": "games in index order, each seat a team of one ranked by placement",
            "shared_seats": "a contestant holding several seats gets the mean of their updates",
        }


__all__ = [
    "ORDINAL_Z",
    "Rating",
    "SkillRatings",
    "placements",
    "placements_from_returns",
    "wilson_interval",
]
