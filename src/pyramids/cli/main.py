"""Entry point of the ``pyramids`` command: wires the subcommands together."""

from __future__ import annotations

import typer

from pyramids.cli import (
    bench_cmd,
    flags_cmd,
    flaming_cmd,
    hint_cmd,
    play_cmd,
    serve_cmd,
    sim_cmd,
    tournament_cmd,
)

app = typer.Typer(
    name="pyramids",
    help="Play, study and build AI for pyramid games (Flaming Pyramids, Pyramids and Flags).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(flaming_cmd.app, name="flaming")
app.add_typer(flags_cmd.app, name="flags")
app.command("play")(play_cmd.play)
app.command("replay")(play_cmd.replay)
app.command("simulate")(sim_cmd.simulate)
app.command("bench")(bench_cmd.bench)
app.command("hint")(hint_cmd.hint)
app.command("tournament")(tournament_cmd.tournament)
app.command("serve")(serve_cmd.serve)


def main() -> None:
    """Run the CLI."""
    app()


if __name__ == "__main__":
    main()
