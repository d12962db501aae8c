// The replay viewer (/t/{id}/replay): steps through a finished game with prev/next
// (and the arrow keys), drawing each step's full position and listing its events.
// Data: GET /api/tables/{id}/replay -> [{seq, seat, action, events, state}], seq 0 the deal.
// The position is drawn by the game's table module (its `createReplay`), loaded from the
// `browser_module` GET /api/games names for the game: this page names no game. A drawer
// may also name the steps worth a jump (`marks(steps)`: [{index, kind, text}], e.g. where
// call-out mayhem was overlooked and where it was found), listed beside the slider.
// The fairness panel reads GET /api/tables/{id}/record: the seed and salt it reveals must
// hash (SHA-256 of the UTF-8 text "{seed}:{salt}", crypto.subtle) to the commitment the
// table published at its start; `pyramids verify RECORD` also checks every chance draw.

import { eventText, initI18n, lang, onLangChange, t } from "./i18n.js";
import { api, capitalise, errorText, fill, h, seatNames, tableIdFromPath, toast, withNames } from "./util.js";

const tableId = tableIdFromPath();
const dom = {
  title: document.getElementById("table-title"),
  step: document.getElementById("step"),
  slider: document.getElementById("slider"),
  action: document.getElementById("step-action"),
  events: document.getElementById("step-events"),
  area: document.getElementById("game-area"),
  hands: document.getElementById("hands"),
  marks: document.getElementById("replay-marks"),
};

let summary = null;
let steps = [];
let index = 0;
let names = [];
let drawer = null; // the game module's replay drawer: {render(state, names)}
let fairness = null; // {commitment, seed (exact digits), salt, seeded, computed, verdict}

/** SHA-256 of `text` (UTF-8) as lowercase hex; null where the browser offers no
 * crypto.subtle (a page served over plain HTTP to another machine). */
async function sha256Hex(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The record's seed as its exact digits: seeds reach 2^62, past what a JS number holds. */
function seedDigits(raw, record) {
  const match = /"seed"\s*:\s*(\d+)/.exec(raw);
  if (match && Number(match[1]) === record.seed) return match[1];
  return String(record.seed);
}

/** Check the revealed seed and salt against the commitment (see pyramids.core.fairness). */
async function checkFairness() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { cache: "no-store" });
  if (!response.ok) return null;
  const raw = await response.text();
  const record = JSON.parse(raw);
  const found = {
    commitment: record.commitment ?? null,
    seed: seedDigits(raw, record),
    salt: record.salt ?? null,
    seeded: Boolean(record.seeded),
    computed: null,
    verdict: "none",
  };
  if (found.commitment && found.salt !== null) {
    found.computed = await sha256Hex(`${found.seed}:${found.salt}`);
    if (found.computed === null) found.verdict = "unchecked";
    else found.verdict = found.computed === found.commitment.toLowerCase() ? "verified" : "mismatch";
  }
  return found;
}

function renderFairness() {
  const panel = document.getElementById("fairness");
  if (!fairness) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  document.getElementById("fair-seeded").hidden = !fairness.seeded;
  document.getElementById("fair-commitment").textContent = fairness.commitment || "—";
  document.getElementById("fair-seed").textContent = fairness.seed;
  document.getElementById("fair-salt").textContent = fairness.salt ?? "—";
  const verdict = document.getElementById("fair-verdict");
  verdict.className = `fair-verdict ${fairness.verdict === "verified" ? "ok" : fairness.verdict === "mismatch" ? "bad" : ""}`;
  verdict.dataset.verdict = fairness.verdict;
  verdict.textContent = t(`fair_${fairness.verdict}`, { hash: fairness.computed || "" });
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
  if (drawer) drawer.render(step.state, names, { step, previous: index > 0 ? steps[index - 1] : null });
  renderMarks();
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("first").disabled = index === 0;
  document.getElementById("next").disabled = index === steps.length - 1;
  document.getElementById("last").disabled = index === steps.length - 1;
}

/** The drawer's marked steps as buttons that jump to them (hidden when there are none). */
function renderMarks() {
  const marks = drawer && drawer.marks ? drawer.marks(steps) : [];
  dom.marks.hidden = marks.length === 0;
  fill(
    dom.marks,
    marks.length ? h("span", { class: "muted" }, drawer.marksTitle ? drawer.marksTitle() : "") : null,
    marks.map((mark) =>
      h(
        "button",
        {
          type: "button",
          class: `chip replay-mark mark-${mark.kind}${mark.index === index ? " current" : ""}`,
          "data-testid": "replay-mark",
          "data-kind": mark.kind,
          "data-index": mark.index,
          onclick: () => go(mark.index),
        },
        mark.text,
      ),
    ),
  );
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
    renderFairness();
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
    const entry = (await api("/api/games")).games.find((g) => g.name === summary.game);
    if (!entry || !entry.browser_module) throw new Error(`the server has no table module for ${summary.game}`);
    const gameName = (lang() === "fr" && entry.title_fr) || entry.title;
    dom.title.textContent = `${t("replay_title")} · ${gameName} · ${summary.id}`;
    document.title = `${t("replay_title")} · ${gameName}`;
    const module = await import(entry.browser_module);
    drawer = await module.createReplay({ area: dom.area, hands: dom.hands });
    const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay`);
    steps = Array.isArray(data) ? data : data.steps || [];
    fairness = await checkFairness().catch((err) => {
      console.warn("the record could not be checked", err);
      return null;
    });
  } catch (err) {
    dom.step.textContent = "";
    toast(errorText(err.code, err.message), "error");
    dom.action.textContent = errorText(err.code, err.message);
    return;
  }
  go(0);
  renderFairness();
}

init();
