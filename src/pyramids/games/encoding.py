"""The base of every game's RL encoding: fixed action indices and observation vectors.

The engines number actions sparsely (a placement may pack a position key into a large
int; actions may name absolute seats). Learning code wants a fixed ``Discrete(n)``
action space, a mask of the legal indices and a fixed float vector per decision. An
``Encoding`` gives all three for one game:

- ``index_table(legal, seat)`` maps each legal engine action to its index (and back),
  so the mapping never needs anything but the legal list and the deciding seat;
- ``observe(view)`` builds a float32 vector from one seat's ``view`` only, never from
  the hidden state. Seats are counted from the viewer (0 = the viewer, 1 = the next
  seat in turn order ...), padded to the game's maximum number of players, so one
  vector shape fits every player count;
- ``render(view)`` is the public position as plain text (the environments' ``ansi``).

Each game's encoding lives with the game (``pyramids.games.<game>.encoding``) and is
named by its descriptor's ``rl_encoding``; ``pyramids.rl.spaces.encoding_for`` finds it
through the registry. This module sits below both (numpy only, no RL library), so a
game's encoding never imports ``pyramids.rl``.

Chance outcomes (dice, steals, deals) are never agent actions: the environments resolve
them with their own seeded generator.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pyramids.core.game import Action, Game, State

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

OBS_LOW = -8.0
OBS_HIGH = 8.0
"""Every observation value is clipped to this range (the Box bounds of the spaces)."""


class Encoding(abc.ABC):
    """One game's fixed action indices and observation vector, for a given engine game."""

    num_actions: int
    """Size of the Discrete action space."""
    max_players: int
    layout: tuple[tuple[str, tuple[int, ...]], ...]
    """Named parts of the observation vector, in order, with their shapes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.num_players

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return sum(int(np.prod(shape)) for _, shape in self.layout)

    def slices(self) -> dict[str, slice]:
        """Where each named part sits in the observation vector."""
        out = {}
        start = 0
        for name, shape in self.layout:
            size = int(np.prod(shape))
            out[name] = slice(start, start + size)
            start += size
        return out

    @abc.abstractmethod
    def to_index(self, action: Action, seat: int) -> int:
        """The index of engine ``action`` decided by ``seat`` (-1 when it has no index)."""

    def index_table(self, legal: Sequence[Action], seat: int) -> dict[int, Action]:
        """Index -> engine action for every legal action that has an index."""
        table = {}
        for a in legal:
            i = self.to_index(a, seat)
            if i >= 0:
                table[i] = a
        return table

    def mask(self, legal: Sequence[Action], seat: int) -> Mask:
        """The int8 mask (1 = legal) of ``legal`` as indices."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        for i in self.index_table(legal, seat):
            m[i] = 1
        return m

    def legal_indices(self, state: State) -> list[int]:
        """The sorted indices of the legal actions of the seat deciding in ``state``."""
        seat = state.current_player()
        if seat < 0:
            return []
        return sorted(self.index_table(state.legal_actions(), seat))

    def to_engine(self, index: int, legal: Sequence[Action], seat: int) -> Action:
        """The engine action of ``index``; ValueError when it is not among ``legal``."""
        action = self.index_table(legal, seat).get(int(index))
        if action is None:
            raise ValueError(f"action index {index} is not legal here")
        return action

    @abc.abstractmethod
    def observe(self, view: Any, seat: int | None = None, out: Obs | None = None) -> Obs:
        """The observation vector of ``view``, seats counted from ``seat`` (default: the viewer)."""

    def render(self, view: Any) -> str:
        """The public position of ``view`` as plain text (default: its JSON, keys sorted)."""
        return json.dumps(view.to_json(), sort_keys=True, ensure_ascii=False)

    def _buffer(self, out: Obs | None) -> Obs:
        if out is None:
            return np.zeros(self.obs_size, dtype=np.float32)
        out.fill(0.0)
        return out

    def _parts(self, buf: Obs) -> dict[str, Obs]:
        return {
            name: buf[sl].reshape(shape)
            for (name, shape), sl in zip(self.layout, self.slices().values(), strict=True)
        }


__all__ = ["OBS_HIGH", "OBS_LOW", "Encoding", "Mask", "Obs"]
