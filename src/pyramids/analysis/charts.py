"""The workbench's charts: one matplotlib figure per question of ``pyramids analyse``.

Each chart function takes the analysis data (schema 1, ``pyramids.analysis.workbench``) and a
language (``en`` or ``fr``) and returns a figure, or None when its section is missing or empty;
``save`` writes a figure as PNG and SVG. Error bars are the data's 95% intervals. Colours are
the Okabe–Ito palette (safe for colour-blind readers) and every series also differs by marker,
hatch or line style, so a chart reads in grey too. Figures are drawn with the Agg canvas and no
pyplot state, so a library caller's matplotlib backend is left alone. The SVG files are
byte-for-byte reproducible (no date, a fixed hash salt). The charts' words are the catalogue
entries ``charts.<key>`` (``pyramids/texts/messages/<lang>/charts.json``); ``num`` and ``pct``,
shared with the report (``pyramids.analysis.report``), are the catalogue's number formatter
(``pyramids.texts.format_number``: a decimal comma and a spaced percent sign in French).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pyramids.cli import i18n
from pyramids.cli.i18n import catalogue
from pyramids.texts import format_number, format_percent

try:
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter
except ImportError as exc:  # pragma: no cover - exercised by a test that hides matplotlib
    raise ImportError(
        "the workbench's charts and report need matplotlib: pip install 'pyramids[analysis]'"
    ) from exc

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000")
"""Okabe–Ito colours (without the yellow, too pale on white), in series order."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
HATCHES = ("", "//", "\\\\", "xx", "--", "||", "++")
"""Bar fills by series; no dots or circles, which SVG writes as hundreds of paths."""
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))
DPI = 110
SVG_SALT = "pyramids-analysis"
"""``svg.hashsalt``: the SVG element ids are derived from it, so two runs write the same bytes."""
HOLDINGS_SHOWN = 12
"""With more than twice as many items, the holdings chart shows this many best and worst."""

Data = Mapping[str, Any]

word = catalogue("charts")
"""``word(key, lang, **fields)``: the catalogue entry ``charts.<key>`` (then the CLI's shared
``cli.<key>``) in ``lang``, English if missing, filled with ``fields``."""


def label(value: object, lang: str = "en") -> str:
    """A data label: an ``{"en", "fr"}`` dict in ``lang`` (English if missing), else its text."""
    if isinstance(value, Mapping):
        return str(value.get(lang) or value.get("en") or "")
    return "" if value is None else str(value)


def _mathless(value: str) -> str:
    """Text for matplotlib, whose ``$…$`` would be read as mathematics."""
    return value.replace("$", r"\$")


def _tx(value: object, lang: str) -> str:
    """A data label for a chart: ``label`` with its dollar signs kept as text."""
    return _mathless(label(value, lang))


def seat_name(index: int, lang: str = "en", *, capital: bool = False) -> str:
    """Seat ``index`` (from 0) as people read it: ``seat 1`` / ``joueur 1`` for index 0."""
    name = i18n.seat_name(index + 1, lang)
    return name[:1].upper() + name[1:] if capital else name


def num(value: float | None, lang: str = "en", digits: int = 1, *, sign: bool = False) -> str:
    """``1,234.5`` / ``1 234,5`` (``–`` for None); ``sign`` writes ``+`` before positives."""
    return format_number(value, lang, digits, sign=sign)


def pct(value: float | None, lang: str = "en", digits: int = 1, *, sign: bool = False) -> str:
    """A rate as a percentage: ``61.6%`` / ``61,6 %`` (``–`` for None)."""
    return format_percent(value, lang, digits, sign=sign)


def _figure(width: float, height: float, panels: int = 1) -> tuple[Figure, list[Any]]:
    """A figure on the Agg canvas with ``panels`` side by side."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, panels, squeeze=False)[0]
    for ax in axes:
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig, list(axes)


def _percent_axis(ax: Any, lang: str, axis: str = "y", *, points: bool = False) -> None:
    """Tick labels as percentages (or signed percentage points) in ``lang``."""
    if points:
        fmt = FuncFormatter(lambda x, _pos: num(100 * x, lang, 0, sign=True))
    else:
        fmt = FuncFormatter(lambda x, _pos: pct(x, lang, 0))
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _number_axis(ax: Any, lang: str, axis: str = "y", *, sign: bool = False) -> None:
    """Tick labels with ``lang``'s decimal mark."""
    fmt = FuncFormatter(lambda x, _pos: num(x, lang, 0 if float(x).is_integer() else 1, sign=sign))
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def errors(
    values: Sequence[float | None], cis: Sequence[Sequence[float] | None]
) -> list[list[float]]:
    """Matplotlib's ``yerr`` (distances below and above) from values and 95% intervals."""
    below, above = [], []
    for value, ci in zip(values, cis, strict=True):
        if value is None or not ci or ci[0] is None or ci[1] is None:
            below.append(0.0)
            above.append(0.0)
        else:
            below.append(max(0.0, value - ci[0]))
            above.append(max(0.0, ci[1] - value))
    return [below, above]


def newcombe(
    p1: float | None, ci1: Sequence[float] | None, p2: float | None, ci2: Sequence[float] | None
) -> tuple[float | None, list[float] | None]:
    """``p1 − p2`` and its 95% interval from the two rates' Wilson intervals (Newcombe's method 10)."""
    if p1 is None or p2 is None:
        return None, None
    diff = p1 - p2
    if not ci1 or not ci2:
        return diff, None
    low = diff - ((p1 - ci1[0]) ** 2 + (ci2[1] - p2) ** 2) ** 0.5
    high = diff + ((ci1[1] - p1) ** 2 + (p2 - ci2[0]) ** 2) ** 0.5
    return diff, [low, high]


def _groups(data: Data, section: str, key: str = "by_players") -> list[dict[str, Any]]:
    """The section's per-player-count entries (empty when the section is missing)."""
    part = data.get(section) or {}
    return [g for g in part.get(key) or [] if g]


def _offsets(count: int, width: float = 0.8) -> list[float]:
    """Centred offsets of ``count`` series side by side within one group."""
    step = width / max(count, 1)
    return [(i - (count - 1) / 2) * step for i in range(count)]


def seat_advantage(data: Data, lang: str = "en") -> Figure | None:
    """Each seat's win rate, grouped by player count, against the fair share 1/P."""
    groups = [g for g in _groups(data, "seat_advantage") if g.get("rate")]
    if not groups:
        return None
    seats = max(len(g["rate"]) for g in groups)
    fig, (ax,) = _figure(max(5.5, 1.2 + 0.5 * seats * len(groups)), 3.8)
    offsets = _offsets(seats)
    width = 0.8 / seats * 0.9
    for s in range(seats):
        xs, ys, cis = [], [], []
        for i, g in enumerate(groups):
            if s < len(g["rate"]) and g["rate"][s] is not None:
                xs.append(i + offsets[s])
                ys.append(g["rate"][s])
                cis.append((g.get("ci95") or [None] * len(g["rate"]))[s])
        ax.bar(
            xs,
            ys,
            width,
            yerr=errors(ys, cis),
            capsize=2,
            color=PALETTE[s % len(PALETTE)],
            hatch=HATCHES[s % len(HATCHES)],
            edgecolor="#333333",
            linewidth=0.5,
            label=seat_name(s, lang, capital=True),
        )
    for i, g in enumerate(groups):
        if g.get("fair") is not None:
            ax.hlines(
                g["fair"],
                i - 0.45,
                i + 0.45,
                colors="black",
                linestyles="--",
                linewidth=1.2,
                label=word("fair_share", lang) if i == 0 else None,
            )
    ax.set_xticks(range(len(groups)), [word("n_players", lang, n=g["players"]) for g in groups])
    ax.set_ylabel(word("win_rate", lang))
    _percent_axis(ax, lang)
    bot = _tx((data.get("seat_advantage") or {}).get("bot"), lang)
    ax.set_title(word("chart.seats", lang, bot=bot))
    ax.legend(fontsize="small", ncols=min(4, seats + 1))
    return fig


def length(data: Data, lang: str = "en") -> Figure | None:
    """The distribution of turns per player count, and the mean turns and actions with intervals."""
    groups = [g for g in _groups(data, "length") if g.get("turns")]
    if not groups:
        return None
    fig, (hist_ax, mean_ax) = _figure(9, 3.8, panels=2)
    for i, g in enumerate(groups):
        hist = g["turns"].get("hist") or {}
        edges, counts = hist.get("edges") or [], hist.get("counts") or []
        if len(edges) == len(counts) + 1 and counts:
            total = sum(counts) or 1
            hist_ax.stairs(
                [c / total for c in counts],
                edges,
                color=PALETTE[i % len(PALETTE)],
                linestyle=LINESTYLES[i % len(LINESTYLES)],
                linewidth=1.6,
                label=word("n_players", lang, n=g["players"]),
            )
    hist_ax.set_title(word("chart.length.hist", lang), fontsize="medium")
    hist_ax.set_xlabel(word("turns", lang))
    hist_ax.set_ylabel(word("share_of_games", lang))
    _percent_axis(hist_ax, lang)
    hist_ax.legend(fontsize="small")
    xs = [g["players"] for g in groups]
    for j, measure in enumerate(("turns", "actions")):
        stats = [g.get(measure) or {} for g in groups]
        means = [s.get("mean") for s in stats]
        if all(m is None for m in means):
            continue
        mean_ax.errorbar(
            [x + (j - 0.5) * 0.08 for x in xs],
            [m if m is not None else float("nan") for m in means],
            yerr=errors(means, [s.get("ci95") for s in stats]),
            color=PALETTE[j],
            marker=MARKERS[j],
            linestyle=LINESTYLES[j],
            capsize=3,
            label=word(measure, lang),
        )
    mean_ax.set_xticks(xs)
    mean_ax.set_xlabel(word("players_axis", lang))
    mean_ax.set_title(word("chart.length.mean", lang), fontsize="medium")
    _number_axis(mean_ax, lang)
    mean_ax.legend(fontsize="small")
    fig.suptitle(word("chart.length", lang))
    return fig


def _variant_labels(data: Data, lang: str) -> dict[str, str]:
    """Each option variant's name to its label in ``lang``."""
    variants = (data.get("options") or {}).get("variants") or []
    return {v["name"]: _tx(v.get("label") or v["name"], lang) for v in variants}


def options(data: Data, lang: str = "en") -> Figure | None:
    """Per option variant, the change in mean turns and in seat 1's win rate, by player count."""
    groups = _groups(data, "options")
    names = list(_variant_labels(data, lang))
    for g in groups:
        for row in g.get("rows") or []:
            if row.get("variant") != "baseline" and row.get("variant") not in names:
                names.append(row["variant"])
    if not groups or not names:
        return None
    labels = _variant_labels(data, lang)
    fig, axes = _figure(max(7, 2.2 + 1.3 * len(names)), 3.8, panels=2)
    offsets = _offsets(len(groups), 0.6)
    for ax, key, axis_label in zip(
        axes, ("delta_turns", "delta_seat0"), ("delta_turns", "delta_seat0"), strict=True
    ):
        for i, g in enumerate(groups):
            rows = {r.get("variant"): r for r in g.get("rows") or []}
            xs, ys, cis = [], [], []
            for k, name in enumerate(names):
                row = rows.get(name)
                if row is not None and row.get(key) is not None:
                    xs.append(k + offsets[i])
                    ys.append(row[key])
                    cis.append(row.get(f"{key}_ci95"))
            ax.errorbar(
                xs,
                ys,
                yerr=errors(ys, cis),
                color=PALETTE[i % len(PALETTE)],
                marker=MARKERS[i % len(MARKERS)],
                linestyle="none",
                capsize=3,
                label=word("n_players", lang, n=g["players"]),
            )
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(
            range(len(names)),
            [labels.get(n, n) for n in names],
            rotation=30,
            ha="right",
            rotation_mode="anchor",
        )
        ax.set_title(word(axis_label, lang), fontsize="medium")
        if key == "delta_seat0":
            _percent_axis(ax, lang, points=True)
        else:
            _number_axis(ax, lang, sign=True)
    axes[0].legend(fontsize="small")
    fig.suptitle(word("chart.options", lang))
    return fig


def _kind_labels(data: Data, lang: str) -> dict[str, str]:
    """Each event kind's name to its label in ``lang``."""
    kinds = (data.get("events") or {}).get("kinds") or []
    return {k["name"]: _tx(k.get("label") or k["name"], lang) for k in kinds}


def events(data: Data, lang: str = "en") -> Figure | None:
    """Per event kind: how often it happens per game, and its trigger's win-rate difference."""
    groups = [g for g in _groups(data, "events") if g.get("rows")]
    if not groups:
        return None
    labels = _kind_labels(data, lang)
    names = list(labels)
    for g in groups:
        names += [r["kind"] for r in g["rows"] if r["kind"] not in names]
    fig, (freq_ax, diff_ax) = _figure(max(8, 2.5 + 1.6 * len(names)), 3.8, panels=2)
    offsets = _offsets(len(groups))
    width = 0.8 / len(groups) * 0.9
    for i, g in enumerate(groups):
        rows = {r["kind"]: r for r in g["rows"]}
        xs, ys, cis, dxs, dys, dcis = [], [], [], [], [], []
        for k, name in enumerate(names):
            row = rows.get(name)
            if row is None:
                continue
            if row.get("per_game") is not None:
                xs.append(k + offsets[i])
                ys.append(row["per_game"])
                cis.append(row.get("per_game_ci95"))
            diff, ci = newcombe(
                row.get("trigger_win_rate"),
                row.get("trigger_win_ci95"),
                row.get("other_win_rate"),
                row.get("other_win_ci95"),
            )
            if diff is not None:
                dxs.append(k + offsets[i])
                dys.append(diff)
                dcis.append(ci)
        name = word("n_players", lang, n=g["players"])
        colour = PALETTE[i % len(PALETTE)]
        freq_ax.bar(
            xs,
            ys,
            width,
            yerr=errors(ys, cis),
            capsize=2,
            color=colour,
            hatch=HATCHES[i % len(HATCHES)],
            edgecolor="#333333",
            linewidth=0.5,
            label=name,
        )
        diff_ax.errorbar(
            dxs,
            dys,
            yerr=errors(dys, dcis),
            color=colour,
            marker=MARKERS[i % len(MARKERS)],
            linestyle="none",
            capsize=3,
            label=name,
        )
    ticks = [labels.get(n, n) for n in names]
    freq_ax.set_xticks(range(len(names)), ticks, rotation=40, ha="right", rotation_mode="anchor")
    freq_ax.set_title(word("per_game", lang), fontsize="medium")
    _number_axis(freq_ax, lang)
    freq_ax.legend(fontsize="small")
    diff_ax.axhline(0, color="black", linewidth=0.8)
    diff_ax.set_xticks(range(len(names)), ticks, rotation=40, ha="right", rotation_mode="anchor")
    diff_ax.set_title(word("trigger_diff", lang), fontsize="medium")
    _percent_axis(diff_ax, lang, points=True)
    fig.suptitle(word("chart.events", lang))
    return fig


def skill(data: Data, lang: str = "en") -> Figure | None:
    """The stronger bot's win rate by player count against chance (1/P), and the skill index."""
    part = data.get("skill") or {}
    groups = [g for g in _groups(data, "skill") if g.get("rate") is not None]
    if not groups:
        return None
    strong, weak = _tx(part.get("strong"), lang), _tx(part.get("weak"), lang)
    fig, (rate_ax, skill_ax) = _figure(9, 3.8, panels=2)
    xs = [g["players"] for g in groups]
    rates = [g["rate"] for g in groups]
    rate_ax.errorbar(
        xs,
        rates,
        yerr=errors(rates, [g.get("ci95") for g in groups]),
        color=PALETTE[0],
        marker=MARKERS[0],
        capsize=3,
        label=strong,
    )
    chance = [
        (x, g["chance"]) for x, g in zip(xs, groups, strict=True) if g.get("chance") is not None
    ]
    if chance:
        rate_ax.plot(
            [x for x, _ in chance],
            [c for _, c in chance],
            color="black",
            linestyle="--",
            marker=MARKERS[1],
            markerfacecolor="white",
            label=word("chance_line", lang),
        )
    rate_ax.set_ylim(0, 1)
    rate_ax.set_title(word("strong_rate", lang, strong=strong), fontsize="medium")
    _percent_axis(rate_ax, lang)
    rate_ax.legend(fontsize="small")
    skills = [g.get("skill") for g in groups]
    sx = [x for x, s in zip(xs, skills, strict=True) if s is not None]
    sy = [s for s in skills if s is not None]
    scis = [g.get("skill_ci95") for g in groups if g.get("skill") is not None]
    skill_ax.errorbar(sx, sy, yerr=errors(sy, scis), color=PALETTE[2], marker=MARKERS[2], capsize=3)
    skill_ax.axhline(0, color="black", linewidth=0.8)
    skill_ax.axhline(1, color="black", linewidth=0.8, linestyle=":")
    skill_ax.set_ylim(min([-0.1, *(c[0] for c in scis if c and c[0] is not None)]), 1.05)
    skill_ax.set_title(word("skill_index", lang), fontsize="medium")
    _number_axis(skill_ax, lang)
    for ax in (rate_ax, skill_ax):
        ax.set_xticks(xs)
        ax.set_xlabel(word("players_axis", lang))
    fig.suptitle(word("chart.skill", lang, strong=strong, weak=weak))
    return fig


def by_lift(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Holdings rows by lift, best first (rows without a lift last), ties in their order."""

    def key(row: Mapping[str, Any]) -> float:
        lift = row.get("lift")
        return -float(lift) if lift is not None else float("inf")

    return sorted(rows, key=key)


def shown_holdings(
    rows: Sequence[Mapping[str, Any]],
    order: Callable[[Iterable[Mapping[str, Any]]], list[Mapping[str, Any]]] = by_lift,
) -> tuple[list[Mapping[str, Any]], int]:
    """The holdings rows a chart shows in ``order`` (by lift, best first), and how many are
    left out between the first and the last ``HOLDINGS_SHOWN``."""
    ordered = order(rows)
    hidden = len(ordered) - 2 * HOLDINGS_SHOWN
    if hidden <= 6:
        return ordered, 0
    return [*ordered[:HOLDINGS_SHOWN], *ordered[-HOLDINGS_SHOWN:]], hidden


def by_done(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Holdings rows by how often their holder did them (``done_rate``), hardest first."""
    return sorted(rows, key=lambda r: (float(r.get("done_rate") or 0.0), str(r.get("item"))))


def holdings(data: Data, lang: str = "en") -> Figure | None:
    """Each item's lift (wins over wins expected by chance) with its interval, best at the top;
    with ``done`` rates (a Flags card scored by its holder) also the share done, hardest first."""
    part = data.get("holdings") or {}
    rows = [r for r in part.get("rows") or [] if r.get("lift") is not None]
    if not rows:
        return None
    done = any(r.get("done_rate") is not None for r in rows)
    shown, hidden = shown_holdings(rows, by_done if done else by_lift)
    positions = list(range(len(shown)))
    if hidden:
        positions = [*range(HOLDINGS_SHOWN), *range(HOLDINGS_SHOWN + 1, len(shown) + 1)]
    height = 1.3 + 0.24 * (len(positions) + (1 if hidden else 0))
    fig, axes = _figure(11.0 if done else 6.5, height, 2 if done else 1)
    ticks, names = list(positions), [_tx(r.get("label") or r.get("item"), lang) for r in shown]
    if hidden:
        ticks.insert(HOLDINGS_SHOWN, HOLDINGS_SHOWN)
        names.insert(HOLDINGS_SHOWN, word("holdings_more", lang, n=hidden))
    panels: list[tuple[Any, str, str, float, bool]] = []
    if done:
        panels.append((axes[0], "done_rate", "done_ci95", mean_done(rows), True))
    panels.append((axes[-1], "lift", "lift_ci95", 1.0, False))
    for ax, key, ci_key, reference, percent in panels:
        ax.grid(False)
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        values = [r[key] for r in shown]
        ax.errorbar(
            values,
            positions,
            xerr=errors(values, [r.get(ci_key) for r in shown]),
            color=PALETTE[0 if not percent else 2],
            marker=MARKERS[0 if not percent else 1],
            linestyle="none",
            capsize=2,
        )
        ax.axvline(reference, color="black", linestyle="--", linewidth=1)
        if hidden:
            ax.axhline(HOLDINGS_SHOWN, color="#999999", linestyle=":", linewidth=0.8)
        ax.set_yticks(ticks, names, fontsize="small")
        ax.invert_yaxis()
        if percent:
            ax.set_xlabel(word("done_axis", lang, done=_tx(part.get("done_label"), lang)))
            _percent_axis(ax, lang, axis="x")
        else:
            ax.set_xlabel(word("lift_axis", lang))
            _number_axis(ax, lang, axis="x")
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: num(x, lang, 2)))
    what = _tx(part.get("what"), lang)
    if done:
        axes[0].set_title(word("chart.holdings.done", lang, what=what))
        axes[1].set_title(word("chart.holdings.lift", lang))
    else:
        axes[0].set_title(word("chart.holdings", lang, what=what))
    return fig


def mean_done(rows: Sequence[Mapping[str, Any]]) -> float:
    """The share of all holdings done (the dashed reference line)."""
    held = sum(int(r.get("held") or 0) for r in rows)
    return sum(int(r.get("done") or 0) for r in rows) / held if held else 0.0


def condition_names(data: Data, lang: str = "en") -> list[tuple[str, str]]:
    """The win conditions (name, label in ``lang``) in order, ``no_winner`` last when counted."""
    part = data.get("conditions") or {}
    names = [(c["name"], label(c.get("label") or c["name"], lang)) for c in part.get("names") or []]
    known = {n for n, _ in names}
    for g in part.get("by_players") or []:
        for key in g.get("counts") or {}:
            if key not in known:
                known.add(key)
                names.append((key, word("no_winner", lang) if key == "no_winner" else key))
    return names


def conditions(data: Data, lang: str = "en") -> Figure | None:
    """How often each win condition (and no winner) ends the game, by player count."""
    groups = [g for g in _groups(data, "conditions") if g.get("rates") or g.get("counts")]
    names = condition_names(data, lang)
    if not groups or not names:
        return None
    fig, (ax,) = _figure(max(5.5, 1.5 + 0.45 * len(names) * len(groups)), 3.8)
    offsets = _offsets(len(names))
    width = 0.8 / len(names) * 0.9
    for k, (name, text) in enumerate(names):
        xs, ys, cis = [], [], []
        for i, g in enumerate(groups):
            rate = (g.get("rates") or {}).get(name)
            if rate is None and g.get("games"):
                count = (g.get("counts") or {}).get(name)
                rate = None if count is None else count / g["games"]
            if rate is not None:
                xs.append(i + offsets[k])
                ys.append(rate)
                cis.append((g.get("ci95") or {}).get(name))
        ax.bar(
            xs,
            ys,
            width,
            yerr=errors(ys, cis),
            capsize=2,
            color=PALETTE[k % len(PALETTE)],
            hatch=HATCHES[k % len(HATCHES)],
            edgecolor="#333333",
            linewidth=0.5,
            label=_mathless(text),
        )
    ax.set_xticks(range(len(groups)), [word("n_players", lang, n=g["players"]) for g in groups])
    ax.set_ylabel(word("share_of_games", lang))
    _percent_axis(ax, lang)
    ax.set_title(word("chart.conditions", lang))
    ax.legend(fontsize="small")
    return fig


CHARTS: tuple[tuple[str, Callable[[Data, str], Figure | None]], ...] = (
    ("seat_advantage", seat_advantage),
    ("length", length),
    ("options", options),
    ("events", events),
    ("conditions", conditions),
    ("skill", skill),
    ("holdings", holdings),
)
"""Every chart, by the stem of its files (which is also the name of its data section)."""


def save(fig: Figure, out_dir: Path, stem: str) -> tuple[Path, Path]:
    """Write ``fig`` as ``out_dir/stem.png`` and ``out_dir/stem.svg`` (the SVG reproducible)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{stem}.png", out_dir / f"{stem}.svg"
    title = fig.get_suptitle() or _first_title(fig.axes)
    with rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "none"}):
        fig.savefig(png, format="png", dpi=DPI, metadata={"Software": None})
        fig.savefig(svg, format="svg", metadata={"Date": None, "Creator": None, "Title": title})
    return png, svg


def _first_title(axes: Iterable[Any]) -> str:
    """The first panel's title (a figure without a suptitle)."""
    return next((ax.get_title() for ax in axes if ax.get_title()), "")


_PROLOG = re.compile(r"<\?xml[^>]*\?>\s*|<!DOCTYPE[^>]*>\s*|<metadata>.*?</metadata>\s*", re.S)
_ID = re.compile(r'\bid="([^"]+)"')


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG file's text ready to sit in HTML: no XML prolog, doctype or metadata, and every
    element id prefixed with ``prefix`` so that several charts on one page never share an id."""
    text = _PROLOG.sub("", svg)
    for ident in sorted(set(_ID.findall(text)), key=len, reverse=True):
        new = f"{prefix}-{ident}"
        text = text.replace(f'id="{ident}"', f'id="{new}"')
        text = text.replace(f'href="#{ident}"', f'href="#{new}"')
        text = text.replace(f"url(#{ident})", f"url(#{new})")
    return text.strip()
