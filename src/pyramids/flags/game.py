"""The Pyramids and Flags game: metadata, setup from a seed (PF-SETUP), positions, views."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.game import Game, GameInfo, View
from pyramids.flags.actions import MAX_PLAYERS
from pyramids.flags.cards import NUM_CARDS
from pyramids.flags.options import RULES_VERSION, FlagsOptions
from pyramids.flags.state import HAND_SIZE, FlagsState

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
    """Pyramids and Flags for ``players`` seats (2 to 4) under ``options``."""

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
        dealt from the top one at a time, seat 0 first.
        """
        rng = random.Random(seed)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        state = FlagsState(self)
        n = self._players
        for i in range(HAND_SIZE * n):
            state._hands[i % n].append(deck[i])
        state._deck = deck[HAND_SIZE * n :]
        state._to_move = self.options_obj.first_player
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> FlagsState:
        """A state from the position notation (PF-NOTE-2); PositionError when inconsistent."""
        from pyramids.flags.notation import position_from_json

        state = position_from_json(data)
        if state.num_players != self._players:
            raise PositionError(
                f"the position has {state.num_players} players, the game {self._players}"
            )
        return state

    def determinize(self, view: View, rng: random.Random) -> FlagsState:
        """A full state consistent with ``view``: unknown cards dealt at random (PF-VIEW-5)."""
        from pyramids.flags.view import FlagsView, determinize

        if not isinstance(view, FlagsView):
            raise TypeError("a Pyramids and Flags game determinizes Pyramids and Flags views")
        return determinize(self, view, rng)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlagsGame):
            return NotImplemented
        return (self._players, self.options_obj) == (other._players, other.options_obj)

    def __hash__(self) -> int:
        return hash((self._players, self.options_obj))

    def __repr__(self) -> str:
        return f"FlagsGame({self._players}, {self.options_obj!r})"
