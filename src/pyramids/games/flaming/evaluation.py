"""Flaming Pyramids' static evaluation: a value in [0, 1] per seat, without playing on.

The game's ``evaluation`` (``pyramids.games.flaming.descriptor``), for searches that stop
before the end (``pyramids.bots.SearchSettings.evaluation``). Deliberately simple, to be
refined by the search work: the seat with the fewest tiles left to place (hand and pile,
``pyramids.flaming.match.hand_score``) is nearest to winning (FP-END: the first to place
every tile wins; a max_turns ending ranks by tiles left).
"""

from __future__ import annotations

from typing import TypeGuard

from pyramids.core.game import State
from pyramids.flaming.match import hand_score
from pyramids.flaming.state import FlamingState


def is_flaming_state(state: object) -> TypeGuard[FlamingState]:
    """Whether ``state`` is a Flaming Pyramids state on either engine: the Python
    ``FlamingState`` or the native ``pyramids.native.flaming.NativeFlamingState``, which
    offers the same accessors (``position`` included)."""
    return isinstance(state, FlamingState) or getattr(state, "flaming_engine", None) == "native"


def evaluate(state: State) -> list[float]:
    """Each seat's value in [0, 1]: ``returns()`` at the end, else its share of the tiles shed.

    With ``r[s]`` tiles left to seat ``s`` and ``T`` their sum, a seat is worth
    ``(T - r[s]) / (T * (n - 1))``: the values add up to 1 like ``returns()``, equal
    counts give ``1/n`` each, and fewer tiles left is always worth more.
    """
    if not is_flaming_state(state):
        raise TypeError("this evaluation reads Flaming Pyramids states")
    if state.is_terminal():
        return state.returns()
    left = hand_score(state)
    n = len(left)
    total = sum(left)
    if n < 2 or total == 0:
        return [1.0 / n] * n
    return [(total - r) / (total * (n - 1)) for r in left]
