"""The game protocol every game implements, its errors, and a seeded driver.

This package imports only the standard library: it is the root of the layer graph
(core <- flaming, flags <- bots <- cli, server, analysis).
"""

from pyramids.core.errors import (
    ActionParseError,
    IllegalActionError,
    PositionError,
    PyramidsError,
)
from pyramids.core.game import (
    CHANCE,
    TERMINAL,
    Action,
    Bot,
    Event,
    Game,
    GameInfo,
    OracleBot,
    State,
    View,
    choose,
)
from pyramids.core.record import GameRecord, play_game, replay

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionParseError",
    "Bot",
    "Event",
    "Game",
    "GameInfo",
    "GameRecord",
    "IllegalActionError",
    "OracleBot",
    "PositionError",
    "PyramidsError",
    "State",
    "View",
    "choose",
    "play_game",
    "replay",
]
