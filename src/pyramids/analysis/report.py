"""The workbench's report: ``analysis.json``, the charts and one self-contained ``report.html``.

``write_report`` takes the analysis data (schema 1, built by ``pyramids.analysis.workbench``)
and writes, in English or French, the data as JSON, every chart of ``pyramids.analysis.charts``
as PNG and SVG, and an HTML page that needs nothing else: the SVG charts inlined, the style in
the page, no script, font or image fetched. Each section (seat advantage, length, options,
events, win conditions, skill, holdings) has a heading, a paragraph reading its numbers in plain
words, its chart and its table; a missing or empty section is left out. The header says how to
regenerate the report: the exact command, the seed rule, the rules version and the engine.
``render_markdown`` gives the same readings and tables as Markdown (docs/BALANCE.md).

Seats are shown from 1 (``Seat 1`` is seat index 0). Every string from the data is escaped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramids.analysis import charts
from pyramids.analysis.charts import Data, label, num, pct, seat_name
from pyramids.analysis.report_words import (
    SIGNIFICANCE,
    cell,
    cell_pct,
    ci_text,
    excludes,
    int_text,
    p_text,
    pct_ci,
    plural,
    share,
    span,
    text,
    upper_first,
)


@dataclass(frozen=True)
class Table:
    """A table of text cells: the column headers and the rows."""

    headers: Sequence[str]
    rows: Sequence[Sequence[str]]


@dataclass(frozen=True)
class Section:
    """One question of the report: its title, its reading in words, notes and tables."""

    key: str
    title: str
    reading: str
    tables: list[Table]
    notes: list[str] = field(default_factory=list)


# --- the sections ----------------------------------------------------------------------------


def _seat_section(data: Data, lang: str) -> Section | None:
    part = data.get("seat_advantage") or {}
    groups = [g for g in part.get("by_players") or [] if g.get("rate")]
    if not groups:
        return None
    sentences, rows = [], []
    for g in groups:
        rates = g["rate"]
        cis = g.get("ci95") or [None] * len(rates)
        fair = g.get("fair")
        best = max(range(len(rates)), key=lambda s: -1.0 if rates[s] is None else rates[s])
        p = g.get("p_value")
        best_ci = cis[best]
        if p is not None and p >= SIGNIFICANCE:
            verdict = text("seat.chance", lang)
        elif fair is not None and excludes(best_ci, fair):
            verdict = text("seat.advantage", lang)
        elif p is not None:
            verdict = text("seat.differ", lang)
        else:
            verdict = text("seat.chance", lang)
        if p is not None:
            verdict += f" ({p_text(p, lang)})"
        sentences.append(
            text(
                "seat.read",
                lang,
                Seat=seat_name(best, lang, capital=True),
                seat=seat_name(best, lang),
                rate=pct(rates[best], lang),
                p=g["players"],
                ci=pct_ci(best_ci, lang),
                fair=share(fair, lang),
                verdict=verdict,
            )
        )
        for s, rate in enumerate(rates):
            first = s == 0
            test = ""
            if first and g.get("chi2") is not None:
                test = f"{num(g['chi2'], lang, 2)} ({p_text(p, lang)})"
            rows.append(
                (
                    str(g["players"]) if first else "",
                    f"{int_text(g.get('games'))} ({int_text(g.get('decided'))})" if first else "",
                    seat_name(s, lang, capital=True),
                    int_text((g.get("wins") or [None] * len(rates))[s]),
                    cell_pct(rate, cis[s], lang),
                    share(fair, lang) if first else "",
                    test,
                )
            )
    headers = (
        text("col.players", lang),
        text("col.games_decided", lang),
        text("col.seat", lang),
        text("col.wins", lang),
        text("col.win_rate", lang),
        text("col.fair", lang),
        text("col.test", lang),
    )
    notes = []
    if part.get("bot"):
        first = groups[0]
        notes.append(
            text(
                "seat.who",
                lang,
                bot=label(part["bot"], lang),
                decided=int_text(first.get("decided")),
                games=int_text(first.get("games")),
            )
            if len(groups) == 1
            else text("seat.who_all", lang, bot=label(part["bot"], lang))
        )
    return Section(
        "seat_advantage",
        text("s.seat_advantage", lang),
        " ".join(sentences),
        [Table(headers, rows)],
        notes,
    )


def _length_section(data: Data, lang: str) -> Section | None:
    groups = [g for g in (data.get("length") or {}).get("by_players") or [] if g.get("turns")]
    if not groups:
        return None
    sentences, rows = [], []
    for g in groups:
        turns, actions = g["turns"], g.get("actions") or {}
        sentences.append(
            text(
                "length.read",
                lang,
                p=g["players"],
                mean=num(turns.get("mean"), lang),
                ci=ci_text(turns.get("ci95"), lang, lambda v: num(v, lang)),
                median=num(turns.get("median"), lang, 0),
                p10=num(turns.get("p10"), lang, 0),
                p90=num(turns.get("p90"), lang, 0),
                min=num(turns.get("min"), lang, 0),
                max=num(turns.get("max"), lang, 0),
                actions=num(actions.get("mean"), lang),
            )
        )
        row: list[str] = [str(g["players"])]
        for stats in (turns, actions):
            row += [
                cell(stats.get("mean"), stats.get("ci95"), lang),
                num(stats.get("median"), lang, 0),
                f"{num(stats.get('p10'), lang, 0)}–{num(stats.get('p90'), lang, 0)}",
                f"{num(stats.get('min'), lang, 0)}–{num(stats.get('max'), lang, 0)}",
            ]
        rows.append(tuple(row))
    median, spread, extremes = (
        text("col.median", lang),
        text("col.p10_p90", lang),
        text("col.min_max", lang),
    )
    headers = (
        text("col.players", lang),
        text("col.turns_mean", lang),
        median,
        spread,
        extremes,
        text("col.actions_mean", lang),
        median,
        spread,
        extremes,
    )
    return Section("length", text("s.length", lang), " ".join(sentences), [Table(headers, rows)])


def _options_text(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())


def _options_section(data: Data, lang: str) -> Section | None:
    part = data.get("options") or {}
    groups = [g for g in part.get("by_players") or [] if g.get("rows")]
    variants = part.get("variants") or []
    labels = {v["name"]: label(v.get("label") or v["name"], lang) for v in variants}
    names = [v["name"] for v in variants]
    for g in groups:
        names += [
            r["variant"]
            for r in g["rows"]
            if r["variant"] != "baseline" and r["variant"] not in names
        ]
    if not groups or not names:
        return None
    sentences = []
    for name in names:
        rows = [r for g in groups for r in g["rows"] if r.get("variant") == name]
        turns = [r for r in rows if r.get("delta_turns") is not None]
        seats = [r for r in rows if r.get("delta_seat0") is not None]
        if not rows:
            continue
        sentences.append(
            text(
                "options.read",
                lang,
                variant=labels.get(name, name),
                turns=span(
                    [r["delta_turns"] for r in turns], lang, lambda v: num(v, lang, sign=True)
                ),
                k=sum(excludes(r.get("delta_turns_ci95"), 0.0) for r in turns),
                seat=span(
                    [r["delta_seat0"] for r in seats],
                    lang,
                    lambda v: num(100 * v, lang, sign=True),
                ),
                k2=sum(excludes(r.get("delta_seat0_ci95"), 0.0) for r in seats),
                n=len(rows),
            )
        )
    table_rows = []
    for g in groups:
        for i, r in enumerate(g["rows"]):
            variant = r.get("variant")
            is_base = variant == "baseline"
            table_rows.append(
                (
                    str(g["players"]) if i == 0 else "",
                    text("baseline", lang) if is_base else labels.get(variant, str(variant)),
                    int_text(r.get("games")),
                    cell(r.get("turns_mean"), r.get("turns_ci95"), lang),
                    ""
                    if is_base
                    else cell(r.get("delta_turns"), r.get("delta_turns_ci95"), lang, sign=True),
                    cell_pct(r.get("seat0_rate"), r.get("seat0_ci95"), lang),
                    ""
                    if is_base
                    else cell(
                        r.get("delta_seat0"), r.get("delta_seat0_ci95"), lang, sign=True, scale=100
                    ),
                    pct(r.get("no_winner_rate"), lang),
                )
            )
    headers = tuple(
        text(k, lang)
        for k in (
            "col.players",
            "col.variant",
            "col.games",
            "col.turns",
            "col.delta_turns",
            "col.seat0",
            "col.delta_seat0",
            "col.no_winner",
        )
    )
    notes = [
        text(
            "options.what",
            lang,
            variant=labels[v["name"]],
            options=_options_text(v.get("options") or {}),
        )
        for v in variants
        if v.get("options")
    ]
    return Section(
        "options", text("s.options", lang), " ".join(sentences), [Table(headers, table_rows)], notes
    )


def _events_section(data: Data, lang: str) -> Section | None:
    part = data.get("events") or {}
    groups = [g for g in part.get("by_players") or [] if g.get("rows")]
    if not groups:
        return None
    labels = {k["name"]: label(k.get("label") or k["name"], lang) for k in part.get("kinds") or []}
    names = list(labels)
    for g in groups:
        names += [r["kind"] for r in g["rows"] if r["kind"] not in names]
    unit = label(part.get("cost_label"), lang)
    sentences, table_rows = [], []
    never: list[str] = []
    for name in names:
        rows = [r for g in groups for r in g["rows"] if r["kind"] == name]
        if not rows:
            continue
        diffs = [
            charts.newcombe(
                r.get("trigger_win_rate"),
                r.get("trigger_win_ci95"),
                r.get("other_win_rate"),
                r.get("other_win_ci95"),
            )
            for r in rows
        ]
        known = [(d, ci) for d, ci in diffs if d is not None]
        if not any(r.get("per_game") for r in rows):
            never.append(labels.get(name, name))
            continue

        def rates(key: str, rows: list[dict[str, Any]] = rows) -> list[float]:
            return [r[key] for r in rows if r.get(key) is not None]

        sentence = text(
            "events.read",
            lang,
            kind=labels.get(name, name),
            per_game=span(rates("per_game"), lang, lambda v: num(v, lang)),
            games_with=span(rates("games_with"), lang, lambda v: pct(v, lang)),
            trigger=span(rates("trigger_win_rate"), lang, lambda v: pct(v, lang)),
            other=span(rates("other_win_rate"), lang, lambda v: pct(v, lang)),
            diff=span([d for d, _ in known], lang, lambda v: num(100 * v, lang, sign=True)),
            k=sum(excludes(ci, 0.0) for _, ci in known),
            n=len(known),
        )
        costs = rates("cost_mean")
        if costs:
            sentence += text(
                "events.cost",
                lang,
                cost=span(costs, lang, lambda v: num(v, lang)),
                unit=f" {unit}" if unit else "",
            )
        sentences.append(sentence)
    if never:
        sentences.append(text("events.never", lang, kinds=", ".join(never)))
    for g in groups:
        for i, r in enumerate(g["rows"]):
            diff, diff_ci = charts.newcombe(
                r.get("trigger_win_rate"),
                r.get("trigger_win_ci95"),
                r.get("other_win_rate"),
                r.get("other_win_ci95"),
            )
            table_rows.append(
                (
                    str(g["players"]) if i == 0 else "",
                    labels.get(r["kind"], r["kind"]),
                    cell(r.get("per_game"), r.get("per_game_ci95"), lang, 2),
                    pct(r.get("games_with"), lang),
                    cell_pct(r.get("trigger_win_rate"), r.get("trigger_win_ci95"), lang),
                    cell_pct(r.get("other_win_rate"), r.get("other_win_ci95"), lang),
                    cell(diff, diff_ci, lang, sign=True, scale=100),
                    "–"
                    if r.get("cost_mean") is None
                    else cell(r["cost_mean"], r.get("cost_ci95"), lang, 2),
                )
            )
    headers = (
        text("col.players", lang),
        text("col.event", lang),
        text("col.per_game", lang),
        text("col.games_with", lang),
        text("col.trigger", lang),
        text("col.other", lang),
        text("col.diff", lang),
        text("col.cost", lang, unit=unit) if unit else text("col.cost_plain", lang),
    )
    return Section(
        "events",
        text("s.events", lang),
        " ".join(sentences),
        [Table(headers, table_rows)],
        [text("events.note", lang)],
    )


def _conditions_section(data: Data, lang: str) -> Section | None:
    part = data.get("conditions") or {}
    groups = [g for g in part.get("by_players") or [] if g.get("counts") or g.get("rates")]
    names = charts.condition_names(data, lang)
    if not groups or not names:
        return None
    sentences, rows = [], []
    for g in groups:
        counts, rates, cis = g.get("counts") or {}, g.get("rates") or {}, g.get("ci95") or {}
        items, first = [], True
        for name, name_label in names:
            if name not in counts and name not in rates:
                continue
            rate = rates.get(name)
            if rate is None and counts.get(name) is not None and g.get("games"):
                rate = counts[name] / g["games"]
            ci = cis.get(name)
            items.append(
                text(
                    "conditions.item",
                    lang,
                    name=name_label,
                    rate=pct(rate, lang),
                    ci=pct_ci(ci, lang),
                )
            )
            rows.append(
                (
                    str(g["players"]) if first else "",
                    int_text(g.get("games")) if first else "",
                    name_label,
                    int_text(counts.get(name)),
                    cell_pct(rate, ci, lang),
                )
            )
            first = False
        sentences.append(text("conditions.read", lang, p=g["players"], items=", ".join(items)))
    headers = (
        text("col.players", lang),
        text("col.games", lang),
        text("col.ending", lang),
        text("col.count", lang),
        text("col.share", lang),
    )
    return Section(
        "conditions", text("s.conditions", lang), " ".join(sentences), [Table(headers, rows)]
    )


def _skill_section(data: Data, lang: str) -> Section | None:
    part = data.get("skill") or {}
    groups = [g for g in part.get("by_players") or [] if g.get("rate") is not None]
    if not groups:
        return None
    strong, weak = label(part.get("strong"), lang), label(part.get("weak"), lang)
    sentences, rows = [], []
    for g in groups:
        sentences.append(
            text(
                "skill.read",
                lang,
                strong=strong,
                weak=weak,
                rate=pct(g["rate"], lang),
                p=g["players"],
                ci=pct_ci(g.get("ci95"), lang),
                chance=share(g.get("chance"), lang),
                skill=num(g.get("skill"), lang, 2),
                skill_ci=ci_text(g.get("skill_ci95"), lang, lambda v: num(v, lang, 2)),
            )
        )
        rows.append(
            (
                str(g["players"]),
                int_text(g.get("games")),
                int_text(g.get("wins")),
                cell_pct(g["rate"], g.get("ci95"), lang),
                share(g.get("chance"), lang),
                cell(g.get("skill"), g.get("skill_ci95"), lang, 2),
            )
        )
    sentences.append(text("skill.scale", lang))
    headers = (
        text("col.players", lang),
        text("col.games", lang),
        text("col.strong_wins", lang, strong=strong),
        text("col.win_rate", lang),
        text("col.chance", lang),
        text("col.skill", lang),
    )
    return Section("skill", text("s.skill", lang), " ".join(sentences), [Table(headers, rows)])


def _holdings_section(data: Data, lang: str, *, limit: int | None = None) -> Section | None:
    part = data.get("holdings") or {}
    rows = [r for r in part.get("rows") or [] if r]
    if not rows:
        return None
    what = label(part.get("what"), lang) or "item"
    ordered = charts.by_lift(rows)
    rated = [r for r in ordered if r.get("lift") is not None]
    notes = [label(part["explain"], lang)] if part.get("explain") else []
    if rated:
        best, worst = rated[0], rated[-1]
        reading = text(
            "holdings.read",
            lang,
            n=len(rows),
            whats=plural(what, lang),
            k=sum(excludes(r.get("lift_ci95"), 1.0) for r in rated),
            best=label(best.get("label") or best.get("item"), lang),
            best_lift=num(best["lift"], lang, 2),
            best_ci=ci_text(best.get("lift_ci95"), lang, lambda v: num(v, lang, 2)),
            worst=label(worst.get("label") or worst.get("item"), lang),
            worst_lift=num(worst["lift"], lang, 2),
            worst_ci=ci_text(worst.get("lift_ci95"), lang, lambda v: num(v, lang, 2)),
        )
    else:
        reading = ""
    done_label = label(part.get("done_label"), lang) if part.get("done_label") else None
    if done_label is not None:
        ordered = charts.by_done(rows)
        hardest, easiest = ordered[0], ordered[-1]
        reading += " " + text(
            "holdings.done",
            lang,
            done=done_label,
            what=what,
            hardest=label(hardest.get("label") or hardest.get("item"), lang),
            hardest_rate=pct(hardest.get("done_rate"), lang),
            hardest_ci=ci_text(hardest.get("done_ci95"), lang, lambda v: pct(v, lang)),
            easiest=label(easiest.get("label") or easiest.get("item"), lang),
            easiest_rate=pct(easiest.get("done_rate"), lang),
            easiest_ci=ci_text(easiest.get("done_ci95"), lang, lambda v: pct(v, lang)),
            mean=pct(charts.mean_done(rows), lang),
        )
    shown = ordered
    if limit is not None and len(ordered) > 2 * limit:
        shown = [*ordered[:limit], *ordered[-limit:]]
        notes.append(text("holdings.shown", lang, k=limit, n=len(ordered)))
    table_rows = [
        (
            label(r.get("label") or r.get("item"), lang),
            int_text(r.get("held")),
            int_text(r.get("wins")),
            cell_pct(r.get("rate"), r.get("ci95"), lang),
            num(r.get("expected"), lang),
            cell(r.get("lift"), r.get("lift_ci95"), lang, 2),
            *(
                (cell_pct(r.get("done_rate"), r.get("done_ci95"), lang),)
                if done_label is not None
                else ()
            ),
        )
        for r in shown
    ]
    headers = (
        text("col.item", lang, What=upper_first(what)),
        text("col.held", lang),
        text("col.wins", lang),
        text("col.rate", lang),
        text("col.expected", lang),
        text("col.lift", lang),
        *((text("col.done", lang, Done=upper_first(done_label)),) if done_label else ()),
    )
    tables = [Table(headers, table_rows)]
    kinds = [k for k in part.get("kinds") or [] if k.get("held")]
    if len(kinds) > 1:
        first = max(kinds, key=lambda k: k.get("lift") or 0.0)
        last = min(kinds, key=lambda k: k.get("lift") or 0.0)
        reading += " " + text(
            "holdings.kinds",
            lang,
            best=label(first["label"], lang),
            best_lift=num(first.get("lift"), lang, 2),
            best_ci=ci_text(first.get("lift_ci95"), lang, lambda v: num(v, lang, 2)),
            worst=label(last["label"], lang),
            worst_lift=num(last.get("lift"), lang, 2),
            worst_ci=ci_text(last.get("lift_ci95"), lang, lambda v: num(v, lang, 2)),
        )
        tables.append(
            Table(
                (
                    text("col.kind", lang),
                    text("col.items", lang),
                    text("col.held", lang),
                    text("col.rate", lang),
                    text("col.lift", lang),
                    *(
                        (text("col.done", lang, Done=upper_first(done_label)),)
                        if done_label
                        else ()
                    ),
                ),
                [
                    (
                        upper_first(label(k["label"], lang)),
                        int_text(k.get("items")),
                        int_text(k.get("held")),
                        cell_pct(k.get("rate"), k.get("ci95"), lang),
                        cell(k.get("lift"), k.get("lift_ci95"), lang, 2),
                        *(
                            (cell_pct(k.get("done_rate"), k.get("done_ci95"), lang),)
                            if done_label is not None
                            else ()
                        ),
                    )
                    for k in kinds
                ],
            )
        )
    return Section(
        "holdings",
        text("s.holdings", lang, what=what),
        reading,
        tables,
        notes,
    )


SECTIONS: tuple[Callable[[Data, str], Section | None], ...] = (
    _seat_section,
    _length_section,
    _options_section,
    _events_section,
    _conditions_section,
    _skill_section,
    _holdings_section,
)
"""The report's sections in order; each section's ``key`` is also its chart's stem."""


def sections(data: Data, lang: str = "en") -> list[Section]:
    """The report's sections present in ``data``, in order."""
    return [s for s in (build(data, lang) for build in SECTIONS) if s is not None]


# --- the header ------------------------------------------------------------------------------


def _players_text(players: Sequence[int]) -> str:
    return ", ".join(str(p) for p in players)


def header_fields(data: Data, lang: str = "en") -> list[tuple[str, str]]:
    """The header's (name, value) pairs: what was run, on what, and how to run it again."""
    seconds = data.get("seconds")
    s = num(seconds, lang) if seconds is not None else "–"
    if data.get("cluster"):
        run_time = text("time.cluster", lang, s=s, cluster=data["cluster"])
    else:
        run_time = text("time", lang, s=s, jobs=int_text(data.get("jobs")))
    seed, games = data.get("seed"), data.get("games")
    seeds = "–"
    if isinstance(seed, int) and isinstance(games, int) and games > 0:
        seeds = text("seed_rule", lang, seed=seed, first=seed, last=seed + games - 1)
    fields = [
        (text("h.rules", lang), int_text(data.get("rules_version"))),
        (text("h.engine", lang), int_text(data.get("engine"))),
        (text("h.version", lang), int_text(data.get("pyramids_version"))),
        (text("h.bots", lang), ", ".join(str(b) for b in data.get("bots") or [])),
        (text("h.players", lang), _players_text(data.get("players") or [])),
        (text("h.games", lang), int_text(games)),
        (
            text("h.options", lang),
            _options_text(data.get("base_options") or {}) or text("none", lang),
        ),
        (text("h.total", lang), int_text(data.get("total_games"))),
        (text("h.time", lang), run_time),
        (text("h.seeds", lang), seeds),
    ]
    if data.get("turn_unit"):
        fields.append((text("h.turn", lang), label(data["turn_unit"], lang)))
    fields.append((text("h.created", lang), int_text(data.get("created"))))
    return fields


def report_title(data: Data, lang: str = "en") -> str:
    """``Flaming Pyramids: balance report`` in ``lang``."""
    return text("title", lang, title=label(data.get("title") or data.get("game") or "", lang))


# --- HTML ------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:72rem;margin:0 auto;
padding:1rem 1.5rem 3rem;color:#1a1a1a;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2.5rem;border-bottom:1px solid #ccc}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
pre{background:#f4f4f4;padding:.6rem .8rem;overflow-x:auto;white-space:pre-wrap;user-select:all}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.note{color:#444;font-size:.92rem}footer{margin-top:3rem;color:#555;font-size:.85rem}
@media print{h2{break-before:auto}figure,table{break-inside:avoid}}
"""
"""The page's only style: in the page, no font or sheet fetched."""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _is_number(cell: str) -> bool:
    return bool(cell) and (cell[0].isdigit() or cell[0] in "+−–")


def html_table(table: Table) -> str:
    """A table as HTML, numbers aligned right."""
    head = "".join(f'<th scope="col">{_esc(h)}</th>' for h in table.headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{_esc(c)}</td>' if _is_number(c) else f"<td>{_esc(c)}</td>" for c in row
        )
        + "</tr>\n"
        for row in table.rows
    )
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>"


def render_html(data: Data, lang: str = "en", svgs: Mapping[str, str] | None = None) -> str:
    """The whole report as one HTML page; ``svgs`` maps a chart's stem to its SVG file's text."""
    svgs = svgs or {}
    title = report_title(data, lang)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_esc(lang)}">',
        '<head>\n<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title>",
        f"<style>{STYLE}</style>\n</head>\n<body>",
        f"<header>\n<h1>{_esc(title)}</h1>\n<dl>",
    ]
    for name, value in header_fields(data, lang):
        parts.append(f"<dt>{_esc(name)}</dt><dd>{_esc(value)}</dd>")
    parts.append("</dl>")
    if data.get("command"):
        parts.append(f"<p>{_esc(text('regenerate', lang))}</p>")
        parts.append(f"<pre><code>{_esc(data['command'])}</code></pre>")
    parts.append(f'<p class="note">{_esc(text("intervals", lang))}</p>\n</header>')
    found = sections(data, lang)
    if found:
        parts.append(f'<nav aria-label="{_esc(text("contents", lang))}"><ul>')
        parts += [f'<li><a href="#{_esc(s.key)}">{_esc(s.title)}</a></li>' for s in found]
        parts.append("</ul></nav>")
    parts.append("<main>")
    for section in found:
        parts.append(f'<section id="{_esc(section.key)}">\n<h2>{_esc(section.title)}</h2>')
        if section.reading:
            parts.append(f"<p>{_esc(section.reading)}</p>")
        parts += [f'<p class="note">{_esc(note)}</p>' for note in section.notes]
        if section.key in svgs:
            svg = charts.inline_svg(svgs[section.key], f"chart-{section.key}")
            svg = svg.replace("<svg ", f'<svg role="img" aria-label="{_esc(section.title)}" ', 1)
            parts.append(f"<figure>\n{svg}\n</figure>")
        parts += [html_table(t) for t in section.tables]
        parts.append("</section>")
    parts.append("</main>")
    footer = text("footer", lang, version=data.get("pyramids_version") or "?")
    parts.append(f"<footer>{_esc(footer)}</footer>\n</body>\n</html>\n")
    return "\n".join(parts)


# --- Markdown --------------------------------------------------------------------------------


def _md(cell: str) -> str:
    return cell.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def markdown_table(table: Table) -> str:
    """A table as GitHub Markdown."""
    lines = [
        "| " + " | ".join(_md(h) for h in table.headers) + " |",
        "| " + " | ".join("---" for _ in table.headers) + " |",
    ]
    lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines)


def render_markdown(data: Data, lang: str = "en") -> str:
    """A short Markdown summary: the header, then each section's reading and tables."""
    lines = [f"# {report_title(data, lang)}", ""]
    lines += [f"- **{name}**: {value}" for name, value in header_fields(data, lang)]
    if data.get("command"):
        lines += ["", text("regenerate", lang), "", "```", str(data["command"]), "```"]
    lines += ["", text("intervals", lang)]
    for build in SECTIONS:
        section = (
            _holdings_section(data, lang, limit=charts.HOLDINGS_SHOWN)
            if build is _holdings_section
            else build(data, lang)
        )
        if section is None:
            continue
        lines += ["", f"## {section.title}", ""]
        if section.reading:
            lines += [section.reading, ""]
        for note in section.notes:
            lines += [note, ""]
        for table in section.tables:
            lines += [markdown_table(table), ""]
        while lines and lines[-1] == "":
            lines.pop()
    return "\n".join(lines) + "\n"


# --- files -----------------------------------------------------------------------------------


def write_report(data: dict[str, Any], out_dir: Path, *, lang: str = "en") -> list[Path]:
    """Write ``analysis.json``, ``charts/*.png|svg`` and ``report.html`` in ``out_dir`` (in
    ``lang``); return the paths written."""
    if lang not in ("en", "fr"):
        raise ValueError(f"unknown report language {lang!r}: en or fr")
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    data_path = out_dir / "analysis.json"
    data_path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    written.append(data_path)
    svgs: dict[str, str] = {}
    for stem, draw in charts.CHARTS:
        fig = draw(data, lang)
        if fig is None:
            continue
        png, svg = charts.save(fig, out_dir / "charts", stem)
        written += [png, svg]
        svgs[stem] = svg.read_text(encoding="utf-8")
    page = out_dir / "report.html"
    page.write_text(render_html(data, lang, svgs), encoding="utf-8")
    written.append(page)
    return written
