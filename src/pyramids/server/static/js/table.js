// The table page (/t/{id}, an invite: /t/{id}?token=…): connection, state queue, and everything every game
// shares: whose turn, seats, log, the current event's reason, the end screen and
// the generic "all legal actions" list. The drawing and the game's own controls come
// from the game's table module, the `browser_module` GET /api/games names for the game.
//
// Whose turn it is has one source of truth, turnState(): the status banner, the tab title,
// the turn sound and the game's hand and controls all read it, so they agree during a
// fall choice, a check and while an animation plays. Words come first: log lines and
// buttons say what happens (the game module's actionWords); the notation is in tooltips
// and, with the "Show notation" toggle (remembered), next to the words. A bot hint
// (table-hint.js) is `ctx.hint`; the game module outlines its best move on the state it was
// asked at only (`ctx.hintAction(msg)`), so it goes when the turn passes.

import { TableConnection } from "./connection.js";
import * as bus from "./table-bus.js";
import { eventText, has, initI18n, lang, onLangChange, t } from "./i18n.js";
import { playAgain } from "./table-end.js";
import {
  api,
  capitalise,
  errorText,
  fill,
  h,
  heldSeats,
  prefersReducedMotion,
  rememberSeat,
  seatNames,
  tableIdFromPath,
  toast,
  withNames,
} from "./util.js";

const SPEED_KEY = "pyramids.speed";
const NOTATION_KEY = "pyramids.notation";
const SOUND_KEY = "pyramids.sound";
const SPEEDS = { normal: 1, fast: 0.4, off: 0 };

const tableId = tableIdFromPath();
const TOKEN_KEY = `pyramids.token.${tableId}`;
let usedInvite = null; // the invite this tab used, once the server handed its credential
let token = takeToken();

/**
 * The seat token of this tab: an invite link's `?token=` is kept in session storage (per
 * table, per tab) and taken out of the address bar and the history at once, so it is not
 * shown, bookmarked, shared in a screenshot or sent as a referrer; a reload keeps the seat.
 */
function takeToken() {
  const params = new URLSearchParams(location.search);
  const fromLink = params.get("token");
  if (fromLink === null) {
    try {
      return sessionStorage.getItem(TOKEN_KEY) || "";
    } catch {
      return "";
    }
  }
  // an invite this browser already used opens its seat with the credential it got for it
  const known = heldSeats().find((e) => e.table === tableId && e.invite === fromLink && e.token);
  const kept = known ? known.token : fromLink;
  try {
    sessionStorage.setItem(TOKEN_KEY, kept);
  } catch {
    // not kept: a reload shows the table as a spectator
  }
  params.delete("token");
  const rest = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  return kept;
}

/**
 * The seat's own credential, which the server hands over once, in the hello (or the HTTP
 * answer) of the request that used the invite: the invite is dead from then on (issue 29),
 * so this tab, its reloads and the lobby's "your seats" list keep the credential instead.
 */
function adoptToken(fresh) {
  if (!fresh || fresh === token) return;
  usedInvite = token;
  token = fresh;
  ctx.token = fresh;
  if (conn) conn.token = fresh;
  try {
    sessionStorage.setItem(TOKEN_KEY, fresh);
  } catch {
    // not kept: this tab plays on; the lobby's list below still has it
  }
}

/** Forget this tab's token (the server refused it): the page then watches. */
function dropToken() {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing kept
  }
}

const dom = {
  title: document.getElementById("table-title"),
  seeded: document.getElementById("table-seeded"),
  commitment: document.getElementById("table-commitment"),
  conn: document.getElementById("conn"),
  turn: document.getElementById("turn"),
  turnNo: document.getElementById("turn-no"),
  seq: document.getElementById("seq"),
  you: document.getElementById("you"),
  banner: document.getElementById("banner"),
  gameArea: document.getElementById("game-area"),
  decision: document.getElementById("decision-area"),
  gameSide: document.getElementById("game-side"),
  reason: document.getElementById("event-reason"),
  seats: document.getElementById("seats"),
  log: document.getElementById("log"),
  allActions: document.getElementById("all-actions"),
  allCount: document.getElementById("all-count"),
  rankingBox: document.getElementById("ranking-box"),
  ranking: document.getElementById("ranking"),
  rankingTitle: document.getElementById("ranking-title"),
  replayLink: document.getElementById("replay-link"),
  endStats: document.getElementById("end-stats"),
  playAgain: document.getElementById("play-again"),
  againInvites: document.getElementById("again-invites"),
  speed: document.getElementById("speed"),
  notation: document.getElementById("notation"),
  sound: document.getElementById("sound"),
  statusBar: document.querySelector(".status-bar"),
};

/** Everything the page knows; shared with the game module as `ctx`. */
const ctx = {
  tableId,
  token,
  seat: null,
  summary: null,
  names: [],
  current: null, // the state message on screen
  busy: false, // an action is on its way
  animating: false,
  reason: null, // {event, seat} shown in event-reason
  send,
  setReason,
  speed: speedFactor,
  rerender: () => renderAll(),
  isInteractive,
  turnState,
  log: () => logEntries,
  // the search's hint on screen (table-hint.js): {seq, action, moves}, drawn by the game
  // module on the state of that seq only, so it goes when the turn passes
  hint: null,
  hintAction,
  isCheck,
  actionWords: (action, form = "button") => actionWords(action, ctx.seat, [], form),
};

let game = null;
let conn = null;
const queue = [];
let processing = false;
let resync = true;
let logEntries = []; // {seq, seat, action, events}
let liveSeats = null; // the seats of the latest message received

function speedFactor() {
  if (document.hidden || prefersReducedMotion()) return 0;
  let factor = SPEEDS[localStorage.getItem(SPEED_KEY)] ?? 1;
  if (queue.length >= 2) factor *= 0.3; // catching up: keep the story short
  return factor;
}

/** Whether the viewer may act now (own decision, nothing in flight, screen up to date). */
function isInteractive() {
  const msg = ctx.current;
  return Boolean(
    msg &&
      ctx.seat !== null &&
      msg.status !== "finished" &&
      (msg.legal || []).length > 0 &&
      !ctx.busy &&
      !ctx.animating &&
      queue.length === 0,
  );
}

/** The best move of the hint for the state `msg` (default: the one on screen), or null. */
function hintAction(msg = ctx.current) {
  const hint = ctx.hint;
  return hint && msg && hint.seq === msg.seq ? hint.action : null;
}

/** Whether the state on screen asks for a call-out check (the game module knows): no hint
 * is given there, where spotting the mayhem is the game. */
function isCheck(msg = ctx.current) {
  return Boolean(msg && game && game.isCheck && game.isCheck(msg));
}

/**
 * Whose turn it is and what the viewer may do, the one answer every part of the page
 * reads: {phase, mine, text, hand}. `phase` is loading, open, over, playing (an action's
 * events are being shown), sending (the viewer's action is on its way), act (the viewer
 * decides now) or wait (someone else decides, or chance); `text` is the status line and
 * `hand` what the viewer's hand says.
 */
function turnState() {
  const msg = ctx.current;
  if (!msg) return { phase: "loading", mine: false, text: t("loading"), hand: "" };
  if (ctx.animating && ctx.animatingMsg) {
    const seat = ctx.animatingMsg.last ? ctx.animatingMsg.last.seat : null;
    const text =
      seat === ctx.seat && seat !== null
        ? t("turn_playing_you")
        : seat === null || seat === undefined || seat < 0
          ? t("turn_playing_chance")
          : t("turn_playing", { who: ctx.names[seat] ?? seat });
    return { phase: "playing", mine: false, text, hand: t("hand_playing") };
  }
  if (msg.status === "finished" || msg.to_move === null || msg.to_move === undefined) {
    return { phase: "over", mine: false, text: t("turn_over"), hand: "" };
  }
  if (msg.status === "open") return { phase: "open", mine: false, text: t("turn_waiting_players"), hand: t("hand_wait") };
  if (ctx.busy) return { phase: "sending", mine: false, text: t("turn_sending"), hand: t("hand_sending") };
  const special = game && game.turnText ? game.turnText(msg, ctx) : null;
  let text;
  let mine;
  let hand = null;
  if (special) {
    ({ text, mine } = special);
    hand = special.hand ?? null;
  } else if (msg.to_move < 0) {
    text = t("turn_chance"); // the server draws a chance outcome (-1)
    mine = false;
  } else if (msg.to_move === ctx.seat) {
    text = t("turn_you");
    mine = true;
  } else {
    text = t("turn_of", { who: ctx.names[msg.to_move] ?? msg.to_move });
    mine = false;
  }
  // the viewer acts only when the page lets it: its own decision, on the latest state
  mine = Boolean(mine && isInteractive());
  if (hand === null) {
    hand = mine
      ? ""
      : msg.to_move >= 0 && msg.to_move !== ctx.seat
        ? t("hand_wait_for", { who: ctx.names[msg.to_move] ?? msg.to_move })
        : t("hand_wait");
  }
  return { phase: mine ? "act" : "wait", mine, text, hand };
}

// --- the countdown of a decision (turn_time > 0, no clock) ---------------------------------------
//
// The server gives a human `turn_time` seconds per decision, counted from the state that
// asks for it (or from the end of a takeover). The protocol carries no deadline, so the
// page counts from when it received that state: close enough to warn a slow player.

const clock = { key: "", start: 0, paused: false, timer: null, el: null };

function clockLimit() {
  const settings = ctx.summary && ctx.summary.settings;
  if (settings && settings.clock) return 0; // a table with a clock: table-clocks.js counts
  return Number((settings && settings.turn_time) || 0);
}

/** Whether a human's turn clock runs in the state on screen. */
function clockRuns(msg) {
  if (!msg || msg.status !== "running" || clockLimit() <= 0) return false;
  if (typeof msg.to_move !== "number" || msg.to_move < 0) return false;
  const seat = seatsData()[msg.to_move];
  return Boolean(seat && seat.kind === "human" && !seat.taken_over);
}

function renderClock() {
  const el = clock.el;
  if (!el) return;
  const msg = ctx.current;
  if (!clockRuns(msg)) {
    clock.paused = true;
    el.hidden = true;
    if (clock.timer !== null) {
      clearInterval(clock.timer);
      clock.timer = null;
    }
    return;
  }
  const key = `${msg.seq}/${msg.to_move}`;
  if (key !== clock.key) {
    clock.key = key;
    clock.start = msg.receivedAt ?? performance.now();
  } else if (clock.paused) {
    clock.start = performance.now(); // a takeover ended: the server restarts the clock
  }
  clock.paused = false;
  tickClock();
  el.hidden = false;
  if (clock.timer === null) clock.timer = setInterval(tickClock, 250);
}

function tickClock() {
  const elapsed = (performance.now() - clock.start) / 1000;
  const left = Math.max(0, Math.ceil(clockLimit() - elapsed));
  const msg = ctx.current;
  const who = msg && msg.to_move === ctx.seat ? t("clock_you") : ctx.names[msg && msg.to_move] ?? "";
  clock.el.textContent = t("clock_left", { s: left, who });
  clock.el.dataset.left = String(left);
  clock.el.classList.toggle("urgent", left <= 10);
}

function initClock() {
  const el = h("span", { class: "turn-clock", "data-testid": "turn-clock", role: "timer", hidden: true });
  const line = h("div", { class: "turn-line" });
  dom.turn.replaceWith(line);
  line.append(dom.turn, el);
  clock.el = el;
}

let connStatus = ["connecting", {}];

function setStatus(status, info) {
  connStatus = [status, info];
  const text =
    status === "online"
      ? t("conn_online")
      : status === "offline"
        ? t("conn_offline", { s: Math.max(1, Math.round((info.retryIn || 0) / 1000)) })
        : t("conn_connecting");
  dom.conn.textContent = text;
  dom.conn.dataset.status = status;
}

/** Send an action decided on the state on screen. */
async function send(action) {
  const msg = ctx.current;
  if (!msg || ctx.busy) return;
  ctx.busy = true;
  renderAll();
  const id = conn && conn.sendAction(msg.seq, action);
  if (id) return;
  // no socket: the HTTP endpoint does the same
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/actions`, {
      method: "POST",
      body: { token, seq: msg.seq, action },
    });
    if (answer && answer.seat_token) adoptToken(answer.seat_token);
  } catch (err) {
    if (err.seatToken) adoptToken(err.seatToken);
    ctx.busy = false;
    toast(errorText(err.code, err.message, err), "error");
    renderAll();
  }
}

/** Show an event's reason under the board (null: the resting text). */
function setReason(event, actionSeat = null) {
  ctx.reason = event ? { event, seat: actionSeat } : null;
  renderReason();
}

function renderReason() {
  const r = ctx.reason;
  if (!r) {
    const msg = ctx.current;
    const resting = msg && msg.seq === 0 && game && game.restingText ? game.restingText(msg, ctx) : null;
    dom.reason.textContent = msg && msg.seq === 0 ? resting || t("event_none") : "";
    dom.reason.dataset.kind = "";
    return;
  }
  dom.reason.textContent = withNames(capitalise(eventText(r.event)), ctx.names);
  dom.reason.dataset.kind = r.event.kind || "";
}

/** The most telling event of an action: the last that is not a plain draw. */
function restingEvent(last) {
  if (!last || !last.events || !last.events.length) return null;
  const events = last.events;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].kind !== "draw") return events[i];
  }
  return events[events.length - 1];
}

let wasMine = false; // whether the last status shown was the viewer's turn (for the sound)

function renderTurn() {
  const msg = ctx.current;
  const summary = ctx.summary;
  const state = turnState();
  const mine = state.mine;
  dom.turn.textContent = state.text;
  dom.turn.dataset.phase = state.phase;
  dom.turn.classList.toggle("mine", mine);
  dom.statusBar.classList.toggle("mine", mine);
  dom.statusBar.dataset.phase = state.phase;
  document.body.classList.toggle("my-turn", mine);
  if (mine && !wasMine) turnSound();
  wasMine = mine;
  dom.seq.textContent = msg ? String(msg.seq) : "";
  const turnNo = msg && msg.view && msg.view.turn;
  dom.turnNo.textContent = turnNo ? t("turn_n", { n: turnNo }) : "";
  if (summary) {
    const gameName = gameTitle(summary.game);
    dom.title.textContent = `${gameName} · ${summary.id}`;
    document.title = mine ? `● ${t("tab_your_turn")} — ${gameName}` : `${gameName} · ${t("app_name")}`;
    dom.seeded.hidden = !summary.seeded;
    // the seed's commitment, published at the start; the record reveals seed and salt at the end
    dom.commitment.hidden = !summary.commitment;
    if (summary.commitment) {
      dom.commitment.textContent = t("commitment_short", { hash: summary.commitment.slice(0, 12) });
      dom.commitment.title = t("commitment_hint", { hash: summary.commitment });
    }
  }
  dom.you.textContent =
    ctx.seat === null || ctx.seat === undefined
      ? t("you_watch")
      : t("you_are", { who: ctx.names[ctx.seat] ?? ctx.seat });
}

/** The seats as last heard of (presence and takeovers are news, whatever state is on
 * screen: a queued older state must not bring back a seat's old status). */
function seatsData() {
  const msg = ctx.current;
  return liveSeats || (msg && msg.seats) || (ctx.summary && ctx.summary.seats) || [];
}

function renderSeats() {
  const msg = ctx.current;
  const seats = seatsData();
  const count = (msg && msg.view && msg.view.players) || seats.length;
  const over = msg && (msg.status === "finished" || msg.to_move === null);
  const items = [];
  for (let i = 0; i < count; i++) {
    const seat = seats[i] || {};
    const badges = [];
    if (i === ctx.seat) badges.push(h("span", { class: "badge you" }, t("seat_you")));
    if (seat.kind === "bot") badges.push(h("span", { class: "badge bot" }, `${t("seat_bot")} · ${seat.bot || ""}`));
    if (seat.kind === "human" && seat.claimed === false) {
      badges.push(h("span", { class: "badge waiting" }, t("seat_waiting")));
    } else if (seat.kind === "human" && seat.connected === false) {
      badges.push(h("span", { class: "badge offline" }, t("seat_offline")));
    }
    if (seat.taken_over) badges.push(h("span", { class: "badge takeover" }, t("seat_taken_over")));
    const toMove = msg && !over && msg.to_move === i;
    const details = game && msg ? game.seatDetails(msg.view, i, ctx) : null;
    items.push(
      h(
        "li",
        {
          class: `seat${toMove ? " to-move" : ""}${i === ctx.seat ? " me" : ""}`,
          "data-testid": "seat-info",
          "data-seat": i,
        },
        h(
          "div",
          { class: "seat-head" },
          h("span", { class: `seat-dot seat-c${i}`, "aria-hidden": "true" }),
          h("span", { class: "seat-name" }, ctx.names[i] ?? `#${i}`),
          toMove ? h("span", { class: "badge turn" }, t("seat_to_move")) : null,
          ...badges,
        ),
        details,
      ),
    );
  }
  fill(dom.seats, items);
}

/** An action in words ("Ann plays the red 40 on 1,1"): the game module's words, else the
 * notation. */
function actionWords(action, seat, events = [], form = "log") {
  const words = game && game.actionWords ? game.actionWords(action, { seat, events, form }, ctx) : null;
  return words || (form === "log" ? `{who}: ${action}` : action);
}

/** The log line's sentence, its subject (the seat's name) in a span.log-who: the game's words
 * say "{who} plays …", the name goes where {who} stands. */
function sentenceWithWho(entry, who) {
  const whoSpan = () => h("span", { class: "log-who" }, who);
  if (entry.action === null || entry.action === undefined) return [t("log_setup")];
  const words = actionWords(entry.action, entry.seat, entry.events || []);
  const at = words.indexOf("{who}");
  const chance = entry.seat === null || entry.seat === undefined || entry.seat < 0;
  if (at < 0) return chance ? [capitalise(words)] : [whoSpan(), " ", h("span", {}, words)];
  const before = words.slice(0, at);
  const after = words.slice(at + "{who}".length);
  return [before ? capitalise(before) : null, whoSpan(), after];
}

function logLine(entry) {
  const chance = entry.seat === null || entry.seat === undefined || entry.seat < 0;
  const who = chance ? t("log_chance") : ctx.names[entry.seat] ?? entry.seat;
  const told = (game && game.toldByAction) || new Set();
  // an event the action's words already tell stays in the list, shown with the notation only
  const byAction = entry.action !== null && entry.action !== undefined;
  const events = (entry.events || []).map((ev) =>
    h(
      "li",
      { class: `log-event ev-${ev.kind}`, "data-told": byAction && told.has(ev.kind) ? "action" : null },
      withNames(capitalise(eventText(ev)), ctx.names),
    ),
  );
  const notation = entry.action ?? "";
  return h(
    "li",
    { class: "log-entry", "data-seq": entry.seq, "data-seat": chance ? "" : entry.seat, title: notation || null },
    h(
      "div",
      { class: "log-head" },
      h("span", { class: "log-seq notation" }, `#${entry.seq}`),
      h("span", { class: "log-words", "data-testid": "log-words" }, sentenceWithWho(entry, who)),
      notation ? h("code", { class: "log-action notation" }, notation) : null,
    ),
    events.length ? h("ul", { class: "log-events" }, events) : null,
  );
}

function renderLog() {
  const entries = [...logEntries].sort((a, b) => b.seq - a.seq);
  fill(dom.log, entries.map(logLine));
}

function addLog(last) {
  // (a forfeit on time that ends the game is an entry of its own at the last action's seq)
  if (!last || logEntries.some((e) => e.seq === last.seq && e.action === last.action)) return;
  logEntries.push(last);
  dom.log.prepend(logLine(last));
}

function renderAllActions() {
  const msg = ctx.current;
  const legal = (msg && msg.legal) || [];
  dom.allCount.textContent = `(${legal.length})`;
  if (!legal.length) {
    fill(dom.allActions, h("p", { class: "muted" }, t("no_actions")));
    return;
  }
  const enabled = isInteractive();
  const best = hintAction(msg);
  fill(
    dom.allActions,
    h(
      "div",
      { class: "action-list" },
      legal.map((action) =>
        h(
          "button",
          {
            class: `chip${action === best ? " hint-best" : ""}`,
            type: "button",
            "data-testid": "action",
            "data-action": action,
            title: action,
            disabled: !enabled,
            onclick: () => send(action),
          },
          capitalise(actionWords(action, ctx.seat, [], "button")),
          h("code", { class: "notation" }, action),
        ),
      ),
    ),
  );
}

function renderRanking() {
  const msg = ctx.current;
  const ranking = msg && msg.ranking;
  const over = msg && msg.status === "finished";
  if (!over || !ranking) {
    dom.rankingBox.hidden = true;
    document.body.classList.remove("game-over");
    return;
  }
  document.body.classList.add("game-over");
  dom.rankingBox.hidden = false;
  const ranks = msg.view && Array.isArray(msg.view.ranking) ? msg.view.ranking : null;
  dom.rankingTitle.textContent =
    msg.view && msg.view.winner !== undefined && msg.view.winner !== null
      ? t("winner", { who: ctx.names[msg.view.winner] ?? msg.view.winner })
      : t("ranking");
  fill(
    dom.ranking,
    ranking.map((seat, i) =>
      h(
        "li",
        { class: `rank rank-${i + 1}`, "data-seat": seat },
        h("span", { class: "rank-no" }, String(ranks ? ranks[seat] : i + 1)),
        h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
        h("span", { class: "rank-name" }, ctx.names[seat] ?? seat),
        h("span", { class: "rank-detail" }, game ? game.rankingDetail(msg.view, seat, ctx) : ""),
      ),
    ),
  );
  dom.replayLink.href = `/t/${encodeURIComponent(tableId)}/replay`;
  dom.playAgain.hidden = ctx.seat === null || ctx.seat === undefined || !ctx.summary;
  if (game && game.renderEnd) game.renderEnd(dom.endStats, msg, ctx);
}

function renderBanner() {
  const summary = ctx.summary;
  const msg = ctx.current;
  const status = (msg && msg.status) || (summary && summary.status);
  if (status === "open") {
    const free = seatsData().filter((s) => s.kind === "human" && !s.claimed).length;
    dom.banner.textContent = t("table_open_banner", { n: free });
    dom.banner.hidden = false;
  } else {
    dom.banner.hidden = true;
  }
}

function renderAll() {
  ctx.names = seatNames(seatsData(), (ctx.current && ctx.current.view && ctx.current.view.players) || seatsData().length);
  renderTurn();
  renderClock();
  renderBanner();
  renderSeats();
  renderReason();
  renderAllActions();
  renderRanking();
  if (game && ctx.current && !ctx.animating) game.render(ctx.current, ctx);
  bus.rendered();
}

let catalogPromise = null; // GET /api/games, fetched once
let gameEntry = null; // this table's game in GET /api/games

/** The table's game as GET /api/games describes it (titles, `browser_module`). */
async function gameEntryFor(name) {
  catalogPromise ??= api("/api/games").catch((err) => {
    catalogPromise = null; // try again on the next hello
    throw err;
  });
  const entry = (await catalogPromise).games.find((g) => g.name === name);
  if (!entry || !entry.browser_module) throw new Error(`the server has no table module for ${name}`);
  return entry;
}

/** The game's name for players in the page's language. */
function gameTitle(name) {
  if (gameEntry && gameEntry.name === name) return (lang() === "fr" && gameEntry.title_fr) || gameEntry.title;
  return has(`game_${name}`) ? t(`game_${name}`) : name;
}

/** Load the game's table module: the `browser_module` GET /api/games names for it. */
async function loadGame(name) {
  if (game && game.name === name) return;
  gameEntry = await gameEntryFor(name);
  const module = await import(gameEntry.browser_module);
  game = module.createGame(dom, ctx);
}

async function processQueue() {
  if (processing) return;
  processing = true;
  try {
    while (queue.length) {
      const msg = queue.shift();
      const prev = ctx.current;
      if (prev && msg.seq < prev.seq && !resync) continue;
      const animate =
        !resync && prev && msg.last && msg.seq === prev.seq + 1 && game && game.animate && speedFactor() > 0;
      resync = false;
      if (msg.last) addLog(msg.last);
      if (animate) {
        ctx.animating = true;
        ctx.animatingMsg = msg;
        ctx.busy = false;
        renderTurn();
        renderClock();
        renderAllActions();
        bus.rendered();
        try {
          await game.animate(prev, msg, ctx);
        } catch (err) {
          console.warn("animation failed", err);
        }
        ctx.animating = false;
        ctx.animatingMsg = null;
      }
      ctx.current = msg;
      ctx.busy = false;
      const resting = restingEvent(msg.last);
      ctx.reason = resting ? { event: resting, seat: msg.last.seat } : null;
      renderAll();
    }
  } finally {
    processing = false;
  }
}

function onMessage(msg) {
  bus.emit(msg); // chat, clocks, rematch (table-bus.js)
  switch (msg.type) {
    case "hello":
      ctx.summary = msg.table;
      liveSeats = msg.table.seats || null;
      ctx.seat = msg.seat ?? null;
      logEntries = Array.isArray(msg.log) ? [...msg.log] : [];
      resync = true;
      queue.length = 0;
      if (msg.seat_token) adoptToken(msg.seat_token); // this connection used the invite
      if (ctx.seat !== null && token) {
        const before = heldSeats().find((e) => e.table === tableId && e.seat === ctx.seat);
        const invite = usedInvite || (before && before.token === token ? before.invite : null);
        const entry = { table: tableId, seat: ctx.seat, token, game: msg.table.game };
        rememberSeat(invite ? { ...entry, invite } : entry);
      }
      loadGame(msg.table.game).then(
        () => {
          renderAll(); // first: the log needs the seats' names
          renderLog();
          processQueue();
        },
        (err) => toast(errorText(err.code || "network", err.message), "error"),
      );
      break;
    case "state":
      msg.receivedAt = performance.now();
      if (msg.seats) liveSeats = msg.seats;
      queue.push(msg);
      if (game) processQueue();
      break;
    case "table":
      ctx.summary = msg.table;
      liveSeats = msg.table.seats || liveSeats;
      if (ctx.current) ctx.current = { ...ctx.current, seats: msg.table.seats };
      renderAll();
      break;
    case "error":
      lastError = msg;
      ctx.busy = false;
      toast(errorText(msg.code, msg.message, msg), "error");
      if (msg.code === "stale") conn.sync();
      renderAll();
      break;
    case "ack":
    case "pong":
    default:
      break;
  }
}

let lastError = null;

function onRefused(code, reason) {
  // the server sent an error message (already shown) and closed for good
  const errCode = reason || (code === 4404 ? "unknown_table" : "bad_token");
  const refused = lastError && lastError.code === errCode ? lastError : null;
  const message = refused ? refused.message : "";
  if (errCode === "bad_token" || errCode === "invite_used") dropToken(); // "watch instead" then watches
  connStatus = ["refused", {}];
  dom.conn.textContent = t("conn_refused");
  dom.conn.dataset.status = "offline";
  dom.turn.textContent = "";
  fill(
    dom.banner,
    errorText(errCode, message, refused),
    " ",
    ["bad_token", "invite_used", "not_your_seat", "not_logged_in"].includes(errCode)
      ? h("a", { href: `/t/${encodeURIComponent(tableId)}` }, t("watch_instead"))
      : null,
    " ",
    h("a", { href: "/" }, t("back_lobby")),
  );
  dom.banner.hidden = false;
}

function initSpeed() {
  const saved = localStorage.getItem(SPEED_KEY) || "normal";
  dom.speed.value = saved in SPEEDS ? saved : "normal";
  dom.speed.addEventListener("change", () => {
    localStorage.setItem(SPEED_KEY, dom.speed.value);
  });
}

function initNotation() {
  const apply = () => document.body.classList.toggle("show-notation", dom.notation.checked);
  dom.notation.checked = localStorage.getItem(NOTATION_KEY) === "on";
  apply();
  dom.notation.addEventListener("change", () => {
    localStorage.setItem(NOTATION_KEY, dom.notation.checked ? "on" : "off");
    apply();
  });
}

let audio = null;

function initSound() {
  dom.sound.checked = localStorage.getItem(SOUND_KEY) === "on";
  dom.sound.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, dom.sound.checked ? "on" : "off");
    if (dom.sound.checked) turnSound(); // a sample; the click also lets the page make sound
  });
}

/** A short two-note beep (WebAudio) when the turn becomes the viewer's, if asked for. */
function turnSound() {
  if (!dom.sound.checked) return;
  try {
    audio ??= new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.12;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.11);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.12);
    });
    document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
  } catch {
    // no sound here: the banner and the title still tell
  }
}

/** Keep the turn banner under the (sticky, wrapping) top bar: its height as a CSS variable. */
function initStickyBanner() {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  const set = () => document.documentElement.style.setProperty("--topbar-h", `${bar.offsetHeight}px`);
  set();
  if (typeof ResizeObserver === "function") new ResizeObserver(set).observe(bar);
}

function init() {
  initI18n();
  initSpeed();
  initNotation();
  initSound();
  initStickyBanner();
  initClock();
  dom.playAgain.addEventListener("click", () => playAgain(ctx, dom));
  onLangChange(() => {
    if (connStatus[0] === "refused") dom.conn.textContent = t("conn_refused");
    else setStatus(...connStatus);
    renderLog();
    renderAll();
    if (game && game.relang) game.relang(ctx);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (game && game.onKey) game.onKey(ev, ctx);
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && conn) conn.reconnectNow();
  });
  renderTurn();
  conn = new TableConnection(tableId, token, { onMessage, onStatus: setStatus, onRefused });
  // no token in this tab: a logged-in player's own seat (the lobby's "Your games" links
  // /t/ID?seat=N; the server checks that the seat is bound to the account)
  const accountSeat = new URLSearchParams(location.search).get("seat");
  if (!token && accountSeat !== null && /^\d{1,2}$/.test(accountSeat)) conn.seat = Number(accountSeat);
  bus.attach((msg) => conn.send(msg), ctx);
  conn.connect();
}

init();
