"""Random games for the tests: legal actions drawn by one seeded ``random.Random``."""

from __future__ import annotations

import random
from typing import TypeVar

from pyramids.core import CHANCE, State

S = TypeVar("S", bound=State)


def random_playout(s: State, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play random actions (and sampled chance) to the end or ``max_actions``; the number
    of actions played."""
    steps = 0
    while not s.is_terminal() and steps < max_actions:
        if s.current_player() == CHANCE:
            action = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            action = legal[rng.randrange(len(legal))]
        s.apply(action)
        steps += 1
    return steps


def random_steps(state: S, seed: int, steps: int) -> S:
    """``state`` after ``steps`` random actions (fewer if it ends) drawn from ``seed``."""
    random_playout(state, random.Random(seed), max_actions=steps)
    return state
