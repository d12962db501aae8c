// A player's page (/players/{name}): GET /api/players/{name} as a ratings table, an SVG
// line chart of the rating shown (mu - 3 sigma) after each rated game of one game, band
// and pool, the statistics summed over the finished games (the game's own figures named by
// their key: numbers summed, favourites with counts), and the finished games newest first
// with replay and record links ("Older games" pages on with ?before=). Every name and
// figure is text (textContent), never markup.

import { ratingText } from "./words-players.js";
import { formatNumber, has, initI18n, lang, onLangChange, t } from "./i18n.js";
import { api, errorText, fill, h, s } from "./util.js";

const PAGE = 20;
const CHART = { width: 640, height: 240, left: 48, right: 16, top: 16, bottom: 32 };
const FIXED_STATS = ["played", "won", "mean_place"];

let page = null; // the last answer (its games grown by "Older games")
let series = ""; // the chart's chosen series key

function nameFromPath() {
  const match = location.pathname.match(/^\/players\/([^/]+)/);
  try {
    return match ? decodeURIComponent(match[1]) : "";
  } catch {
    return "";
  }
}

function gameTitle(game) {
  return has(`game_${game}`) ? t(`game_${game}`) : game;
}

function bandText(band) {
  return has(`band_${band}`) ? t(`band_${band}`) : band;
}

function poolText(pool) {
  return t(`pool_${pool || "none"}`);
}

function seriesKey(entry) {
  return `${entry.game}|${entry.band}|${entry.pool}`;
}

function seriesText(key) {
  const [game, band, pool] = key.split("|");
  return `${gameTitle(game)}, ${bandText(band)}, ${poolText(pool)}`;
}

function dateText(iso) {
  const when = Date.parse(iso);
  if (Number.isNaN(when)) return "";
  return new Date(when).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" });
}

function renderRatings() {
  const box = document.getElementById("ratings");
  if (!page.ratings.length) {
    fill(box, h("p", { class: "muted", "data-testid": "no-ratings" }, t("player_no_ratings")));
    return;
  }
  const head = h(
    "tr",
    {},
    ["col_game", "col_players", "col_pool", "col_rating", "col_games"].map((k) => h("th", {}, t(k))),
  );
  const rows = page.ratings.map((r) =>
    h(
      "tr",
      { "data-testid": "rating-row", dataset: { series: seriesKey(r) } },
      h("td", {}, gameTitle(r.game)),
      h("td", {}, bandText(r.band)),
      h("td", {}, poolText(r.pool)),
      h("td", { class: "num", "data-testid": "rating-display" }, ratingText(r.display)),
      h("td", { class: "num" }, String(r.games)),
    ),
  );
  fill(box, h("div", { class: "table-scroll" }, h("table", { class: "data-table" }, h("thead", {}, head), h("tbody", {}, rows))));
}

function chartSeries() {
  const found = new Map();
  for (const entry of page.history) {
    const key = seriesKey(entry);
    if (!found.has(key)) found.set(key, []);
    found.get(key).push(entry);
  }
  return found;
}

function renderChart() {
  const box = document.getElementById("chart");
  const select = document.getElementById("chart-series");
  const all = chartSeries();
  if (!all.size) {
    select.hidden = true;
    fill(box, h("p", { class: "muted" }, t("player_chart_empty")));
    return;
  }
  if (!all.has(series)) {
    // the series with the most games first
    series = [...all.entries()].sort((a, b) => b[1].length - a[1].length)[0][0];
  }
  select.hidden = false;
  fill(
    select,
    [...all.keys()].map((key) => h("option", { value: key, selected: key === series }, seriesText(key))),
  );
  fill(box, lineChart(all.get(series), seriesText(series)));
}

function lineChart(points, label) {
  const { width, height, left, right, top, bottom } = CHART;
  const values = points.map((p) => p.display);
  let lo = Math.min(...values, 0);
  let hi = Math.max(...values, 0);
  if (hi - lo < 1) hi = lo + 1;
  const pad = (hi - lo) * 0.1;
  lo -= pad;
  hi += pad;
  const n = points.length;
  const x = (i) => left + (n === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (n - 1));
  const y = (v) => top + ((hi - v) * (height - top - bottom)) / (hi - lo);
  const grid = [];
  const ticks = 4;
  for (let i = 0; i <= ticks; i += 1) {
    const v = lo + ((hi - lo) * i) / ticks;
    grid.push(
      s("line", { class: "chart-grid", x1: left, x2: width - right, y1: y(v), y2: y(v) }),
      s("text", { class: "chart-tick", x: left - 6, y: y(v) + 4, "text-anchor": "end" }, ratingText(v)),
    );
  }
  grid.push(
    s("line", { class: "chart-zero", x1: left, x2: width - right, y1: y(0), y2: y(0) }),
    s("text", { class: "chart-tick", x: left, y: height - 8 }, "1"),
    s("text", { class: "chart-tick", x: width - right, y: height - 8, "text-anchor": "end" }, String(n)),
  );
  const line = s("polyline", {
    class: "chart-line",
    "data-testid": "chart-line",
    points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.display).toFixed(1)}`).join(" "),
  });
  const dots = points.map((p, i) =>
    s(
      "circle",
      { class: "chart-dot", "data-testid": "chart-dot", cx: x(i), cy: y(p.display), r: 4 },
      s("title", {}, `${ratingText(p.display)} · ${dateText(p.at)}`),
    ),
  );
  return s(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": t("player_chart_label", { series: label }),
      class: "chart-svg",
    },
    grid,
    line,
    dots,
  );
}

function statValue(value) {
  if (Array.isArray(value)) {
    return value.map((f) => t("stat_count", { value: f.value, count: f.count })).join(", ") || "–";
  }
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : formatNumber(value, 2);
  return String(value ?? "–");
}

function renderStats() {
  const box = document.getElementById("stats");
  const games = Object.keys(page.stats);
  if (!games.length) {
    fill(box, h("p", { class: "muted" }, t("player_no_stats")));
    return;
  }
  fill(
    box,
    games.map((game) => {
      const stats = page.stats[game];
      const keys = [...FIXED_STATS, ...Object.keys(stats).filter((k) => !FIXED_STATS.includes(k))];
      return h(
        "section",
        { class: "stats-game", "data-testid": "stats-game", dataset: { game } },
        h("h3", {}, gameTitle(game)),
        h(
          "dl",
          {},
          keys
            .filter((k) => k in stats)
            .map((k) => [
              h("dt", {}, has(`stat_${k}`) ? t(`stat_${k}`) : k),
              h("dd", { "data-testid": `stat-${k}` }, statValue(stats[k])),
            ]),
        ),
      );
    }),
  );
}

function gameRow(g) {
  return h(
    "tr",
    { "data-testid": "game-row", dataset: { table: g.table_id } },
    h("td", {}, dateText(g.finished)),
    h("td", {}, gameTitle(g.game)),
    h("td", { class: "num" }, t("place_of", { place: g.place, players: g.players })),
    h("td", {}, poolText(g.pool)),
    h(
      "td",
      { class: "seat-names" },
      g.seats.map((name, i) => h("span", { class: i === g.seat ? "seat-name mine" : "seat-name" }, name)),
    ),
    h(
      "td",
      { class: "links" },
      h("a", { href: g.replay, "data-testid": "game-replay" }, t("link_replay")),
      h("a", { href: g.record, download: `${g.table_id}.json`, "data-testid": "game-record" }, t("link_record")),
    ),
  );
}

function renderGames() {
  const table = document.getElementById("games");
  if (!page.games.length) {
    fill(table, h("tbody", {}, h("tr", {}, h("td", { class: "muted" }, t("player_no_games")))));
  } else {
    const head = h(
      "tr",
      {},
      ["col_when", "col_game", "col_place", "col_pool", "col_seats", "col_links"].map((k) => h("th", {}, t(k))),
    );
    fill(table, h("thead", {}, head), h("tbody", {}, page.games.map(gameRow)));
  }
  document.getElementById("more").hidden = !page.more;
}

function render() {
  document.getElementById("player-name").textContent = page.name;
  document.getElementById("player-since").textContent = t("player_since", { date: dateText(page.created) });
  document.title = `${page.name} · ${t("app_name")}`;
  renderRatings();
  renderChart();
  renderStats();
  renderGames();
}

function showError(text) {
  const box = document.getElementById("player-error");
  box.textContent = text;
  box.hidden = false;
  for (const id of ["ratings-panel", "chart-panel", "stats-panel", "games-panel"]) {
    document.getElementById(id).hidden = true;
  }
}

async function load(name) {
  try {
    page = await api(`/api/players/${encodeURIComponent(name)}?limit=${PAGE}`);
  } catch (err) {
    document.getElementById("player-name").textContent = name;
    showError(err.code === "unknown_player" ? t("player_unknown", { name }) : errorText(err.code, err.message, err));
    return;
  }
  render();
}

async function more() {
  const last = page.games[page.games.length - 1];
  if (!last) return;
  const button = document.getElementById("more");
  button.disabled = true;
  try {
    const next = await api(
      `/api/players/${encodeURIComponent(page.name)}?limit=${PAGE}&before=${encodeURIComponent(last.finished)}`,
    );
    page.games.push(...next.games);
    page.more = next.more;
    renderGames();
  } catch (err) {
    document.getElementById("player-error").textContent = errorText(err.code, err.message, err);
    document.getElementById("player-error").hidden = false;
  } finally {
    button.disabled = false;
  }
}

function init() {
  initI18n();
  const name = nameFromPath();
  document.getElementById("chart-series").addEventListener("change", (e) => {
    series = e.target.value;
    renderChart();
  });
  document.getElementById("more").addEventListener("click", more);
  onLangChange(() => {
    if (page) render();
  });
  load(name);
}

init();
