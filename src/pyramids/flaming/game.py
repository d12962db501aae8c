"""The Flaming Pyramids game: metadata, setup from a seed (FP-SETUP-1), positions, views.

The skeleton (seats, options, equality, ``state_from_json``...) is ``core.game.RulesGame``;
this module keeps what is Flaming's own: the deal, the position reader and ``determinize``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pyramids.core.game import GameInfo, RulesGame, View
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


class FlamingGame(RulesGame[FlamingOptions, FlamingState, FlamingView]):
    """Flaming Pyramids for ``players`` seats (2 to 6, 3 by default) under ``options``."""

    info = INFO
    options_type = FlamingOptions
    view_type = FlamingView
    default_players = 3

    def __init__(self, players: int | None = None, options: FlamingOptions | None = None) -> None:
        super().__init__(players, options)
        self.curse_on = self.options_obj.curse_on

    def new_initial_state(self, seed: int) -> FlamingState:
        """FP-SETUP-1, FP-SETUP-2, FP-SETUP-3, FP-SETUP-4: shuffle with ``seed``, then deal."""
        rng = random.Random(seed)
        tiles = sorted(self.options_obj.tiles)
        rng.shuffle(tiles)
        pos = FlamingPosition.from_deal(tiles, self._players, self.options_obj.first_player)
        events = [("setup_removed", t) for t in pos.out]
        return FlamingState(self, self.options_obj, pos, last_events=events)

    def load_state(self, data: Mapping[str, Any]) -> FlamingState:
        """A state from the position notation (FP-NOTE-3); PositionError when inconsistent."""
        return position_from_json(data)

    def determinize(self, view: View, rng: random.Random) -> FlamingState:
        """A full state consistent with ``view``: unseen tiles dealt at random."""
        seen = self.checked_view(view)
        return FlamingState(self, self.options_obj, determinize(seen, rng))


def position_from_json(data: Mapping[str, Any]) -> FlamingState:
    """A state from the contract's JSON (FP-NOTE-3); PositionError says what is inconsistent.

    The state's game has the position's players and rules (``first_player`` 0).
    """
    options, pos = parse_position(data)
    game = FlamingGame(len(pos.hands), options)
    return FlamingState(game, options, pos)
