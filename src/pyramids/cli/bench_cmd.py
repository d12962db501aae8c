"""`pyramids bench`: the one-core engine benchmark, as tables or as one JSON object.

Every registered game by default (``--game NAME`` for one, ``all``). The measuring is done by
``pyramids.analysis.bench``; see its module doc (and bench/README.md) for exactly what
is timed. The Python engines are always measured; with the native core built (``--engine``
auto, the default, or native) each game's native figures follow in the same run, with
their ratios to Python's and the targets (docs/NATIVE.md).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from pyramids.analysis import bench as measure
from pyramids.cli.engine_opt import EngineOption, use_engine
from pyramids.games import descriptor, names
from pyramids.games.engine import PYTHON, EngineError, native_available

GAME_HELP = f"Game to measure: {', '.join(names())} or all."


def bench(
    *,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds", "-s", help="Approximate time budget per game, in seconds.", min=0.0
        ),
    ] = measure.DEFAULT_SECONDS,
    game: Annotated[str, typer.Option("--game", "-g", help=GAME_HELP)] = "all",
    engine: EngineOption = None,
) -> None:
    """Measure self-play speed (random and greedy bots), view and clone cost on one core:
    the Python engines, and the native core next to them when it is built."""
    err = Console(stderr=True)
    choice = use_engine(engine)
    name = game.strip().lower()
    known = measure.bench_games()
    if name not in (*known, "all"):
        err.print(f"[red]error:[/red] unknown game {game!r} (choose {', '.join(known)} or all)")
        raise typer.Exit(2)
    games = known if name == "all" else (name,)
    if not as_json:
        total = seconds * len(games)
        if choice != PYTHON and native_available():
            total *= 1 + measure.NATIVE_EXTRA
        err.print(f"benchmarking {' and '.join(games)} for about {total:g} s on one core...")
    try:
        figures = measure.bench(seconds, games, choice)
    except EngineError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    native = any(figures.get(f"engine_native{measure.setup_of(g).key_suffix}") for g in games)
    if not native and choice != PYTHON:
        err.print(
            "note: the native core is not built (./run builds it when cargo is there): Python figures only"
        )
    if as_json:
        typer.echo(json.dumps(figures))
        return
    out = Console()
    for one in games:
        suffix = measure.setup_of(one).key_suffix
        _print_game(out, figures, descriptor(one).title(), suffix)
        if figures.get(f"engine_native{suffix}"):
            _print_native(out, figures, descriptor(one).title(), suffix)
    out.print(
        f"Python {figures['python']} {figures['implementation']} on {figures['machine']}, "
        "one process"
    )


def _print_game(out: Console, figures: dict[str, Any], title: str, suffix: str) -> None:
    """One game's tables: keys ``<measure><suffix>`` (the game's bench ``key_suffix``)."""

    def fig(key: str) -> Any:
        return figures[key + suffix]

    summary = Table(title=f"{title} (one process)")
    summary.add_column("measure")
    summary.add_column("random", justify="right")
    summary.add_column("greedy", justify="right")
    summary.add_row(
        "turns/s", f"{fig('turns_per_s_random'):,.0f}", f"{fig('turns_per_s_greedy'):,.0f}"
    )
    summary.add_row(
        "games/s", f"{fig('games_per_s_random'):,.1f}", f"{fig('games_per_s_greedy'):,.1f}"
    )
    summary.add_row("games played", str(fig("games_random")), str(fig("games_greedy")))
    out.print(summary)
    rows = fig("by_config")
    keys = ["preset", "players"] if "preset" in rows[0] else ["players"]
    detail = Table(title=f"by {' and '.join(keys)} (turns/s, games/s, turns/game)")
    for name in (*keys, "random t/s", "greedy t/s", "random g/s", "greedy g/s"):
        detail.add_column(name, justify="left" if name == "preset" else "right")
    detail.add_column("turns/game r|g", justify="right")
    for row in rows:
        detail.add_row(
            *(str(row[k]) for k in keys),
            f"{row['turns_per_s_random']:,.0f}",
            f"{row['turns_per_s_greedy']:,.0f}",
            f"{row['games_per_s_random']:,.1f}",
            f"{row['games_per_s_greedy']:,.1f}",
            f"{row['turns_per_game_random']:.0f} | {row['turns_per_game_greedy']:.0f}",
        )
    out.print(detail)
    out.print(
        f"clone: {fig('clone_us'):.2f} us   view: {fig('view_us'):.2f} us   "
        "(median, mid-game states)"
    )


def _times(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}x"


def _print_native(out: Console, figures: dict[str, Any], title: str, suffix: str) -> None:
    """One game's native figures next to the Python ones, with the ratios and the targets."""

    def fig(key: str) -> Any:
        return figures[key + suffix]

    targets = fig("native_targets")
    table = Table(title=f"{title}: native core and Python engine (one process)")
    for name in ("measure", "Python", "native", "native/Python", "target"):
        table.add_column(name, justify="left" if name == "measure" else "right")
    for bot in ("random", "greedy"):
        table.add_row(
            f"{bot} turns/s",
            f"{fig(f'turns_per_s_{bot}'):,.0f}",
            f"{fig(f'native_turns_per_s_{bot}'):,.0f}",
            _times(fig(f"native_ratio_{bot}")),
            f">= {targets[bot]:g}x",
        )
    its, native_its = fig("ismcts_iterations_per_s"), fig("native_ismcts_iterations_per_s")
    table.add_row(
        f"ISMCTS {measure.SEARCH_LEVEL} iterations/s",
        "-" if its is None else f"{its:,.0f}",
        "-" if native_its is None else f"{native_its:,.0f}",
        _times(fig("native_ratio_ismcts")),
        f">= {targets['ismcts']:g}x",
    )
    table.add_row(
        "clone() from Python, us", f"{fig('clone_us'):.3f}", f"{fig('native_clone_us'):.3f}", "", ""
    )
    rust = fig("native_clone_rust_us")
    table.add_row(
        "clone() in Rust, us",
        "",
        "-" if rust is None else f"{rust:.4f}",
        "",
        f"<= {targets['clone_us']:g}",
    )
    table.add_row(
        "view() from Python, us", f"{fig('view_us'):.3f}", f"{fig('native_view_us'):.3f}", "", ""
    )
    out.print(table)
    same = "yes" if fig("native_same_games") else "NO"
    out.print(
        f"same games on both engines (turns, actions, returns by seed): {same}, "
        f"{fig('native_compared_games')} games compared; native games played: "
        f"{fig('native_games_random')} random, {fig('native_games_greedy')} greedy"
    )
