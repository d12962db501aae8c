"""`pyramids tournament`: bot specs play a fairly seated series of seeded games.

The work is done by ``pyramids.analysis.tournament``; this module parses the options,
refuses bad ones (exit status 2), shows a progress bar on stderr and writes the report:
Markdown to stdout (or ``--out-md``), JSON to ``--out-json``. See docs/TOURNAMENTS.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from pyramids.analysis import simulate as sim
from pyramids.analysis import tournament as tour
from pyramids.analysis.ray_runner import ClusterError
from pyramids.cli.cluster_opt import JOBS_HELP, ClusterOption, check_cluster
from pyramids.cli.engine_opt import EngineOption, use_engine
from pyramids.cli.io import check_output, fail
from pyramids.cli.progress import games_bar
from pyramids.cli.rules_options import rules_specs, with_options
from pyramids.cli.sim_cmd import GAME_HELP, PLAYERS_HELP
from pyramids.core.errors import PyramidsError
from pyramids.games import names
from pyramids.games.engine import EngineError


@with_options(rules_specs())
def tournament(
    *,
    game: Annotated[str, typer.Option("--game", "-g", help=GAME_HELP)] = names()[0],
    players: Annotated[int, typer.Option("--players", "-p", help=PLAYERS_HELP)] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bot specs, one per contestant (e.g. ismcts:1s,greedy,random); "
            "there may be more or fewer contestants than seats."
        ),
    ] = "greedy,random",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help=JOBS_HELP)] = None,
    seed: Annotated[int, typer.Option(help="Game i uses seed SEED+i.")] = 0,
    schedule: Annotated[
        str,
        typer.Option(
            help="Seating: permutations (every ordered seating, the default) or rotations "
            "(every set of PLAYERS contestants in its rotations: shorter, but with 3+ seats "
            "who plays after whom is not balanced)."
        ),
    ] = "permutations",
    options: dict[str, Any],
    out_json: Annotated[
        Path | None, typer.Option("--out-json", help="Write the JSON report to this file.")
    ] = None,
    out_md: Annotated[
        Path | None,
        typer.Option("--out-md", help="Write the Markdown report here instead of stdout."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    engine: EngineOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Play a tournament between bot specs and report standings, win rates and ratings."""
    err = Console(stderr=True)
    engine = use_engine(engine)
    address = check_cluster(cluster)
    check_output(out_json, "--out-json")
    check_output(out_md, "--out-md")
    config = tour.TournamentConfig(
        bots=tuple(b.strip() for b in bots.split(",") if b.strip()),
        game=game.strip().lower(),
        players=players,
        games=games,
        seed=seed,
        # on a cluster, no --jobs: one task per CPU of the cluster (0)
        jobs=jobs if jobs is not None else (0 if address is not None else sim.default_jobs()),
        schedule=schedule.strip().lower(),
        options=options,
        engine=engine,
        cluster=address,
    )
    try:
        _game, plan = tour.check_tournament(config)
    except (PyramidsError, ValueError, EngineError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    block = len(plan.block)
    if games % block:
        err.print(
            f"[yellow]warning:[/yellow] {games} games is not a multiple of the schedule's "
            f"block of {block}: contestants and seats will not be exactly balanced"
        )
    try:
        with games_bar("tournament", games, err, quiet=quiet) as advance:
            report = tour.run_tournament(config, advance)
    except ClusterError as exc:
        fail(str(exc))
    markdown = tour.to_markdown(report)
    lost = False
    for path, text, what in (
        (out_json, json.dumps(report, indent=2) + "\n", "JSON"),
        (out_md, markdown, "Markdown"),
    ):
        if path is None:
            continue
        try:  # checked at the start; the disk may still fill up
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            err.print(f"[red]error:[/red] cannot write {path}: {exc.strerror or exc}")
            lost = True
        else:
            err.print(f"{what} report written to {path}")
    if out_md is None or lost:
        typer.echo(markdown, nl=False)  # the results are never lost: at least on stdout
    if lost:
        raise typer.Exit(2)
