// The replay's analysis chart (issue 30): each seat's estimated chance to win at each of
// its decisions over the game (x: the action's number, y: 0–100 %), one line per seat in
// its colour, a point per decision, and each mistake marked by a red diamond where the move
// played left the seat (after), joined to where the best move would have (before) by a
// dashed drop. Drawn in the end screen's way (table-end.js `chartFrame`, its CSS); the
// legend says the same in words for screen readers (first and last chance, mistakes).

import { t } from "./i18n.js";
import { chartFrame } from "./table-end.js";
import { h, s } from "./util.js";
import { counted, percent } from "./words-advice.js";

const WIDTH = 320; // the end screen's: drawn about 1:1 in the replay's side column

/** The chance `v` (0..1) as the chart's y (0..100). */
const pct = (v) => Math.max(0, Math.min(100, Number(v) * 100 || 0));

/** A small diamond centred on (x, y): the mistake marker. */
function diamond(x, y, r = 4.5) {
  return `M${x.toFixed(1)} ${(y - r).toFixed(1)} L${(x + r).toFixed(1)} ${y.toFixed(1)} L${x.toFixed(1)} ${(y + r).toFixed(1)} L${(x - r).toFixed(1)} ${y.toFixed(1)} Z`;
}

/**
 * The chart of `analysis` (GET /api/tables/{id}/analysis's `analysis`) as a figure; `names`
 * are the seats' names. The x of a decision is its action's number (its index + 1), the
 * replay's step that plays it.
 */
export function analysisChart(analysis, names) {
  const players = analysis.players || (analysis.seats || []).length;
  const decisions = analysis.decisions || [];
  const title = t("analysis_chart_title");
  const { svg, x, y } = chartFrame({
    xMax: Math.max(1, analysis.actions || 0),
    yMax: 100,
    title,
    xLabel: t("analysis_chart_x"),
    yTicks: [100, 50, 0],
    tick: (v) => percent(v / 100),
    width: WIDTH,
    testid: "analysis-chart",
    className: "end-chart analysis-chart",
  });
  svg.append(s("line", { class: "chart-half", x1: x(0), x2: x(analysis.actions || 1), y1: y(50), y2: y(50), "aria-hidden": "true" }));
  const legend = [];
  for (let seat = 0; seat < players; seat++) {
    const own = decisions.filter((d) => d.seat === seat);
    const who = names[seat] ?? String(seat);
    const points = own.map((d) => `${x(d.index + 1).toFixed(1)},${y(pct(d.before)).toFixed(1)}`).join(" ");
    const mistakes = own.filter((d) => d.mistake);
    const said = own.length
      ? t("analysis_chart_seat", {
          who,
          a: percent(own[0].before),
          b: percent(own[own.length - 1].before),
          mistakes: counted("mistakes", mistakes.length),
        })
      : who;
    const group = s("g", { class: "analysis-seat", "data-seat": seat });
    group.append(
      s(
        "polyline",
        { class: `chart-line seat-stroke-c${seat}`, points, "data-seat": seat, "data-testid": "analysis-line", fill: "none" },
        s("title", {}, said),
      ),
    );
    for (const d of own) {
      group.append(s("circle", { class: `chart-point seat-fill-c${seat}`, cx: x(d.index + 1), cy: y(pct(d.before)), r: 1.8 }));
    }
    for (const d of mistakes) {
      const cx = x(d.index + 1);
      group.append(
        s("line", { class: `chart-drop seat-stroke-c${seat}`, x1: cx, x2: cx, y1: y(pct(d.before)), y2: y(pct(d.after)) }),
        s(
          "path",
          { class: "chart-mistake", d: diamond(cx, y(pct(d.after))), "data-testid": "analysis-mistake-mark", "data-index": d.index, "data-seat": seat },
          s("title", {}, `${t("analysis_action_n", { n: d.index + 1 })}: ${t("analysis_mistake", { n: Math.round(d.drop * 100) })}`),
        ),
      );
    }
    svg.append(group);
    legend.push(
      h(
        "li",
        { "data-seat": seat },
        h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
        ` ${said}`,
      ),
    );
  }
  legend.push(
    h(
      "li",
      { class: "analysis-legend-mistake" },
      h("span", { class: "mistake-key", "aria-hidden": "true" }, "◆"),
      ` ${t("analysis_legend_mistake")}`,
    ),
  );
  return h(
    "figure",
    { class: "end-chart-box analysis-chart-box" },
    svg,
    h("figcaption", {}, title),
    h("ul", { class: "chart-legend", "data-testid": "analysis-legend" }, legend),
  );
}
