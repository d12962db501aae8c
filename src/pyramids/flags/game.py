"""The Pyramids and Flags game protocol: ``FlagsGame``, its ``INFO`` and ``position_from_json``.

The state in play is ``state.FlagsState``; the rules are the functions of ``rules``. The
skeleton (seats, options, equality, ``state_from_json``...) is ``core.game.RulesGame``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pyramids.core.game import GameInfo, RulesGame, View
from pyramids.flags.actions import MAX_PLAYERS
from pyramids.flags.options import RULES_VERSION, FlagsOptions
from pyramids.flags.position import FlagsPosition
from pyramids.flags.state import FlagsState
from pyramids.flags.text import read_position
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


class FlagsGame(RulesGame[FlagsOptions, FlagsState, FlagsView]):
    """Pyramids and Flags for ``players`` seats (PF-SETUP-4: 2 to 4) under ``options``."""

    info = INFO
    options_type = FlagsOptions
    view_type = FlagsView
    default_players = 2

    def new_initial_state(self, seed: int) -> FlagsState:
        """PF-SETUP: 18 single towers, bank full, deck shuffled, 4 cards dealt to each seat.

        The deck (cards in code order) is shuffled with ``random.Random(seed)``; cards are
        dealt from the top one at a time, seat 0 first (``FlagsPosition.from_seed``).
        """
        return FlagsState(self, FlagsPosition.from_seed(seed, self._players, self.options_obj))

    def load_state(self, data: Mapping[str, Any]) -> FlagsState:
        """A state from the position notation (PF-NOTE-2); PositionError when inconsistent."""
        return position_from_json(data)

    def determinize(self, view: View, rng: random.Random) -> FlagsState:
        """A full state consistent with ``view``: unknown cards dealt at random (PF-VIEW-5)."""
        seen = self.checked_view(view)
        return FlagsState(self, determinize(self.options_obj, seen, rng))


def position_from_json(data: Mapping[str, Any]) -> FlagsState:
    """A state from the contract's JSON (PF-NOTE-2); PositionError says what is inconsistent."""
    pos = read_position(data)
    return FlagsState(FlagsGame(len(pos.hands), pos.options), pos)
