"""The page (docs/STRENGTH.md) and strength.json of scripts/strength.py, from its results.

Judges each of the issue's figures against its target (met, not met, measured, not
measured) and renders the page; nothing here plays a game.
"""

from __future__ import annotations

import math
import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strength_lines import (
    GAMES,
    HEADLINE_TARGETS,
    LADDER_TARGET,
    LENGTH_RATIO,
    NORMAL_P95_MS,
    OPENSPIEL_TARGET,
    STRONGEST_P95_MS,
    TIME,
    TITLES,
    Line,
    equal_seconds,
    ladder_pairs,
    lines,
    timed_spec,
)

from pyramids.bots import LADDER, level_spec

# --- judging --------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: Sequence[float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def ms_text(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f} ms" if x >= 10 else f"{x:.2f} ms"


def figure(r: dict[str, Any] | None) -> str:
    """A line's result in a few words (or why it is missing)."""
    if r is None:
        return "not measured: not run yet"
    if r.get("skipped"):
        return f"not measured: {r['skipped']}"
    return f"{r['wins']:g}/{r['games']} = {_pct(r['rate'])} ({_ci(r['ci'])})"


@dataclass
class Verdict:
    """A target's figure and whether it is met (None: not measured; "measured": no bar)."""

    figure: str
    met: bool | str | None
    reduced: bool = False
    """Some line played fewer games than the issue asks."""
    unsure: bool = False
    """Some line's 95% interval holds the target."""


def rate_verdict(
    rs: Sequence[dict[str, Any] | None],
    goal: float | Callable[[dict[str, Any]], float] | None,
    label: Callable[[dict[str, Any]], str],
) -> Verdict:
    """Each line's rate against ``goal`` (None: measured only; a function: each line's own
    goal); met when every line meets it."""
    parts = []
    for r in rs:
        shown = figure(r)
        parts.append(shown if r is None or r.get("skipped") else f"{label(r)} {shown}".strip())
    done = [r for r in rs if r is not None and not r.get("skipped")]
    if len(done) < len(rs):
        return Verdict("; ".join(parts), None)
    reduced = any(r["games"] < r["full_games"] for r in done)
    if goal is None:
        return Verdict("; ".join(parts), "measured", reduced)
    aim = goal if callable(goal) else (lambda _r, g=goal: g)
    unsure = any(r["ci"][0] < aim(r) <= r["ci"][1] for r in done)
    return Verdict("; ".join(parts), all(r["rate"] >= aim(r) for r in done), reduced, unsure)


def by_game(r: dict[str, Any]) -> str:
    return f"{TITLES[r['game']]}:"


def by_players(r: dict[str, Any]) -> str:
    return f"{TITLES[r['game']]} {r['players']}p:"


def fair_share(r: dict[str, Any]) -> float:
    """A line's fair share: 1 / players."""
    return 1.0 / int(r["players"])


def subject_ms(r: dict[str, Any] | None, key: str) -> float | None:
    """The subject's ``key`` time (``ms_p95``, ``ms_mean``) in line ``r``."""
    if r is None or r.get("skipped"):
        return None
    value: float | None = r[key].get(r["bots"][0])
    return value


def targets(results: dict[str, dict[str, Any]]) -> list[tuple[str, str, Verdict]]:
    """The issue's Figures table: (line, target, verdict) in its order."""
    get = results.get
    rows: list[tuple[str, str, Verdict]] = []
    for (game, p), goal in HEADLINE_TARGETS.items():
        what = "wins" if p == 2 else f"first places (fair share {100 // p}%)"
        opp = "`greedy`" if p == 2 else "three `greedy`"
        rows.append(
            (
                f"{TITLES[game]} {p}p: `normal` vs {opp}",
                f"≥ {goal:.0%} {what}",
                rate_verdict([get(f"{game}-{p}p-normal")], goal, lambda r: ""),
            )
        )
    ladder = [get(lid) for g in GAMES for _u, _lo, lid in ladder_pairs(g)]
    rows.append(
        (
            "each level vs the level below, 2p, both games",
            f"≥ {LADDER_TARGET:.0%}",
            rate_verdict(ladder, LADDER_TARGET, lambda r: f"{TITLES[r['game']]} {ladder_name(r)}"),
        )
    )
    rows.append(
        (
            "vs OpenSpiel's ISMCTS at equal time (Flaming 2p and Flags 2p)",
            f"≥ {OPENSPIEL_TARGET:.0%}",
            rate_verdict([get(f"{g}-openspiel") for g in GAMES], OPENSPIEL_TARGET, by_game),
        )
    )
    rows.append(
        (
            "learned against hand-made evaluation at equal time",
            "measured, both games",
            rate_verdict([get(f"{g}-learned") for g in GAMES], None, by_players),
        )
    )
    rows.append(
        (
            "inference on against off at equal time",
            "measured, Flags 2p",
            rate_verdict([get("flags-inference")], None, by_game),
        )
    )
    oracle = rate_verdict([get(f"{g}-oracle") for g in GAMES], fair_share, by_players)
    if oracle.met is True:  # ahead, not level
        oracle.met = all((r := get(f"{g}-oracle", {}))["rate"] > fair_share(r) for g in GAMES)
    rows.append(
        (
            "oracle vs honest search at equal budget",
            "the oracle ahead (above its fair share)",
            oracle,
        )
    )
    rows.append(
        time_verdict(
            "time a decision of `normal` on this machine, native",
            NORMAL_P95_MS,
            [get(f"{g}-{p}p-normal") for g in GAMES for p in (2, 4)],
        )
    )
    strongest = LADDER[-1]
    rows.append(
        time_verdict(
            f"time a decision of the strongest level (`{strongest}`), native",
            STRONGEST_P95_MS,
            [get(ladder_pairs(g)[-1][2]) for g in GAMES],
        )
    )
    parts = []
    met: bool | None = True
    reduced = False
    for g in GAMES:
        for p in (2, 4):
            s, base = get(f"{g}-{p}p-normal"), get(f"{g}-{p}p-greedy")
            if not s or not base or s.get("skipped") or base.get("skipped"):
                parts.append(f"{TITLES[g]} {p}p not measured")
                met = None
                continue
            ratio = s["turns"] / base["turns"] if base["turns"] else math.inf
            parts.append(
                f"{TITLES[g]} {p}p {s['turns']:.1f} vs {base['turns']:.1f} turns ({ratio:.2f}×)"
            )
            if met is not None:
                met = met and ratio <= LENGTH_RATIO
            reduced = reduced or s["games"] < s["full_games"] or base["games"] < base["full_games"]
    rows.append(
        (
            "mean game length with a search seat (`normal` against greedy)",
            f"within {LENGTH_RATIO}× of greedy against greedy",
            Verdict("; ".join(parts), met, reduced),
        )
    )
    return rows


def ladder_name(r: dict[str, Any]) -> str:
    """``upper–lower`` of a ladder line's id (``GAME-2p-normal`` is normal–greedy)."""
    if r["id"].endswith("-2p-normal"):
        return "normal–greedy"
    _game, upper, lower = r["id"].split("-")
    return f"{upper}–{lower}"


def time_verdict(
    what: str, bar_ms: float, rs: Sequence[dict[str, Any] | None]
) -> tuple[str, str, Verdict]:
    """p95 of the subject's decisions in each line against ``bar_ms``."""
    parts, worst = [], 0.0
    for r in rs:
        p95 = subject_ms(r, "ms_p95")
        if r is None or p95 is None:
            return what, f"p95 ≤ {bar_ms:g} ms", Verdict(figure(r), None)
        parts.append(
            f"{TITLES[r['game']]} {r['players']}p p95 {ms_text(p95)} (mean {ms_text(subject_ms(r, 'ms_mean'))})"
        )
        worst = max(worst, p95)
    reduced = any(r is not None and r["games"] < r["full_games"] for r in rs)
    python = [r["id"] for r in rs if r is not None and r.get("engine") != "native"]
    if python:  # the target is the native search's: a Python engine's times do not count
        parts.append(f"not on the native engine: {', '.join(python)}")
    met = worst <= bar_ms and not python
    return what, f"p95 ≤ {bar_ms:g} ms", Verdict("; ".join(parts), met, reduced)


def verdict_word(v: Verdict) -> str:
    """**met**, **not met**, measured, or not measured."""
    if v.met is None:
        return "not measured"
    word = "measured" if v.met == "measured" else "**met**" if v.met else "**not met**"
    notes = ["reduced size"] * v.reduced + ["the interval holds the target"] * v.unsure
    return word + (f" ({'; '.join(notes)})" if notes else "")


# --- the page and strength.json -------------------------------------------------------------


def machine() -> str:
    """The CPU, cores, system and Python of this machine."""
    model = platform.processor() or platform.machine()
    try:
        for row in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if row.startswith("model name"):
                model = row.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def render(data: dict[str, Any]) -> str:
    """docs/STRENGTH.md from the results file's data."""
    results: dict[str, dict[str, Any]] = data["lines"]
    prelim = any(
        r.get("games", 0) < r.get("full_games", 0) for r in results.values() if not r.get("skipped")
    )
    out = ["# Strength of the bots", ""]
    if prelim:
        out += [
            "> **PRELIMINARY: reduced sizes** (a `--quick` run or `--games`): some lines played "
            "fewer games than the issue asks; their figures say little.",
            "",
        ]
    out += [
        "Written by `scripts/strength.py` (do not edit by hand). Regenerate the whole page, "
        "`src/pyramids/bots/strength.json` and `docs/strength-lines.json` on an idle machine "
        "(within an hour on 2 cores) with:",
        "",
        "```",
        ".venv/bin/python scripts/strength.py --jobs 2",
        "```",
        "",
        "or rerun some lines with `--only ID,ID` (the ids are in the tables below). Games are "
        "seeded (game i of a line is dealt by seed S+i, seats rotated so the subject holds every "
        "seat equally often); win rates have Wilson 95% intervals; search levels are iteration "
        "budgets, so their win rates do not depend on the machine's load (the equal-time lines "
        "and every time a decision do).",
        "",
        "## How this was generated",
        "",
        "| run | date (UTC) | machine | load before | load after | wall time | command |",
        "| ---: | --- | --- | --- | --- | ---: | --- |",
    ]
    for i, run in enumerate(data["runs"]):
        note = f" ({run['note']})" if run.get("note") else ""
        out.append(
            f"| {i} | {run['date']} | {run['machine']}{note} | {_load(run['load_before'])} "
            f"| {_load(run['load_after'])} | {duration(run['seconds'])} | `{run['command']}` |"
        )
    out += ["", "Levels (`pyramids.bots.LADDER`, weakest first) and the bot spec each plays:", ""]
    out += ["| level | spec |", "| --- | --- |"]
    out += [f"| {name} | `{level_spec(name)}` |" for name in LADDER]
    timed = {g: timed_spec("normal", TIME, g) for g in GAMES}
    out += [
        "",
        "Equal time: both sides get T seconds a decision, T being the mean time of one of "
        "`normal`'s decisions in its 2-player line against greedy (per game: "
        + "; ".join(f"{TITLES[g]} {equal_seconds(g, results)[1]}" for g in GAMES)
        + "). Our side is `normal`'s settings with T seconds instead of its iterations: "
        + "; ".join(
            f"{TITLES[g]} `{spec.replace(TIME, 'T')}`"
            + (f" (not carried over: {', '.join(lost)})" if lost else "")
            for g, (spec, lost) in timed.items()
        )
        + "; lines whose title gives their own time a decision use it instead"
        " (`LEARNED_SECONDS` in `scripts/strength_lines.py`: two searches at `normal`'s"
        " time in Flaming Pyramids play to `max_turns`)"
        + ". OpenSpiel's ISMCTS (random-rollout evaluator, our UCB constant) searches until "
        "its deadline (`DeadlineISMCTSBot` in `scripts/strength_openspiel.py`: OpenSpiel's "
        "own `run_search` with its simulation count replaced by a time check).",
        "",
        "## Figures",
        "",
        "| line | target | measured | verdict |",
        "| --- | --- | --- | --- |",
    ]
    rows = targets(results)
    for what, goal, v in rows:
        out.append(f"| {what} | {goal} | {v.figure} | {verdict_word(v)} |")
    out += [
        "",
        "## Lines",
        "",
        "The subject is the first bot; 2 players: its wins, 4 players: its first places. "
        "Turns: mean turns a game. Times: the subject's decisions (mean, p95). Wall: the "
        "line's wall time with the run's processes.",
        "",
        "| id | line | bots | games | subject's score | 95% CI | turns | mean | p95 | wall | run |",
        "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for line in lines():
        r = results.get(line.id)
        if r is None or r.get("skipped"):
            out.append(
                f"| {line.id} | {line.title} | {', '.join(f'`{b}`' for b in line.bots)} "
                f"| - | {figure(r)} | | | | | | |"
            )
            continue
        turns = "-" if r["turns"] is None else f"{r['turns']:.1f}"
        extra = ""
        if "openspiel_simulations_per_decision" in r:
            extra = (
                f" (OpenSpiel: {r['openspiel_simulations_per_decision']:g} simulations a decision)"
            )
        out.append(
            f"| {r['id']} | {r['title']}{extra} | {', '.join(f'`{b}`' for b in r['bots'])} "
            f"| {r['games']} | {r['wins']:g} = {_pct(r['rate'])} | {_ci(r['ci'])} | {turns} "
            f"| {ms_text(subject_ms(r, 'ms_mean'))} | {ms_text(subject_ms(r, 'ms_p95'))} "
            f"| {duration(r['wall_seconds'])} | {r['run']} |"
        )
    out += ["", "## Targets", ""]
    for what, goal, v in rows:
        out.append(f"- {what} ({goal}): {verdict_word(v)}.")
    estimate = data.get("estimate")
    if prelim and estimate:
        guessed = estimate["guessed"]
        out += [
            "",
            "## Full run",
            "",
            f"Estimated wall time of the full run with `--jobs {estimate['jobs']}`, from the "
            f"last reduced run: about **{duration(estimate['idle'])}** on an idle machine "
            "(CPU time of the run's processes / jobs), "
            f"{duration(estimate['wall'])} at that run's load ({estimate['load']:.1f}). "
            "A line costs its start-up (the cheapest line's) plus the rest scaled by its full "
            "games / its games"
            + (
                f"; {', '.join(guessed)}, not played, are guessed at twice the cost of "
                "`normal`'s line against greedy (two searches of its time a decision)"
                if guessed
                else ""
            )
            + ".",
        ]
    return "\n".join(out) + "\n"


def _load(load: Sequence[float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def levels_json(data: dict[str, Any]) -> dict[str, Any]:
    """strength.json: each level's p95 decision time and its score against the level below
    (``beginner``'s: against random)."""
    results: dict[str, dict[str, Any]] = data["lines"]
    levels: dict[str, Any] = {name: {"ms_p95": {}, "vs_below": {}} for name in LADDER}
    for game in GAMES:
        for upper, _lower, lid in ladder_pairs(game):
            r = results.get(lid)
            done = r is not None and not r.get("skipped")
            levels[upper]["ms_p95"][game] = subject_ms(r, "ms_p95") if done else None
            levels[upper]["vs_below"][game] = (
                {"rate": r["rate"], "games": r["games"], "ci": r["ci"]} if r and done else None
            )
    last = data["runs"][-1] if data["runs"] else {}
    return {"measured": last.get("date"), "machine": last.get("machine"), "levels": levels}


def full_estimate(
    todo: Sequence[Line], results: dict[str, dict[str, Any]], jobs: int
) -> dict[str, Any]:
    """The full run's seconds for the lines ``todo``, from their reduced results: ``wall``
    (wall times as measured, so under the run's load) and ``idle`` (CPU times / jobs: what
    an idle machine would take), and ``guessed``, the lines not played (see "Full run")."""
    played = [results[line.id] for line in todo if not results[line.id]["skipped"]]
    out: dict[str, Any] = {"guessed": [], "jobs": jobs}
    for key, name, share in (("wall", "wall_seconds", 1), ("idle", "cpu_seconds", jobs)):
        startup = min((float(r[name]) for r in played), default=0.0)

        def cost(r: dict[str, Any], full: int, name: str = name, startup: float = startup) -> float:
            return startup + max(0.0, float(r[name]) - startup) * full / int(r["games"])

        total = 0.0
        for line in todo:
            r = results[line.id]
            ref = results.get(f"{line.game}-2p-normal")
            if not r["skipped"]:
                total += cost(r, line.full_games)
            elif line.equal_time and ref is not None and not ref["skipped"]:
                total += 2 * cost(ref, line.full_games)
                if key == "wall":
                    out["guessed"].append(line.id)
        out[key] = round(total / share, 1)
    return out
