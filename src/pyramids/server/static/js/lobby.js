// The lobby (/): create a table from GET /api/games (private unless "public" is ticked),
// show the invites, list the public open, running and finished tables (refreshed every
// few seconds), take a free seat, watch, replay; and "Your games": a logged-in player's
// tables (GET /api/me/tables), else the seats this browser holds, "your turn" first.

import { has, initI18n, lang, onLangChange, t } from "./i18n.js";
import {
  api,
  errorText,
  fill,
  forgetSeat,
  h,
  heldSeats,
  relativeTime,
  toast,
} from "./util.js";
import { confirmOn, copyText } from "./clipboard.js";
import { presetRuleLine, withRuleLine } from "./rules-links.js";
import { initLearnBanner } from "./learn-banner.js";
import { getSession, onSessionChange } from "./session.js";
import { formatDuration, formatSeconds, paceText } from "./words-clocks.js";

const REFRESH_MS = 5000;
// The option inputs (a rule link beside an option names it with data-option too).
const OPTION_INPUTS = "input[data-option], select[data-option]";
// Random, then the ladder of levels weakest first (pyramids.bots.ladder.OFFERED); the old
// kind "ismcts" is the normal level and is no longer offered.
const KINDS = ["human", "random", "beginner", "greedy", "normal", "hard"];
const OPTION_LABELS = {
  curse: "opt_curse",
  fire_die: "opt_fire_die",
  max_turns: "opt_max_turns",
  actions: "opt_actions",
  first_player: "opt_first_player",
  callout: "opt_callout",
};

// The clock presets of the form (seconds): real-time bank + increment, turn-based free time
// per move + a reserve.
const CLOCK_PRESETS = {
  rt_5_3: { mode: "realtime", bank: 300, increment: 3, per_move: 0 },
  rt_10_5: { mode: "realtime", bank: 600, increment: 5, per_move: 0 },
  rt_30_10: { mode: "realtime", bank: 1800, increment: 10, per_move: 0 },
  tb_1d: { mode: "turn_based", bank: 3 * 86400, increment: 0, per_move: 86400 },
  tb_3d: { mode: "turn_based", bank: 7 * 86400, increment: 0, per_move: 3 * 86400 },
};

const form = document.getElementById("create-form");
const gameSelect = document.getElementById("f-game");
const playersSelect = document.getElementById("f-players");
const presetSelect = document.getElementById("f-preset");
const seatRows = document.getElementById("seat-rows");
const botLevels = document.getElementById("bot-levels");
const optionsBox = document.getElementById("options-box");
const optionsExtra = document.getElementById("options-extra");
const submit = form.querySelector("[data-testid=create-submit]");

let catalog = null; // GET /api/games
let seatState = []; // [{kind, name}] kept across re-renders
let lists = { open: [], running: [], finished: [] };
let mine = new Map(); // table id -> summary of a table this browser holds a seat at
let joining = null; // {table, seat} whose join form is open
let session = { account: null, csrf: null }; // session.js
let myTables = null; // GET /api/me/tables when logged in, else null

function gameInfo() {
  if (!catalog) return null;
  return catalog.games.find((g) => g.name === gameSelect.value) || catalog.games[0];
}

/** A game's name for players in the page's language (its titles in GET /api/games). */
function gameTitle(name) {
  const game = catalog && catalog.games.find((g) => g.name === name);
  if (game) return (lang() === "fr" && game.title_fr) || game.title;
  return has(`game_${name}`) ? t(`game_${name}`) : name;
}

/** The game select: every game the server offers, keeping the current choice. */
function renderGames() {
  const current = gameSelect.value;
  fill(
    gameSelect,
    catalog.games.map((g) => h("option", { value: g.name }, gameTitle(g.name))),
  );
  if (catalog.games.some((g) => g.name === current)) gameSelect.value = current;
}

function label(obj, base) {
  return (lang() === "fr" ? obj[`${base}_fr`] : obj[`${base}_en`]) || obj[`${base}_en`] || "";
}

function renderPlayers() {
  const game = gameInfo();
  const min = game ? game.min_players : 2;
  const max = game ? game.max_players : 6;
  const current = Number(playersSelect.value) || 3;
  fill(
    playersSelect,
    Array.from({ length: max - min + 1 }, (_, i) => {
      const n = min + i;
      return h("option", { value: n }, String(n));
    }),
  );
  playersSelect.value = String(Math.min(max, Math.max(min, current)));
}

function renderPresets() {
  const game = gameInfo();
  const current = presetSelect.value;
  const presets = game ? game.presets : [];
  fill(
    presetSelect,
    presets.map((p) => h("option", { value: p.name }, label(p, "label") || p.name)),
  );
  const names = presets.map((p) => p.name);
  presetSelect.value = names.includes(current) ? current : game ? game.default_preset : "";
  if (game) presetRuleLine(presetSelect, game.name); // part A: what the presets do, and their rule
}

function kindLabel(kind) {
  return t(`kind_${kind}`);
}

function botDescription(kind) {
  if (!catalog || kind === "human") return "";
  const bot = catalog.bots.find((b) => b.name === kind);
  return bot ? label(bot, "description") : "";
}

function renderSeats() {
  const n = Number(playersSelect.value) || 2;
  while (seatState.length < n) {
    seatState.push({ kind: seatState.length === 0 ? "human" : "greedy", name: "" });
  }
  const rows = [];
  for (let i = 0; i < n; i++) {
    const state = seatState[i];
    const kind = h(
      "select",
      {
        "data-testid": `seat-kind-${i}`,
        name: `seat-kind-${i}`,
        "aria-label": t("seat_label", { n: i + 1 }),
        title: botDescription(state.kind),
        onchange: (ev) => {
          state.kind = ev.target.value;
          renderSeats();
        },
      },
      KINDS.map((k) => h("option", { value: k, selected: k === state.kind }, kindLabel(k))),
    );
    const name = h("input", {
      "data-testid": `seat-name-${i}`,
      name: `seat-name-${i}`,
      type: "text",
      maxlength: 40,
      autocomplete: "off",
      value: state.name,
      placeholder: state.kind === "human" ? t("name_placeholder", { n: i + 1 }) : state.kind,
      "aria-label": `${t("field_name")} (${t("seat_label", { n: i + 1 })})`,
      oninput: (ev) => {
        state.name = ev.target.value;
      },
    });
    rows.push(
      h(
        "div",
        { class: "seat-row" },
        h(
          "span",
          { class: "seat-no" },
          h("span", { class: `seat-dot seat-c${i}`, "aria-hidden": "true" }),
          t("seat_label", { n: i + 1 }),
        ),
        kind,
        name,
      ),
    );
  }
  fill(seatRows, rows);
  renderBotLevels();
}

/** Every bot a seat may have, weakest first, with what it is and its measured strength. */
function renderBotLevels() {
  if (!catalog) return;
  fill(
    botLevels,
    catalog.bots.map((b) =>
      h("li", { "data-testid": `bot-level-${b.name}` }, h("strong", {}, kindLabel(b.name)), " — ", label(b, "description")),
    ),
  );
}

/** Option keys the preset select already sets (not shown as separate fields). */
function presetKeys(game) {
  const keys = new Set(["preset"]);
  for (const p of game.presets) for (const k of Object.keys(p.options)) keys.add(k);
  return keys;
}

function optionInput(field) {
  const text = OPTION_LABELS[field.name] ? t(OPTION_LABELS[field.name]) : field.name;
  const name = `opt-${field.name}`;
  if (field.type === "bool" && field.nullable) {
    return h(
      "label",
      { class: "num", title: optionHelp(field) },
      h("span", {}, text),
      h(
        "select",
        { name, "data-option": field.name, "data-type": "nullable-bool" },
        h("option", { value: "" }, t("opt_default")),
        h("option", { value: "true" }, t("opt_on")),
        h("option", { value: "false" }, t("opt_off")),
      ),
    );
  }
  if (field.type === "bool") {
    return h(
      "label",
      { class: "check", title: optionHelp(field) },
      h("input", {
        type: "checkbox",
        name,
        "data-option": field.name,
        "data-type": "bool",
        checked: Boolean(field.default),
      }),
      h("span", {}, text),
    );
  }
  if (field.name === "first_player") {
    const n = Number(playersSelect.value) || 2;
    return h(
      "label",
      { class: "num", title: optionHelp(field) },
      h("span", {}, text),
      h(
        "select",
        { name, "data-option": field.name, "data-type": "int" },
        Array.from({ length: n }, (_, i) =>
          h("option", { value: i, selected: i === field.default }, t("seat_label", { n: i + 1 })),
        ),
      ),
    );
  }
  if (field.type === "int") {
    return h(
      "label",
      { class: "num", title: optionHelp(field) },
      h("span", {}, text),
      h("input", {
        type: "number",
        name,
        "data-option": field.name,
        "data-type": "int",
        min: field.minimum ?? undefined,
        step: 1,
        value: field.default ?? "",
        inputmode: "numeric",
      }),
    );
  }
  if (field.choices) {
    return choiceInput(field, text, name);
  }
  return h(
    "label",
    { class: "num", title: optionHelp(field) },
    h("span", {}, text),
    h("input", { type: "text", name, "data-option": field.name, "data-type": "str", value: field.default ?? "" }),
  );
}

/** An option's one-line help in the page's language (the catalogue's, from the descriptor). */
function optionHelp(field) {
  return (lang() === "fr" && field.help_fr) || field.help || "";
}

/**
 * A choice option: a select whose values are named in the page's language
 * (`opt_<name>_<choice>` of i18n.js, else the value), and under it its explanation: the
 * page's own lines when it has them (`<name>_help`, then one `<name>_help_<choice>` per
 * choice that has one: call-out's family and competitive variants), else the option's help.
 */
function choiceInput(field, text, name) {
  const choiceLabel = (c) => (has(`opt_${field.name}_${c}`) ? t(`opt_${field.name}_${c}`) : c);
  const select = h(
    "select",
    { name, "data-option": field.name, "data-type": "str", "data-testid": `option-${field.name}` },
    field.choices.map((c) => h("option", { value: c, selected: c === field.default }, choiceLabel(c))),
  );
  const lines = [];
  if (has(`${field.name}_help`)) lines.push([field.name, t(`${field.name}_help`)]);
  for (const c of field.choices) {
    if (has(`${field.name}_help_${c}`)) lines.push([`${field.name}-${c}`, t(`${field.name}_help_${c}`)]);
  }
  if (!lines.length && optionHelp(field)) lines.push([field.name, optionHelp(field)]);
  return h(
    "div",
    { class: "choice-option" },
    h("label", { class: "num", title: optionHelp(field) }, h("span", {}, text), select),
    lines.map(([key, line]) => h("p", { class: "option-help muted", "data-testid": `option-help-${key}` }, line)),
  );
}

/** Whether the game's hints are on by default for the options chosen: yes, except in a
 * call-out game (the server's rule when a table does not say, docs/PROTOCOL.md). */
function defaultHints() {
  const callout = form.querySelector("[data-option=callout]");
  return !callout || callout.value === "off";
}

let hintsTouched = false; // the creator set the hints box: the options no longer change it

function hintsInput(game) {
  if (!game.hints) return null;
  const box = h("input", {
    type: "checkbox",
    name: "hints",
    "data-testid": "create-hints",
    checked: defaultHints(),
    onchange: () => {
      hintsTouched = true;
    },
  });
  return h("label", { class: "check", title: t("hints_hint") }, box, h("span", {}, t("field_hints")));
}

/** Keep the hints box at its default while the creator has not set it. */
function followHintsDefault() {
  const box = form.elements.namedItem("hints");
  if (box && !hintsTouched) box.checked = defaultHints();
}

/** Whether bot hints (the search's best moves at a player's turn, issue 30) are on by
 * default for the table the form describes: yes, except at a rated table and in a call-out
 * game (the server's rule when a table does not say, docs/PROTOCOL.md). */
function defaultBotHints() {
  return defaultHints() && !isRated();
}

let botHintsTouched = false; // the creator set the bot hints box: the form no longer changes it

/** Keep the bot hints box at its default while the creator has not set it. */
function followBotHintsDefault() {
  const box = form.elements.namedItem("bot_hints");
  if (box && !botHintsTouched) box.checked = defaultBotHints();
}

let optionsGame = null;

function renderOptions() {
  const game = gameInfo();
  if (!game) return;
  // keep what was chosen when only the language or the number of players changed
  const before = new Map();
  const hintsBox = form.elements.namedItem("hints");
  const hintsBefore = hintsBox ? hintsBox.checked : null;
  if (optionsGame === game.name) {
    for (const el of form.querySelectorAll(OPTION_INPUTS)) {
      before.set(el.dataset.option, el.type === "checkbox" ? el.checked : el.value);
    }
  } else {
    hintsTouched = false;
  }
  optionsGame = game.name;
  const skip = presetKeys(game);
  const fields = game.options.filter((f) => !skip.has(f.name));
  // on/off options and choices (call-out) up front; numbers under "More settings"
  const main = fields.filter((f) => f.type === "bool" || f.choices);
  const extra = fields.filter((f) => !(f.type === "bool" || f.choices));
  // each option with its one-line explanation and a link to its rule (rules-links.js)
  const withRule = (f) => withRuleLine(game.name, f, optionInput(f));
  fill(optionsBox, main.length ? main.map(withRule) : h("span", { class: "muted" }, t("none")));
  fill(optionsExtra, extra.map(withRule));
  for (const el of form.querySelectorAll(OPTION_INPUTS)) {
    if (!before.has(el.dataset.option)) continue;
    const value = before.get(el.dataset.option);
    if (el.type === "checkbox") el.checked = value;
    else if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === value)) el.value = value;
  }
  const hints = hintsInput(game);
  if (hints) {
    optionsBox.append(withRuleLine(game.name, { name: "hints" }, hints));
    const box = form.elements.namedItem("hints");
    if (hintsTouched && hintsBefore !== null) box.checked = hintsBefore;
  }
  const callout = form.querySelector("[data-option=callout]");
  if (callout) callout.addEventListener("change", followHintsDefault);
  if (callout) callout.addEventListener("change", followBotHintsDefault);
  followBotHintsDefault();
  optionsBox.closest("fieldset").hidden = main.length === 0 && !hints;
}

function renderForm() {
  renderPlayers();
  renderPresets();
  renderSeats();
  renderOptions();
}

function readOptions() {
  const game = gameInfo();
  const preset = game.presets.find((p) => p.name === presetSelect.value);
  const options = { ...(preset ? preset.options : {}) };
  for (const el of form.querySelectorAll(OPTION_INPUTS)) {
    const key = el.dataset.option;
    const type = el.dataset.type;
    const field = game.options.find((f) => f.name === key);
    if (type === "bool") {
      if (el.checked !== Boolean(field && field.default)) options[key] = el.checked;
    } else if (type === "nullable-bool") {
      if (el.value !== "") options[key] = el.value === "true";
    } else if (type === "int") {
      if (el.value !== "" && Number(el.value) !== field.default) options[key] = Math.trunc(Number(el.value));
    } else if (el.value !== "" && el.value !== field.default) {
      options[key] = el.value;
    }
  }
  return options;
}

/** The clock the form asks for (POST /api/tables `clock`), or undefined for none. */
function readClock() {
  const choice = form.elements.namedItem("clock").value;
  if (!choice) return undefined;
  const onExpiry = form.elements.namedItem("on_expiry").value;
  if (choice !== "custom") return { ...CLOCK_PRESETS[choice], on_expiry: onExpiry };
  return {
    mode: form.elements.namedItem("clock_mode").value,
    bank: (numberField("clock_bank") || 0) * 60,
    increment: numberField("clock_increment") || 0,
    per_move: (numberField("clock_per_move") || 0) * 3600,
    on_expiry: onExpiry,
  };
}

function renderClockFields() {
  const choice = form.elements.namedItem("clock").value;
  document.getElementById("clock-custom").hidden = choice !== "custom";
  document.getElementById("on-expiry-field").hidden = !choice;
}

function renderRated() {
  const field = document.getElementById("rated-field");
  field.hidden = !session.account;
  if (!session.account) form.elements.namedItem("rated").checked = false;
  followBotHintsDefault();
  renderPace();
}

/** Whether the form asks for a rated table. */
function isRated() {
  return Boolean(session.account && form.elements.namedItem("rated").checked);
}

/** The deadline per move the form's table gets (issue 29): the "Time per decision" field,
 * else the server's default for a rated or an unrated table (GET /api/games `pace`). */
function formTurnTime() {
  const pace = catalog && catalog.pace;
  const asked = numberField("turn_time");
  if (asked) return asked;
  if (!pace) return 0;
  return isRated() ? pace.rated_turn_time : pace.turn_time;
}

/** The note under the clock: how long each move has without a clock, and what follows;
 * the default shown in the "Time per decision" field. */
function renderPace() {
  const note = document.getElementById("pace-note");
  const pace = catalog && catalog.pace;
  const input = form.elements.namedItem("turn_time");
  if (pace && input) {
    const fallback = isRated() ? pace.rated_turn_time : pace.turn_time;
    input.placeholder = t("turn_time_placeholder", { s: fallback });
  }
  const seconds = formTurnTime();
  note.hidden = Boolean(form.elements.namedItem("clock").value) || seconds <= 0;
  if (note.hidden) return;
  const time = formatDuration(seconds, t);
  note.textContent = isRated()
    ? t("pace_note_rated", { t: time, n: pace ? pace.forfeit_after : 3 })
    : t("pace_note", { t: time });
}

/** A rated table's time per move outside the server's bounds (the server refuses it too,
 * `bad_turn_time`): the words to show, or "" when it is fine. */
function turnTimeRefusal() {
  const pace = catalog && catalog.pace;
  const asked = numberField("turn_time");
  if (!pace || !asked || !isRated() || form.elements.namedItem("clock").value) return "";
  if (asked >= pace.rated_turn_time_min && asked <= pace.rated_turn_time_max) return "";
  return t("turn_time_bounds", {
    min: formatDuration(pace.rated_turn_time_min, t),
    max: formatDuration(pace.rated_turn_time_max, t),
  });
}

function numberField(name) {
  const el = form.elements.namedItem(name);
  if (!el || el.value === "") return undefined;
  const value = Number(el.value);
  return Number.isFinite(value) ? value : undefined;
}

async function create(ev) {
  ev.preventDefault();
  if (!catalog) return;
  const refusal = turnTimeRefusal();
  if (refusal) {
    toast(refusal, "error");
    return;
  }
  const n = Number(playersSelect.value);
  const seats = seatState.slice(0, n).map((st, i) => {
    // An unnamed human is named as the field's placeholder says, in the page's language
    // (the server's default, "Seat 1", is English).
    const name = st.name.trim() || (st.kind === "human" ? t("name_placeholder", { n: i + 1 }) : undefined);
    return st.kind === "human" ? { kind: "human", name } : { kind: "bot", bot: st.kind, name };
  });
  const body = {
    game: gameSelect.value,
    seats,
    options: readOptions(),
    bot_delay: numberField("bot_delay"),
    absent_after: numberField("absent_after"),
    turn_time: numberField("turn_time"),
    takeover_bot: form.elements.namedItem("takeover_bot").value,
    public: form.elements.namedItem("public").checked,
  };
  const hints = form.elements.namedItem("hints");
  if (hints && gameInfo().hints) body.hints = hints.checked;
  body.bot_hints = form.elements.namedItem("bot_hints").checked;
  const clock = readClock();
  if (clock) body.clock = clock;
  if (session.account && form.elements.namedItem("rated").checked) body.rated = true;
  const seed = numberField("seed");
  if (seed !== undefined) body.seed = Math.trunc(seed);
  submit.disabled = true;
  submit.textContent = t("creating");
  try {
    const result = await api("/api/tables", { method: "POST", body });
    showCreated(result);
    refresh();
  } catch (err) {
    toast(errorText(err.code, err.message, err), "error");
  } finally {
    submit.disabled = false;
    submit.textContent = t("create");
  }
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

/** Copy an invite link (clipboard, else the old way); when both fail, select it for the hand. */
async function copy(text, button, link) {
  if (await copyText(text)) {
    confirmOn(button, t("copied"), () => t("copy"));
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(link);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  toast(t("copy_failed"));
}

function showCreated(result) {
  const panel = document.getElementById("created");
  const box = document.getElementById("invites");
  const invites = result.invites || [];
  // The creator plays the first human seat (the form lists the creator's own seat first).
  const creator = invites.length ? [...invites].sort((x, y) => x.seat - y.seat)[0] : null;
  fill(
    box,
    invites.map((inv) => {
      const url = absolute(inv.url);
      const link = h("a", { href: url, "data-testid": "invite-link", "data-seat": inv.seat }, url);
      const button = h(
        "button",
        {
          type: "button",
          class: "chip",
          "data-testid": "copy-invite",
          "data-seat": inv.seat,
          "aria-label": t("copy_link_label", { name: inv.name }),
        },
        t("copy"),
      );
      button.addEventListener("click", () => copy(url, button, link));
      const yours = creator && inv.seat === creator.seat;
      return h(
        "div",
        { class: "invite" },
        h(
          "strong",
          {},
          h("span", { class: `seat-dot seat-c${inv.seat}`, "aria-hidden": "true" }),
          " ",
          t("invite_for", { name: inv.name, n: inv.seat + 1 }),
          yours ? h("span", { class: "badge invite-yours" }, t("invite_yours")) : null,
        ),
        h("div", { class: "invite-url" }, link, button),
      );
    }),
  );
  document.getElementById("created-watch").href = `/t/${encodeURIComponent(result.table.id)}`;
  const playNow = document.getElementById("created-play");
  playNow.hidden = !creator;
  if (creator) {
    playNow.href = creator.url;
    playNow.title = t("play_now_hint", { name: creator.name });
  }
  panel.hidden = false;
  panel.scrollIntoView({ behavior: "smooth", block: "start" });
}

function seatPill(seat) {
  const free = seat.kind === "human" && !seat.claimed;
  const text = seat.kind === "bot" ? `${seat.name} · ${t("bot")}` : free ? `${seat.name} · ${t("free_seat")}` : seat.name;
  return h("span", { class: `seat-pill${free ? " free" : ""}` }, text);
}

function tableRow(table) {
  const id = encodeURIComponent(table.id);
  const actions = [];
  if (table.status === "open") {
    for (const seat of table.seats) {
      if (seat.kind === "human" && !seat.claimed) {
        actions.push(
          h(
            "button",
            {
              type: "button",
              class: "btn small",
              "data-testid": "join",
              "data-seat": seat.seat,
              onclick: () => {
                joining = { table: table.id, seat: seat.seat };
                renderLists();
              },
            },
            t("join_seat", { n: seat.seat + 1 }),
          ),
        );
      }
    }
  }
  if (table.status !== "finished") {
    actions.push(h("a", { class: "btn ghost small", href: `/t/${id}`, "data-testid": "watch" }, t("watch")));
  } else {
    actions.push(h("a", { class: "btn small", href: `/t/${id}/replay`, "data-testid": "replay" }, t("replay")));
    actions.push(h("a", { class: "btn ghost small", href: `/t/${id}`, "data-testid": "watch" }, t("watch")));
  }
  const meta = [t(`status_${table.status}`), t("seq_n", { n: table.seq }), relativeTime(table.finished || table.created)];
  if (table.status !== "finished") meta.push(paceText(table.settings, t)); // the deadline per move
  if (table.status === "finished" && Array.isArray(table.ranking) && table.ranking.length) {
    const winner = table.seats[table.ranking[0]];
    if (winner) meta.push(t("won_by", { who: winner.name }));
  }
  const row = h(
    "li",
    { class: "table-row", "data-testid": "table-row", "data-table": table.id },
    h(
      "div",
      { class: "table-main" },
      h(
        "div",
        { class: "table-game" },
        gameTitle(table.game),
        h("span", { class: "muted" }, ` · ${table.id}`),
        table.seeded
          ? h("span", { class: "badge seeded", "data-testid": "seeded", title: t("seeded_hint") }, t("seeded"))
          : null,
      ),
      h("div", { class: "table-meta" }, meta.filter(Boolean).join(" · ")),
      h("div", { class: "table-seats" }, table.seats.map(seatPill)),
    ),
    h("div", { class: "table-actions" }, actions),
  );
  if (joining && joining.table === table.id) row.append(joinForm(table, joining.seat));
  return row;
}

function joinForm(table, seat) {
  const input = h("input", {
    type: "text",
    maxlength: 40,
    placeholder: t("join_name"),
    "aria-label": t("join_name"),
    "data-testid": "join-name",
  });
  const formEl = h(
    "form",
    { class: "join-form" },
    input,
    h("button", { class: "btn small", type: "submit", "data-testid": "join-submit" }, t("join_go")),
    h(
      "button",
      {
        class: "btn ghost small",
        type: "button",
        onclick: () => {
          joining = null;
          renderLists();
        },
      },
      t("f_cancel"),
    ),
  );
  formEl.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const name = input.value.trim();
      const result = await api(`/api/tables/${encodeURIComponent(table.id)}/seats/${seat}/claim`, {
        method: "POST",
        body: name ? { name } : {},
      });
      location.href = result.url;
    } catch (err) {
      toast(errorText(err.code, err.message, err), "error");
      joining = null;
      refresh();
    }
  });
  setTimeout(() => input.focus(), 0);
  return formEl;
}

const SHORT_LIST = 8;
const showAll = { open: false, running: false, finished: false };

function renderList(status) {
  const el = document.getElementById(`tables-${status}`);
  const tables = lists[status] || [];
  // keep an open join form (and what is typed in it) across refreshes
  if (joining && el.querySelector(".join-form input") === document.activeElement) return;
  if (!tables.length) {
    fill(el, h("li", { class: "muted" }, t("tables_none")));
    return;
  }
  const shown = showAll[status] ? tables : tables.slice(0, SHORT_LIST);
  const more =
    shown.length < tables.length
      ? h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "chip",
              onclick: () => {
                showAll[status] = true;
                renderList(status);
              },
            },
            t("show_all", { n: tables.length }),
          ),
        )
      : null;
  fill(el, shown.map(tableRow), more);
}

function renderLists() {
  for (const status of ["open", "running", "finished"]) renderList(status);
  renderMine();
}

/** The token this browser holds for a seat, if any. */
function heldToken(tableId, seat) {
  const entry = heldSeats().find((e) => e.table === tableId && e.seat === seat);
  return entry ? entry.token : null;
}

/** "Your games": [{table, seat, yourTurn, deadline, token, held}] of a logged-in player's
 * tables, else of the seats held on this device; your turn first, then the soonest deadline,
 * then the newest. */
function yourGames() {
  if (myTables) {
    return myTables.map((e) => ({
      table: e.table,
      seat: e.seat,
      yourTurn: e.your_turn,
      deadline: e.deadline,
      token: heldToken(e.table.id, e.seat),
      held: null,
    }));
  }
  const known = new Map(mine);
  for (const status of ["open", "running", "finished"]) {
    for (const table of lists[status] || []) known.set(table.id, table);
  }
  const games = heldSeats()
    .filter((e) => known.has(e.table) && ["open", "running"].includes(known.get(e.table).status))
    .map((e) => {
      const table = known.get(e.table);
      const yourTurn =
        table.status === "running" && table.to_move === e.seat && !(table.forfeits || []).includes(e.seat);
      const clock = yourTurn && (table.clocks || []).find((c) => c.seat === e.seat && c.running);
      return { table, seat: e.seat, yourTurn, deadline: clock ? clock.deadline : null, token: e.token, held: e };
    });
  games.sort(
    (a, b) =>
      Number(b.yourTurn) - Number(a.yourTurn) ||
      (a.deadline || "~").localeCompare(b.deadline || "~") ||
      (b.table.created || "").localeCompare(a.table.created || ""),
  );
  return games;
}

function yourGameRow(game) {
  const { table, seat } = game;
  const seatInfo = table.seats[seat];
  const meta = [seatInfo ? seatInfo.name : "", t(`status_${table.status}`)];
  if (table.status === "open") meta.push(t("your_games_waiting"));
  if (game.deadline) {
    const left = (Date.parse(game.deadline) - Date.now()) / 1000;
    meta.push(t("your_games_deadline", { t: formatSeconds(left, t) }));
  }
  const id = encodeURIComponent(table.id);
  // a seat bound to the account opens without its token, on any device (?seat=N)
  const ownSeat = Boolean(myTables) && seat !== null && seat !== undefined;
  const href = game.token
    ? `/t/${id}?token=${encodeURIComponent(game.token)}`
    : ownSeat
      ? `/t/${id}?seat=${encodeURIComponent(seat)}`
      : `/t/${id}`;
  const actions = [
    h(
      "a",
      { class: "btn small", href, "data-testid": "your-game-open" },
      game.token || ownSeat ? t("resume") : t("your_games_watch"),
    ),
  ];
  if (game.held) {
    actions.push(
      h(
        "button",
        {
          class: "btn ghost small",
          type: "button",
          onclick: () => {
            forgetSeat(table.id, seat);
            renderMine();
          },
        },
        t("forget"),
      ),
    );
  }
  return h(
    "li",
    {
      class: `table-row${game.yourTurn ? " your-turn" : ""}`,
      "data-testid": "your-game",
      "data-table": table.id,
      "data-your-turn": game.yourTurn ? "true" : "false",
    },
    h(
      "div",
      { class: "table-main" },
      h(
        "div",
        { class: "table-game" },
        gameTitle(table.game),
        h("span", { class: "muted" }, ` · ${table.id}`),
        game.yourTurn ? h("span", { class: "badge your-turn-badge", "data-testid": "your-turn" }, t("your_turn_badge")) : null,
      ),
      h("div", { class: "table-meta" }, meta.filter(Boolean).join(" · ")),
    ),
    h("div", { class: "table-actions" }, actions),
  );
}

function renderMine() {
  const panel = document.getElementById("mine-panel");
  const ul = document.getElementById("mine");
  const rows = yourGames().map(yourGameRow);
  document.getElementById("mine-hint").textContent = myTables ? t("your_games_account_hint") : t("your_games_login_hint");
  panel.hidden = rows.length === 0;
  fill(ul, rows);
}

const MAX_HELD = 20;

/** The summaries of the tables this browser holds seats at that the lists lack (the
 * lobby lists only public tables; a private one is asked for by its id). */
async function heldTables() {
  const listed = new Set(Object.values(lists).flatMap((tables) => tables.map((table) => table.id)));
  const held = heldSeats().map((e) => e.table).filter((id) => !listed.has(id));
  const ids = [...new Set(held)].slice(0, MAX_HELD);
  const found = await Promise.all(
    ids.map((id) => api(`/api/tables/${encodeURIComponent(id)}`).catch(() => null)),
  );
  return new Map(found.filter(Boolean).map((table) => [table.id, table]));
}

let refreshing = false;

async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    const results = await Promise.all(
      ["open", "running", "finished"].map((status) =>
        api(`/api/tables?status=${status}&limit=50`).then((r) => [status, r.tables || []]),
      ),
    );
    lists = Object.fromEntries(results);
    mine = await heldTables();
    myTables = session.account
      ? await api("/api/me/tables").then(
          (r) => r.tables || [],
          () => null,
        )
      : null;
    renderLists();
  } catch (err) {
    // the lists stay as they were; the next refresh tries again
    if (err.code !== "network") console.warn("refresh failed", err);
  } finally {
    refreshing = false;
  }
}

async function init() {
  initI18n();
  initLearnBanner(document.getElementById("learn-banner")); // part B: the tutorial's offer
  form.addEventListener("submit", create);
  form.elements.namedItem("clock").addEventListener("change", renderClockFields);
  form.elements.namedItem("clock").addEventListener("change", renderPace);
  form.elements.namedItem("rated").addEventListener("change", renderPace);
  form.elements.namedItem("rated").addEventListener("change", followBotHintsDefault);
  form.elements.namedItem("bot_hints").addEventListener("change", () => {
    botHintsTouched = true;
  });
  form.elements.namedItem("turn_time").addEventListener("input", renderPace);
  renderClockFields();
  getSession()
    .then((s) => {
      session = s;
      renderRated();
      refresh();
    })
    .catch(() => {});
  onSessionChange((s) => {
    session = s;
    renderRated();
    refresh();
  });
  gameSelect.addEventListener("change", renderForm);
  playersSelect.addEventListener("change", () => {
    renderSeats();
    renderOptions();
  });
  document.getElementById("refresh").addEventListener("click", refresh);
  onLangChange(() => {
    if (catalog) renderGames();
    renderForm();
    renderLists();
    renderPace();
  });
  try {
    catalog = await api("/api/games");
  } catch (err) {
    toast(errorText(err.code, err.message, err), "error");
    return;
  }
  renderGames();
  renderPace();
  playersSelect.value = "3";
  renderForm();
  playersSelect.value = "3";
  renderSeats();
  refresh();
  setInterval(() => {
    if (!document.hidden) refresh();
  }, REFRESH_MS);
}

init();
