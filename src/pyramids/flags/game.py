"""The Pyramids and Flags game protocol: ``FlagsGame``, its ``INFO`` and ``position_from_json``.

The state in play is ``state.FlagsState``; the rules are the functions of ``rules``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.game import (
    Game,
    GameInfo,
    View,
)
from pyramids.flags.actions import (
    MAX_PLAYERS,
)
from pyramids.flags.options import RULES_VERSION, FlagsOptions
from pyramids.flags.position import FlagsPosition
from pyramids.flags.state import FlagsState
from pyramids.flags.text import (
    read_position,
)
from pyramids.flags.view import FlagsView, determinize

INFO = GameInfo(
    name="Pyramids and Flags",
    short_name="flags",
    min_players=2,
    max_players=MAX_PLAYERS,
    has_chance=True,
    has_hidden_information=True,
    rules_version=RULES_VERSION,
    default_options=FlagsOptions().to_record(),
)


class FlagsGame(Game):
    """Pyramids and Flags for ``players`` seats (PF-SETUP-4: 2 to 4) under ``options``."""

    info = INFO

    def __init__(self, players: int = 2, options: FlagsOptions | None = None) -> None:
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not 2 <= players <= MAX_PLAYERS
        ):
            raise PositionError(f"Pyramids and Flags is for 2 to 4 players, not {players!r}")
        self._players = players
        self.options_obj = options or FlagsOptions()
        self._options = MappingProxyType(self.options_obj.to_record())
        if self.options_obj.first_player >= players:
            raise PositionError(
                f"first_player {self.options_obj.first_player} is not a seat of a {players}-player game"
            )

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> FlagsGame:
        """A game from a record's options mapping."""
        return cls(players, FlagsOptions.from_json(options))

    @property
    def options(self) -> Mapping[str, Any]:
        """All options, as recorded with games (read-only)."""
        return self._options

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._players

    def new_initial_state(self, seed: int) -> FlagsState:
        """PF-SETUP: 18 single towers, bank full, deck shuffled, 4 cards dealt to each seat.

        The deck (cards in code order) is shuffled with ``random.Random(seed)``; cards are
        dealt from the top one at a time, seat 0 first (``FlagsPosition.from_seed``).
        """
        return FlagsState(self, FlagsPosition.from_seed(seed, self._players, self.options_obj))

    def state_from_json(self, data: Mapping[str, Any]) -> FlagsState:
        """A state from the position notation (PF-NOTE-2); PositionError when inconsistent."""
        state = position_from_json(data)
        if state.num_players != self._players:
            raise PositionError(
                f"the position has {state.num_players} players, the game {self._players}"
            )
        return state

    def determinize(self, view: View, rng: random.Random) -> FlagsState:
        """A full state consistent with ``view``: unknown cards dealt at random (PF-VIEW-5)."""
        if not isinstance(view, FlagsView):
            raise TypeError("a Pyramids and Flags game determinizes Pyramids and Flags views")
        if view.players != self._players:
            raise PositionError("the view and the game have different numbers of players")
        return FlagsState(self, determinize(self.options_obj, view, rng))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlagsGame):
            return NotImplemented
        return (self._players, self.options_obj) == (other._players, other.options_obj)

    def __hash__(self) -> int:
        return hash((self._players, self.options_obj))

    def __repr__(self) -> str:
        return f"FlagsGame({self._players}, {self.options_obj!r})"


def position_from_json(data: Mapping[str, Any]) -> FlagsState:
    """A state from the contract's JSON (PF-NOTE-2); PositionError says what is inconsistent."""
    pos = read_position(data)
    return FlagsState(FlagsGame(len(pos.hands), pos.options), pos)
