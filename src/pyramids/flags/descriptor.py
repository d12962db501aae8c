"""The Pyramids and Flags entry of the game registry (``pyramids.games``): the game as data."""

from __future__ import annotations

from pyramids.core.descriptor import GameDescriptor, OptionSpec, Preset
from pyramids.flags.events import EVENT_KINDS
from pyramids.flags.game import INFO, FlagsGame, position_from_json
from pyramids.flags.options import DEFAULT_MAX_TURNS

DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=FlagsGame.from_options,
    load_position=position_from_json,
    titles={"en": "Pyramids and Flags", "fr": "Pyramides et drapeaux"},
    options=(
        OptionSpec(
            "actions",
            "bool",
            True,
            help_en="Play the trees' actions.",
            help_fr="Jouer les actions des arbres.",
        ),
        OptionSpec(
            "max_turns",
            "int",
            DEFAULT_MAX_TURNS,
            minimum=1,
            help_en="End a game nobody has won after this many turns (ranked by points).",
            help_fr="Finir après ce nombre de tours sans vainqueur (classement aux points).",
        ),
        OptionSpec(
            "first_player",
            "int",
            0,
            minimum=0,
            help_en="The seat that plays first.",
            help_fr="La place qui joue en premier.",
        ),
    ),
    presets=(
        Preset(
            "advanced",
            {"actions": True},
            "Advanced: with the trees' actions",
            "Avancé : avec les actions des arbres",
        ),
        Preset(
            "basic",
            {"actions": False},
            "Basic: no tree actions",
            "Base : sans les actions des arbres",
        ),
    ),
    default_preset="advanced",
    event_kinds=EVENT_KINDS,
    policy="pyramids.games.flags.policy:GreedyFlagsBot",
    evaluation="pyramids.games.flags.evaluation:evaluate",
    learned_evaluation="pyramids.games.flags.learned:evaluate",
    inference="pyramids.games.flags.inference:FlagsInference",
    terminal="pyramids.games.flags.terminal:UI",
    analysis="pyramids.games.flags.analysis:Analysis",
    rl_encoding="pyramids.games.flags.encoding:FlagsEncoding",
    browser_module="js/flags-table.js",
    player_stats="pyramids.games.flags.stats:player_stats",
    native="pyramids.native.flags:ENGINE",
)
