"""The Flaming Pyramids game: metadata, setup from a seed (FP-SETUP-1), positions, views."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.game import Game, GameInfo, View
from pyramids.flaming.options import RULES_VERSION, FlamingOptions
from pyramids.flaming.position import FlamingPosition
from pyramids.flaming.state import FlamingState
from pyramids.flaming.text import parse_position
from pyramids.flaming.view import FlamingView, determinize

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
        """FP-SETUP-1, FP-SETUP-2, FP-SETUP-3, FP-SETUP-4: shuffle with ``seed``, then deal."""
        rng = random.Random(seed)
        tiles = sorted(self.options_obj.tiles)
        rng.shuffle(tiles)
        pos = FlamingPosition.from_deal(tiles, self._players, self.options_obj.first_player)
        events = [("setup_removed", t) for t in pos.out]
        return FlamingState(self, self.options_obj, pos, last_events=events)

    def state_from_json(self, data: Mapping[str, Any]) -> FlamingState:
        """A state from the position notation (FP-NOTE-3); PositionError when inconsistent."""
        state = position_from_json(data)
        if state.num_players != self._players:
            raise PositionError(
                f"the position has {state.num_players} players, the game {self._players}"
            )
        return state

    def determinize(self, view: View, rng: random.Random) -> FlamingState:
        """A full state consistent with ``view``: unseen tiles dealt at random."""
        if not isinstance(view, FlamingView):
            raise TypeError("a Flaming Pyramids game determinizes Flaming Pyramids views")
        if view.players != self._players:
            raise PositionError("the view and the game have different numbers of players")
        return FlamingState(self, self.options_obj, determinize(view, rng))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlamingGame):
            return NotImplemented
        return (self._players, self.options_obj) == (other._players, other.options_obj)

    def __hash__(self) -> int:
        return hash((self._players, self.options_obj))

    def __repr__(self) -> str:
        return f"FlamingGame({self._players}, {self.options_obj!r})"


def position_from_json(data: Mapping[str, Any]) -> FlamingState:
    """A state from the contract's JSON (FP-NOTE-3); PositionError says what is inconsistent.

    The state's game has the position's players and rules (``first_player`` 0).
    """
    options, pos = parse_position(data)
    game = FlamingGame(len(pos.hands), options)
    return FlamingState(game, options, pos)
