// Part H4 of the table page: every human seat's clock in #clocks (the running one counts
// down to the server's deadline, so the page never drifts from it), and an optional
// browser notification when a decision becomes yours while the tab is hidden. The tab
// title "● Your turn — …" is table.js's (renderTurn).

import { formatSeconds } from "./words-clocks.js";
import * as bus from "./table-bus.js";
import { onLangChange, t } from "./i18n.js";
import { fill, h } from "./util.js";

const NOTIFY_KEY = "pyramids.notify";
const box = document.getElementById("clocks");
let summary = null;
let clocks = null; // [{seat, bank, per_move, running, deadline}] or null
let forfeits = [];
let ticker = null;
let wasMine = false;

function names() {
  const context = bus.ctx();
  const seats = (summary && summary.seats) || [];
  return seats.map((s, i) => (context && context.names && context.names[i]) || s.name);
}

function clockSpec() {
  return (summary && summary.settings && summary.settings.clock) || null;
}

/** Seconds left on a clock now: the running one to its deadline, the others their bank. */
function secondsLeft(clock) {
  if (clock.running && clock.deadline) return (Date.parse(clock.deadline) - Date.now()) / 1000;
  return clock.bank + (clock.per_move || 0);
}

function render() {
  if (!box) return;
  const spec = clockSpec();
  if (!spec || !Array.isArray(clocks)) {
    box.hidden = true;
    stopTicker();
    return;
  }
  const who = names();
  const mine = bus.ctx() ? bus.ctx().seat : null;
  const rows = clocks.map((clock) => {
    const left = secondsLeft(clock);
    const out = clock.running && left <= 0;
    return h(
      "div",
      {
        class: `seat-clock${clock.running ? " running" : ""}${out ? " out" : ""}${clock.seat === mine ? " mine" : ""}`,
        "data-testid": "seat-clock",
        "data-seat": clock.seat,
        "data-running": clock.running ? "true" : "false",
      },
      h("span", { class: `seat-dot seat-c${clock.seat}`, "aria-hidden": "true" }),
      h("span", { class: "clock-name" }, who[clock.seat] ?? String(clock.seat)),
      h(
        "span",
        { class: "clock-time", "data-testid": "clock-time", "data-left": String(Math.max(0, Math.ceil(left))) },
        out ? t("clock_out") : formatSeconds(left, t),
      ),
    );
  });
  const gone = forfeits.map((seat) =>
    h(
      "div",
      { class: "seat-clock forfeited", "data-testid": "seat-clock-forfeited", "data-seat": seat },
      h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
      h("span", { class: "clock-name" }, who[seat] ?? String(seat)),
      h("span", { class: "clock-time" }, t("clock_forfeited")),
    ),
  );
  const head = [t(`clock_mode_${spec.mode}`)];
  if (spec.per_move > 0) head.push(t("clock_per_move", { t: formatSeconds(spec.per_move, t) }));
  fill(
    box,
    h("div", { class: "clocks-head muted", "data-testid": "clock-mode" }, head.join(" · ")),
    h("div", { class: "clock-list" }, rows, gone),
  );
  box.hidden = false;
  if (clocks.some((c) => c.running)) startTicker();
  else stopTicker();
}

function startTicker() {
  if (ticker === null) ticker = setInterval(render, 250);
}

function stopTicker() {
  if (ticker !== null) {
    clearInterval(ticker);
    ticker = null;
  }
}

// --- notifications -------------------------------------------------------------------------

function notifyWanted() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on";
  } catch {
    return false;
  }
}

function setNotifyWanted(on) {
  try {
    localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
  } catch {
    // not remembered
  }
}

let toggle = null;

function renderToggle() {
  const context = bus.ctx();
  const seated = context && context.seat !== null && context.seat !== undefined;
  if (!("Notification" in window) || !seated) {
    if (toggle) toggle.hidden = true;
    return;
  }
  if (!toggle) {
    const input = h("input", { type: "checkbox", "data-testid": "notify-toggle" });
    input.addEventListener("change", async () => {
      if (!input.checked) {
        setNotifyWanted(false);
        return;
      }
      // asked on this click only, never on its own
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      const ok = answer === "granted";
      input.checked = ok;
      setNotifyWanted(ok);
      if (!ok) toggleHint.textContent = t("notify_denied");
    });
    const toggleHint = h("span", { class: "muted notify-hint", "data-testid": "notify-hint" });
    toggle = h("label", { class: "toggle notify" }, input, h("span", { "data-i18n": "notify_toggle" }));
    toggle.append(toggleHint);
    const panel = document.querySelector(".panel.settings") || box;
    if (panel) panel.append(toggle);
  }
  toggle.hidden = false;
  toggle.querySelector("input").checked = notifyWanted() && Notification.permission === "granted";
  toggle.querySelector("[data-i18n=notify_toggle]").textContent = t("notify_toggle");
}

function maybeNotify(msg) {
  const context = bus.ctx();
  const seat = context ? context.seat : null;
  const mine = msg.status === "running" && seat !== null && seat !== undefined && msg.to_move === seat;
  const became = mine && !wasMine;
  wasMine = mine;
  if (!became || !document.hidden || !notifyWanted()) return;
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const game = (summary && summary.game) || "";
    const id = (summary && summary.id) || "";
    const note = new Notification(t("notify_title"), { body: t("notify_body", { game, id }), tag: `pyramids-${id}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // some browsers only notify from a service worker: the tab title still tells
  }
}

// --- the table's messages ------------------------------------------------------------------

bus.on("hello", (msg) => {
  summary = msg.table;
  clocks = msg.table.clocks || null;
  forfeits = msg.table.forfeits || [];
  render();
  renderToggle();
});

bus.on("table", (msg) => {
  summary = msg.table;
  clocks = msg.table.clocks || null;
  forfeits = msg.table.forfeits || [];
  render();
});

bus.on("state", (msg) => {
  if ("clocks" in msg) clocks = msg.clocks;
  if (Array.isArray(msg.forfeits)) forfeits = msg.forfeits;
  render();
  renderToggle();
  maybeNotify(msg);
});

onLangChange(() => {
  render();
  renderToggle();
});
