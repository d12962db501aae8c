"""What the lobby offers: each game's seat range, presets and rules options, and the bots.

The option fields mirror ``FlamingOptions`` and ``FlagsOptions`` (the same options as
``pyramids play``); the games themselves check the values when a table is created.
"""

from __future__ import annotations

from pyramids.flags.game import FlagsGame
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import PRESETS
from pyramids.server.schemas import BotOut, GameOut, GamesOut, OptionField, Preset

FLAMING_PRESET_LABELS = {
    "basic": ("Basic: 40 tiles, no embers", "Base : 40 tuiles, sans braises"),
    "family": ("Family: every tile, no curse", "Famille : toutes les tuiles, sans malédiction"),
    "standard": (
        "Standard: every tile and the curse",
        "Standard : toutes les tuiles et la malédiction",
    ),
}


def _flaming() -> GameOut:
    info = FlamingGame.info
    return GameOut(
        name="flaming",
        title=info.name,
        min_players=info.min_players,
        max_players=info.max_players,
        rules_version=info.rules_version,
        default_preset="standard",
        presets=[
            Preset(
                name=p,
                label_en=FLAMING_PRESET_LABELS[p][0],
                label_fr=FLAMING_PRESET_LABELS[p][1],
                options={"preset": p},
            )
            for p in PRESETS
        ],
        options=[
            OptionField(
                name="preset",
                type="str",
                default="standard",
                choices=list(PRESETS),
                help="Which tiles are in play and whether the curse is on.",
            ),
            OptionField(
                name="curse",
                type="bool",
                default=None,
                nullable=True,
                help="Force the curse on or off (null: the preset's choice).",
            ),
            OptionField(
                name="fire_die", type="bool", default=False, help="Play with the fire die."
            ),
            OptionField(
                name="max_turns",
                type="int",
                default=1000,
                minimum=1,
                help="End a game nobody has won after this many turns (ranked by tiles left).",
            ),
            OptionField(
                name="first_player",
                type="int",
                default=0,
                minimum=0,
                help="The seat that plays first.",
            ),
        ],
    )


def _flags() -> GameOut:
    info = FlagsGame.info
    return GameOut(
        name="flags",
        title=info.name,
        min_players=info.min_players,
        max_players=info.max_players,
        rules_version=info.rules_version,
        default_preset="advanced",
        presets=[
            Preset(
                name="advanced",
                label_en="Advanced: with the trees' actions",
                label_fr="Avancé : avec les actions des arbres",
                options={"actions": True},
            ),
            Preset(
                name="basic",
                label_en="Basic: no tree actions",
                label_fr="Base : sans les actions des arbres",
                options={"actions": False},
            ),
        ],
        options=[
            OptionField(name="actions", type="bool", default=True, help="Play the trees' actions."),
            OptionField(
                name="max_turns",
                type="int",
                default=3000,
                minimum=1,
                help="End a game nobody has won after this many turns (ranked by points).",
            ),
            OptionField(
                name="first_player",
                type="int",
                default=0,
                minimum=0,
                help="The seat that plays first.",
            ),
        ],
    )


BOTS = [
    BotOut(
        name="random",
        description_en="Random: plays any legal move",
        description_fr="Hasard : joue n’importe quel coup légal",
    ),
    BotOut(
        name="greedy",
        description_en="Greedy: the best move for this turn",
        description_fr="Glouton : le meilleur coup pour ce tour",
    ),
    BotOut(
        name="ismcts",
        description_en="ISMCTS: the project's strongest bot (thinks about a second)",
        description_fr="ISMCTS : le meilleur robot du projet (réfléchit environ une seconde)",
    ),
]


def catalog() -> GamesOut:
    """Every game and bot the lobby offers."""
    return GamesOut(games=[_flaming(), _flags()], bots=BOTS)
