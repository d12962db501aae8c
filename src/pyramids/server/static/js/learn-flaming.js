// The tutorial's Flaming Pyramids board: the staged pyramid drawn with the table's own
// code (flaming-draw.js), the learner's hand, the spots of the picked tile (with the
// engine's fit hints) and, during a fall, its two targets. It only offers what the
// server's answer lists in `legal`; the server judges every move (server/learn.py).

import { t } from "./i18n.js";
import {
  boardFromList,
  compareTiles,
  drawPyramid,
  fallTargets,
  fitHint,
  installDefs,
  parsePlaced,
  tileSvg,
} from "./flaming-draw.js";
import { fill, h, s } from "./util.js";

/** Build the board in `root`; returns {render(answer, opts), relang()}. */
export function createBoard(root) {
  installDefs();
  const svg = s("svg", { class: "pyramid", "data-testid": "pyramid", role: "img" });
  const note = h("p", { class: "hand-hint", "data-testid": "learn-hand-hint" });
  const hand = h("div", { class: "hand", "data-testid": "hand", role: "group" });
  const falls = h("div", { class: "spot-chips", "data-testid": "learn-falls" });
  const pile = h("p", { class: "muted learn-pile" });
  fill(
    root,
    h("div", { class: "game-area" }, h("div", { class: "pyramid-wrap" }, svg)),
    h("section", { class: "hand-panel panel" }, h("h2", { class: "panel-title", "data-i18n": "learn_your_hand" }, t("learn_your_hand")), note, hand, falls, pile),
  );

  let last = null; // {answer, opts}
  let selected = null;

  function placements(answer) {
    // legal placements of the answer, by tile: {tile: [spot, ...]}
    const byTile = new Map();
    for (const text of answer.legal) {
      if (!text.includes("@")) continue;
      const p = parsePlaced(text);
      if (!byTile.has(p.tile)) byTile.set(p.tile, []);
      byTile.get(p.tile).push(p.spot);
    }
    return byTile;
  }

  function render(answer, opts) {
    last = { answer, opts };
    const position = answer.position;
    const seat = answer.seat;
    const mine = opts.interactive && answer.to_move === seat;
    const board = boardFromList(position.pyramid);
    const byTile = mine ? placements(answer) : new Map();
    if (selected && !byTile.has(selected)) selected = null;
    const pending = position.pending;
    let fall = null;
    if (pending && pending.kind === "fall" && pending.tile) {
      const spot = parsePlaced(pending.tile).spot;
      fall = { spot, targets: fallTargets(spot), mine: mine && answer.legal.includes("left") };
    }
    const spots = selected
      ? byTile.get(selected).map((spot) => ({ spot, hint: fitHint(answer.hints, selected, spot) }))
      : [];
    drawPyramid(svg, board, {
      spots,
      fall,
      onSpot: (spot) => {
        const tile = selected;
        selected = null;
        opts.onAction(`${tile}@${spot}`);
      },
      onFall: (side) => opts.onAction(side),
    });
    svg.setAttribute("aria-label", t("learn_pyramid_label", { n: board.size }));

    const tiles = [...((position.hands || [])[seat] || [])].sort(compareTiles);
    fill(
      hand,
      tiles.map((tile) => {
        const playable = byTile.has(tile);
        return h(
          "button",
          {
            type: "button",
            class: `hand-tile${tile === selected ? " selected" : ""}`,
            "data-testid": "hand-tile",
            "data-tile": tile,
            "aria-pressed": String(tile === selected),
            disabled: !playable,
            onclick: () => {
              selected = selected === tile ? null : tile;
              render(last.answer, last.opts);
            },
          },
          tileSvg(tile),
        );
      }),
    );
    if (fall && fall.mine) {
      note.textContent = t("learn_fall_hint", { tile: parsePlaced(pending.tile).tile });
      fill(
        falls,
        ["left", "right"].map((side) =>
          h(
            "button",
            {
              type: "button",
              class: "chip spot-chip",
              "data-testid": "learn-fall",
              "data-side": side,
              onclick: () => opts.onAction(side),
            },
            t(side === "left" ? "learn_fall_left" : "learn_fall_right"),
          ),
        ),
      );
    } else {
      note.textContent = !mine ? "" : selected ? t("learn_pick_spot", { tile: selected }) : t("learn_pick_tile");
      fill(falls);
    }
    const left = ((position.piles || [])[seat] || []).length;
    pile.textContent = t("learn_pile", { n: left });
  }

  return {
    render,
    reset() {
      selected = null;
    },
    relang() {
      if (last) render(last.answer, last.opts);
    },
  };
}
