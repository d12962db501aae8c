// The replay viewer (/t/{id}/replay): steps through a finished game with prev/next
// (and the arrow keys), autoplay at a chosen speed (space), a jump to the next mayhem
// (a step with an event other than a placement, a draw or a move), drawing each step's
// full position, every hand included (the game is over: nothing is hidden), and telling
// the step in words (its events' sentences; the notation stays in the tooltip).
// `#step=N` (N a step's seq) opens the replay there; the address follows the step shown.
// Data: GET /api/tables/{id}/replay -> [{seq, seat, action, events, state}], seq 0 the deal.
// The position is drawn by the game's table module (its `createReplay`), loaded from the
// `browser_module` GET /api/games names for the game: this page names no game. A drawer
// may also name the steps worth a jump (`marks(steps)`: [{index, kind, text}], e.g. where
// call-out mayhem was overlooked and where it was found), listed beside the slider.
// The fairness panel shows GET /api/tables/{id}/verify: the server runs the check of
// `pyramids verify RECORD` on the record it stored (the commitment, the deal, every chance
// draw and action, the end, every forfeit on time from the clock and the actions' times)
// and answers each step: passed, the first that failed (with its facts), or not checked.
// The page says exactly that, step by step. This browser also hashes the seed and salt of
// GET /api/tables/{id}/record itself (SHA-256 of the UTF-8 text "{seed}:{salt}",
// crypto.subtle): they must give the commitment the table published at its start.
// The chat panel shows the table's chat (GET /api/tables/{id}/chat: both channels once the
// game is over) up to the step shown: each message was said at a seq.
// The computer analysis (replay-analysis.js) judges every decision on request; a decision
// in its list shows the step that plays it.

import { eventText, initI18n, lang, onLangChange, t } from "./i18n.js";
import { api, capitalise, errorText, fill, h, seatNames, tableIdFromPath, toast, withNames } from "./util.js";
import { copyText } from "./clipboard.js";
import { isMuted, messageItem, mutedNames } from "./table-chat.js";
import { initAnalysis } from "./replay-analysis.js";

/** Event kinds that are the ordinary course of play; any other is mayhem worth a jump. */
const CALM_KINDS = new Set(["place", "draw", "move"]);
const AUTOPLAY_MS = 1200; // one step at speed 1×

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
let checked = null; // GET /api/tables/{id}/verify, or {error} when it could not be asked
let timer = null; // the autoplay interval while playing
let chat = []; // the table's chat messages, oldest first
let analysis = null; // the computer analysis section (replay-analysis.js)

/** The step's game events (the server's stand-in notices are not the game's). */
function gameEvents(step) {
  return (step.events || []).filter((ev) => ev.game !== "server");
}

/** Whether a step holds mayhem: an event other than a placement, a draw or a move. */
function isMayhem(step) {
  return gameEvents(step).some((ev) => !CALM_KINDS.has(ev.kind));
}

/** The index of the first mayhem step after `from`, or -1. */
function nextMayhem(from) {
  for (let i = from + 1; i < steps.length; i++) if (isMayhem(steps[i])) return i;
  return -1;
}

/** The step index whose seq is `seq` (steps are numbered from 0), or -1. */
function indexOfSeq(seq) {
  return steps.findIndex((step) => step.seq === seq);
}

/** The seq named by the address (`#step=N`), or null. */
function seqFromHash() {
  const match = /(?:^#|&)step=(\d+)/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

/** This page's address opening at step `seq`. */
function stepUrl(seq) {
  const url = new URL(location.href);
  url.hash = `step=${seq}`;
  return url.href;
}

/** The step told in words: its first event's sentence, with the players' names. */
function stepSentence(step) {
  if (step.action === null || step.action === undefined) return t("replay_start");
  const who =
    step.seat === null || step.seat === undefined || step.seat < 0 ? t("log_chance") : (names[step.seat] ?? step.seat);
  const first = gameEvents(step)[0];
  if (first) return withNames(capitalise(eventText(first)), names);
  if (step.seat === null || step.seat === undefined || step.seat < 0) return t("replay_chance_step");
  return t("replay_action", { who, action: step.action });
}

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

/** The server's full check of the stored record (GET /api/tables/{id}/verify). */
async function askVerify() {
  try {
    return await api(`/api/tables/${encodeURIComponent(tableId)}/verify`);
  } catch (err) {
    return { error: errorText(err.code, err.message, err) };
  }
}

/** A record's time (ISO UTC) as "2026-03-01 12:05:21 UTC". */
function shownTime(iso) {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso || "");
  return match ? `${match[1]} ${match[2]} UTC` : String(iso ?? "");
}

/** The seat's name (its number when the summary has none). */
function seatName(seat) {
  return names[seat] ?? String(seat);
}

/** The first failure of the check in this page's words. */
function failureText(failure) {
  const d = failure.details || {};
  const params = { ...d, seq: failure.seq ?? d.seq ?? "" };
  if (failure.kind === "illegal_action" && d.reason === "after_the_end") return t("fair_fail_illegal_after_end", params);
  if (failure.kind === "wrong_forfeit") {
    const known = ["in_time", "not_to_move", "no_forfeit_clock"].includes(d.why);
    return t(known ? `fair_fail_wrong_forfeit_${d.why}` : "fair_fail_wrong_forfeit", {
      name: seatName(d.seat),
      seq: failure.seq ?? "",
      deadline: shownTime(d.deadline),
      at: shownTime(d.at),
    });
  }
  return t(`fair_fail_${failure.kind}`, params);
}

/** What a passed step checked, in words. */
function passedText(step) {
  if (step === "replay") {
    const draws = checked.chance_draws;
    const key = draws === 0 ? "fair_passed_replay_none" : draws === 1 ? "fair_passed_replay_one" : "fair_passed_replay";
    return t(key, { draws, actions: checked.actions });
  }
  if (step === "end") return t(checked.ended_by_forfeit ? "fair_passed_end_forfeit" : "fair_passed_end");
  if (step === "forfeits") {
    const clock = checked.clock;
    return checked.forfeits
      .map((f) =>
        t(clock ? "fair_passed_forfeit" : "fair_passed_forfeit_turns", {
          name: seatName(f.seat),
          deadline: shownTime(f.deadline),
          at: shownTime(f.at),
          bank: clock ? clock.bank : 0,
          increment: clock ? clock.increment : 0,
          per_move: clock ? clock.per_move : 0,
          n: checked.forfeit_after ?? "",
          turn_time: checked.turn_time ?? "",
        }),
      )
      .join(" ");
  }
  return t(`fair_passed_${step}`);
}

/** The verdict: the server's check first, then this browser's own hash of seed and salt. */
function verdictOf() {
  if (checked && checked.error) return "error";
  if (checked && checked.failure) return checked.failure.kind === "no_commitment" ? "none" : "failed";
  if (fairness && fairness.verdict === "mismatch") return "mismatch";
  return checked ? "verified" : "none";
}

function renderFairness() {
  const panel = document.getElementById("fairness");
  if (!fairness && !checked) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const local = fairness || {};
  document.getElementById("fair-seeded").hidden = !(local.seeded || (checked && checked.seeded));
  document.getElementById("fair-commitment").textContent = local.commitment || (checked && checked.commitment) || "—";
  document.getElementById("fair-seed").textContent = local.seed ?? (checked && checked.seed) ?? "—";
  document.getElementById("fair-salt").textContent = local.salt ?? (checked && checked.salt) ?? "—";
  const shown = verdictOf();
  const verdict = document.getElementById("fair-verdict");
  verdict.className = `fair-verdict ${shown === "verified" ? "ok" : ["failed", "mismatch", "error"].includes(shown) ? "bad" : ""}`;
  verdict.dataset.verdict = shown;
  const failure = checked && checked.failure;
  verdict.textContent = t(`fair_${shown}`, {
    hash: local.computed || "",
    step: failure ? t(`fair_step_${failure.step}`) : "",
    message: (checked && checked.error) || "",
  });
  const steps = document.getElementById("fair-steps");
  const list = checked && Array.isArray(checked.steps) ? checked.steps : [];
  steps.hidden = list.length === 0;
  fill(
    steps,
    list.map(({ step, status }) =>
      h(
        "li",
        { class: `fair-step ${status}`, "data-testid": "fair-step", "data-step": step, "data-status": status },
        h("strong", {}, t(`fair_step_${step}`)),
        " ",
        status === "passed" ? passedText(step) : status === "failed" ? failureText(failure) : t("fair_not_checked"),
      ),
    ),
  );
  const own = document.getElementById("fair-local");
  const ownVerdict = local.verdict === "verified" ? "local_verified" : local.verdict;
  own.hidden = !["local_verified", "mismatch", "unchecked"].includes(ownVerdict);
  own.dataset.verdict = local.verdict || "none";
  own.textContent = own.hidden ? "" : t(`fair_${ownVerdict}`, { hash: local.computed || "" });
}

function render() {
  if (!steps.length) return;
  const step = steps[index];
  const last = steps[steps.length - 1].seq;
  dom.step.textContent = `${step.seq} / ${last}`;
  dom.step.title = t("replay_step_n", { n: step.seq, last });
  dom.step.dataset.seq = String(step.seq);
  dom.slider.max = String(steps.length - 1);
  dom.slider.value = String(index);
  dom.action.textContent = stepSentence(step);
  if (step.action === null || step.action === undefined) {
    dom.action.removeAttribute("title");
    delete dom.action.dataset.notation;
  } else {
    dom.action.title = t("replay_notation", { action: step.action });
    dom.action.dataset.notation = step.action;
  }
  dom.action.classList.toggle("mayhem", isMayhem(step));
  fill(
    dom.events,
    (step.events || []).map((ev) =>
      h("li", { class: `log-event ev-${ev.kind}` }, withNames(capitalise(eventText(ev)), names)),
    ),
  );
  dom.events.hidden = !(step.events || []).length;
  if (drawer) drawer.render(step.state, names, { step, previous: index > 0 ? steps[index - 1] : null });
  renderMarks();
  renderChat(step.seq);
  if (analysis) analysis.setStep(step.seq);
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("first").disabled = index === 0;
  document.getElementById("next").disabled = index === steps.length - 1;
  document.getElementById("last").disabled = index === steps.length - 1;
  const mayhem = document.getElementById("next-mayhem");
  mayhem.disabled = nextMayhem(index) < 0;
  mayhem.title = mayhem.disabled ? t("replay_no_mayhem") : t("replay_next_mayhem_hint");
  renderPlay();
}

/** The chat said up to step `seq` (muted players' messages hidden, as at the table). */
function renderChat(seq) {
  const panel = document.getElementById("replay-chat");
  const log = document.getElementById("replay-chat-log");
  const muted = mutedNames();
  const shown = chat.filter((m) => m.seq <= seq && !isMuted(m.name, muted));
  panel.hidden = chat.length === 0;
  fill(log, shown.length ? shown.map((m) => messageItem(m)) : h("li", { class: "chat-note" }, t("chat_empty")));
  log.scrollTop = log.scrollHeight;
}

function renderPlay() {
  const play = document.getElementById("play");
  play.textContent = timer ? t("replay_pause") : t("replay_play");
  play.setAttribute("aria-pressed", String(Boolean(timer)));
}

/** Show the step's seq in the address without adding a history entry per step. */
function markAddress() {
  if (!steps.length) return;
  const hash = `#step=${steps[index].seq}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  renderPlay();
}

/** Autoplay from the current step (from the start when at the end) at the chosen speed. */
function play() {
  stop();
  if (index >= steps.length - 1) go(0);
  const speed = Number(document.getElementById("speed").value) || 1;
  timer = setInterval(() => {
    if (index >= steps.length - 1) {
      stop();
      return;
    }
    go(index + 1, { keepPlaying: true });
  }, AUTOPLAY_MS / speed);
  renderPlay();
}

function togglePlay() {
  if (timer) stop();
  else play();
}

async function copyStepLink(button) {
  if (!steps.length) return;
  const seq = steps[index].seq;
  const url = stepUrl(seq);
  button.dataset.url = url;
  if (await copyText(url)) toast(t("replay_link_copied", { n: seq }));
  else toast(t("copy_failed"));
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

/** A move of the game in words, as a sentence about its seat ("Ann plays the red 40 on 1,1"):
 * the drawer's log words, with the events of the step that played it when `played`. */
function moveWords(action, seat, index, played) {
  const step = played ? steps[indexOfSeq(index + 1)] : null;
  const events = step ? gameEvents(step) : [];
  const words = drawer && drawer.actionWords ? drawer.actionWords(action, { events, form: "log", names }) : null;
  const who = names[seat] ?? String(seat);
  if (!words) return `${who}: ${action}`;
  return words.includes("{who}") ? capitalise(words.replace("{who}", who)) : `${who}: ${words}`;
}

/** Show the step of seq `seq` (a decision of the analysis), the board in view. */
function jumpTo(seq) {
  const i = indexOfSeq(seq);
  if (i < 0) return;
  go(i);
  const top = dom.action.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight) dom.action.scrollIntoView({ block: "nearest" });
}

function go(i, { keepPlaying = false } = {}) {
  if (!keepPlaying && timer) stop();
  index = Math.max(0, Math.min(steps.length - 1, i));
  render();
  markAddress();
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
  document.getElementById("play").addEventListener("click", togglePlay);
  document.getElementById("speed").addEventListener("change", () => {
    if (timer) play();
  });
  document.getElementById("next-mayhem").addEventListener("click", () => {
    const i = nextMayhem(index);
    if (i >= 0) go(i);
  });
  const link = document.getElementById("step-link");
  link.addEventListener("click", () => copyStepLink(link));
  window.addEventListener("hashchange", () => {
    const seq = seqFromHash();
    const i = seq === null ? -1 : indexOfSeq(seq);
    if (i >= 0 && i !== index) go(i);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLSelectElement) return;
    if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
    if (ev.key === " " && !(ev.target instanceof HTMLButtonElement)) {
      ev.preventDefault();
      togglePlay();
      return;
    }
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
    chat = await api(`/api/tables/${encodeURIComponent(tableId)}/chat`).then(
      (answer) => answer.messages || [],
      () => [],
    );
    [fairness, checked] = await Promise.all([
      checkFairness().catch((err) => {
        console.warn("the record could not be hashed", err);
        return null;
      }),
      askVerify(),
    ]);
  } catch (err) {
    dom.step.textContent = "";
    toast(errorText(err.code, err.message, err), "error");
    dom.action.textContent = errorText(err.code, err.message, err);
    return;
  }
  document.getElementById("analysis").hidden = false;
  analysis = initAnalysis({
    box: document.getElementById("analysis-box"),
    tableId,
    names: () => names,
    moveWords,
    jump: jumpTo,
  });
  const asked = seqFromHash();
  const start = asked === null ? -1 : indexOfSeq(asked);
  go(start >= 0 ? start : 0);
  renderFairness();
}

init();
