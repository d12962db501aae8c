"""Pebble Pyramid's default policy and evaluation (the host-side parts a bot needs)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyramids.core.game import Action, State, View
from tests.thirdgame.rules import PebblesView, take_points


class GreedyPebblesBot:
    """Takes the free tile worth the most to it now (ties: the lowest spot)."""

    name = "greedy"

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The best-scoring legal take."""
        assert isinstance(view, PebblesView)
        tiles = dict(view.tiles)
        secret = view.secret or 0
        return max(legal, key=lambda a: (take_points(tiles.get(a, 0), secret), -a))


def evaluate(state: State) -> list[float]:
    """Each seat's share of the points scored so far (the real result at the end)."""
    if state.is_terminal():
        return state.returns()
    scores = state.to_json()["scores"]
    total = sum(scores)
    if not total:
        return [0.5, 0.5]
    return [s / total for s in scores]
