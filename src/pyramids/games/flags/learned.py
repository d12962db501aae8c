"""Pyramids and Flags' learned evaluation: a value in [0, 1] per seat, from trained weights.

The game's ``learned_evaluation`` (``pyramids.games.flags.descriptor``), for searches set to
``evaluation="learned"`` (spec extra ``+learned``): each seat's features
(``pyramids.games.flags.features``) valued ``sigmoid(b + w·f)`` with the weights of this
package's ``value.json`` (``pyramids train-eval flags``), normalised to add up to 1;
``returns()`` at the end. See ``pyramids.games.value``.
"""

from __future__ import annotations

from functools import cache

from pyramids.core.game import State
from pyramids.games.flags.evaluation import is_flags_state
from pyramids.games.flags.features import FEATURES, features
from pyramids.games.value import ValueWeights, learned_values, load_packaged


@cache
def weights() -> ValueWeights:
    """The weights shipped with the game (read once)."""
    return load_packaged(__package__ or "pyramids.games.flags", FEATURES)


def evaluate(state: State, value: ValueWeights | None = None) -> list[float]:
    """Each seat's value in [0, 1] (``returns()`` at the end), with ``value``'s weights
    (the shipped ones by default); the values add up to 1."""
    if not is_flags_state(state):
        raise TypeError("this evaluation reads Pyramids and Flags states")
    if state.is_terminal():
        return state.returns()
    return learned_values(features(state), value or weights())
