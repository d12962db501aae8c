"""The research ecosystem (``pip install 'pyramids[rl]'``): PettingZoo, Gymnasium, OpenSpiel.

- ``spaces``: fixed-size action indices and observation vectors for both games;
- ``pettingzoo_env``: ``FlamingPyramidsEnv``, ``PyramidsAndFlagsEnv`` (AEC, every seat an agent);
- ``gym_env``: ``PyramidsGymEnv``, one learning seat against the project's bots;
- ``openspiel_game``: both games registered as OpenSpiel Python games.

Names are imported on first use, so ``import pyramids.rl`` needs none of the extras;
nothing else in the project imports this package. See docs/RL.md.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "FlamingEncoding": "pyramids.rl.spaces",
    "FlagsEncoding": "pyramids.rl.spaces",
    "encoding_for": "pyramids.rl.spaces",
    "FlamingPyramidsEnv": "pyramids.rl.pettingzoo_env",
    "PyramidsAndFlagsEnv": "pyramids.rl.pettingzoo_env",
    "PyramidsGymEnv": "pyramids.rl.gym_env",
    "FlamingPyramidsSpielGame": "pyramids.rl.openspiel_game",
    "PyramidsAndFlagsSpielGame": "pyramids.rl.openspiel_game",
}


def __getattr__(name: str) -> Any:
    """Import an exported name's module on first use (the extras are heavy)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pyramids.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "FlagsEncoding",
    "FlamingEncoding",
    "FlamingPyramidsEnv",
    "FlamingPyramidsSpielGame",
    "PyramidsAndFlagsEnv",
    "PyramidsAndFlagsSpielGame",
    "PyramidsGymEnv",
    "encoding_for",
]
