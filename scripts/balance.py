"""Regenerate docs/BALANCE.md: both games' balance figures from `pyramids analyse`.

    .venv/bin/python scripts/balance.py [--games 2000] [--jobs 2] [--cluster ADDRESS]

Runs one analysis per game (the commands are printed, and written into BALANCE.md and
each report), writes each folder under docs/balance/<game>/ (report.html, analysis.json,
the PNG and SVG charts; games.jsonl is left out of the repository by its .gitignore),
then BALANCE.md: a few headlines computed from both analyses (seat advantage, luck,
the options that change a game most), then each game's summary tables
(``pyramids.analysis.report.render_markdown``) with its charts.

Flaming Pyramids is played by ``careless`` (greedy, overlooking one call-out check in
four: the same games as greedy without call-out, docs/BOTS.md) so that the call-out
variants measure something; Pyramids and Flags by ``greedy``. Skill is each against
``random``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RUNS = {
    "flaming": ["--players", "2-6", "--bots", "careless,random"],
    "flags": ["--players", "2-4", "--bots", "greedy,random"],
}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def p_text(p: float) -> str:
    return "p < 0.000001" if p < 1e-6 else f"p = {p:.2g}"


def headlines(results: dict[str, dict[str, Any]]) -> list[str]:
    """The findings worth a line, computed from the analyses (never written by hand)."""
    lines: list[str] = []
    for data in results.values():
        title = data["title"]["en"]
        unfair, fair = [], []
        for row in data["seat_advantage"]["by_players"]:
            p_value = row.get("p_value")
            if p_value is None:
                continue
            if p_value >= 0.01:
                fair.append(f"{row['players']} players ({p_text(p_value)})")
                continue
            best = max(range(row["players"]), key=lambda s: row["rate"][s])
            lo, hi = row["ci95"][best]
            unfair.append(
                f"{row['players']} players: seat {best + 1} wins {pct(row['rate'][best])} "
                f"(95% {pct(lo)}–{pct(hi)}, fair share {pct(row['fair'])}, {p_text(p_value)})"
            )
        if unfair:
            lines.append(f"{title}, seat advantage at " + "; ".join(unfair) + ".")
        if fair:
            lines.append(f"{title}, no significant seat advantage at " + ", ".join(fair) + ".")
        options = data.get("options")
        if options:
            labels = {v["name"]: v["label"]["en"] for v in options["variants"]}
            rows = [
                (block["players"], r)
                for block in options["by_players"]
                for r in block["rows"]
                if r["variant"] != "baseline" and r["delta_turns"] is not None
            ]
            for key, what, unit, scale in (
                ("delta_turns", "a game's length", "turns", 1.0),
                ("delta_seat0", "seat 1's win rate", "points", 100.0),
            ):
                if not rows:
                    break
                players, row = max(rows, key=lambda pr: abs(pr[1][key] or 0.0))
                lo, hi = row[f"{key}_ci95"]
                lines.append(
                    f"{title}: {labels[row['variant']]} changes {what} most, by "
                    f"{scale * row[key]:+.1f} {unit} (95% {scale * lo:+.1f} to {scale * hi:+.1f}) "
                    f"at {players} players."
                )
        kinds = (data.get("holdings") or {}).get("kinds") or []
        if len(kinds) > 1:
            what = data["holdings"]["what"]["en"]
            parts = []
            for k in kinds:
                lo, hi = k["lift_ci95"]
                done = (
                    f", {data['holdings']['done_label']['en']} by {pct(k['done_rate'])} of "
                    "their holders"
                    if k.get("done_rate") is not None
                    else ""
                )
                parts.append(f"{k['label']['en']} {k['lift']:.2f} (95% {lo:.2f}–{hi:.2f}){done}")
            lines.append(
                f"{title}, each {what}'s holder wins this many times the share chance gives "
                "(1: no effect): " + "; ".join(parts) + "."
            )
        skill = data.get("skill")
        if skill:
            parts = [
                f"{r['skill']:.2f} at {r['players']} ({pct(r['rate'])})"
                for r in skill["by_players"]
            ]
            saturated = all(r["rate"] >= 0.995 for r in skill["by_players"])
            lines.append(
                f"{title}, skill against luck ({skill['strong']} against {skill['weak']}; "
                "0: luck alone, 1: the stronger always wins): "
                + ", ".join(parts)
                + (
                    f": {skill['weak']} hardly ever wins, so this pair cannot show how much "
                    "luck is left (a closer pair of bots would)."
                    if saturated
                    else "."
                )
            )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per cell")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cluster", default=None, help="ray://HOST:PORT or auto")
    parser.add_argument(
        "--render-only",
        action="store_true",
        help="play nothing: rewrite the reports and BALANCE.md from the analysis.json files there",
    )
    args = parser.parse_args()
    pyramids = Path(sys.executable).with_name("pyramids")
    results: dict[str, dict[str, Any]] = {}
    commands: dict[str, str] = {}
    start = time.perf_counter()
    for game, extra in RUNS.items():
        out = DOCS / "balance" / game
        argv = [
            "analyse",
            "--game",
            game,
            *extra,
            "--games",
            str(args.games),
            "--seed",
            str(args.seed),
            "--jobs",
            str(args.jobs),
            "--out",
            str(out.relative_to(ROOT)),
        ]
        if args.cluster:
            argv += ["--cluster", args.cluster]
        if args.render_only:
            from pyramids.analysis.report import write_report

            results[game] = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
            write_report(results[game], out)
        else:
            print("pyramids " + " ".join(argv), flush=True)
            subprocess.run([str(pyramids), *argv], cwd=ROOT, check=True)
            results[game] = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
        commands[game] = results[game]["command"]
    from pyramids.analysis.report import render_markdown

    minutes = (
        sum(d["seconds"] for d in results.values()) / 60
        if args.render_only
        else (time.perf_counter() - start) / 60
    )
    text = [
        "# Balance",
        "",
        "What many bot games say about both games: is going first an advantage, how long a game "
        "lasts, what each option changes, what each kind of mayhem and tree action costs, how much "
        "is skill and how much luck, which tiles help and which cards are hard. Every figure has its "
        "95% interval. Generated by `scripts/balance.py` from `pyramids analyse` "
        "([WORKBENCH.md](WORKBENCH.md)); do not edit by hand: run",
        "",
        "```",
        f".venv/bin/python scripts/balance.py --games {args.games} --jobs {args.jobs}",
        "```",
        "",
        f"({sum(d['total_games'] for d in results.values()):,} games, {minutes:.0f} minutes on "
        f"{args.jobs} worker processes.) Each game's full report is "
        + ", ".join(f"[balance/{g}/report.html](balance/{g}/report.html)" for g in results)
        + "; its data is `analysis.json` next to it.",
        "",
        "The bots are one-ply greedy players: the figures are those of competent, consistent play, "
        "not of experts. A seat advantage between greedy players may shrink or grow with stronger "
        "play; the numbers say what the rules do with these players.",
        "",
        "## Headlines",
        "",
        *[f"- {line}" for line in headlines(results)],
        "",
    ]
    for game, data in results.items():
        charts = sorted((DOCS / "balance" / game / "charts").glob("*.png"))
        body = render_markdown(data, "en")
        text += [
            f"## {data['title']['en']}",
            "",
            f"`{commands[game]}`",
            "",
            strip_title(body),
            "",
            *[f"![{c.stem}](balance/{game}/charts/{c.name})" for c in charts],
            "",
        ]
    (DOCS / "BALANCE.md").write_text("\n".join(text).rstrip() + "\n", encoding="utf-8")
    print(f"docs/BALANCE.md written ({minutes:.1f} min)")
    return 0


def strip_title(body: str) -> str:
    """``render_markdown``'s text without its own top heading, its headings one level down."""
    lines = body.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join("#" + line if line.startswith("#") else line for line in lines).strip()


if __name__ == "__main__":
    raise SystemExit(main())
