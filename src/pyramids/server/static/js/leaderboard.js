// The leaderboards (/leaderboard?game=G&band=B&pool=P): GET /api/leaderboard for the chosen
// game (from GET /api/games), player-count band (the server picks the busiest when none is
// asked) and pool (between players, or against bots: then the bots' fixed ratings too).
// The choice lives in the address, so a board can be linked to. Names are text, linking to
// each player's page.

import { ratingText } from "./words-players.js";
import { has, initI18n, onLangChange, t } from "./i18n.js";
import { api, errorText, fill, h } from "./util.js";

let games = []; // [{name, min_players, max_players}] from /api/games
let board = null;

const BANDS = [
  ["2", 2, 2],
  ["3-4", 3, 4],
  ["5-6", 5, 6],
];

function gameTitle(game) {
  return has(`game_${game}`) ? t(`game_${game}`) : game;
}

function bandsOf(game) {
  const entry = games.find((g) => g.name === game);
  if (!entry) return [];
  return BANDS.filter(([, lo, hi]) => hi >= entry.min_players && lo <= entry.max_players).map(([b]) => b);
}

function wanted() {
  const params = new URLSearchParams(location.search);
  return { game: params.get("game"), band: params.get("band"), pool: params.get("pool") };
}

function fillSelectors(game, band, pool) {
  fill(
    document.getElementById("game"),
    games.map((g) => h("option", { value: g.name, selected: g.name === game }, gameTitle(g.name))),
  );
  fill(
    document.getElementById("band"),
    bandsOf(game).map((b) => h("option", { value: b, selected: b === band }, t(`band_${b}`))),
  );
  document.getElementById("pool").value = pool;
}

function renderBoard() {
  const table = document.getElementById("board");
  if (!board.players.length) {
    fill(table, h("tbody", {}, h("tr", {}, h("td", { class: "muted", "data-testid": "board-empty" }, t("leaderboard_empty")))));
  } else {
    const head = h("tr", {}, ["col_rank", "col_name", "col_rating", "col_games"].map((k) => h("th", {}, t(k))));
    const rows = board.players.map((p) =>
      h(
        "tr",
        { "data-testid": "board-row" },
        h("td", { class: "num" }, String(p.rank)),
        h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
        h("td", { class: "num", "data-testid": "board-rating" }, ratingText(p.display)),
        h("td", { class: "num" }, String(p.games)),
      ),
    );
    fill(table, h("thead", {}, head), h("tbody", {}, rows));
  }
  const panel = document.getElementById("bots-panel");
  panel.hidden = !board.bots.length;
  fill(
    document.getElementById("bots"),
    h("thead", {}, h("tr", {}, ["col_bot", "col_rating"].map((k) => h("th", {}, t(k))))),
    h(
      "tbody",
      {},
      board.bots.map((b) =>
        h(
          "tr",
          { "data-testid": "bot-row" },
          h("td", {}, has(`bot_${b.bot}`) ? t(`bot_${b.bot}`) : b.bot),
          h("td", { class: "num" }, ratingText(b.display)),
        ),
      ),
    ),
  );
}

async function show({ game, band, pool }) {
  const error = document.getElementById("board-error");
  error.hidden = true;
  const params = new URLSearchParams({ game, pool });
  if (band) params.set("band", band);
  try {
    board = await api(`/api/leaderboard?${params}`);
  } catch (err) {
    error.textContent = errorText(err.code, err.message, err);
    error.hidden = false;
    return;
  }
  fillSelectors(board.game, board.band, board.pool);
  renderBoard();
  const address = new URLSearchParams({ game: board.game, band: board.band, pool: board.pool });
  history.replaceState(null, "", `/leaderboard?${address}`);
}

function current() {
  return {
    game: document.getElementById("game").value,
    band: document.getElementById("band").value,
    pool: document.getElementById("pool").value,
  };
}

async function init() {
  initI18n();
  try {
    const catalogue = await api("/api/games");
    games = catalogue.games.map((g) => ({ name: g.name, min_players: g.min_players, max_players: g.max_players }));
  } catch (err) {
    const error = document.getElementById("board-error");
    error.textContent = errorText(err.code, err.message, err);
    error.hidden = false;
    return;
  }
  const asked = wanted();
  const game = games.some((g) => g.name === asked.game) ? asked.game : games[0] && games[0].name;
  const pool = asked.pool === "bots" ? "bots" : "rated";
  const band = bandsOf(game).includes(asked.band) ? asked.band : null;
  document.getElementById("game").addEventListener("change", () => {
    show({ ...current(), band: null });
  });
  document.getElementById("band").addEventListener("change", () => show(current()));
  document.getElementById("pool").addEventListener("change", () => show({ ...current(), band: null }));
  onLangChange(() => {
    if (board) {
      fillSelectors(board.game, board.band, board.pool);
      renderBoard();
    }
  });
  if (game) await show({ game, band, pool });
}

init();
