"""The game protocol every game implements, its errors, and a seeded driver.

This package imports only the standard library: it is the root of the layer graph
(core <- flaming, flags <- pyramids.games <- bots <- cli, server, analysis, rl).
"""

from pyramids.core.descriptor import GameDescriptor, OptionSpec, Preset
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
    GameOptions,
    OracleBot,
    Outcome,
    OutcomeKind,
    RulesGame,
    State,
    View,
    choose,
    competition_ranking,
    view_key,
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
    "GameDescriptor",
    "GameInfo",
    "GameOptions",
    "GameRecord",
    "IllegalActionError",
    "OptionSpec",
    "OracleBot",
    "Outcome",
    "OutcomeKind",
    "PositionError",
    "Preset",
    "PyramidsError",
    "RulesGame",
    "State",
    "View",
    "choose",
    "competition_ranking",
    "play_game",
    "replay",
    "view_key",
]
