// The Flaming Pyramids end screen: per seat the tiles shed (placed), the mayhem caused
// (mayhem events its placements set off) and suffered (tiles that went under its pile),
// its biggest chain (most tiles one placement's mayhem sent away), and a chart of the
// tiles each seat had left over the game. Everything is read from the log's events (the
// page has the whole log) and the final view's hand and pile sizes; nothing re-plays a rule.

import { t } from "./i18n.js";
import { lineChart } from "./table-end.js";
import { fill, h } from "./util.js";

/** Tiles each mayhem event sends: [{cells, to, out}] (to: the seat whose pile takes them,
 * null when they leave the game). */
function sentBy(ev) {
  const d = ev.data || {};
  const out = Boolean(d.out);
  const list = (cells) => (Array.isArray(cells) ? cells : []);
  switch (ev.kind) {
    case "collapse":
      return [{ cells: list(d.collapsed), to: out ? null : d.seat }];
    case "explosion":
      return [
        { cells: list(d.embers), to: null },
        { cells: list(d.victims), to: out ? null : d.seat },
      ];
    case "fire":
      return [
        { cells: list(d.burnt), to: out ? null : d.seat },
        { cells: d.ember_removed ? [d.ember] : [], to: null },
      ];
    case "die_explosion":
      return [
        { cells: [d.ember], to: null },
        { cells: list(d.victims), to: out ? null : d.seat },
      ];
    case "curse":
      return [{ cells: list(d.tiles), to: out ? null : d.target }];
    default:
      return null;
  }
}

/**
 * The statistics of a game from its log entries ({seq, seat, action, events}):
 * {stats: [{shed, caused, suffered, chain}] per seat, deltas: per entry the change of each
 * seat's tiles left (hand + pile)}.
 */
export function flamingStats(entries, players) {
  const stats = Array.from({ length: players }, () => ({ shed: 0, caused: 0, suffered: 0, chain: 0 }));
  const deltas = [];
  let placer = null;
  let chain = 0;
  const close = () => {
    if (placer !== null && stats[placer]) stats[placer].chain = Math.max(stats[placer].chain, chain);
  };
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    const delta = new Array(players).fill(0);
    for (const ev of entry.events || []) {
      const d = ev.data || {};
      if (ev.kind === "place") {
        close();
        placer = Number(d.seat);
        chain = 0;
        if (stats[placer]) stats[placer].shed += 1;
        if (placer in delta) delta[placer] -= 1;
        continue;
      }
      const sent = sentBy(ev);
      if (!sent) continue;
      if (placer !== null && stats[placer]) stats[placer].caused += 1;
      for (const part of sent) {
        const n = part.cells.length;
        chain += n;
        if (part.to !== null && part.to !== undefined && stats[part.to]) {
          stats[part.to].suffered += n;
          delta[part.to] += n;
        }
      }
    }
    deltas.push(delta);
  }
  close();
  return { stats, deltas };
}

/** Each seat's tiles left after every entry, from the final counts walked back. */
export function tilesLeftSeries(finalLeft, deltas) {
  const players = finalLeft.length;
  const points = [finalLeft.slice()];
  for (let i = deltas.length - 1; i >= 0; i--) {
    const after = points[0];
    points.unshift(after.map((n, seat) => n - (deltas[i][seat] || 0)));
  }
  return Array.from({ length: players }, (_, seat) => points.map((p) => p[seat]));
}

/** Fill `box` with the end screen's statistics of the finished game `msg`. */
export function renderFlamingEnd(box, msg, ctx) {
  const view = msg.view || {};
  const players = view.players || (view.hand_sizes || []).length;
  if (!players) {
    fill(box);
    return;
  }
  const { stats, deltas } = flamingStats(ctx.log(), players);
  const finalLeft = Array.from(
    { length: players },
    (_, seat) => (view.hand_sizes?.[seat] || 0) + (view.pile_sizes?.[seat] || 0),
  );
  const series = tilesLeftSeries(finalLeft, deltas);
  const order = Array.isArray(msg.ranking) && msg.ranking.length === players ? msg.ranking : [...Array(players).keys()];
  const head = ["end_player", "end_shed", "end_caused", "end_suffered", "end_chain"];
  const row = (seat) =>
    h(
      "tr",
      { "data-seat": seat, "data-testid": "end-row" },
      h(
        "th",
        { scope: "row" },
        h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
        ` ${ctx.names[seat] ?? seat}`,
      ),
      h("td", { "data-stat": "shed" }, String(stats[seat].shed)),
      h("td", { "data-stat": "caused" }, String(stats[seat].caused)),
      h("td", { "data-stat": "suffered" }, String(stats[seat].suffered)),
      h("td", { "data-stat": "chain" }, String(stats[seat].chain)),
    );
  fill(
    box,
    h("h3", {}, t("end_title")),
    h(
      "div",
      { class: "end-table-wrap" },
      h(
        "table",
        { class: "end-table" },
        h("thead", {}, h("tr", {}, head.map((key) => h("th", { scope: "col", title: t(`${key}_hint`) }, t(key))))),
        h("tbody", {}, order.map(row)),
      ),
    ),
    lineChart(series, ctx.names, { title: t("end_chart_title"), xLabel: t("end_chart_x") }),
  );
}
