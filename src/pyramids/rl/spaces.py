"""Fixed-size action indices and observation vectors, per game, through the registry (docs/RL.md).

An ``Encoding`` (``index_table``, ``mask``, ``to_engine``, ``observe``, ``render``;
defined in ``pyramids.games.encoding`` so that a game's encoding never imports this
package) gives learning code a fixed ``Discrete(n)`` action space, a mask of the legal
indices and a fixed float vector per decision, from one seat's view only. Each game
provides its own, named by its descriptor's ``rl_encoding``; ``encoding_for(name, game)``
looks it up in the registry (``pyramids.games``), so this module names no game.

Chance outcomes are never agent actions: the environments resolve them with their own
seeded generator.
"""

from __future__ import annotations

from pyramids.core.errors import PositionError
from pyramids.core.game import Game
from pyramids.games import descriptor, descriptors
from pyramids.games.encoding import OBS_HIGH, OBS_LOW, Encoding, Mask, Obs


def encoding_for(name: str, game: Game) -> Encoding:
    """The encoding of the registered game ``name`` for the engine ``game``.

    ValueError when no such game is registered or when it provides no encoding.
    """
    try:
        desc = descriptor(name)
    except PositionError:
        known = ", ".join(sorted(d.name for d in descriptors()))
        raise ValueError(f"unknown game {name!r} (known: {known})") from None
    if desc.rl_encoding is None:
        raise ValueError(f"game {name!r} provides no RL encoding")
    encoding = desc.rl_encoding.get()(game)
    if not isinstance(encoding, Encoding):
        raise TypeError(f"game {name!r}: its RL encoding is a {type(encoding).__name__}")
    return encoding


def has_encoding(name: str) -> bool:
    """Whether the registered game ``name`` provides an RL encoding."""
    try:
        return descriptor(name).rl_encoding is not None
    except PositionError:
        return False


__all__ = ["OBS_HIGH", "OBS_LOW", "Encoding", "Mask", "Obs", "encoding_for", "has_encoding"]
