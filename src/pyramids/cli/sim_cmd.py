"""`pyramids simulate`: play many seeded bot games in parallel and print a JSON summary.

Any registered game (``--game``, default the registry's first); its rules options are
the registry's (``rules_options``). The work is done by ``pyramids.analysis.simulate``;
this module parses the options, shows a progress bar on stderr and writes the summary
to stdout or a file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from pyramids.analysis import simulate as sim
from pyramids.analysis.ray_runner import ClusterError
from pyramids.cli.cluster_opt import JOBS_HELP, ClusterOption, check_cluster
from pyramids.cli.engine_opt import EngineOption, use_engine
from pyramids.cli.io import check_output, fail
from pyramids.cli.progress import games_bar
from pyramids.cli.rules_options import rules_specs, with_options
from pyramids.core.errors import PyramidsError
from pyramids.games import descriptors, names
from pyramids.games.engine import EngineError

GAME_HELP = "Game: " + ", ".join(f"{d.name} ({d.title()})" for d in descriptors()) + "."
PLAYERS_HELP = (
    "Seats ("
    + ", ".join(f"{d.name} {d.info.min_players} to {d.info.max_players}" for d in descriptors())
    + ")."
)


@with_options(rules_specs())
def simulate(
    *,
    game: Annotated[str, typer.Option("--game", "-g", help=GAME_HELP)] = names()[0],
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100,
    players: Annotated[int, typer.Option("--players", "-p", help=PLAYERS_HELP)] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bot names, one per seat or fewer (repeated); "
            "game i rotates them by i seats."
        ),
    ] = "greedy,random",
    seed: Annotated[int, typer.Option(help="Game i uses seed SEED+i.")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help=JOBS_HELP)] = None,
    options: dict[str, Any],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the JSON summary here, not to stdout.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    engine: EngineOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Play many seeded bot games (in parallel) and print a JSON summary of the results."""
    err = Console(stderr=True)
    engine = use_engine(engine)
    address = check_cluster(cluster)
    check_output(out, "--out")
    config = sim.SimConfig(
        game=game.strip().lower(),
        players=players,
        options=options,
        bots=tuple(b.strip().lower() for b in bots.split(",") if b.strip()),
        seed=seed,
        games=games,
        # on a cluster, no --jobs: one task per CPU of the cluster (0)
        jobs=jobs if jobs is not None else (0 if address is not None else sim.default_jobs()),
        engine=engine,
        cluster=address,
    )
    try:
        sim.check_config(config)
    except (PyramidsError, ValueError, EngineError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    try:
        with games_bar("simulating", games, err, quiet=quiet) as advance:
            summary = sim.simulate(config, advance)
    except ClusterError as exc:
        fail(str(exc))
    text = json.dumps(summary, indent=2)
    if out is None:
        typer.echo(text)
    else:
        try:
            out.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:  # checked at the start; the disk may still fill up
            err.print(f"[red]error:[/red] cannot write {out}: {exc.strerror or exc}")
            typer.echo(text)
            raise typer.Exit(2) from None
        err.print(f"summary written to {out}")
