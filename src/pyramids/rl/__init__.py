"""The research ecosystem (``pip install -e '.[rl]'`` from a checkout): PettingZoo, Gymnasium, OpenSpiel.

Every part serves every game of the registry (``pyramids.games``) that provides an RL
encoding (its descriptor's ``rl_encoding``), and names none:

- ``spaces``: ``encoding_for(name, game)``, the game's fixed action indices and
  observation vector (the ``Encoding`` base is ``pyramids.games.encoding``);
- ``pettingzoo_env``: one AEC environment class per game (``env_class(name)``, or by
  its class name, the game's title in CamelCase plus ``Env``; every seat an agent);
- ``gym_env``: ``PyramidsGymEnv``, one learning seat against the project's bots;
- ``openspiel_game``: the games registered as OpenSpiel Python games.

Names are imported on first use, so ``import pyramids.rl`` needs none of the extras;
nothing else in the project imports this package. A game's environment class
(``...Env``), OpenSpiel game (``...SpielGame``) or encoding class (``...Encoding``) is
found by name the same way. See docs/RL.md.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Encoding": "pyramids.rl.spaces",
    "encoding_for": "pyramids.rl.spaces",
    "PyramidsAECEnv": "pyramids.rl.pettingzoo_env",
    "env_class": "pyramids.rl.pettingzoo_env",
    "PyramidsGymEnv": "pyramids.rl.gym_env",
}
_BY_SUFFIX = (
    ("SpielGame", "pyramids.rl.openspiel_game"),
    ("Env", "pyramids.rl.pettingzoo_env"),
)
"""Per-game names, by suffix: the module that makes them from the registry."""


def _encoding_class(name: str) -> Any:
    """The encoding class called ``name`` among the registered games' encodings, or None."""
    from pyramids.games import descriptors

    for desc in descriptors():
        if desc.rl_encoding is not None:
            factory = desc.rl_encoding.get()
            if getattr(factory, "__name__", None) == name:
                return factory
    return None


def __getattr__(name: str) -> Any:
    """Import an exported name's module on first use (the extras are heavy)."""
    module = _EXPORTS.get(name)
    if module is not None:
        return getattr(importlib.import_module(module), name)
    if name.endswith("Encoding") and (cls := _encoding_class(name)) is not None:
        return cls
    for suffix, path in _BY_SUFFIX:
        if name.endswith(suffix) and not name.startswith("_"):
            try:
                return getattr(importlib.import_module(path), name)
            except AttributeError:
                break
    raise AttributeError(f"module 'pyramids.rl' has no attribute {name!r}")


__all__ = ["Encoding", "PyramidsAECEnv", "PyramidsGymEnv", "encoding_for", "env_class"]
