"""Entry point of the ``pyramids`` command: wires the subcommands together."""

from __future__ import annotations

import typer

from pyramids.cli import (
    analyse_cmd,
    analyse_game_cmd,
    bench_cmd,
    hint_cmd,
    play_cmd,
    position_cmd,
    serve_cmd,
    sim_cmd,
    tournament_cmd,
    train_cmd,
    verify_cmd,
)
from pyramids.games import descriptors

app = typer.Typer(
    name="pyramids",
    help="Play, study and build AI for pyramid games ("
    + ", ".join(d.title() for d in descriptors())
    + ").",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
position_cmd.add_game_apps(app)
app.command("play")(play_cmd.play)
app.command("replay")(play_cmd.replay)
app.command("simulate")(sim_cmd.simulate)
app.command("bench")(bench_cmd.bench)
app.command("hint")(hint_cmd.hint)
app.command("tournament")(tournament_cmd.tournament)
app.command("analyse")(analyse_cmd.analyse)
app.command("analyse-game")(analyse_game_cmd.analyse_game)
app.command("serve")(serve_cmd.serve)
app.command("verify")(verify_cmd.verify)
app.command("train-eval")(train_cmd.train_eval_command)


def main() -> None:
    """Run the CLI."""
    app()


if __name__ == "__main__":
    main()
