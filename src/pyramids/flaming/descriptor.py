"""The Flaming Pyramids entry of the game registry (``pyramids.games``): the game as data."""

from __future__ import annotations

from pyramids.core.descriptor import GameDescriptor, OptionSpec, Preset
from pyramids.flaming.events import EVENT_KINDS
from pyramids.flaming.game import INFO, FlamingGame, position_from_json
from pyramids.flaming.options import CALLOUT_MODES, DEFAULT_MAX_TURNS, PRESETS

_PRESET_LABELS = {
    "basic": ("Basic: 40 tiles, no embers", "Base : 40 tuiles, sans braises"),
    "family": ("Family: every tile, no curse", "Famille : toutes les tuiles, sans malédiction"),
    "standard": (
        "Standard: every tile and the curse",
        "Standard : toutes les tuiles et la malédiction",
    ),
}

DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=FlamingGame.from_options,
    load_position=position_from_json,
    titles={"en": "Flaming Pyramids", "fr": "Pyramides en flammes"},
    options=(
        OptionSpec(
            "preset",
            "choice",
            "standard",
            choices=PRESETS,
            help_en="Which tiles are in play and whether the curse is on.",
            help_fr="Quelles tuiles sont en jeu et si la malédiction s’applique.",
        ),
        OptionSpec(
            "curse",
            "bool",
            None,
            nullable=True,
            help_en="Force the curse on or off (null: the preset's choice).",
            help_fr="Forcer la malédiction (null : selon le préréglage).",
        ),
        OptionSpec(
            "fire_die",
            "bool",
            False,
            help_en="Play with the fire die.",
            help_fr="Jouer avec le dé de feu.",
        ),
        OptionSpec(
            "callout",
            "choice",
            "off",
            choices=CALLOUT_MODES,
            help_en=(
                "Call-out: the players spot mayhem themselves. Family: overlooked mayhem found "
                "later puts its tiles out of the game. Competitive: the player whose turn it is "
                "when it is found takes them."
            ),
            help_fr=(
                "Signalement : les joueurs repèrent eux-mêmes le chaos. Famille : un chaos passé "
                "inaperçu et trouvé plus tard met ses tuiles hors du jeu. Compétitif : le joueur "
                "dont c’est le tour quand il est trouvé les prend."
            ),
        ),
        OptionSpec(
            "max_turns",
            "int",
            DEFAULT_MAX_TURNS,
            minimum=1,
            help_en="End a game nobody has won after this many turns (ranked by tiles left).",
            help_fr="Finir après ce nombre de tours sans vainqueur (classement aux tuiles restantes).",
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
    presets=tuple(
        Preset(p, {"preset": p}, _PRESET_LABELS[p][0], _PRESET_LABELS[p][1]) for p in PRESETS
    ),
    default_preset="standard",
    event_kinds=EVENT_KINDS,
    policy="pyramids.games.flaming.policy:GreedyFlamingBot",
    evaluation="pyramids.games.flaming.evaluation:evaluate",
    learned_evaluation="pyramids.games.flaming.learned:evaluate",
    reflex="pyramids.games.flaming.policy:CheckReflex",
    terminal="pyramids.games.flaming.terminal:UI",
    analysis="pyramids.games.flaming.analysis:Analysis",
    rl_encoding="pyramids.games.flaming.encoding:FlamingEncoding",
    browser_module="js/flaming-table.js",
    hints="pyramids.flaming.view:placement_hints",
    player_stats="pyramids.games.flaming.stats:player_stats",
    native="pyramids.native.flaming:ENGINE",
)
