"""`pyramids analyse-game RECORD`: every decision of a finished game, judged by the search.

Reads a game record (a file, ``-`` for standard input) and runs
``pyramids.bots.advice.analyse_record`` on it: each decision judged from the deciding
seat's view, on an iteration budget (``--iterations``, default the level's for the
game and player count), one tree and ``--seed``, so the same record, budget and seed
always give the same analysis, the server's included (``GET
/api/tables/{id}/analysis``: seed 0, the normal level). ``--json`` prints
``Analysis.to_json()``; otherwise one line per decision in words (the action, the seat's
estimated chance to win before and after it, the search's preferred action, a mark on a
mistake) and a summary per seat. A record that cannot be read or replayed: exit status 2.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pyramids.analysis.records import read_record
from pyramids.bots import BOT_LEVELS, DEFAULT_LEVEL, LADDER
from pyramids.bots.advice import Analysis, Decision, advice_settings, analyse_record
from pyramids.cli.engine_opt import EngineOption, use_engine
from pyramids.cli.i18n import Lang, seat_name, tr
from pyramids.cli.io import InputError, dumps, fail, load_record, said
from pyramids.core import GameRecord, PyramidsError
from pyramids.games import descriptor, make_game
from pyramids.games.engine import EngineError
from pyramids.texts import format_percent, message

Level = StrEnum("Level", {name.upper(): name for name in LADDER if name in BOT_LEVELS})  # type: ignore[misc]
"""The search levels offered to players (``normal``, ``hard``): the levels an analysis runs."""
NORMAL = Level(DEFAULT_LEVEL)
"""The level of an analysis unless told (the server's)."""

MARK = "✗"
"""What marks a mistake in the words output (and nothing else)."""


def _word(key: str, lang: str, **fields: object) -> str:
    """The analysis's own words: the catalogue entry ``cli.analyse_game.<key>``."""
    return message(f"cli.analyse_game.{key}", lang, **fields)


def _percent(chance: float, lang: str) -> str:
    """``62%`` / ``62 %``: a chance to win, whole percent."""
    return format_percent(chance, lang, 0)


def read_game_record(source: str) -> GameRecord:
    """The record named by RECORD: a file, or ``-`` for standard input; exits 2 if it is not one."""
    try:
        if source == "-":
            return read_record(sys.stdin, "standard input")
        return load_record(Path(source))
    except InputError as exc:
        fail(str(exc))
    except PyramidsError as exc:
        fail(str(exc))


def seat_names(record: GameRecord, lang: str) -> list[str]:
    """``seat 0 (human)`` from the record's seats, else ``seat 0``."""
    if len(record.seats) == record.players:
        return [tr("seat_kind", lang, n=s, kind=kind) for s, kind in enumerate(record.seats)]
    return [seat_name(s, lang) for s in range(record.players)]


def decision_line(decision: Decision, names: list[str], widths: tuple[int, int], lang: str) -> str:
    """One decision in words: action number, seat, action, chances, preferred action, mark."""
    who, played = widths
    chances = f"{_percent(decision.before, lang)} → {_percent(decision.after, lang)}"
    parts = [
        f"{decision.index + 1:>4}  {names[decision.seat]:<{who}}  {decision.action:<{played}}  "
        f"{chances:<15}"
    ]
    if decision.best != decision.action:
        parts.append(_word("best", lang, best=decision.best))
    if decision.mistake:
        parts.append(_word("mistake", lang, drop=round(decision.drop * 100)))
    if decision.played_by:
        parts.append(_word("played_by", lang, why=decision.played_by))
    return "  ".join(parts).rstrip()


def render_analysis(
    analysis: Analysis, record: GameRecord, lang: str, *, mistakes_only: bool = False
) -> str:
    """The analysis in words: a head line, one line per decision, a summary per seat."""
    names = seat_names(record, lang)
    lines = [
        _word(
            "head",
            lang,
            game=descriptor(record.game).title(lang),
            players=record.players,
            decisions=_word("decisions", lang, n=len(analysis.decisions)),
            actions=_word("actions", lang, n=analysis.actions),
            level=analysis.level,
            iterations=analysis.iterations,
            seed=analysis.seed,
            cpu=analysis.cpu_seconds,
        )
    ]
    shown = analysis.mistakes() if mistakes_only else analysis.decisions
    if shown:
        columns = _word("columns", lang).split("|")
        widths = (
            max(len(columns[1]), *(len(names[d.seat]) for d in shown)),
            max(len(columns[2]), *(len(d.action) for d in shown)),
        )
        lines.append(
            f"{columns[0]:>4}  {columns[1]:<{widths[0]}}  {columns[2]:<{widths[1]}}  {columns[3]}"
        )
        lines.extend(decision_line(d, names, widths, lang) for d in shown)
    lines.append(_word("summary", lang))
    for seat, who in enumerate(names):
        mine = [d for d in analysis.decisions if d.seat == seat]
        if not mine:
            lines.append("  " + _word("seat_none", lang, who=who))
            continue
        drop = sum(d.drop for d in mine) / len(mine) * 100
        lines.append(
            "  "
            + _word(
                "seat_summary",
                lang,
                who=who,
                mistakes=_word("mistakes", lang, n=len(analysis.mistakes(seat))),
                decisions=_word("decisions", lang, n=len(mine)),
                drop=drop,
            )
        )
    return "\n".join(lines)


def analyse_game(
    record_file: Annotated[
        str,
        typer.Argument(
            metavar="RECORD",
            help="A game record (JSON file), - for standard input.",
            show_default=False,
        ),
    ],
    *,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations",
            "-i",
            min=1,
            help="Search iterations a decision (default: the level's for the game and players).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the searches.")] = 0,
    level: Annotated[Level, typer.Option("--level", help="The search that judges.")] = NORMAL,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the analysis as JSON (the server's form).")
    ] = False,
    mistakes_only: Annotated[
        bool, typer.Option("--mistakes-only", help="List only the decisions that are mistakes.")
    ] = False,
    lang: Annotated[Lang, typer.Option("--lang", help="Language.")] = Lang.EN,
    engine: EngineOption = None,
) -> None:
    """Judge every decision of a recorded game with the search: each seat's chance to win
    before and after each of its decisions, and its mistakes (a drop of 10 points or more)."""
    choice = use_engine(engine)
    language = lang.value
    source = "standard input" if record_file == "-" else record_file
    record = read_game_record(record_file)
    try:
        make_game(record.game, record.players, record.options, engine=choice)
    except (PyramidsError, EngineError) as exc:
        fail(f"{source}: {said(exc, language)}")
    budget = advice_settings(
        record.game, record.players, level=level.value, iterations=iterations
    ).iterations
    console = Console(stderr=True)
    working = _word("working", language, actions=len(record.actions), iterations=budget)
    # a spinner on stderr at a terminal only: the analysis has no steps to count here
    status = console.status(working) if console.is_terminal else nullcontext()
    try:
        with status:
            analysis = analyse_record(
                record, level=level.value, iterations=iterations, seed=seed, engine=choice
            )
    except (PyramidsError, EngineError) as exc:
        fail(f"{source}: {said(exc, language)}")
    if as_json:
        typer.echo(dumps(analysis.to_json()))
        return
    typer.echo(render_analysis(analysis, record, language, mistakes_only=mistakes_only))
