// The Pyramids and Flags table: towers, bank, your cards, every seat's cards and
// pieces, and the legal actions as buttons grouped by kind, in words first ("Take the
// medium orange pyramid from the bank"), the notation in tooltips and under the page's
// notation toggle. Moves can also be made by clicking a piece and then its destination.
// The view JSON is FlagsView.to_json (PF-VIEW); hidden cards appear as "?".
// Goal cards are drawn as in the box (PF-CARD): country, capital, flag picture, the four
// facts with their values and the size each rates, group badges; the data, with French
// names and the rating thresholds, is static/data/flags-cards.json (built from the
// engine's deck by scripts/build_flags_deck.py; the page rates nothing itself).
// A bot hint's best move (table-hint.js, `ctx.hintAction`) is outlined: the piece moved and
// the piece it lands on, the bank or scoring piece taken, the card exchanged, its button.

import { eventText, formatNumber, lang, setEventWords, t } from "./i18n.js";
import { fill, h, replaySeatHead, s, sleep } from "./util.js";

export const PIECE_COLOURS = {
  K: { fill: "#2b2b2b", ink: "#ffffff" },
  W: { fill: "#f7f6f0", ink: "#2d2a26" },
  Y: { fill: "#e9c25b", ink: "#3b2f12" },
  B: { fill: "#3a6aae", ink: "#ffffff" },
  G: { fill: "#3f8a58", ink: "#ffffff" },
  R: { fill: "#c9483e", ink: "#ffffff" },
  O: { fill: "#ee8a2a", ink: "#2d2a26" },
  P: { fill: "#8a55b8", ink: "#ffffff" },
  C: { fill: "#38b2c4", ink: "#16363b" },
  X: { fill: "#e4e8ea", ink: "#2d2a26" },
};

const SIZES = { 1: [30, 18], 2: [40, 21], 3: [50, 24] };

const FACTS = ["O", "P", "C", "X"];
/** The scoring colour of each fact (PF-CARD-3): orange highest point, purple population,
 * cyan average temperature, clear GDP per capita. */

let cardsPromise = null;
let cardsByCode = new Map(); // once loaded: for the event words, which have no ctx
let thresholds = null; // {O: [low, high], ...} from the engine's rating table

/** The goal cards by code (static copy of the package data), loaded once. */
export function loadCards() {
  if (!cardsPromise) {
    cardsPromise = fetch("/static/data/flags-cards.json")
      .then((r) => r.json())
      .then((data) => {
        cardsByCode = new Map(data.cards.map((c) => [c.code, c]));
        thresholds = data.thresholds || null;
        return cardsByCode;
      })
      .catch(() => new Map());
  }
  return cardsPromise;
}

/** A card's country in the page's language. */
export function countryName(card) {
  return (lang() === "fr" && card.country_fr) || card.country;
}

function capitalName(card) {
  return (lang() === "fr" && card.capital_fr) || card.capital;
}

/** A card code's country name, or the code when the card is unknown or hidden ("?"). */
function countryOf(code, cards = cardsByCode) {
  if (code === "?") return t("f_hidden_card");
  const card = cards.get(code);
  return card ? countryName(card) : code;
}

/** A fact's value as the card prints it ("Sněžka, 1,602 m", "10.8 million", "$48,000"). */
function factValue(colour, fact) {
  // the catalogue's number format, as the terminal writes a card: a decimal only when it has one
  const n = (v, digits = 0) => formatNumber(v, Number.isInteger(v) ? 0 : digits);
  switch (colour) {
    case "O": {
      const name = (lang() === "fr" && fact.name_fr) || fact.name;
      return t("f_fact_O_value", { name, m: n(fact.value) });
    }
    case "P":
      return t("f_fact_P_value", { n: n(fact.value, 1) });
    case "C":
      return t("f_fact_C_value", { n: n(fact.value, 1) });
    case "X":
      return t("f_fact_X_value", { n: n(fact.value), year: fact.year ?? "" });
    default:
      return String(fact.value);
  }
}

// --- pieces and actions in words ---------------------------------------------------------

/** A piece code in words: "the medium orange pyramid" (form "the"), or "Bob's medium
 * orange pyramid" (form "of", with `who`). */
export function pieceWords(code, form = "the", who = "") {
  const colour = t(`f_pc_${code.charAt(0)}`);
  const size = code.charAt(1);
  if (form === "of") return t(`f_piece_of_${size}`, { colour, who, de: deWho(who) });
  return t(`f_piece_${size}`, { colour });
}

/** French "de Bob" / "d'Ann" (English: the name). */
function deWho(who) {
  if (lang() !== "fr") return who;
  return /^[aeiouyhàâéèêëîïôöûü]/i.test(String(who)) ? `d'${who}` : `de ${who}`;
}

/** One piece as a small SVG: a frustum whose width shows its size, with its code. */
export function pieceSvg(code, extraClass = "") {
  const colour = PIECE_COLOURS[code.charAt(0)] || PIECE_COLOURS.X;
  const size = Number(code.charAt(1)) || 1;
  const [w, hgt] = SIZES[size] || SIZES[1];
  const inset = 6;
  const scale = extraClass.includes("small") ? 0.72 : 1;
  const svg = s("svg", {
    class: `piece-svg ${extraClass}`.trim(),
    width: Math.round(w * scale),
    height: Math.round(hgt * scale),
    viewBox: `0 0 ${w} ${hgt}`,
    role: "img",
    "aria-label": code,
  });
  svg.append(
    s("path", {
      class: "piece-shape",
      d: `M${inset} 1 H${w - inset} L${w - 1} ${hgt - 1} H1 Z`,
      fill: colour.fill,
      stroke: code.charAt(0) === "W" || code.charAt(0) === "X" ? "#8d8778" : "rgba(0,0,0,0.35)",
      "stroke-width": 1.2,
      "stroke-linejoin": "round",
    }),
    s(
      "text",
      {
        x: w / 2,
        y: hgt / 2 + 4.5,
        "text-anchor": "middle",
        "font-size": 12,
        "font-weight": 800,
        fill: colour.ink,
      },
      code,
    ),
  );
  return svg;
}

/** A flag tower (bottom to top) drawn as a small column of pieces. */
function miniTower(pieces) {
  return h(
    "span",
    { class: "tower mini-tower", "aria-label": pieces.join(" ") },
    pieces.map((p) => h("span", { class: "piece" }, pieceSvg(p, "small"))),
  );
}

/** Parse an action text into {kind, ...} for grouping and describing. */
export function parseAction(text) {
  let m = text.match(/^(\w\d)>(\w\d|table)$/i);
  if (m) return { kind: "move", piece: m[1], target: m[2] };
  m = text.match(/^swap:(.+)$/);
  if (m) return { kind: "swap", card: m[1] };
  m = text.match(/^take:(\w\d)(?:@(\d+))?$/);
  if (m) return { kind: "take", piece: m[1], from: m[2] === undefined ? null : Number(m[2]) };
  if (text === "done") return { kind: "done" };
  m = text.match(/^split:(\w\d)$/);
  if (m) return { kind: "tree", what: "split", piece: m[1] };
  m = text.match(/^trade:(\w\d):(\w\d)@(\d+)$/);
  if (m) return { kind: "tree", what: "trade", mine: m[1], theirs: m[2], seat: Number(m[3]) };
  if (text === "grow") return { kind: "tree", what: "grow" };
  if (text === "newstart") return { kind: "tree", what: "newstart" };
  m = text.match(/^pirate:(\d+)$/);
  if (m) return { kind: "tree", what: "pirate", seat: Number(m[1]) };
  m = text.match(/^wild:(\w)$/);
  if (m) return { kind: "tree", what: "wild", colour: m[1] };
  return { kind: "other" };
}

/** The words of the tree action `colour` ("destroy", "trade", …). */
function treeAction(colour) {
  return t(`f_action_${colour}`);
}

/** A list in words: "a, b or c" (`last` "or") / "a, b and c". */
function listWords(items, last = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t(`f_list_${last}`)} ${items[items.length - 1]}`;
}

/** How many pieces stand on `piece` in `towers` (0 when unknown). */
function piecesAbove(piece, towers) {
  for (const tower of towers || []) {
    const at = tower.indexOf(piece);
    if (at >= 0) return tower.length - at - 1;
  }
  return 0;
}

/**
 * A Pyramids and Flags action in words, for a button (`form` "button": "Take the medium
 * orange pyramid from the bank") or a log line (`form` "log": "{who} takes …", the seat's
 * name going where {who} stands). `names` are the seats' names; `pending` the view's
 * pending decision and `towers` its towers (buttons); `events` the action's events (log).
 * Null for an action it does not know (the caller shows the notation).
 */
export function actionWords(text, { form = "button", names = [], pending = null, towers = null, events = [] } = {}) {
  const a = parseAction(text);
  const log = form === "log";
  const say = (key, params = {}) => t(`f_${log ? "log" : "btn"}_${key}`, params);
  const name = (seat) => names[seat] ?? t("f_seat_n", { n: Number(seat) + 1 });
  switch (a.kind) {
    case "move": {
      const moved = events.find((e) => e.kind === "move");
      const above = moved ? Math.max(0, (moved.data.pieces || []).length - 1) : piecesAbove(a.piece, towers);
      const piece = pieceWords(a.piece);
      const with_ = above ? t(above === 1 ? "f_with_one" : "f_with_n", { n: above }) : "";
      if (a.target.toLowerCase() === "table") return say("move_table", { piece, with: with_ });
      return say("move", { piece, with: with_, target: pieceWords(a.target) });
    }
    case "swap":
      return a.card === "?" ? say("swap_hidden") : say("swap", { country: countryOf(a.card) });
    case "take":
      return a.from === null
        ? say("take", { piece: pieceWords(a.piece) })
        : say("take_from", { piece: pieceWords(a.piece, "of", name(a.from)) });
    case "done": {
      const ended = events.find((e) => e.kind === "capture_done" || e.kind === "decline");
      const colour = ended && ended.data ? ended.data.colour : pending && pending.colour;
      const capture = ended ? ended.kind === "capture_done" : !pending || pending.kind === "capture";
      return capture ? say("done_capture") : say("done_action", { action: treeAction(colour || "W") });
    }
    case "tree":
      if (a.what === "split") return say("split", { piece: pieceWords(a.piece) });
      if (a.what === "trade") {
        return say("trade", { mine: pieceWords(a.mine), theirs: pieceWords(a.theirs, "of", name(a.seat)) });
      }
      if (a.what === "grow") return say("grow");
      if (a.what === "newstart") return say("newstart");
      if (a.what === "pirate") return say("pirate", { who2: name(a.seat), de: deWho(name(a.seat)) });
      if (a.what === "wild") return say("wild", { colour: t(`f_colour_${a.colour}`), action: treeAction(a.colour) });
      return null;
    default: {
      const chance = text.match(/^(deal|steal):/);
      if (chance) return log ? t(`f_log_${chance[1]}`) : null;
      return null;
    }
  }
}

/** The event kinds a log line's action words already tell (table.js leaves them out). */
export const TOLD_BY_ACTION = new Set(["move", "take", "swap", "capture_done", "decline", "split", "trade", "grow", "pirate", "wild"]);

/** "seat 2" / "le joueur 2" (form "du": "du joueur 2"): what withNames (util.js) turns
 * into the seat's name. */
function seatRef(seat, form = "le") {
  return t(form === "du" ? "event_seat_of" : "event_seat", { seat });
}

/**
 * A Pyramids and Flags event in words, countries and pyramids named ("the flag of Morocco
 * stands on the table…"), with "seat N" where a seat's name goes; null: the catalogue's
 * sentence. Registered with i18n.js, so the log, the reason line and the replay use it.
 */
export function eventWords(event) {
  const d = event.data || {};
  const seat = seatRef(d.seat);
  const pieces = (list, last = "and") => listWords((list || []).map((p) => pieceWords(p)), last);
  const from = d.from ?? d.from_;
  switch (event.kind) {
    case "move":
      return t(d.onto === "table" ? "f_ev_move_table" : "f_ev_move", {
        seat,
        pieces: pieces(d.pieces),
        onto: d.onto === "table" ? "" : pieceWords(d.onto),
      });
    case "tree":
      return t("f_ev_tree", { seat, piece: pieceWords(d.piece), colour: t(`f_colour_${d.colour}`), action: treeAction(d.colour) });
    case "swap":
      return d.card === "?" ? t("f_ev_swap_hidden", { seat }) : t("f_ev_swap", { seat, country: countryOf(d.card) });
    case "draw":
      return t(d.card === "?" ? "f_ev_draw_hidden" : "f_ev_draw", { seat, country: countryOf(d.card), why: t(`f_why_${d.why}`) });
    case "no_draw":
      return t("f_ev_no_draw", { seat, why: t(`f_why_${d.why}`) });
    case "flag":
      return t("f_ev_flag", { seat, country: countryOf(d.card), pieces: pieces(d.pieces, "or") });
    case "no_capture":
      return t("f_ev_no_capture", { seat, pieces: pieces(d.pieces, "or") });
    case "take":
      return from === null || from === undefined
        ? t("f_ev_take", { seat, piece: pieceWords(d.piece) })
        : t("f_ev_take_from", { seat, piece: pieceWords(d.piece), from: seatRef(from, "du") });
    case "capture_done":
      return t("f_ev_capture_done", { seat, country: countryOf(d.card) });
    case "action":
      return t("f_ev_action", { seat, action: treeAction(d.colour) });
    case "decline":
      return t("f_ev_decline", { seat, action: treeAction(d.colour) });
    case "split":
      return t("f_ev_split", { seat, pieces: pieces(d.pieces) });
    case "trade":
      return t("f_ev_trade", { seat, gives: pieceWords(d.gives), gets: pieceWords(d.gets), with: seatRef(d.with ?? d.with_, "du") });
    case "steal":
      return t(d.card === "?" ? "f_ev_steal_hidden" : "f_ev_steal", { seat, country: countryOf(d.card), victim: seatRef(d.victim, "du") });
    case "deal": {
      const hands = (d.hands || []).map((hand, i) => {
        const seen = hand.filter((c) => c !== "?").map((c) => countryOf(c));
        const hidden = hand.length - seen.length;
        if (hidden) seen.push(t(hidden === 1 ? "f_hidden_one" : "f_hidden_n", { n: hidden }));
        return t("f_deal_hand", { who: seatRef(i), cards: seen.length ? seen.join(", ") : "–" });
      });
      return t("f_ev_deal", { hands: hands.join(t("f_deal_join")) });
    }
    default:
      return null; // the catalogue's sentence names no piece or card code
  }
}

setEventWords("flags", eventWords);
// the cards first, so the first log and reason lines already name countries
await loadCards();

// --- goal cards as in the box ------------------------------------------------------------

/** The flag picture of a card (flag-icons, static/data/flags/; licence in docs/WEB.md). */
function flagImage(card, extraClass = "") {
  return h("img", {
    class: `card-flag ${extraClass}`.trim(),
    "data-testid": "card-flag",
    src: `/static/data/flags/${card.iso2}.svg`,
    alt: t("f_flag_alt", { country: countryName(card) }),
    width: 48,
    height: 36,
    loading: "eager",
  });
}

/** A scored or held card as a small chip: its flag and country (code in the tooltip). */
function flagChip(code, cards) {
  const card = cards.get(code);
  if (!card) return h("span", { class: "flag-chip", title: code }, code === "?" ? "?" : code);
  return h(
    "span",
    { class: "flag-chip", "data-card": code, title: `${countryName(card)} (${code})` },
    flagImage(card, "chip-flag"),
    h("span", {}, countryName(card)),
  );
}

/** One fact line of a card: its colour's rated pyramid, what it measures, the value, the size. */
function factRow(colour, fact) {
  const piece = `${colour}${fact.size}`;
  return h(
    "li",
    { class: `card-fact fact-${colour}`, "data-testid": "card-fact", "data-fact": colour, "data-size": fact.size },
    h("span", { class: "fact-piece", title: `${pieceWords(piece)} (${piece})` }, pieceSvg(piece, "small")),
    h("span", { class: "fact-name" }, t(`f_fact_${colour}`)),
    h("span", { class: "fact-value", "data-testid": "fact-value" }, factValue(colour, fact)),
    h("span", { class: `fact-size size-${fact.size}`, "data-testid": "fact-size" }, t(`f_size_${fact.size}`)),
  );
}

/** A group badge (PF-CARD-4): EU, Africa, Caribbean, Oil. */
function groupBadge(group) {
  return h(
    "span",
    { class: `group-badge group-${group}`, "data-testid": "group-badge", "data-group": group, title: t(`f_group_hint_${group}`) },
    t(`group_${group}`),
  );
}

/** A goal card as in the box: country, capital, flag picture, the flag as a tower, the four
 * facts with their values and rated pyramids, group badges; `extra` below (a button). */
export function goalCard(card, code, extra = null) {
  if (!card) return h("div", { class: "card", "data-card": code }, h("span", { class: "card-code" }, code), extra);
  return h(
    "div",
    { class: "card goal-card", "data-testid": "card", "data-card": code },
    h(
      "div",
      { class: "card-head" },
      flagImage(card),
      h(
        "div",
        { class: "card-names" },
        h("span", { class: "card-country", "data-testid": "card-country" }, countryName(card)),
        h("span", { class: "card-capital", "data-testid": "card-capital" }, t("f_capital", { city: capitalName(card) })),
      ),
      h("code", { class: "card-code notation" }, code),
    ),
    card.groups.length ? h("div", { class: "card-groups", "data-testid": "card-groups" }, card.groups.map(groupBadge)) : null,
    h(
      "div",
      { class: "card-row" },
      h("span", { class: "card-tower-label" }, t("f_flag_tower")),
      miniTower(card.tower),
    ),
    h("ul", { class: "card-facts" }, FACTS.map((c) => factRow(c, card.facts[c]))),
    extra,
  );
}

/** The thresholds of fact `colour` in words ("small < 1,500 m ≤ medium < 3,000 m ≤ large"). */
function thresholdWords(colour) {
  const pair = thresholds && thresholds[colour];
  if (!pair) return "";
  const fmt = (v) => t(`f_unit_${colour}`, { n: formatNumber(v, 0) });
  return t("f_legend_sizes", { low: fmt(pair[0]), high: fmt(pair[1]) });
}

/** The colour legend of the scoring pyramids: which fact each colour rates, and how. */
export function legend() {
  return h(
    "div",
    { class: "flags-legend", "data-testid": "flags-legend" },
    h("h3", {}, t("f_legend_title")),
    h(
      "ul",
      {},
      FACTS.map((c) =>
        h(
          "li",
          { "data-legend": c },
          pieceSvg(`${c}2`, "small"),
          h(
            "span",
            { class: "legend-text" },
            h("b", {}, t(`f_legend_colour_${c}`)),
            ` = ${t(`f_fact_${c}`)}`,
            thresholdWords(c) ? h("span", { class: "muted" }, ` (${thresholdWords(c)})`) : null,
          ),
        ),
      ),
    ),
    h("p", { class: "muted" }, t("f_legend_groups"), " ", ["EU", "Africa", "Caribbean", "Oil"].map(groupBadge)),
  );
}

/** Build the Pyramids and Flags parts of the table page; returns the game module. */
export function createGame(dom, ctx) {
  let cards = new Map();
  loadCards().then((map) => {
    cards = map;
    if (ctx.current) render(ctx.current);
  });

  const info = h("div", { class: "flags-info" });
  const towers = h("div", { class: "towers", "data-testid": "towers" });
  const moveHelp = h("p", { class: "move-help" });
  const bankTitle = h("h2", { class: "panel-title" });
  const bank = h("div", { class: "bank", "data-testid": "bank" });
  fill(
    dom.gameArea,
    h("div", { class: "flags-board" }, info, towers, moveHelp, h("div", {}, bankTitle, bank)),
  );

  const handTitle = h("h2", { class: "panel-title" });
  const hand = h("div", { class: "cards", "data-testid": "cards" });
  const legendBox = h("div", { class: "flags-legend-box" });
  const handPanel = h("section", { class: "hand-panel", hidden: true }, handTitle, hand, legendBox);
  const actionsPanel = h("section", { class: "hand-panel", "data-testid": "flags-actions" });
  fill(dom.decision, handPanel, actionsPanel);
  fill(dom.gameSide);

  let picked = null;
  let best = null; // the search's best move on screen (a bot hint, table-hint.js), parsed

  /** The pieces the best move acts on, per place: {towers: Set, bank: code, scoring: Map
   * seat -> Set of codes}; outlined (class hint-best) where the table draws them. */
  function bestPieces() {
    best = bestOf(ctx.current); // the seats' panel is drawn before the board
    const marks = { towers: new Set(), bank: null, scoring: new Map() };
    if (!best) return marks;
    const mark = (seat, piece) => {
      if (!marks.scoring.has(seat)) marks.scoring.set(seat, new Set());
      marks.scoring.get(seat).add(piece);
    };
    if (best.kind === "move") {
      marks.towers.add(best.piece);
      if (best.target.toLowerCase() !== "table") marks.towers.add(best.target);
    } else if (best.kind === "take") {
      if (best.from === null) marks.bank = best.piece;
      else mark(best.from, best.piece);
    } else if (best.kind === "tree" && best.what === "trade") {
      mark(ctx.seat, best.mine);
      mark(best.seat, best.theirs);
    } else if (best.kind === "tree" && best.what === "split") {
      mark(ctx.seat, best.piece);
    }
    return marks;
  }

  /** The best move of the hint on `msg`, parsed ({kind, …, text}), or null. */
  function bestOf(msg) {
    const hinted = ctx.hintAction && msg ? ctx.hintAction(msg) : null;
    return hinted ? { ...parseAction(hinted), text: hinted } : null;
  }

  function legal(msg) {
    return ctx.isInteractive() ? msg.legal || [] : [];
  }

  function who(seat) {
    return ctx.names[seat] ?? `#${seat}`;
  }

  /** The button's sentence for a legal action ("Take the medium orange pyramid from the bank"). */
  function describe(text) {
    const pending = ctx.current && ctx.current.view && ctx.current.view.pending;
    return actionWords(text, { form: "button", pending, names: ctx.names });
  }

  function actionButton(text, label = null) {
    const words = describe(text);
    return h(
      "button",
      {
        type: "button",
        class: `action-btn${best && best.text === text ? " hint-best" : ""}`,
        "data-testid": "action",
        "data-action": text,
        title: `${words} (${text})`,
        onclick: () => ctx.send(text),
      },
      label || h("span", { class: "action-words" }, words),
      h("code", { class: "notation" }, text),
    );
  }

  function renderTowers(msg, actions) {
    const view = msg.view;
    const moves = actions.map(parseAction).filter((a) => a.kind === "move");
    const movable = new Set(moves.map((a) => a.piece));
    if (picked && !movable.has(picked)) picked = null;
    const targets = new Set(moves.filter((a) => a.piece === picked).map((a) => a.target));
    const last = new Set(view.last_moved || []);
    const pickedTower = picked ? view.towers.find((tw) => tw.includes(picked)) : null;
    const hinted = bestPieces().towers;
    const moving = pickedTower ? new Set(pickedTower.slice(pickedTower.indexOf(picked))) : new Set();
    fill(
      towers,
      view.towers.map((tower) =>
        h(
          "div",
          { class: "tower", "data-testid": "tower", "data-bottom": tower[0] },
          tower.map((piece) => {
            const classes = ["piece"];
            if (movable.has(piece)) classes.push("movable");
            if (piece === picked) classes.push("picked");
            else if (moving.has(piece)) classes.push("moving");
            if (targets.has(piece)) classes.push("target");
            if (last.has(piece)) classes.push("last-moved");
            if (hinted.has(piece)) classes.push("hint-best");
            const clickable = movable.has(piece) || targets.has(piece);
            return h(
              clickable ? "button" : "span",
              {
                type: clickable ? "button" : undefined,
                class: classes.join(" "),
                "data-testid": "piece",
                "data-piece": piece,
                title: `${pieceWords(piece)} (${piece})`,
                "aria-label": pieceWords(piece),
                onclick: clickable
                  ? () => {
                      if (picked && targets.has(piece)) {
                        const action = `${picked}>${piece}`;
                        picked = null;
                        ctx.send(action);
                      } else {
                        picked = picked === piece ? null : piece;
                        render(ctx.current);
                      }
                    }
                  : undefined,
              },
              pieceSvg(piece),
            );
          }),
        ),
      ),
    );
    if (picked) {
      const toTable = targets.has("table");
      fill(
        moveHelp,
        t("f_picked", { piece: pieceWords(picked) }),
        toTable
          ? h(
              "button",
              {
                type: "button",
                class: "chip",
                onclick: () => {
                  const action = `${picked}>table`;
                  picked = null;
                  ctx.send(action);
                },
              },
              t("f_to_table"),
            )
          : null,
        h(
          "button",
          {
            type: "button",
            class: "chip",
            onclick: () => {
              picked = null;
              render(ctx.current);
            },
          },
          t("f_cancel"),
        ),
      );
    } else {
      fill(moveHelp, movable.size ? t("f_pick_piece") : "");
    }
  }

  function renderInfo(view) {
    const parts = [h("span", {}, t("f_deck", { n: (view.deck || []).length }))];
    if (view.last_moved && view.last_moved.length) {
      parts.push(
        h(
          "span",
          { title: view.last_moved.join(" ") },
          t("f_last_moved_words", { pieces: listWords(view.last_moved.map((p) => pieceWords(p))) }),
        ),
      );
    }
    const pending = view.pending;
    if (pending && pending.kind === "capture") {
      parts.push(
        h(
          "strong",
          { "data-testid": "pending-capture" },
          t("f_pending_capture", { who: who(pending.player), card: countryOf(pending.card, cards) }),
        ),
      );
    } else if (pending && pending.kind === "action") {
      parts.push(
        h(
          "strong",
          {},
          t("f_pending_action_words", { who: who(pending.player ?? view.to_move), action: treeAction(pending.colour || "W") }),
        ),
      );
    }
    if (view.tree) parts.push(h("span", {}, t("f_tree_owed", { colour: t(`f_colour_${view.tree}`) })));
    fill(info, parts);
    bankTitle.textContent = t("f_bank");
    const hinted = bestPieces().bank;
    const at = hinted ? (view.bank || []).indexOf(hinted) : -1;
    fill(bank, (view.bank || []).map((p, i) => pieceSvg(p, i === at ? "hint-best" : "")));
  }

  function cardBox(code, swapAction) {
    const box = goalCard(cards.get(code), code, swapAction ? actionButton(swapAction) : null);
    if (swapAction && best && best.text === swapAction) box.classList.add("hint-best");
    return box;
  }

  function renderHand(msg, actions) {
    const view = msg.view;
    const mine = ctx.seat !== null && ctx.seat !== undefined ? (view.hands || [])[ctx.seat] : null;
    if (!mine) {
      handPanel.hidden = true;
      return;
    }
    handPanel.hidden = false;
    handTitle.textContent = t("f_your_cards");
    fill(legendBox, legend());
    const swaps = new Map(
      actions
        .map(parseAction)
        .filter((a) => a.kind === "swap")
        .map((a) => [a.card, `swap:${a.card}`]),
    );
    fill(hand, mine.map((code) => cardBox(code, swaps.get(code))));
  }

  function renderActions(msg, actions) {
    if (!actions.length) {
      actionsPanel.hidden = true;
      return;
    }
    const pending = msg.view.pending;
    actionsPanel.hidden = false;
    const groups = { move: [], take: [], done: [], tree: [], other: [] };
    for (const text of actions) {
      const a = parseAction(text);
      if (a.kind === "swap") continue; // on the cards
      (groups[a.kind] || groups.other).push(text);
    }
    const sections = [];
    if (groups.move.length) {
      const byPiece = new Map();
      for (const text of groups.move) {
        const a = parseAction(text);
        if (!byPiece.has(a.piece)) byPiece.set(a.piece, []);
        byPiece.get(a.piece).push(text);
      }
      sections.push(
        h(
          "details",
          { class: "action-group", open: groups.move.length <= 24 },
          h("summary", {}, `${t("f_group_move")} (${groups.move.length})`),
          [...byPiece.entries()].map(([piece, list]) =>
            h(
              "div",
              { class: "action-btns" },
              h("span", { class: "chips-label", title: piece }, pieceSvg(piece, "small"), ` ${t("f_move_label", { piece: pieceWords(piece) })}`),
              list.map((text) => {
                const target = parseAction(text).target;
                const where = target.toLowerCase() === "table" ? t("f_onto_table") : t("f_onto", { target: pieceWords(target) });
                return actionButton(text, h("span", { class: "action-words" }, target.toLowerCase() === "table" ? null : pieceSvg(target, "small"), ` ${where}`));
              }),
            ),
          ),
        ),
      );
    }
    if (groups.done.length && !groups.take.length && pending && pending.kind === "capture") {
      groups.take = groups.done; // "End the capture" beside the card it ends
      groups.done = [];
    }
    for (const [key, title] of [
      ["take", "f_group_take"],
      ["tree", "f_group_tree"],
      ["done", "f_group_done"],
      ["other", "f_group_other"],
    ]) {
      if (!groups[key].length) continue;
      const capturing = key === "take" && pending && pending.kind === "capture" && cards.has(pending.card);
      sections.push(
        h(
          "div",
          { class: "action-group", "data-group": key },
          h("h3", {}, capturing ? t("f_group_take_for", { country: countryOf(pending.card, cards) }) : t(title)),
          capturing ? goalCard(cards.get(pending.card), pending.card, null) : null,
          h("div", { class: "action-btns" }, groups[key].map((text) => actionButton(text))),
        ),
      );
    }
    fill(actionsPanel, h("div", { class: "action-groups" }, sections));
  }

  function render(msg) {
    if (!msg || !msg.view) return;
    best = bestOf(msg);
    const actions = legal(msg);
    renderInfo(msg.view);
    renderTowers(msg, actions);
    renderHand(msg, actions);
    renderActions(msg, actions);
  }

  async function animate(prev, msg) {
    // no drawing to animate: show the new table, then tell each event in turn
    const saved = ctx.current;
    ctx.current = msg;
    render(msg);
    ctx.current = saved;
    const events = (msg.last.events || []).filter((e) => e.kind !== "draw");
    for (const ev of events) {
      ctx.setReason(ev, msg.last.seat);
      await sleep((events.length > 1 ? 700 : 250) * ctx.speed());
    }
  }

  function seatDetails(view, seat) {
    if (!view) return null;
    const scored = (view.scored || [])[seat] || [];
    const scoring = (view.scoring || [])[seat] || [];
    return h(
      "div",
      { class: "seat-body" },
      h(
        "div",
        { class: "seat-stats" },
        h("span", { class: "stat", "data-stat": "hand" }, h("b", {}, String((view.hands || [])[seat]?.length ?? 0)), ` ${t("seat_hand")}`),
        h("span", { class: "stat", "data-stat": "points" }, h("b", {}, String((view.points || [])[seat] ?? 0)), " pts"),
        h("span", { class: "stat", "data-stat": "flags" }, h("b", {}, String(scored.length)), ` ${t("f_scored")}`),
      ),
      scored.length ? h("div", { class: "seat-known" }, scored.map((c) => flagChip(c, cards))) : null,
      scoring.length ? h("div", { class: "scoring" }, scoringPieces(scoring, bestPieces().scoring.get(seat))) : null,
    );
  }

  /** A seat's scoring pieces, the first of each hinted code outlined (a bot hint). */
  function scoringPieces(scoring, hinted) {
    const left = new Set(hinted || []);
    return scoring.map((p) => {
      const mark = left.delete(p);
      return pieceSvg(p, mark ? "small hint-best" : "small");
    });
  }

  function rankingDetail(view, seat) {
    if (!view) return "";
    return t("points_flags", { p: (view.points || [])[seat] ?? 0, f: ((view.scored || [])[seat] || []).length });
  }

  function onKey(ev) {
    if (ev.key === "Escape" && picked) {
      picked = null;
      render(ctx.current);
    }
  }

  return {
    name: "flags",
    render,
    animate,
    seatDetails,
    rankingDetail,
    onKey,
    relang: () => render(ctx.current),
    eventText,
    actionWords: (action, { events = [], form = "log" } = {}, c = ctx) =>
      actionWords(action, {
        form,
        events,
        names: c.names,
        pending: c.current && c.current.view && c.current.view.pending,
        towers: c.current && c.current.view && c.current.view.towers,
      }),
    toldByAction: TOLD_BY_ACTION,
  };
}

/** The replay page's drawer: a finished game's full positions (every hand shown). */
export async function createReplay(dom) {
  const cards = await loadCards();
  return {
    actionWords: (action, { events = [], form = "log", names = [] } = {}) => actionWords(action, { form, events, names }),
    toldByAction: TOLD_BY_ACTION,
    render(state, names) {
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
            replaySeatHead(state, seat, names),
            h("div", { class: "seat-known" }, hand.map((c) => flagChip(c, cards))),
            h(
              "div",
              { class: "seat-known" },
              t("f_scored_label"),
              ((state.scored || [])[seat] || []).map((c) => flagChip(c, cards)),
            ),
            h("div", { class: "scoring" }, ((state.scoring || [])[seat] || []).map((p) => pieceSvg(p, "small"))),
          ),
        ),
      );
    },
  };
}
