// The table page (/t/{id}, an invite: /t/{id}?token=…): connection, state queue, and everything every game
// shares: whose turn, seq, seats, log, the current event's reason, the final ranking and
// the generic "all legal actions" list. The drawing and the game's own controls come
// from the game's table module, the `browser_module` GET /api/games names for the game.

import { TableConnection } from "./connection.js";
import { eventText, has, initI18n, lang, onLangChange, t } from "./i18n.js";
import {
  api,
  capitalise,
  errorText,
  fill,
  h,
  prefersReducedMotion,
  rememberSeat,
  seatNames,
  tableIdFromPath,
  toast,
  withNames,
} from "./util.js";

const SPEED_KEY = "pyramids.speed";
const SPEEDS = { normal: 1, fast: 0.4, off: 0 };

const tableId = tableIdFromPath();
const TOKEN_KEY = `pyramids.token.${tableId}`;
const token = takeToken();

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
  try {
    sessionStorage.setItem(TOKEN_KEY, fromLink);
  } catch {
    // not kept: a reload shows the table as a spectator; the invite link still works
  }
  params.delete("token");
  const rest = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  return fromLink;
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
  speed: document.getElementById("speed"),
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

// --- the countdown of a decision (turn_time > 0) ---------------------------------------
//
// The server gives a human `turn_time` seconds per decision, counted from the state that
// asks for it (or from the end of a takeover). The protocol carries no deadline, so the
// page counts from when it received that state: close enough to warn a slow player.

const clock = { key: "", start: 0, paused: false, timer: null, el: null };

function clockLimit() {
  const settings = ctx.summary && ctx.summary.settings;
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
    await api(`/api/tables/${encodeURIComponent(tableId)}/actions`, {
      method: "POST",
      body: { token, seq: msg.seq, action },
    });
  } catch (err) {
    ctx.busy = false;
    toast(errorText(err.code, err.message), "error");
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
    dom.reason.textContent = msg && msg.seq === 0 ? t("event_none") : "";
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

function renderTurn() {
  const msg = ctx.current;
  const summary = ctx.summary;
  let text = "";
  let mine = false;
  if (!msg) {
    text = t("loading");
  } else if (msg.status === "finished" || msg.to_move === null || msg.to_move === undefined) {
    text = t("turn_over");
  } else if (msg.status === "open") {
    text = t("turn_waiting_players");
  } else {
    const special = game && game.turnText ? game.turnText(msg, ctx) : null;
    if (special) {
      text = special.text;
      mine = special.mine;
    } else if (msg.to_move < 0) {
      text = t("turn_chance"); // the server draws a chance outcome (-1)
    } else if (msg.to_move === ctx.seat) {
      text = t("turn_you");
      mine = true;
    } else {
      text = t("turn_of", { who: ctx.names[msg.to_move] ?? msg.to_move });
    }
  }
  dom.turn.textContent = text;
  dom.turn.classList.toggle("mine", mine);
  document.body.classList.toggle("my-turn", mine);
  dom.seq.textContent = msg ? String(msg.seq) : "";
  const turnNo = msg && msg.view && msg.view.turn;
  dom.turnNo.textContent = turnNo ? t("turn_n", { n: turnNo }) : "";
  if (summary) {
    const gameName = gameTitle(summary.game);
    dom.title.textContent = `${gameName} · ${summary.id}`;
    document.title = `${gameName} · ${t("app_name")}`;
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

function logLine(entry) {
  const who = entry.seat === null || entry.seat === undefined || entry.seat < 0 ? t("log_chance") : ctx.names[entry.seat] ?? entry.seat;
  const events = (entry.events || []).map((ev) =>
    h("li", { class: `log-event ev-${ev.kind}` }, withNames(capitalise(eventText(ev)), ctx.names)),
  );
  return h(
    "li",
    { class: "log-entry", "data-seq": entry.seq },
    h(
      "div",
      { class: "log-head" },
      h("span", { class: "log-seq" }, `#${entry.seq}`),
      h("span", { class: "log-who" }, who),
      h("code", { class: "log-action" }, entry.action ?? t("log_setup")),
    ),
    events.length ? h("ul", { class: "log-events" }, events) : null,
  );
}

function renderLog() {
  const entries = [...logEntries].sort((a, b) => b.seq - a.seq);
  fill(dom.log, entries.map(logLine));
}

function addLog(last) {
  if (!last || logEntries.some((e) => e.seq === last.seq)) return;
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
  fill(
    dom.allActions,
    h(
      "div",
      { class: "action-list" },
      legal.map((action) =>
        h(
          "button",
          {
            class: "chip",
            type: "button",
            "data-testid": "action",
            "data-action": action,
            disabled: !enabled,
            onclick: () => send(action),
          },
          action,
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
        ctx.busy = false;
        renderAllActions();
        try {
          await game.animate(prev, msg, ctx);
        } catch (err) {
          console.warn("animation failed", err);
        }
        ctx.animating = false;
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
  switch (msg.type) {
    case "hello":
      ctx.summary = msg.table;
      liveSeats = msg.table.seats || null;
      ctx.seat = msg.seat ?? null;
      logEntries = Array.isArray(msg.log) ? [...msg.log] : [];
      resync = true;
      queue.length = 0;
      if (ctx.seat !== null && token) {
        rememberSeat({ table: tableId, seat: ctx.seat, token, game: msg.table.game });
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
      toast(errorText(msg.code, msg.message), "error");
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
  const message = lastError && lastError.code === errCode ? lastError.message : "";
  if (errCode === "bad_token") dropToken(); // "watch instead" then watches
  connStatus = ["refused", {}];
  dom.conn.textContent = t("conn_refused");
  dom.conn.dataset.status = "offline";
  dom.turn.textContent = "";
  fill(
    dom.banner,
    errorText(errCode, message),
    " ",
    errCode === "bad_token" ? h("a", { href: `/t/${encodeURIComponent(tableId)}` }, t("watch_instead")) : null,
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

function init() {
  initI18n();
  initSpeed();
  initClock();
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
  conn.connect();
}

init();
