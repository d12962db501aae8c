// The end screen's shared parts: "Play again" (POST /api/tables makes a new table with the
// same game, seats and options; the player lands on their new seat, or first gets the other
// humans' new invite links) and the small SVG line chart of a number per seat over the
// game. The game module fills in its own statistics (`renderEnd`).

import { t } from "./i18n.js";
import { api, errorText, fill, h, s, toast } from "./util.js";

/** The POST /api/tables body of a new table like `summary`: same game, seats (kind, name,
 * bot), rules options, pace, hints, bot hints and visibility; a new secret seed. */
export function playAgainBody(summary) {
  const settings = summary.settings || {};
  const body = {
    game: summary.game,
    seats: (summary.seats || []).map((seat) =>
      seat.kind === "bot" ? { kind: "bot", name: seat.name, bot: seat.bot } : { kind: "human", name: seat.name },
    ),
    options: { ...(summary.options || {}) },
    public: Boolean(summary.public),
  };
  for (const key of ["bot_delay", "absent_after", "turn_time", "takeover_bot", "hints", "bot_hints"]) {
    if (settings[key] !== undefined && settings[key] !== null) body[key] = settings[key];
  }
  return body;
}

/** "Play again": a new table with the same game, seats and options (POST /api/tables);
 * the viewer lands on its own seat, after the other humans' invite links when there are. */
export async function playAgain(ctx, dom) {
  if (!ctx.summary || ctx.seat === null) return;
  dom.playAgain.disabled = true;
  let created;
  try {
    created = await api("/api/tables", { method: "POST", body: playAgainBody(ctx.summary) });
  } catch (err) {
    dom.playAgain.disabled = false;
    toast(errorText(err.code, err.message, err), "error");
    return;
  }
  const invites = created.invites || [];
  const mineInvite = invites.find((inv) => inv.seat === ctx.seat);
  const others = invites.filter((inv) => inv.seat !== ctx.seat);
  if (mineInvite && !others.length) {
    location.assign(mineInvite.url);
    return;
  }
  dom.playAgain.disabled = false;
  const link = (inv) => new URL(inv.url, location.href).href;
  fill(
    dom.againInvites,
    h("p", {}, t("again_invites")),
    h(
      "ul",
      { class: "again-list" },
      others.map((inv) =>
        h(
          "li",
          {},
          h("span", {}, t("invite_for", { name: inv.name, n: inv.seat + 1 })),
          " ",
          h("input", { class: "again-link", readonly: true, value: link(inv), "data-testid": "again-link", "data-seat": inv.seat }),
          h(
            "button",
            {
              type: "button",
              class: "btn small ghost",
              onclick: (ev) => {
                navigator.clipboard?.writeText(link(inv)).then(
                  () => (ev.target.textContent = t("copied")),
                  () => toast(t("copy_failed")),
                );
              },
            },
            t("copy"),
          ),
        ),
      ),
    ),
    mineInvite
      ? h("a", { class: "btn", href: mineInvite.url, "data-testid": "again-go" }, t("again_go"))
      : h("a", { class: "btn", href: `/t/${encodeURIComponent(created.table.id)}` }, t("watch_table")),
  );
  dom.againInvites.hidden = false;
}

const CHART_W = 320;
const CHART_H = 140;
const PAD = { left: 30, right: 10, top: 10, bottom: 24 };

/**
 * An empty chart of the end screen's kind (also the replay's analysis chart): the SVG with
 * its axes from 0 to `xMax` and 0 to `yMax`, a tick label at each of `yTicks` (written by
 * `tick`), `xLabel` under the x axis; returns {svg, x, y}, the scales from data to the
 * drawing. `width` widens it for a long game; `testid` and `className` name the SVG.
 */
export function chartFrame({
  xMax,
  yMax,
  title = "",
  xLabel = "",
  yTicks = null,
  tick = String,
  width = CHART_W,
  testid = "end-chart",
  className = "end-chart",
}) {
  const x = (i) => PAD.left + (i / Math.max(1, xMax)) * (width - PAD.left - PAD.right);
  const y = (v) => PAD.top + (1 - v / yMax) * (CHART_H - PAD.top - PAD.bottom);
  const svg = s("svg", {
    class: className,
    viewBox: `0 0 ${width} ${CHART_H}`,
    role: "img",
    "aria-label": title,
    "data-testid": testid,
  });
  if (title) svg.append(s("title", {}, title));
  const axis = s("g", { class: "chart-axis", "aria-hidden": "true" });
  axis.append(s("line", { x1: PAD.left, x2: width - PAD.right, y1: y(0), y2: y(0) }));
  axis.append(s("line", { x1: PAD.left, x2: PAD.left, y1: y(0), y2: y(yMax) }));
  for (const v of yTicks || [yMax, 0]) {
    axis.append(s("text", { x: PAD.left - 4, y: y(v) + 4, class: "chart-tick end" }, tick(v)));
  }
  if (xLabel) axis.append(s("text", { x: (PAD.left + width - PAD.right) / 2, y: CHART_H - 6, class: "chart-tick mid" }, xLabel));
  svg.append(axis);
  return { svg, x, y };
}

/**
 * A line chart: `series` is one array of numbers per seat (the same length, one point per
 * step), drawn in the seats' colours (seat-c{i}); `names` label the legend.
 */
export function lineChart(series, names, { title = "", xLabel = "" } = {}) {
  const steps = Math.max(1, ...series.map((line) => line.length - 1));
  const top = Math.max(1, ...series.flat());
  const { svg, x, y } = chartFrame({ xMax: steps, yMax: top, title, xLabel });
  series.forEach((line, seat) => {
    const points = line.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(
      s(
        "polyline",
        { class: `chart-line seat-stroke-c${seat}`, points, "data-seat": seat, fill: "none" },
        s("title", {}, `${names[seat] ?? seat}: ${line.join(" → ")}`),
      ),
    );
  });
  const legend = h(
    "ul",
    { class: "chart-legend" },
    series.map((line, seat) =>
      h(
        "li",
        {},
        h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
        `${names[seat] ?? seat} (${t("chart_from_to", { a: line[0] ?? 0, b: line[line.length - 1] ?? 0 })})`,
      ),
    ),
  );
  return h("figure", { class: "end-chart-box" }, svg, h("figcaption", {}, title), legend);
}
