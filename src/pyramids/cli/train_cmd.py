"""`pyramids train-eval GAME`: train a game's learned evaluation and write its ``value.json``.

The training is ``pyramids.analysis.train_eval`` (native self-play positions, a logistic
regression with numpy, a held-out measure against the hand-made evaluation); see
docs/BOTS.md, "The learned evaluation". Without ``--out`` the file replaces the game's
shipped ``value.json``, which the searches read at their next start (no rebuild).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pyramids.analysis import train_eval
from pyramids.cli.io import check_output


def train_eval_command(
    game: Annotated[str, typer.Argument(help="Game whose evaluation to train: flaming or flags.")],
    *,
    positions: Annotated[
        int,
        typer.Option(
            "--positions", "-n", help="Self-play positions to draw (a fifth held out).", min=1
        ),
    ] = train_eval.DEFAULT_POSITIONS,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the self-play games.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Where to write the weights (default: the game's value.json)."
        ),
    ] = None,
) -> None:
    """Train a game's learned evaluation from native self-play and write its weights."""
    err = Console(stderr=True)
    name = game.strip().lower()
    try:
        path = out if out is not None else train_eval.default_path(name)
        check_output(path, "--out")
        command = f"pyramids train-eval {name} --positions {positions} --seed {seed}"
        value = train_eval.train(name, positions=positions, seed=seed, command=command)
    except train_eval.TrainingError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    train_eval.write(value, path)
    held = value.training["held_out"]
    typer.echo(
        f"{name}: {value.training['positions']} positions, held out "
        f"{value.training['held_out_positions']}: log-loss {held['log_loss']} "
        f"(hand-made {held['handmade_log_loss']}), accuracy {held['accuracy']} "
        f"(hand-made {held['handmade_accuracy']}); weights in {path}"
    )
