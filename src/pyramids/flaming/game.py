"""The Flaming Pyramids game: metadata, setup from a seed (FP-SETUP), positions, views."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.game import Game, GameInfo, View
from pyramids.flaming.options import RULES_VERSION, FlamingOptions
from pyramids.flaming.state import HAND_SIZE, FlamingState
from pyramids.flaming.tiles import IS_EMBER, key_of

INFO = GameInfo(
    name="Flaming Pyramids",
    short_name="flaming",
    min_players=2,
    max_players=6,
    has_chance=True,
    has_hidden_information=True,
    rules_version=RULES_VERSION,
    default_options=FlamingOptions().to_record(),
)


class FlamingGame(Game):
    """Flaming Pyramids for ``players`` seats under ``options``."""

    info = INFO

    def __init__(self, players: int = 3, options: FlamingOptions | None = None) -> None:
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise PositionError(f"Flaming Pyramids is for 2 to 6 players, not {players!r}")
        self._players = players
        self.options_obj = options or FlamingOptions()
        self._options = MappingProxyType(self.options_obj.to_record())
        self.curse_on = self.options_obj.curse_on
        if self.options_obj.first_player >= players:
            raise PositionError(
                f"first_player {self.options_obj.first_player} is not a seat of a {players}-player game"
            )

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> FlamingGame:
        """A game from a record's options mapping."""
        return cls(players, FlamingOptions.from_json(options))

    @property
    def options(self) -> Mapping[str, Any]:
        """All options, as recorded with games (read-only)."""
        return self._options

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._players

    def new_initial_state(self, seed: int) -> FlamingState:
        """FP-SETUP: shuffle, deal equal piles, leftovers (embers removed) form the base."""
        rng = random.Random(seed)
        tiles = sorted(self.options_obj.tiles)
        rng.shuffle(tiles)
        n = self._players
        each = len(tiles) // n
        state = FlamingState(self)
        leftovers = tiles[n * each :]
        col = 0
        for t in leftovers:
            if IS_EMBER[t]:
                state._out.append(t)
                state._events.append(("setup_removed", t))
            else:
                state._board[key_of(0, col)] = t
                col += 2
        for seat in range(n):
            pile = tiles[seat * each : (seat + 1) * each]
            state._hands[seat] = pile[:HAND_SIZE]
            state._piles[seat] = pile[HAND_SIZE:]
            state._hidden[seat] = len(state._piles[seat])
        first = self.options_obj.first_player
        state._to_move = first
        state._resp = first
        state._rebuild()
        state._cands = set()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> FlamingState:
        """A state from the position notation (FP-NOTE); PositionError when inconsistent."""
        from pyramids.flaming.notation import position_from_json

        state = position_from_json(data)
        if state.num_players != self._players:
            raise PositionError(
                f"the position has {state.num_players} players, the game {self._players}"
            )
        return state

    def determinize(self, view: View, rng: random.Random) -> FlamingState:
        """A full state consistent with ``view``: unseen tiles dealt at random."""
        from pyramids.flaming.view import FlamingView, determinize

        if not isinstance(view, FlamingView):
            raise TypeError("a Flaming Pyramids game determinizes Flaming Pyramids views")
        return determinize(self, view, rng)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlamingGame):
            return NotImplemented
        return (self._players, self.options_obj) == (other._players, other.options_obj)

    def __hash__(self) -> int:
        return hash((self._players, self.options_obj))

    def __repr__(self) -> str:
        return f"FlamingGame({self._players}, {self.options_obj!r})"
