// The replay viewer (/t/{id}/replay): steps through a finished game with prev/next
// (and the arrow keys), drawing each step's full position and listing its events.
// Data: GET /api/tables/{id}/replay -> [{seq, seat, action, events, state}], seq 0 the deal.

import { boardFromList, drawPyramid, installDefs, tileSvg } from "./flaming-draw.js";
import { loadCards, pieceSvg } from "./flags-table.js";
import { eventText, initI18n, onLangChange, t } from "./i18n.js";
import { api, capitalise, errorText, fill, h, s, seatNames, tableIdFromPath, toast, withNames } from "./util.js";

const tableId = tableIdFromPath();
const dom = {
  title: document.getElementById("table-title"),
  step: document.getElementById("step"),
  slider: document.getElementById("slider"),
  action: document.getElementById("step-action"),
  events: document.getElementById("step-events"),
  area: document.getElementById("game-area"),
  hands: document.getElementById("hands"),
};

let summary = null;
let steps = [];
let index = 0;
let names = [];
let cards = new Map();
let svg = null;

function renderFlaming(state) {
  if (!svg) {
    installDefs();
    svg = s("svg", { class: "pyramid", "data-testid": "pyramid", role: "group" });
    fill(dom.area, h("div", { class: "pyramid-wrap" }, svg));
  }
  const pending = state.pending && state.pending.kind === "fall" ? state.pending : null;
  let fall = null;
  if (pending) {
    const spot = pending.tile.split("@")[1];
    const [r, c] = spot.split(",").map(Number);
    fall = { spot, targets: [`${r - 1},${c - 1}`, `${r - 1},${c + 1}`], mine: false };
  }
  drawPyramid(svg, boardFromList(state.pyramid), { fall });
  fill(
    dom.hands,
    (state.hands || []).map((hand, seat) =>
      h(
        "div",
        { class: "replay-hand seat", "data-seat": seat },
        seatHead(state, seat),
        h("div", { class: "mini-tiles" }, hand.map((tile) => tileSvg(tile, "tile-svg mini"))),
        h(
          "div",
          { class: "seat-stats" },
          h("span", {}, h("b", {}, String(hand.length)), ` ${t("seat_hand")}`),
          h("span", {}, h("b", {}, String((state.piles || [])[seat]?.length ?? 0)), ` ${t("seat_pile")}`),
        ),
      ),
    ),
  );
}

/** A seat's name line in the replay: colour dot, name, a star for the winner. */
function seatHead(state, seat) {
  return h(
    "div",
    { class: "seat-head" },
    h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
    h("span", { class: "seat-name" }, names[seat] ?? seat),
    state.winner === seat ? h("span", { class: "badge turn" }, "★") : null,
  );
}

function renderFlags(state) {
  svg = null;
  fill(
    dom.area,
    h(
      "div",
      { class: "flags-board" },
      h(
        "div",
        { class: "towers", "data-testid": "towers" },
        (state.towers || []).map((tower) =>
          h("div", { class: "tower" }, tower.map((p) => h("span", { class: "piece" }, pieceSvg(p)))),
        ),
      ),
      h("div", {}, h("h2", { class: "panel-title" }, t("f_bank")), h("div", { class: "bank" }, (state.bank || []).map((p) => pieceSvg(p)))),
      h("p", { class: "muted" }, t("f_deck", { n: (state.deck || []).length })),
    ),
  );
  fill(
    dom.hands,
    (state.hands || []).map((hand, seat) =>
      h(
        "div",
        { class: "replay-hand seat", "data-seat": seat },
        seatHead(state, seat),
        h("div", { class: "seat-known" }, hand.map((c) => h("span", { class: "flag-chip", title: cards.get(c)?.country || c }, c))),
        h(
          "div",
          { class: "seat-known" },
          t("f_scored_label"),
          ((state.scored || [])[seat] || []).map((c) => h("span", { class: "flag-chip" }, c)),
        ),
        h("div", { class: "scoring" }, ((state.scoring || [])[seat] || []).map((p) => pieceSvg(p, "small"))),
      ),
    ),
  );
}

function render() {
  if (!steps.length) return;
  const step = steps[index];
  const last = steps[steps.length - 1].seq;
  dom.step.textContent = `${step.seq} / ${last}`;
  dom.slider.max = String(steps.length - 1);
  dom.slider.value = String(index);
  if (step.action === null || step.action === undefined) {
    dom.action.textContent = t("replay_start");
  } else {
    const who = step.seat === null || step.seat === undefined || step.seat < 0 ? t("log_chance") : names[step.seat] ?? step.seat;
    dom.action.textContent = t("replay_action", { who, action: step.action });
  }
  fill(
    dom.events,
    (step.events || []).map((ev) =>
      h("li", { class: `log-event ev-${ev.kind}` }, withNames(capitalise(eventText(ev)), names)),
    ),
  );
  dom.events.hidden = !(step.events || []).length;
  if (summary && summary.game === "flags") renderFlags(step.state);
  else renderFlaming(step.state);
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("first").disabled = index === 0;
  document.getElementById("next").disabled = index === steps.length - 1;
  document.getElementById("last").disabled = index === steps.length - 1;
}

function go(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  render();
}

async function init() {
  initI18n();
  onLangChange(() => {
    names = seatNames(summary ? summary.seats : [], summary ? summary.players : 0);
    render();
  });
  document.getElementById("prev").addEventListener("click", () => go(index - 1));
  document.getElementById("next").addEventListener("click", () => go(index + 1));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("last").addEventListener("click", () => go(steps.length - 1));
  dom.slider.addEventListener("input", () => go(Number(dom.slider.value)));
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
    if (ev.key === "ArrowLeft") {
      ev.preventDefault();
      go(index - 1);
    } else if (ev.key === "ArrowRight") {
      ev.preventDefault();
      go(index + 1);
    } else if (ev.key === "Home") {
      go(0);
    } else if (ev.key === "End") {
      go(steps.length - 1);
    }
  });
  dom.step.textContent = t("replay_loading");
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    names = seatNames(summary.seats, summary.players);
    const gameName = t(`game_${summary.game}`);
    dom.title.textContent = `${t("replay_title")} · ${gameName} · ${summary.id}`;
    document.title = `${t("replay_title")} · ${gameName}`;
    if (summary.game === "flags") cards = await loadCards();
    const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay`);
    steps = Array.isArray(data) ? data : data.steps || [];
  } catch (err) {
    dom.step.textContent = "";
    toast(errorText(err.code, err.message), "error");
    dom.action.textContent = errorText(err.code, err.message);
    return;
  }
  go(0);
}

init();
