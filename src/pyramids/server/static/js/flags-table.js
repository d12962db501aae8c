// The Pyramids and Flags table: towers, bank, your cards, every seat's cards and
// pieces, and the legal actions as buttons grouped by kind, each with a readable
// description. Moves can also be made by clicking a piece and then its destination.
// The view JSON is FlagsView.to_json (PF-VIEW); hidden cards appear as "?".

import { eventText, t } from "./i18n.js";
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

let cardsPromise = null;

/** The goal cards by code (static copy of the package data), loaded once. */
export function loadCards() {
  if (!cardsPromise) {
    cardsPromise = fetch("/static/data/flags-cards.json")
      .then((r) => r.json())
      .then((data) => new Map(data.cards.map((c) => [c.code, c])))
      .catch(() => new Map());
  }
  return cardsPromise;
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
  const handPanel = h("section", { class: "hand-panel", hidden: true }, handTitle, hand);
  const actionsPanel = h("section", { class: "hand-panel", "data-testid": "flags-actions" });
  fill(dom.decision, handPanel, actionsPanel);
  fill(dom.gameSide);

  let picked = null;

  function legal(msg) {
    return ctx.isInteractive() ? msg.legal || [] : [];
  }

  function who(seat) {
    return ctx.names[seat] ?? `#${seat}`;
  }

  function describe(text) {
    const a = parseAction(text);
    switch (a.kind) {
      case "move":
        return a.target.toLowerCase() === "table"
          ? t("f_desc_move_table", { piece: a.piece })
          : t("f_desc_move", { piece: a.piece, target: a.target });
      case "swap": {
        const card = cards.get(a.card);
        return t("f_desc_swap", { card: card ? `${a.card} (${card.country})` : a.card });
      }
      case "take":
        return a.from === null
          ? t("f_desc_take", { piece: a.piece })
          : t("f_desc_take_from", { piece: a.piece, who: who(a.from) });
      case "done":
        return t("f_desc_done");
      case "tree":
        if (a.what === "split") return t("f_desc_split", { piece: a.piece });
        if (a.what === "trade") return t("f_desc_trade", { mine: a.mine, theirs: a.theirs, who: who(a.seat) });
        if (a.what === "grow") return t("f_desc_grow");
        if (a.what === "newstart") return t("f_desc_newstart");
        if (a.what === "pirate") return t("f_desc_pirate", { who: who(a.seat) });
        if (a.what === "wild") return t("f_desc_wild", { colour: t(`f_colour_${a.colour}`) });
        return text;
      default:
        return text;
    }
  }

  function actionButton(text, label = null) {
    return h(
      "button",
      {
        type: "button",
        class: "action-btn",
        "data-testid": "action",
        "data-action": text,
        title: describe(text),
        onclick: () => ctx.send(text),
      },
      h("code", {}, label || text),
      label ? null : h("span", {}, describe(text)),
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
            const clickable = movable.has(piece) || targets.has(piece);
            return h(
              clickable ? "button" : "span",
              {
                type: clickable ? "button" : undefined,
                class: classes.join(" "),
                "data-testid": "piece",
                "data-piece": piece,
                title: piece,
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
        t("f_picked", { piece: picked }),
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
      parts.push(h("span", {}, t("f_last_moved", { pieces: view.last_moved.join(" ") })));
    }
    const pending = view.pending;
    if (pending && pending.kind === "capture") {
      const card = cards.get(pending.card);
      parts.push(
        h(
          "strong",
          {},
          t("f_pending_capture", { who: who(pending.player), card: card ? `${pending.card} (${card.country})` : pending.card }),
        ),
      );
    } else if (pending && pending.kind === "action") {
      parts.push(h("strong", {}, t("f_pending_action", { who: who(pending.player ?? view.to_move) })));
    }
    if (view.tree) parts.push(h("span", {}, t("f_tree_owed", { colour: t(`f_colour_${view.tree}`) })));
    fill(info, parts);
    bankTitle.textContent = t("f_bank");
    fill(bank, (view.bank || []).map((p) => pieceSvg(p)));
  }

  function cardBox(code, swapAction) {
    const card = cards.get(code);
    if (!card) return h("div", { class: "card", "data-card": code }, h("span", { class: "card-code" }, code));
    return h(
      "div",
      { class: "card", "data-testid": "card", "data-card": code },
      h("div", { class: "card-head" }, h("span", { class: "card-code" }, code), h("span", { class: "card-country" }, card.country)),
      card.groups.length
        ? h("div", { class: "card-groups" }, card.groups.map((g) => t(`group_${g}`)).join(" · "))
        : null,
      h(
        "div",
        { class: "card-row" },
        miniTower(card.tower),
        h("span", { class: "scoring" }, card.pieces.map((p) => pieceSvg(p, "small"))),
      ),
      swapAction ? actionButton(swapAction) : null,
    );
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
              h("span", { class: "chips-label" }, `${piece} →`),
              list.map((text) => actionButton(text, parseAction(text).target)),
            ),
          ),
        ),
      );
    }
    for (const [key, title] of [
      ["take", "f_group_take"],
      ["tree", "f_group_tree"],
      ["done", "f_group_done"],
      ["other", "f_group_other"],
    ]) {
      if (!groups[key].length) continue;
      sections.push(
        h(
          "div",
          { class: "action-group" },
          h("h3", {}, t(title)),
          h("div", { class: "action-btns" }, groups[key].map((text) => actionButton(text))),
        ),
      );
    }
    fill(actionsPanel, h("div", { class: "action-groups" }, sections));
  }

  function render(msg) {
    if (!msg || !msg.view) return;
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
      scored.length ? h("div", { class: "seat-known" }, scored.map((c) => h("span", { class: "flag-chip", title: cards.get(c)?.country || c }, c))) : null,
      scoring.length ? h("div", { class: "scoring" }, scoring.map((p) => pieceSvg(p, "small"))) : null,
    );
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
  };
}

/** The replay page's drawer: a finished game's full positions (every hand shown). */
export async function createReplay(dom) {
  const cards = await loadCards();
  return {
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
    },
  };
}
