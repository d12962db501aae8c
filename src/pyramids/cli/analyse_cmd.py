"""`pyramids analyse`: answer a game's design questions from many bot games (docs/WORKBENCH.md).

The plan and the statistics are ``pyramids.analysis.workbench``'s, the charts and the
report ``pyramids.analysis.report``'s; this module parses the options, shows a progress
bar on stderr and writes the folder: ``report.html``, ``analysis.json``, ``charts/`` and
``games.jsonl`` (one line per game played).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from pyramids.analysis import workbench as wb
from pyramids.analysis.ray_runner import ClusterError
from pyramids.analysis.simulate import default_jobs, foreign_options
from pyramids.cli.cluster_opt import JOBS_HELP, ClusterOption, check_cluster
from pyramids.cli.engine_opt import EngineOption, use_engine
from pyramids.cli.i18n import Lang
from pyramids.cli.io import fail, said
from pyramids.cli.progress import games_bar
from pyramids.cli.rules_options import rules_specs, with_options
from pyramids.cli.sim_cmd import GAME_HELP
from pyramids.core.errors import PyramidsError
from pyramids.games import GAMES, descriptor, names
from pyramids.games.engine import EngineError


def spell_players(counts: list[int]) -> str:
    """``2-6`` for a run of counts, else ``2,4``."""
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ",".join(map(str, counts))


def command_line(
    *,
    game: str,
    players: list[int],
    bots: list[str],
    games: int,
    seed: int,
    jobs: int | None,
    out: Path,
    variants: bool,
    skill: bool,
    lang: str,
    options: dict[str, Any],
    engine: str | None,
    cluster: str | None,
) -> str:
    """The command that runs this analysis again, every choice spelled out (the report's)."""
    argv = ["analyse", "--game", game, "--players", spell_players(players)]
    argv += ["--bots", ",".join(bots), "--games", str(games), "--seed", str(seed)]
    if jobs is not None:
        argv += ["--jobs", str(jobs)]
    argv += ["--out", str(out)]
    argv += [] if variants else ["--no-variants"]
    argv += [] if skill else ["--no-skill"]
    argv += [] if lang == "en" else ["--lang", lang]
    kinds = {spec.name: spec.kind for spec in descriptor(game).options}
    for key, value in options.items():
        flag = key.replace("_", "-")
        if kinds.get(key) == "bool" and isinstance(value, bool):
            argv.append(f"--{flag}" if value else f"--no-{flag}")
        elif value is not None:
            argv += [f"--{flag}", str(value)]
    argv += [] if engine is None else ["--engine", engine]
    argv += [] if cluster is None else ["--cluster", cluster]
    return "pyramids " + shlex.join(argv)


@with_options(rules_specs())
def analyse(
    *,
    game: Annotated[str, typer.Option("--game", "-g", help=GAME_HELP)] = names()[0],
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player counts: 2-6, 2,3,4 or 4 (default: every count the game allows).",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bots, strongest first: the first plays the mirror games "
            "(seat advantage, length, options); the first against the last measures skill."
        ),
    ] = "greedy,random",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per cell (player count x study).")
    ] = 200,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help=JOBS_HELP)] = None,
    seed: Annotated[int, typer.Option(help="Game i of every cell uses seed SEED+i.")] = 0,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for the report, charts and JSON.")
    ],
    variants: Annotated[
        bool, typer.Option(help="Compare each option change with the base rules.")
    ] = True,
    skill: Annotated[
        bool, typer.Option(help="Measure skill against luck (two bots or more).")
    ] = True,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the report.")] = Lang.EN,
    options: dict[str, Any],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    engine: EngineOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Play many bot games and write charts, tables and an HTML report of what they show."""
    err = Console(stderr=True)
    choice = use_engine(engine)
    name = game.strip().lower()
    if name not in GAMES:
        fail(f"unknown game {name!r} (known: {', '.join(names())})")
    desc = descriptor(name)
    why = foreign_options(desc, options)
    if why is not None:
        fail(why)
    if jobs is not None and jobs < 1:
        fail("--jobs must be at least 1")  # (0, the cluster's CPUs, is the default there)
    if out.exists() and not out.is_dir():
        fail(f"--out: {out} is a file, not a folder")
    address = check_cluster(cluster)
    bot_names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    try:
        counts = (
            list(range(desc.info.min_players, desc.info.max_players + 1))
            if players is None
            else wb.parse_players(players, desc.info.min_players, desc.info.max_players)
        )
        plan = wb.make_plan(
            name,
            counts,
            bot_names,
            games=games,
            seed=seed,
            options=options,
            engine=choice,
            variants=variants,
            skill=skill,
        )
    except (PyramidsError, ValueError, EngineError) as exc:
        fail(said(exc, lang.value))
    try:
        from pyramids.analysis.report import write_report

        wb.chisquare([1, 1])  # scipy, for the statistics, before the first game
    except ImportError as exc:
        fail(str(exc))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out: cannot create {out}: {exc.strerror or exc}")
    command = command_line(
        game=name,
        players=counts,
        bots=bot_names,
        games=games,
        seed=seed,
        jobs=jobs,
        out=out,
        variants=variants,
        skill=skill,
        lang=lang.value,
        options=options,
        engine=engine,
        cluster=address,
    )
    with games_bar("analysing", plan.total, err, quiet=quiet) as advance:
        try:
            done = wb.analyse(
                plan,
                bots=bot_names,
                jobs=jobs if jobs is not None else (0 if address else default_jobs()),
                command=command,
                on_progress=advance,
                cluster=address,
            )
        except (PyramidsError, ValueError, EngineError, ClusterError) as exc:
            fail(said(exc, lang.value))
    try:
        written = write_report(done.data, out, lang=lang.value)
        games_file = out / "games.jsonl"
        with games_file.open("w", encoding="utf-8") as fh:
            for line in wb.game_lines(plan, done.results):
                fh.write(json.dumps(line, separators=(",", ":")) + "\n")
    except OSError as exc:
        fail(f"cannot write into {out}: {exc.strerror or exc}")
    report = next((p for p in written if p.name == "report.html"), out / "report.html")
    err.print(
        f"{plan.total} games in {done.data['seconds']} s: report {report}, "
        f"data {out / 'analysis.json'}, games {games_file}",
        soft_wrap=True,
    )
