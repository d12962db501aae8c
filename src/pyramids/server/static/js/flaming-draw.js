// Drawing Flaming Pyramids in SVG: tiles, the pyramid, spots to play, fall targets.
//
// A tile shows its weight (big), its colour letter, a pattern per colour and a
// material band with its own texture and corner mark, so it reads without colour.
// Geometry follows docs/NOTATION.md: row 0 is the base, rows count upwards, columns
// use half steps (a tile at r,c rests on r-1,c-1 and r-1,c+1) and may be negative.

import { t } from "./i18n.js";
import { s } from "./util.js";

export const TW = 64; // tile width: two column steps
export const TH = 46; // tile height: one row
const GAP = 1.5;
const BAND = 8;

export const COLOURS = {
  Y: { fill: "#e9c25b", ink: "#3b2f12", pattern: "pat-Y" },
  R: { fill: "#c9483e", ink: "#ffffff", pattern: "pat-R" },
  G: { fill: "#3f8a58", ink: "#ffffff", pattern: "pat-G" },
  B: { fill: "#3a6aae", ink: "#ffffff", pattern: "pat-B" },
  W: { fill: "#eceae3", ink: "#2d2a26", pattern: "pat-W" },
};

/** Facts about a tile code such as "R40": colour letter, weight, material. */
export function tileInfo(code) {
  const colour = code.charAt(0).toUpperCase();
  const weight = Number(code.slice(1));
  let material;
  if (colour === "W") material = "millstone";
  else if (weight === 1 || weight === 7) material = "ember";
  else if (weight <= 6) material = "straw";
  else if (weight <= 40) material = "wood";
  else material = "stone";
  return { code, colour, weight, material };
}

const COLOUR_ORDER = "YRGBW";

/** Sort key for hands: colour (Y R G B W), then weight. */
export function compareTiles(a, b) {
  const ia = tileInfo(a);
  const ib = tileInfo(b);
  return (
    COLOUR_ORDER.indexOf(ia.colour) - COLOUR_ORDER.indexOf(ib.colour) || ia.weight - ib.weight
  );
}

/** Readable description of a tile, for titles and screen readers. */
export function tileTitle(code) {
  const info = tileInfo(code);
  let material;
  if (info.material === "ember") {
    material = t(info.weight === 1 ? "mat_ember_coal" : "mat_ember_torch");
  } else if (info.material === "millstone") {
    material = t("mat_millstone");
  } else {
    material = t(`mat_${info.material}`);
  }
  return t("tile_title", {
    code,
    colour: t(`colour_${info.colour}`),
    material,
    w: info.weight,
  });
}

/** A tile in words for sentences: "the red 40" ("le 40 rouge"), "the millstone (200)". */
export function tileWords(code) {
  const info = tileInfo(code);
  if (info.colour === "W") return t("tile_words_W", { w: info.weight });
  return t("tile_words", { colour: t(`colour_${info.colour}`), w: info.weight });
}

/** The spots of `board` holding a tile above the base with only one of its two supports
 * (FP-FIT-3 judges such a tile against that one support). Pure geometry of the drawing. */
export function oneSupportSpots(board) {
  const spots = new Set();
  for (const spot of board.keys()) {
    const [r, c] = parseSpot(spot);
    if (r === 0) continue;
    const left = board.has(`${r - 1},${c - 1}`);
    const right = board.has(`${r - 1},${c + 1}`);
    if (left !== right) spots.add(spot);
  }
  return spots;
}

/** Parse "R40@1,-1" into {tile, row, col, spot}. */
export function parsePlaced(text) {
  const [tile, at] = text.split("@");
  const [row, col] = at.split(",").map(Number);
  return { tile, row, col, spot: `${row},${col}` };
}

/** Parse a spot "1,-1" into [row, col]. */
export function parseSpot(spot) {
  const [row, col] = String(spot).split(",").map(Number);
  return [row, col];
}

/** The spots where a tile at `spot` may fall: [left, right]. */
export function fallTargets(spot) {
  const [r, c] = parseSpot(spot);
  return [`${r - 1},${c - 1}`, `${r - 1},${c + 1}`];
}

/** Top-left corner of the tile at (row, col) in pyramid coordinates. */
export function tileXY(row, col) {
  return [(col * TW) / 2 - TW / 2, -row * TH - TH];
}

/**
 * Whether `tile` fits on `spot` (FP-FIT), as the engine says: the server sends its answer
 * with each view (`hints.spots[tile][spot]` of the state message: fits, too_heavy,
 * mismatch, weight, supports); this only words it. Returns {fits, reason}, `fits` null
 * when the server sent no hint for that placement; the server decides either way.
 */
export function fitHint(hints, tile, spot) {
  const perTile = hints && hints.spots ? hints.spots[tile] : undefined;
  const hint = perTile ? perTile[spot] : undefined;
  if (!hint) return { fits: null, reason: "" };
  if (hint.fits) return { fits: true, reason: "" };
  const reasons = [];
  if (hint.too_heavy) reasons.push(t("fit_heavy", { w: hint.weight, sum: (hint.supports || []).join(" + ") }));
  if (hint.mismatch) reasons.push(t("fit_mismatch"));
  return { fits: false, reason: reasons.join("; ") };
}

/** The mark a spot shows for its fit hint: ✓ fits, ⚠ collapses, nothing when unknown. */
export function hintMark(hint) {
  return hint.fits === true ? "✓" : hint.fits === false ? "⚠" : "";
}

let defsInstalled = false;

/** Put the shared patterns, gradients and symbols into the page once (hidden SVG). */
export function installDefs() {
  if (defsInstalled) return;
  defsInstalled = true;
  const svg = s("svg", {
    class: "svg-defs",
    width: 0,
    height: 0,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.innerHTML = `
  <defs>
    <pattern id="pat-Y" width="8" height="8" patternUnits="userSpaceOnUse">
      <circle cx="4" cy="4" r="1.4" fill="rgba(60,40,0,0.28)"/>
    </pattern>
    <pattern id="pat-R" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="3" height="8" fill="rgba(0,0,0,0.16)"/>
    </pattern>
    <pattern id="pat-G" width="8" height="8" patternUnits="userSpaceOnUse">
      <rect width="4" height="4" fill="rgba(0,0,0,0.14)"/>
      <rect x="4" y="4" width="4" height="4" fill="rgba(0,0,0,0.14)"/>
    </pattern>
    <pattern id="pat-B" width="12" height="7" patternUnits="userSpaceOnUse">
      <path d="M0 4 Q3 1 6 4 T12 4" fill="none" stroke="rgba(255,255,255,0.28)" stroke-width="1.3"/>
    </pattern>
    <pattern id="pat-W" width="10" height="10" patternUnits="userSpaceOnUse">
      <circle cx="2" cy="3" r="0.8" fill="rgba(0,0,0,0.18)"/>
      <circle cx="7" cy="7" r="0.6" fill="rgba(0,0,0,0.14)"/>
    </pattern>
    <pattern id="band-straw" width="4" height="8" patternUnits="userSpaceOnUse">
      <rect width="4" height="8" fill="#f0d98c"/>
      <path d="M1 0 L1.6 8" stroke="#b8932f" stroke-width="0.9"/>
    </pattern>
    <pattern id="band-wood" width="16" height="8" patternUnits="userSpaceOnUse">
      <rect width="16" height="8" fill="#8d5b34"/>
      <path d="M0 3 Q4 1 8 3 T16 3 M0 6 Q4 4.5 8 6 T16 6" fill="none" stroke="#c48f5c" stroke-width="0.9"/>
    </pattern>
    <pattern id="band-stone" width="9" height="8" patternUnits="userSpaceOnUse">
      <rect width="9" height="8" fill="#8f9196"/>
      <rect x="1" y="1" width="3" height="2" fill="#b5b7bb"/>
      <rect x="5" y="4.5" width="3" height="2" fill="#6f7176"/>
    </pattern>
    <linearGradient id="band-ember" x1="0" x2="1">
      <stop offset="0" stop-color="#ffb02e"/>
      <stop offset="0.5" stop-color="#ff5a1f"/>
      <stop offset="1" stop-color="#ffb02e"/>
    </linearGradient>
    <radialGradient id="glow-ember">
      <stop offset="0.45" stop-color="rgba(255,140,30,0.85)"/>
      <stop offset="1" stop-color="rgba(255,90,20,0)"/>
    </radialGradient>
    <radialGradient id="burst">
      <stop offset="0" stop-color="#fff6c8"/>
      <stop offset="0.4" stop-color="#ffb02e"/>
      <stop offset="1" stop-color="rgba(255,60,10,0)"/>
    </radialGradient>
    <symbol id="mat-straw" viewBox="0 0 12 12">
      <path d="M3 11 L5 1 M6 11 L6 1 M9 11 L7 1 M3.5 6.5 H8.5" stroke="currentColor" stroke-width="1.3" fill="none" stroke-linecap="round"/>
    </symbol>
    <symbol id="mat-wood" viewBox="0 0 12 12">
      <circle cx="6" cy="6" r="4.8" fill="none" stroke="currentColor" stroke-width="1.3"/>
      <circle cx="6" cy="6" r="2.2" fill="none" stroke="currentColor" stroke-width="1"/>
    </symbol>
    <symbol id="mat-stone" viewBox="0 0 12 12">
      <path d="M2 8 L3.5 3 L8 1.8 L10.5 6 L8.5 10.2 L4 10.5 Z" fill="currentColor"/>
    </symbol>
    <symbol id="mat-ember" viewBox="0 0 12 12">
      <path d="M6 0.8 C7.8 3.4 10 4.6 10 7.6 A4 4 0 0 1 2 7.6 C2 5.6 3.4 4.8 3.8 3.2 C4.6 4.4 5 5 5.6 5.4 C5.8 3.6 5.4 2.4 6 0.8 Z" fill="#ff7a1a" stroke="#7a2a00" stroke-width="0.6"/>
    </symbol>
    <symbol id="mat-millstone" viewBox="0 0 12 12">
      <circle cx="6" cy="6" r="5" fill="none" stroke="currentColor" stroke-width="1.3"/>
      <circle cx="6" cy="6" r="1.4" fill="currentColor"/>
    </symbol>
  </defs>`;
  document.body.prepend(svg);
}

/**
 * One tile drawn at the origin (0,0)-(TW,TH): an SVG <g>. `extra` attributes go on the
 * outer group; the inner group (class tile-body) is what animations move.
 */
export function drawTile(code, extra = {}) {
  const info = tileInfo(code);
  const colour = COLOURS[info.colour] || COLOURS.W;
  const w = TW - 2 * GAP;
  const hgt = TH - 2 * GAP;
  const body = s("g", { class: `tile-body mat-${info.material}` });
  if (info.material === "ember") {
    body.append(
      s("ellipse", {
        class: "ember-glow",
        cx: TW / 2,
        cy: TH / 2,
        rx: TW * 0.72,
        ry: TH * 0.8,
        fill: "url(#glow-ember)",
      }),
    );
  }
  body.append(
    s("rect", {
      class: "tile-face",
      x: GAP,
      y: GAP,
      width: w,
      height: hgt,
      rx: 6,
      fill: colour.fill,
    }),
    s("rect", {
      x: GAP,
      y: GAP,
      width: w,
      height: hgt - BAND,
      rx: 6,
      fill: `url(#${colour.pattern})`,
    }),
  );
  // material band along the bottom edge
  const bandFill = info.material === "millstone" ? "url(#band-stone)" : info.material === "ember" ? "url(#band-ember)" : `url(#band-${info.material})`;
  body.append(
    s("path", {
      class: "tile-band",
      d: `M${GAP} ${TH - GAP - BAND} H${TW - GAP} V${TH - GAP - 6} Q${TW - GAP} ${TH - GAP} ${TW - GAP - 6} ${TH - GAP} H${GAP + 6} Q${GAP} ${TH - GAP} ${GAP} ${TH - GAP - 6} Z`,
      fill: bandFill,
    }),
  );
  if (info.material === "millstone") {
    // every colour: four small dots
    ["Y", "R", "G", "B"].forEach((c, i) => {
      body.append(
        s("circle", {
          cx: 22 + i * 7.5,
          cy: 9,
          r: 2.6,
          fill: COLOURS[c].fill,
          stroke: "#2d2a26",
          "stroke-width": 0.6,
        }),
      );
    });
  }
  body.append(
    s("rect", {
      class: "tile-edge",
      x: GAP,
      y: GAP,
      width: w,
      height: hgt,
      rx: 6,
      fill: "none",
    }),
  );
  body.append(
    s(
      "text",
      {
        class: "tile-letter",
        x: GAP + 5,
        y: GAP + 12,
        fill: colour.ink,
        stroke: colour.fill,
      },
      info.colour,
    ),
  );
  body.append(
    s("use", {
      href: `#mat-${info.material}`,
      x: TW - GAP - 15,
      y: GAP + 3,
      width: 12,
      height: 12,
      class: "tile-mat",
      color: colour.ink,
    }),
  );
  body.append(
    s(
      "text",
      {
        class: `tile-weight${info.weight >= 100 ? " long" : ""}`,
        x: TW / 2 + (info.weight >= 100 ? 2 : 0),
        y: TH - BAND - 7,
        fill: colour.ink,
        stroke: colour.fill,
      },
      String(info.weight),
    ),
  );
  const g = s("g", { ...extra }, s("title", {}, tileTitle(code)), body);
  return g;
}

/** A stand-alone small SVG of one tile (hand buttons, lists, the log). */
export function tileSvg(code, className = "tile-svg") {
  const svg = s("svg", {
    class: className,
    viewBox: `-4 -4 ${TW + 8} ${TH + 8}`,
    role: "img",
    "aria-label": tileTitle(code),
  });
  svg.append(drawTile(code));
  return svg;
}

/**
 * Draw the pyramid into `svg` (cleared first).
 * board: Map "r,c" -> tile code.
 * opts.spots: [{spot, hint:{fits,reason}}] legal spots for the picked tile (clickable; see fitHint);
 * opts.fall: {spot, targets:[left,right], mine} a pending fall;
 * opts.burning: spot of an ember whose fire die is pending;
 * opts.onSpot(spot), opts.onFall(side);
 * opts.callable: Set of the spots whose tile the viewer may call during a check (call-out
 * mode): each of them is a button calling opts.onTile(spot). Every tile of the pyramid is
 * callable then, right or wrong, and all look alike: nothing tells whether mayhem stands;
 * opts.frame: {minCol, maxCol, maxRow} to keep the frame from jumping (optional);
 * opts.hint: {spot, tile, label} the search's best move (a bot hint, table-hint.js): the spot
 * it plays (its tile drawn faintly there when `tile` is given and the spot is free) or the
 * tile it acts on, outlined with the class hint-best; a legal spot or fall target at that
 * spot gets the class too. Nothing to click: the hint only shows.
 * Returns the frame used.
 */
export function drawPyramid(svg, board, opts = {}) {
  svg.replaceChildren();
  const spots = opts.spots || [];
  const fall = opts.fall || null;
  const cells = [...board.keys()].map(parseSpot);
  for (const sp of spots) cells.push(parseSpot(sp.spot));
  if (fall) for (const target of fall.targets) cells.push(parseSpot(target));
  const best = opts.hint && opts.hint.spot ? opts.hint : null;
  if (best) cells.push(parseSpot(best.spot));
  let minCol = 0;
  let maxCol = 0;
  let maxRow = 0;
  if (cells.length) {
    minCol = Math.min(...cells.map(([, c]) => c));
    maxCol = Math.max(...cells.map(([, c]) => c));
    maxRow = Math.max(...cells.map(([r]) => r));
  }
  if (opts.frame) {
    minCol = Math.min(minCol, opts.frame.minCol);
    maxCol = Math.max(maxCol, opts.frame.maxCol);
    maxRow = Math.max(maxRow, opts.frame.maxRow);
  }
  // at least five tiles wide and three rows high, centred, so a young pyramid is not huge
  const minSpan = 8;
  if (maxCol - minCol < minSpan) {
    const extra = minSpan - (maxCol - minCol);
    minCol -= Math.ceil(extra / 2);
    maxCol += Math.floor(extra / 2);
  }
  maxRow = Math.max(maxRow, 2);
  const pad = 10;
  const axis = 16;
  const x0 = (minCol * TW) / 2 - TW / 2 - pad - axis;
  const x1 = (maxCol * TW) / 2 + TW / 2 + pad;
  const y0 = -maxRow * TH - TH - pad;
  const y1 = pad + axis;
  svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMax meet");
  // never larger than 1.5 times the drawing's own size: a young pyramid stays modest
  svg.style.maxWidth = `${Math.round((x1 - x0) * 1.5)}px`;

  const grid = s("g", { class: "axis", "aria-hidden": "true" });
  grid.append(s("line", { x1: x0 + axis, x2: x1, y1: 1.5, y2: 1.5, class: "ground" }));
  for (let r = 0; r <= maxRow; r++) {
    grid.append(s("text", { x: x0 + axis - 4, y: -r * TH - TH / 2 + 4, class: "axis-label row" }, String(r)));
  }
  const firstEven = minCol % 2 === 0 ? minCol : minCol + 1;
  for (let c = firstEven; c <= maxCol; c += 2) {
    grid.append(s("text", { x: (c * TW) / 2, y: axis + 2, class: "axis-label col" }, String(c)));
  }
  svg.append(grid);

  const tiles = s("g", { class: "tiles" });
  const ordered = [...board.entries()].sort((a, b) => {
    const [ra, ca] = parseSpot(a[0]);
    const [rb, cb] = parseSpot(b[0]);
    return ra - rb || ca - cb;
  });
  for (const [spot, code] of ordered) {
    const [r, c] = parseSpot(spot);
    const [x, y] = tileXY(r, c);
    const classes = ["tile"];
    if (fall && fall.spot === spot) classes.push("falling");
    if (opts.burning === spot) classes.push("burning");
    if (opts.quenched && opts.quenched.has(code)) classes.push("quenched");
    const callable = Boolean(opts.callable && opts.callable.has(spot));
    if (callable) classes.push("callable");
    const leaning = Boolean(opts.oneSupport && opts.oneSupport.has(spot));
    if (leaning) classes.push("one-support");
    const g = drawTile(code, {
      class: classes.join(" "),
      transform: `translate(${x} ${y})`,
      "data-testid": "tile",
      "data-spot": spot,
      "data-tile": code,
    });
    if (callable) {
      const label = t("call_tile", { tile: tileWords(code), spot });
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", label);
      const call = (ev) => {
        ev.preventDefault();
        if (opts.onTile) opts.onTile(spot);
      };
      g.addEventListener("click", call);
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") call(ev);
      });
    }
    if (leaning) {
      // a small mark under the missing side: this tile rests on one support
      const missingLeft = !board.has(`${r - 1},${c - 1}`);
      const title = g.querySelector("title");
      if (title) title.textContent += ` — ${t("one_support_title")}`;
      g.append(
        s(
          "text",
          {
            class: "one-support-mark",
            "data-testid": "one-support",
            x: missingLeft ? 8 : TW - 8,
            y: TH - 4,
            "aria-hidden": "true",
          },
          missingLeft ? "◣" : "◢",
        ),
      );
      g.setAttribute("data-one-support", missingLeft ? "right" : "left");
    }
    tiles.append(g);
  }
  svg.append(tiles);
  if (best) svg.append(bestMoveMark(best, board));

  const marks = s("g", { class: "marks" });
  for (const sp of spots) {
    const [r, c] = parseSpot(sp.spot);
    const [x, y] = tileXY(r, c);
    const hint = sp.hint || { fits: null, reason: "" };
    const label = `${sp.spot}${hint.fits === false ? ` — ${t("collapses")}: ${hint.reason}` : ""}`;
    const g = s(
      "g",
      {
        class: `spot${hint.fits === false ? " misfit" : ""}${opts.hint && opts.hint.spot === sp.spot ? " hint-best" : ""}`,
        transform: `translate(${x} ${y})`,
        "data-testid": "spot",
        "data-spot": sp.spot,
        tabindex: 0,
        role: "button",
        "aria-label": label,
      },
      s("title", {}, label),
      s("rect", { x: GAP + 1, y: GAP + 1, width: TW - 2 * GAP - 2, height: TH - 2 * GAP - 2, rx: 7 }),
      // words first: a "+" marks the spot; its row,col only with the notation shown
      s("text", { x: TW / 2, y: TH / 2 + 3, class: "spot-here" }, "+"),
      s("text", { x: TW / 2, y: TH / 2 + 1, class: "spot-label notation" }, sp.spot),
      s("text", { x: TW / 2, y: TH / 2 + 14, class: "spot-hint" }, hintMark(hint)),
    );
    const choose = (ev) => {
      ev.preventDefault();
      if (opts.onSpot) opts.onSpot(sp.spot);
    };
    g.addEventListener("click", choose);
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") choose(ev);
    });
    marks.append(g);
  }
  if (fall) {
    fall.targets.forEach((target, i) => {
      const [r, c] = parseSpot(target);
      const [x, y] = tileXY(r, c);
      const side = i === 0 ? "left" : "right";
      const g = s(
        "g",
        {
          class: `fall-target${fall.mine ? " mine" : ""}${opts.hint && opts.hint.spot === target ? " hint-best" : ""}`,
          transform: `translate(${x} ${y})`,
          "data-testid": "fall-spot",
          "data-side": side,
          "data-spot": target,
        },
        s("rect", { x: GAP + 1, y: GAP + 1, width: TW - 2 * GAP - 2, height: TH - 2 * GAP - 2, rx: 7 }),
        s("text", { x: TW / 2, y: TH / 2 + 5, class: "fall-arrow" }, i === 0 ? "↙" : "↘"),
      );
      if (fall.mine && opts.onFall) {
        g.setAttribute("role", "button");
        g.setAttribute("tabindex", "0");
        g.addEventListener("click", () => opts.onFall(side));
      }
      marks.append(g);
    });
  }
  svg.append(marks);
  return { minCol, maxCol, maxRow };
}

/** The outline of the search's best move at `hint.spot` (see drawPyramid's opts.hint): the
 * hinted tile drawn faintly on a free spot, and a thick dashed outline with a star. */
function bestMoveMark(hint, board) {
  const [r, c] = parseSpot(hint.spot);
  const [x, y] = tileXY(r, c);
  const label = hint.label || hint.spot;
  const g = s("g", {
    class: "hint-mark hint-best",
    transform: `translate(${x} ${y})`,
    "data-testid": "hint-spot",
    "data-spot": hint.spot,
    "data-tile": hint.tile || null,
    role: "img",
    "aria-label": label,
  });
  g.append(s("title", {}, label));
  if (hint.tile && !board.has(hint.spot)) {
    const ghost = drawTile(hint.tile, { class: "hint-ghost", "aria-hidden": "true" });
    ghost.querySelector("title")?.remove();
    g.append(ghost);
  }
  g.append(
    s("rect", { class: "hint-outline", x: GAP - 2, y: GAP - 2, width: TW - 2 * GAP + 4, height: TH - 2 * GAP + 4, rx: 8 }),
    s("text", { class: "hint-star", x: TW - 8, y: 4, "aria-hidden": "true" }, "★"),
  );
  return g;
}

/** The tile <g> at `spot` in a drawn pyramid, or null. */
export function tileElement(svg, spot) {
  return svg.querySelector(`g[data-testid=tile][data-spot="${spot}"]`);
}

/** Board map from a list of "TILE@r,c" strings. */
export function boardFromList(list) {
  const board = new Map();
  for (const item of list || []) {
    const p = parsePlaced(item);
    board.set(p.spot, p.tile);
  }
  return board;
}
