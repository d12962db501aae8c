// Drawing the Pyramids and Flags rules diagrams with the flags table's own pieces
// (pieceSvg of flags-table.js) and its tower layout (flags.css .towers / .tower / .piece):
// a row of towers, bottom to top, or a loose set of pieces (a bank, a player's pyramids).

import { pieceSvg } from "./flags-table.js";
import { h } from "./util.js";

/** One piece, marked with the diagram's class for it (picked, flag, between) if any. */
function piece(code, marks) {
  const mark = marks[code];
  return h(
    "span",
    { class: `piece${mark ? ` rules-${mark}` : ""}`, "data-testid": "rules-piece", "data-piece": code },
    pieceSvg(code),
  );
}

/** Towers side by side, each a list of piece codes from bottom to top. */
export function drawTowers(list, marks = {}) {
  return h(
    "div",
    { class: "towers rules-towers" },
    list.map((tower) => h("div", { class: "tower" }, tower.map((code) => piece(code, marks)))),
  );
}

/** A loose set of pieces in a row. */
export function drawPieces(list, marks = {}) {
  return h("div", { class: "bank rules-pieces" }, list.map((code) => piece(code, marks)));
}
