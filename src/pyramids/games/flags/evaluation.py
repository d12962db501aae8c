"""Pyramids and Flags' static evaluation: a value in [0, 1] per seat, without playing on.

The game's ``evaluation`` (``pyramids.games.flags.descriptor``), for searches that stop before
the end (``pyramids.bots.SearchSettings.evaluation``). Deliberately simple, to be refined
by the search work: a seat's progress is how far it has gone towards the nearest of the
three win conditions (PF-WIN: five flags, three flags of one group, eight points),
blended with its mean progress over all three, and the seats share the value in
proportion to their progress.
"""

from __future__ import annotations

from typing import TypeGuard

from pyramids.core.game import State
from pyramids.flags.game import FlagsGame
from pyramids.flags.scoring import WIN_FLAGS, WIN_GROUP_FLAGS, WIN_POINTS, group_counts
from pyramids.flags.state import FlagsState
from pyramids.games.flags.policy import add_up

NEAREST_W = 0.6
"""Weight of the nearest win condition in a seat's progress (the rest: the mean of all three)."""
FLOOR = 0.1
"""Progress every seat starts with, so that an empty table shares the value evenly."""


def is_flags_state(state: object) -> TypeGuard[FlagsState]:
    """Whether ``state`` is a Pyramids and Flags state of either engine: the Python
    ``FlagsState`` or the native core's ``NativeFlagsState`` (whose game is a
    ``FlagsGame`` too and which offers the same read-only accessors)."""
    return isinstance(state, FlagsState) or (
        isinstance(state, State) and isinstance(getattr(state, "game", None), FlagsGame)
    )


def progress(state: FlagsState, seat: int) -> float:
    """How far ``seat`` is towards winning, in [0, 1): flags, best group and points (PF-WIN)."""
    scored = state.scored(seat)
    parts = (
        min(1.0, len(scored) / WIN_FLAGS),
        min(1.0, max(group_counts(scored), default=0) / WIN_GROUP_FLAGS),
        min(1.0, state.points(seat) / WIN_POINTS),
    )
    return NEAREST_W * max(parts) + (1 - NEAREST_W) * add_up(parts) / len(parts)


def evaluate(state: State) -> list[float]:
    """Each seat's value in [0, 1]: ``returns()`` at the end, else its share of the progress.

    A seat is worth ``(FLOOR + progress) / sum over seats of (FLOOR + progress)``: the
    values add up to 1 like ``returns()`` and more progress is always worth more.
    """
    if not is_flags_state(state):
        raise TypeError("this evaluation reads Pyramids and Flags states")
    if state.is_terminal():
        return state.returns()
    weights = [FLOOR + progress(state, s) for s in range(state.num_players)]
    total = add_up(weights)
    return [w / total for w in weights]
