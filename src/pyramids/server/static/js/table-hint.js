// The Hint button and panel of the table page (issue 30). A seated player at a table that
// allows bot hints (`summary.settings.bot_hints`) may ask the search for its best moves at
// their own turn, never during a call-out check (the game module's `isCheck`): POST
// /api/tables/{id}/hint with the seat's token and the seq of the state on screen, asked
// again every POLL_MS while the search is queued or running (the same seat and seq never
// start a second search). The panel (aria-live) says the queue position meanwhile, then
// the best moves in words (the game module's actionWords, as the buttons say them), each
// with its estimated chance to win, best first; the game module outlines the best one on
// the table (`ctx.hint`, read through table.js `hintAction`). A new state on screen ends
// the polling and clears the panel and the outline: a hint holds for one decision only.
// Refusals are told by their code (words-advice.js), never by the server's message.
// Keyboard: the button is in the tab order; the H key asks too.

import * as bus from "./table-bus.js";
import { formatNumber, onLangChange, t } from "./i18n.js";
import { api, capitalise, fill, h } from "./util.js";
import { adviceError, percent } from "./words-advice.js";

const POLL_MS = 500;

const box = document.getElementById("hint-box");
const button = h("button", {
  type: "button",
  class: "btn hint-button",
  id: "hint-button",
  "data-testid": "hint-button",
  "aria-keyshortcuts": "H",
  "aria-controls": "hint-panel",
});
const controls = h("div", { class: "hint-controls" });
const panel = h("div", { class: "hint-panel", id: "hint-panel", "data-testid": "hint-panel", "aria-live": "polite" });
if (box) fill(box, controls, panel);

/** The hint asked for the state on screen: `seq` it was asked at, `status` idle, waiting,
 * done or error, and what the server answered. `gen` tells a stale answer from a fresh one. */
let ask = idle();
let gen = 0;
let timer = null;

function idle() {
  return { seq: null, status: "idle", position: null, moves: [], iterations: 0, seconds: 0, error: null, retryAfter: 0 };
}

function statusOf(ctx) {
  return (ctx.current && ctx.current.status) || (ctx.summary && ctx.summary.status) || null;
}

/** Whether the page shows the Hint button: a seated player at a running table with bot
 * hints (a seat held by its token, or opened through the logged-in account: `?seat=N`). */
function applies(ctx) {
  if (!ctx || ctx.seat === null || ctx.seat === undefined) return false;
  const settings = (ctx.summary && ctx.summary.settings) || {};
  return settings.bot_hints === true && statusOf(ctx) === "running";
}

/** Whether the viewer may ask now: its own decision on the latest state, not a check. */
function canAsk(ctx) {
  return applies(ctx) && ctx.turnState().mine && !ctx.isCheck();
}

/** Forget the hint (the state changed): stop polling; the drawing goes with the redraw. */
function reset(ctx) {
  gen += 1;
  if (timer !== null) clearTimeout(timer);
  timer = null;
  ask = idle();
  if (ctx) ctx.hint = null;
}

function askHint() {
  const ctx = bus.ctx();
  if (!ctx || !canAsk(ctx) || ask.status === "waiting") return;
  reset(ctx);
  ask = { ...idle(), seq: ctx.current.seq, status: "waiting" };
  render(ctx);
  poll(gen, ask.seq);
}

async function poll(mine, seq) {
  timer = null;
  const ctx = bus.ctx();
  if (mine !== gen || !ctx) return;
  let answer;
  try {
    answer = await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/hint`, {
      method: "POST",
      // a seat opened through the account asks as the account (cookie and CSRF header)
      body: ctx.token ? { token: ctx.token, seq } : { seat: ctx.seat, seq },
    });
  } catch (err) {
    if (mine !== gen) return;
    if (err.code === "rate_limited") {
      // too fast: say so and ask again when the server allows (the hint may be ready then)
      ask = { ...ask, error: err.code, retryAfter: err.retryAfter || 1 };
      timer = setTimeout(() => poll(mine, seq), Math.max(POLL_MS, (err.retryAfter || 1) * 1000));
    } else {
      ask = { ...ask, status: "error", error: err.code || "http", retryAfter: 0 };
    }
    render(ctx);
    return;
  }
  if (mine !== gen) return;
  if (answer && answer.status === "done") {
    const moves = Array.isArray(answer.moves) ? answer.moves : [];
    ask = { ...ask, status: "done", moves, iterations: answer.iterations || 0, seconds: answer.seconds || 0, error: null };
    ctx.hint = moves.length ? { seq, action: moves[0].action, moves } : null;
    ctx.rerender(); // the game module draws the best move; render() follows
    return;
  }
  ask = {
    ...ask,
    error: null,
    position: answer && answer.status === "queued" && Number.isInteger(answer.position) ? answer.position : null,
  };
  render(ctx);
  timer = setTimeout(() => poll(mine, seq), POLL_MS);
}

/** One move of the hint: its words, its chance to win, the notation (under the toggle). */
function moveItem(ctx, move, i) {
  return h(
    "li",
    { class: `hint-move${i === 0 ? " hint-best" : ""}`, "data-testid": "hint-move", "data-action": move.action, title: move.action },
    h("span", { class: "hint-words" }, capitalise(ctx.actionWords(move.action, "button"))),
    " ",
    h("span", { class: "hint-win", "data-testid": "hint-win", "data-win": move.win }, t("hint_win", { p: percent(move.win) })),
    i === 0 ? [" ", h("span", { class: "badge hint-badge" }, t("hint_best_badge"))] : null,
    h("code", { class: "notation" }, move.action),
  );
}

/** A number in the page's language ("1,200", "1 200"; "0.4", "0,4"). */
function number(value, digits = 0) {
  return formatNumber(Number(value) || 0, digits);
}

function renderPanel(ctx) {
  panel.dataset.status = ask.status;
  if (ask.status === "idle") {
    fill(panel);
    return;
  }
  const error = ask.error ? h("p", { class: "hint-error", "data-testid": "hint-error" }, adviceError(ask.error, ask)) : null;
  if (ask.status === "waiting") {
    const words = ask.position ? t("hint_queue", { n: ask.position }) : t("hint_thinking");
    fill(panel, h("p", { class: "hint-waiting", "data-testid": "hint-waiting" }, words), error);
    return;
  }
  if (ask.status === "error") {
    fill(panel, error);
    return;
  }
  fill(
    panel,
    h("h3", { class: "hint-title" }, t("hint_title")),
    h("ol", { class: "hint-moves", "data-testid": "hint-moves" }, ask.moves.map((m, i) => moveItem(ctx, m, i))),
    h(
      "p",
      { class: "muted hint-note" },
      t("hint_drawn"),
      " ",
      h("span", { class: "hint-cost" }, t("hint_cost", { n: number(ask.iterations), s: number(ask.seconds, 1) })),
    ),
  );
}

function render(ctx = bus.ctx()) {
  if (!box || !ctx) return;
  const msg = ctx.current;
  if (ask.seq !== null && (!msg || msg.seq !== ask.seq)) reset(ctx); // the turn passed
  const shown = applies(ctx);
  box.hidden = !shown;
  fill(controls, shown ? button : null);
  if (!shown) {
    fill(panel);
    return;
  }
  button.textContent = t("hint_button");
  button.title = t("hint_button_title");
  button.disabled = !canAsk(ctx) || ask.status === "waiting";
  renderPanel(ctx);
}

button.addEventListener("click", askHint);
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "h" && ev.key !== "H") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  if (target instanceof HTMLElement && target.isContentEditable) return;
  const ctx = bus.ctx();
  if (!ctx || !canAsk(ctx)) return;
  ev.preventDefault();
  askHint();
});
bus.onRender((ctx) => render(ctx));
onLangChange(() => render());
