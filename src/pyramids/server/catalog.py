"""What the lobby offers: each game's seat range, presets and rules options, and the bots.

The option fields are those of ``FlamingOptions`` and ``FlagsOptions`` (the same options as
``pyramids play``), with their defaults; the games check the values when a table is created.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, cast

from pyramids.core import Game
from pyramids.flags.game import FlagsGame
from pyramids.flags.options import FlagsOptions
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import PRESETS, FlamingOptions
from pyramids.server.schemas import (
    BotOut,
    GameName,
    GameOut,
    GamesOut,
    OptionField,
    OptionValue,
    Preset,
)

FLAMING_PRESET_LABELS = {
    "basic": ("Basic: 40 tiles, no embers", "Base : 40 tuiles, sans braises"),
    "family": ("Family: every tile, no curse", "Famille : toutes les tuiles, sans malédiction"),
    "standard": (
        "Standard: every tile and the curse",
        "Standard : toutes les tuiles et la malédiction",
    ),
}


def _field(options: type, name: str, help_text: str, **extra: Any) -> OptionField:
    """The option ``name`` of the options dataclass ``options``, with its own default."""
    default = cast(OptionValue, {f.name: f.default for f in fields(options)}[name])
    kind = extra.pop("type", type(default).__name__)
    return OptionField(name=name, type=kind, default=default, help=help_text, **extra)


def _game(
    name: GameName,
    game: type[Game],
    options: type,
    default_preset: str,
    presets: list[Preset],
    *,
    ranked_by: str,
    own: list[OptionField],
) -> GameOut:
    """A game's entry: its metadata, presets, own options, then the turn limit and first player."""
    info = game.info
    return GameOut(
        name=name,
        title=info.name,
        min_players=info.min_players,
        max_players=info.max_players,
        rules_version=info.rules_version,
        default_preset=default_preset,
        presets=presets,
        options=[
            *own,
            _field(
                options,
                "max_turns",
                f"End a game nobody has won after this many turns (ranked by {ranked_by}).",
                minimum=1,
            ),
            _field(options, "first_player", "The seat that plays first.", minimum=0),
        ],
    )


def _flaming() -> GameOut:
    return _game(
        "flaming",
        FlamingGame,
        FlamingOptions,
        "standard",
        [
            Preset(
                name=p,
                label_en=FLAMING_PRESET_LABELS[p][0],
                label_fr=FLAMING_PRESET_LABELS[p][1],
                options={"preset": p},
            )
            for p in PRESETS
        ],
        ranked_by="tiles left",
        own=[
            _field(
                FlamingOptions,
                "preset",
                "Which tiles are in play and whether the curse is on.",
                choices=list(PRESETS),
            ),
            _field(
                FlamingOptions,
                "curse",
                "Force the curse on or off (null: the preset's choice).",
                type="bool",
                nullable=True,
            ),
            _field(FlamingOptions, "fire_die", "Play with the fire die."),
        ],
    )


def _flags() -> GameOut:
    return _game(
        "flags",
        FlagsGame,
        FlagsOptions,
        "advanced",
        [
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
        ranked_by="points",
        own=[_field(FlagsOptions, "actions", "Play the trees' actions.")],
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
