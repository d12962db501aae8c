"""Write docs/STRENGTH.md and src/pyramids/bots/strength.json: issue 28's figures, one command.

Every figure of the issue's "Figures" table, each measured by a *line*: seeded games of the
registry's games played by ``pyramids.analysis.tournament`` (seats rotated, game i dealt by
seed S+i; win rates with Wilson 95% intervals), or, for OpenSpiel, by
``strength_openspiel``. The levels are ``pyramids.bots.LADDER`` (weakest first), each played
by the bot spec ``pyramids.bots.level_spec(level)``, so the page follows whatever the levels
become. The lines (ids for ``--only``; GAME is ``flaming`` or ``flags``):

- ``GAME-Pp-normal``: ``normal`` against P-1 ``greedy`` (P = 2, 4): wins or first places;
  also the time of each of ``normal``'s decisions and the games' length;
- ``GAME-Pp-greedy``: greedy against greedy, the length a search seat is compared with;
- ``GAME-UPPER-LOWER``: each level against the level below, 2 players (``beginner`` against
  ``random`` too; ``normal`` against ``greedy`` is ``GAME-2p-normal``); the strongest
  level's decision times come from its line;
- ``GAME-oracle``: the oracle against the honest search at ``normal``'s budget;
- ``GAME-openspiel``: ``normal``'s settings against OpenSpiel's ISMCTS at equal time;
- ``GAME-learned``: the learned against the hand-made evaluation at equal time;
- ``flags-inference``: inference on against off at equal time.

**Equal time.** Both sides get the same seconds a decision: the mean time of one of
``normal``'s decisions in its ``GAME-2p-normal`` line (this run's, else the last one
recorded in the results file). Our side is ``normal``'s settings with that seconds budget
instead of its iterations (``timed_spec``; the page says if a setting could not be carried
over). Iteration budgets everywhere else: win rates do not depend on the machine's load.

A line whose bot spec this build cannot make (a spec extra not merged yet: ``+learned``,
``+handmade``, ``+infer``) is not played: the page says "not measured" and why.

The lines and targets are in ``strength_lines.py``, the verdicts and the page in
``strength_page.py``, the OpenSpiel games in ``strength_openspiel.py`` (beside this file).

Run from the repository root on an idle machine (the issue allows an hour on 2 cores; a
``--quick`` run prints the estimate)::

    .venv/bin/python scripts/strength.py --jobs 2

``--quick`` plays a few games a line (the page is marked PRELIMINARY) and prints the full
run's estimated wall time; ``--only ID,ID`` reruns some lines and merges them into the page,
strength.json and docs/strength-lines.json (every line's raw result, which the page is
rendered from).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from strength_lines import (
    FALLBACK_SECONDS,
    LEVELS_JSON,
    OPENSPIEL,
    PAGE,
    RESULTS,
    TIME,
    Line,
    equal_seconds,
    lines,
)
from strength_page import (
    duration,
    figure,
    full_estimate,
    levels_json,
    machine,
    ms_text,
    render,
    subject_ms,
)

from pyramids.analysis.ratings import wilson_interval
from pyramids.analysis.tournament import TournamentConfig, run_tournament
from pyramids.bots import make_bot
from pyramids.cli.engine_opt import add_engine_argument, parsed_engine
from pyramids.games import descriptor, engine_for
from pyramids.games.engine import Engine

# --- measuring ------------------------------------------------------------------------------


def unmakeable(specs: Sequence[str], engine: Engine = Engine.AUTO) -> str | None:
    """Why one of ``specs`` cannot be made by this build on ``engine`` (None when all can)."""
    for spec in specs:
        if spec == OPENSPIEL:
            try:
                import strength_openspiel  # noqa: F401
            except ImportError as exc:
                return f"OpenSpiel is not installed ({exc})"
            continue
        try:
            make_bot(spec, engine=engine)
        except ValueError as exc:
            return f"this build cannot make `{spec}`: {str(exc).partition(' (')[0]}"
    return None


def measure(
    line: Line,
    games: int,
    seed: int,
    jobs: int,
    seconds: float | None,
    *,
    engine: Engine = Engine.AUTO,
) -> dict[str, Any]:
    """Play ``line`` (``games`` games) on ``engine``; its result as JSON-ready data."""
    bots = tuple(b.replace(TIME, f"{seconds:g}") if seconds else b for b in line.bots)
    result: dict[str, Any] = {
        "id": line.id,
        "title": line.title,
        "game": line.game,
        "players": line.players,
        "bots": list(bots),
        "games": games,
        "full_games": line.full_games,
        "seconds_per_decision": seconds if line.equal_time else None,
    }
    why = unmakeable(bots, engine)
    if why is not None:
        return result | {"skipped": why}
    start, cpu = time.perf_counter(), cpu_seconds()
    if OPENSPIEL in bots:
        result |= measure_openspiel(
            line, bots, games, seed, jobs=jobs, seconds=seconds or FALLBACK_SECONDS, engine=engine
        )
    else:
        result |= measure_tournament(line, bots, games, seed, jobs, engine=engine)
    return result | {
        "wall_seconds": round(time.perf_counter() - start, 2),
        "cpu_seconds": round(cpu_seconds() - cpu, 2),
        "skipped": None,
    }


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished worker processes."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure_tournament(
    line: Line,
    bots: tuple[str, ...],
    games: int,
    seed: int,
    jobs: int,
    *,
    engine: Engine = Engine.AUTO,
) -> dict[str, Any]:
    """A tournament line on ``engine``: the subject's wins (first places), times and the
    games' length."""
    config = TournamentConfig(
        bots=bots,
        game=line.game,
        players=line.players,
        games=games,
        seed=seed,
        jobs=jobs,
        schedule="rotations",
        engine=engine,
    )
    report = run_tournament(config)
    subject = report["contestants"][0]
    timing = report["timing"]
    return {
        "wins": subject["wins"],
        "rate": subject["win_rate"],
        "ci": subject["ci95"],
        "turns": report["turns_per_game"]["mean"],
        "ms_mean": timing["ms_per_decision"],
        "ms_p95": timing["ms_p95"],
        "ms_max": timing["ms_max"],
        "engine": report["engine"],
    }


def measure_openspiel(
    line: Line,
    bots: tuple[str, ...],
    games: int,
    seed: int,
    *,
    jobs: int,
    seconds: float,
    engine: Engine = Engine.AUTO,
) -> dict[str, Any]:
    """Our search against OpenSpiel's ISMCTS on ``engine``, both ``seconds`` a decision."""
    import strength_openspiel as so  # needs OpenSpiel: only here

    played = so.run_h2h(line.game, bots[0], seconds, seed, games=games, jobs=jobs, engine=engine)
    score = sum(g.ours_return for g in played)
    lo, hi = wilson_interval(score, len(played))
    ours_n = sum(g.ours_decisions for g in played)
    os_n = sum(g.os_decisions for g in played)
    return {
        "wins": score,
        "rate": round(score / len(played), 4),
        "ci": [round(lo, 4), round(hi, 4)],
        "turns": None,
        "ms_mean": {
            bots[0]: round(1000 * sum(g.ours_seconds for g in played) / max(1, ours_n), 4),
            OPENSPIEL: round(1000 * sum(g.os_seconds for g in played) / max(1, os_n), 4),
        },
        "ms_p95": {},
        "ms_max": {},
        "openspiel_simulations_per_decision": round(
            sum(g.os_simulations for g in played) / max(1, os_n), 1
        ),
        "engine": engine_for(descriptor(line.game), engine),
    }


# --- main -----------------------------------------------------------------------------------


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    p.add_argument("--seed", type=int, default=0, help="game i of a line is dealt by seed+i")
    p.add_argument("--quick", action="store_true", help="a few games a line: PRELIMINARY page")
    p.add_argument("--games", type=int, default=None, help="games of every line (test runs)")
    p.add_argument("--only", default="", help="comma-separated line ids to rerun and merge")
    p.add_argument("--note", default="", help="what else ran on the machine")
    p.add_argument("--out", type=Path, default=PAGE, help="the page (docs/STRENGTH.md)")
    p.add_argument("--results", type=Path, default=RESULTS, help="every line's raw result")
    p.add_argument("--levels-json", type=Path, default=LEVELS_JSON, help="strength.json")
    add_engine_argument(p)
    a = p.parse_args(argv)
    a.engine = parsed_engine(p, a.engine)
    known = [line.id for line in lines()]
    a.only = [x.strip() for x in a.only.split(",") if x.strip()]
    for x in a.only:
        if x not in known:
            p.error(f"unknown line {x!r} (known: {', '.join(known)})")
    if a.jobs < 1:
        p.error("--jobs must be at least 1")
    if a.games is not None and a.games < 1:
        p.error("--games must be at least 1")
    return a


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the lines, merge them into the results file, write the page and strength.json."""
    shown = list(sys.argv[1:] if argv is None else argv)
    a = parse(shown)
    t0 = time.perf_counter()
    data: dict[str, Any] = {"runs": [], "lines": {}}
    if a.only and a.results.exists():
        data = json.loads(a.results.read_text(encoding="utf-8"))
    run_index = len(data["runs"])
    run = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "note": a.note,
        "command": ".venv/bin/python scripts/strength.py " + shlex.join(shown),
        "load_before": list(os.getloadavg()),
        "jobs": a.jobs,
        "seed": a.seed,
        "engine": str(a.engine),
    }
    todo = [line for line in lines() if not a.only or line.id in a.only]
    for line in todo:
        games = a.games if a.games is not None else line.games(a.quick)
        seconds = (
            (line.seconds or equal_seconds(line.game, data["lines"])[0])
            if line.equal_time
            else None
        )
        r = measure(line, games, a.seed, a.jobs, seconds, engine=a.engine) | {"run": run_index}
        data["lines"][line.id] = r
        ms = subject_ms(r, "ms_mean"), subject_ms(r, "ms_p95")
        timing = (
            ""
            if r["skipped"]
            else f", {duration(r['wall_seconds'])}, subject {ms_text(ms[0])} mean, {ms_text(ms[1])} p95"
        )
        print(
            f"[{time.perf_counter() - t0:7.1f}s] {line.id}: {figure(r)}{timing}",
            file=sys.stderr,
            flush=True,
        )
    run |= {"load_after": list(os.getloadavg()), "seconds": round(time.perf_counter() - t0, 1)}
    data["runs"].append(run)
    used = {r["run"] for r in data["lines"].values()}
    renumber = {
        old: new for new, old in enumerate(i for i in range(len(data["runs"])) if i in used)
    }
    data["runs"] = [data["runs"][i] for i in sorted(renumber)]
    for r in data["lines"].values():
        r["run"] = renumber[r["run"]]
    if a.quick or a.games is not None:
        estimate = full_estimate(todo, data["lines"], a.jobs)
        load = (run["load_before"][0] + run["load_after"][0]) / 2
        estimate["load"] = round(load, 2)
        data["estimate"] = estimate
        guessed = estimate["guessed"]
        print(
            f"estimated full run of these {len(todo)} lines "
            f"({sum(line.full_games for line in todo)} games) with --jobs {a.jobs}: about "
            f"{duration(estimate['idle'])} on an idle machine (CPU time / jobs), "
            f"{duration(estimate['wall'])} at this run's load ({load:.1f})"
            + (f"; {', '.join(guessed)} not played: guessed" if guessed else ""),
            file=sys.stderr,
        )
    else:
        data.pop("estimate", None)
    a.results.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    a.out.write_text(render(data), encoding="utf-8")
    a.levels_json.write_text(json.dumps(levels_json(data), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {a.out}, {a.results}, {a.levels_json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
