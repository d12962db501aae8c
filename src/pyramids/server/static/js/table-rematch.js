// The rematch on the end screen (#rematch-area) and the match score.
//
// A seated player's "Rematch" asks POST /api/tables/{id}/rematch (with the seat's token, or
// the logged-in account) and lands on their seat at the new table: same seats and rules,
// the first player one seat to the left. The other players' pages hear `rematch` (or see
// the summary's rematch_id) and offer "Join the rematch". In a series (summary.match_id)
// the score per player (GET /api/matches/{id}, with the seat's token: an invite-only
// series is shown only to its players) shows on the end screen and, during a rematch
// game, in a side panel. Spectators of an invite-only table are not told of its rematch.

import * as bus from "./table-bus.js";
import { onLangChange, t } from "./i18n.js";
import { api, errorText, fill, h, heldSeats, rememberSeat, toast } from "./util.js";

const area = document.getElementById("rematch-area");
const side = h("section", { class: "panel match-panel", id: "match-panel", "data-testid": "match-panel", hidden: true });
const state = {
  summary: null,
  seat: null,
  status: null,
  offer: null, // the latest `rematch` message: {table_id, seat, name}
  match: null, // GET /api/matches/{id}
  matchFor: null, // "match_id/status/seq" the score was fetched for
  busy: false,
};

function loadCss() {
  if (document.querySelector("link[data-chat-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/chat.css", "data-chat-css": true }));
}

function isSeated() {
  return state.seat !== null && state.seat !== undefined;
}

/** The name of the seat that starts the rematch: the next one after this game's first. */
function nextStarter(summary, names) {
  const options = summary.options || {};
  const n = summary.players || (summary.seats || []).length;
  if (!n) return null;
  const first = Number.isInteger(options.first_player) ? options.first_player : 0;
  const next = (first + 1) % n;
  return (names && names[next]) ?? (summary.seats && summary.seats[next] && summary.seats[next].name) ?? null;
}

/** This browser's token at `tableId`, if it holds a seat there. */
function heldAt(tableId) {
  return heldSeats().find((e) => e.table === tableId) || null;
}

async function askRematch(ctx) {
  if (state.busy) return;
  state.busy = true;
  render(ctx);
  const body = ctx && ctx.token ? { token: ctx.token } : {};
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(state.summary.id)}/rematch`, {
      method: "POST",
      body,
    });
    rememberSeat({ table: answer.table.id, seat: answer.seat, token: answer.token, game: answer.table.game });
    location.assign(answer.url);
    return;
  } catch (err) {
    const held = state.summary.rematch_id ? heldAt(state.summary.rematch_id) : null;
    if (err.code === "seat_taken" && held) {
      location.assign(`/t/${encodeURIComponent(held.table)}?token=${encodeURIComponent(held.token)}`);
      return;
    }
    toast(errorText(err.code, err.message, err), "error");
  }
  state.busy = false;
  render(ctx);
}

/** The match score as a small table: player, wins, points. */
export function scoreTable(match) {
  if (!match || !Array.isArray(match.players)) return null;
  const finished = (match.tables || []).filter((tb) => tb.status === "finished").length;
  return h(
    "div",
    { class: "match-score", "data-testid": "match-score" },
    h("h3", { class: "panel-title" }, `${t("match_title")} · ${t("match_games", { n: (match.tables || []).length })}`),
    h(
      "table",
      { "data-finished": finished },
      h("thead", {}, h("tr", {}, h("th", {}, t("match_player")), h("th", {}, t("match_wins")), h("th", {}, t("match_points")))),
      h(
        "tbody",
        {},
        match.players.map((p) =>
          h(
            "tr",
            { "data-testid": "match-row", "data-player": p.player },
            h("td", {}, p.name),
            h("td", { class: "num", "data-stat": "wins" }, String(p.wins)),
            h("td", { class: "num", "data-stat": "points" }, String(p.points)),
          ),
        ),
      ),
    ),
    h("p", { class: "chat-note" }, t("match_points_hint")),
  );
}

async function refreshMatch(ctx) {
  const summary = state.summary;
  if (!summary || !summary.match_id) return;
  const key = `${summary.match_id}/${state.status}/${summary.rematch_id || ""}`;
  if (state.matchFor === key) return;
  state.matchFor = key;
  try {
    // an invite-only series is shown only to who holds a seat: this tab's token says so
    // (a logged-in player's session too)
    const proof = ctx && ctx.token ? `?token=${encodeURIComponent(ctx.token)}` : "";
    state.match = await api(`/api/matches/${encodeURIComponent(summary.match_id)}${proof}`);
  } catch {
    state.match = null;
  }
  render(ctx);
}

function rematchActions(ctx) {
  const summary = state.summary;
  if (!isSeated()) {
    if (!summary.rematch_id) return null;
    return h(
      "p",
      { class: "rematch-actions" },
      t("rematch_ready"),
      " ",
      h("a", { class: "btn ghost", href: `/t/${encodeURIComponent(summary.rematch_id)}`, "data-testid": "rematch-watch" }, t("rematch_watch")),
    );
  }
  const rematchId = summary.rematch_id || (state.offer && state.offer.table_id);
  const held = rematchId ? heldAt(rematchId) : null;
  if (held) {
    return h(
      "p",
      { class: "rematch-actions" },
      h(
        "a",
        {
          class: "btn",
          href: `/t/${encodeURIComponent(held.table)}?token=${encodeURIComponent(held.token)}`,
          "data-testid": "rematch-go",
        },
        t("rematch_go"),
      ),
    );
  }
  const offer = state.offer && state.offer.seat !== state.seat ? state.offer : null;
  const label = rematchId
    ? t("rematch_join")
    : (() => {
        const name = nextStarter(summary, ctx && ctx.names);
        return name ? t("rematch_button_starts", { name }) : t("rematch_button");
      })();
  return h(
    "div",
    { class: "rematch-actions" },
    offer ? h("span", { "data-testid": "rematch-offer" }, t("rematch_wants", { name: offer.name })) : null,
    h(
      "button",
      {
        type: "button",
        class: "btn",
        "data-testid": "rematch",
        disabled: state.busy,
        title: t("rematch_hint"),
        onclick: () => askRematch(ctx),
      },
      label,
    ),
  );
}

function render(ctx = bus.ctx()) {
  if (!area || !state.summary) return;
  const over = state.status === "finished";
  const score = state.match && state.summary.match_id ? scoreTable(state.match) : null;
  if (over) {
    fill(area, rematchActions(ctx), score);
    area.hidden = !area.childNodes.length;
  } else {
    area.hidden = true;
  }
  const during = !over && score;
  if (during) fill(side, scoreTable(state.match));
  side.hidden = !during;
}

function init() {
  if (!area) return;
  loadCss();
  const chat = document.getElementById("chat-panel");
  if (chat && chat.parentNode) chat.parentNode.insertBefore(side, chat);
  bus.on("hello", (msg, ctx) => {
    state.summary = msg.table;
    state.seat = msg.seat ?? null;
    state.status = msg.table.status;
    render(ctx);
    refreshMatch(ctx);
  });
  bus.on("table", (msg, ctx) => {
    state.summary = msg.table;
    state.status = msg.table.status;
    render(ctx);
    refreshMatch(ctx);
  });
  bus.on("state", (msg, ctx) => {
    if (msg.status === state.status) return;
    state.status = msg.status;
    if (state.summary) state.summary = { ...state.summary, status: msg.status };
    render(ctx);
    refreshMatch(ctx);
  });
  bus.on("rematch", (msg, ctx) => {
    state.offer = msg;
    if (state.summary) state.summary = { ...state.summary, rematch_id: msg.table_id };
    render(ctx);
  });
  onLangChange(() => render());
}

init();
