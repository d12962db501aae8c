"""Rules options shared by the commands that play many games (simulate, tournament)."""

from __future__ import annotations

from typing import Annotated

import typer

PresetOption = Annotated[
    str | None,
    typer.Option(help="Flaming only: rules preset basic, family or standard (default)."),
]
CurseOption = Annotated[
    bool | None,
    typer.Option(
        "--curse/--no-curse",
        help="Flaming only: force the curse on or off (default: preset's).",
    ),
]
FireDieOption = Annotated[
    bool, typer.Option("--fire-die", help="Flaming only: play with the fire die.")
]
ActionsOption = Annotated[
    bool | None,
    typer.Option("--actions/--no-actions", help="Flags only: tree actions (default: on)."),
]
MaxTurnsOption = Annotated[
    int | None,
    typer.Option(
        help="End games nobody has won after this many turns (default: flaming 1000, flags 3000)."
    ),
]
