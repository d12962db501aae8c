// The Flaming Pyramids table: the pyramid, your hand, spots for the picked tile, the
// fall choice, the check of call-out mode, and each mayhem event played one at a time
// with a short animation. The view JSON is FlamingView.to_json (docs/PROTOCOL.md,
// contract §10 and §12).
//
// Call-out mode (rules option `callout`, contract §12): after each placement the next
// seat checks the pyramid (pending kind `check`). The checker gets "Looks fine" (`ok`)
// and every tile of the pyramid as a button that calls it (`call:r,c`). Nothing on the
// page tells whether mayhem stands: every tile is callable and drawn alike, and the
// server sends no fit hints during a check (nor at placements unless the table allows
// them). What a check led to is told only by the events that follow it: a call (the
// called tile is ringed, then the usual mayhem), a false alarm (a short notice), and the
// "Overlooked mayhem found" badge once a call with `overlooked: true` arrives, never before.
//
// A bot hint's best move (table-hint.js, `ctx.hintAction`) is outlined: the tile faint on its
// spot of the pyramid, the hand tile, the spot chip, or the fall target and its button.
// `isCheck` tells the page when no hint may be asked (a call-out check).

import {
  TH,
  TW,
  boardFromList,
  compareTiles,
  drawPyramid,
  fallTargets,
  fitHint,
  hintMark,
  installDefs,
  oneSupportSpots,
  parsePlaced,
  parseSpot,
  tileElement,
  tileSvg,
  tileTitle,
  tileWords,
  tileXY,
} from "./flaming-draw.js";
import { renderFlamingEnd } from "./flaming-end.js";
import { TOLD_BY_ACTION, flamingActionWords } from "./flaming-words.js";
import { t } from "./i18n.js";
import { capitalise, fill, h, replaySeatHead, s, sleep } from "./util.js";


/** Build the Flaming Pyramids parts of the table page; returns the game module. */
export function createGame(dom, ctx) {
  installDefs();
  const svg = s("svg", {
    class: "pyramid",
    "data-testid": "pyramid",
    role: "group",
    "aria-label": t("game_flaming"),
  });
  const notices = h("div", { class: "callout-notices", "aria-live": "polite" });
  fill(dom.gameArea, notices, h("div", { class: "pyramid-wrap" }, svg));

  const fallTitle = h("p", { class: "fall-title" });
  const fallLeft = h("button", { type: "button", class: "btn big fall-btn", "data-testid": "fall-left" });
  const fallRight = h("button", { type: "button", class: "btn big fall-btn", "data-testid": "fall-right" });
  const fallBox = h(
    "div",
    { class: "fall-choice", "data-testid": "fall-choice", hidden: true },
    fallTitle,
    h("div", { class: "fall-buttons" }, fallLeft, fallRight),
  );
  fallLeft.addEventListener("click", () => chooseFall("left"));
  fallRight.addEventListener("click", () => chooseFall("right"));

  const handTitle = h("h2", { class: "panel-title" });
  const handHint = h("p", { class: "hand-hint" });
  const hand = h("div", { class: "hand", "data-testid": "hand", role: "group" });
  const chips = h("div", { class: "spot-chips" });
  const handPanel = h(
    "section",
    { class: "hand-panel", hidden: true },
    h("div", { class: "hand-head" }, handTitle, handHint),
    hand,
    chips,
  );
  const checkTitle = h("p", { class: "check-title" });
  const checkHint = h("p", { class: "check-hint muted" });
  const checkOk = h("button", { type: "button", class: "btn big", "data-testid": "check-ok" });
  const checkBox = h(
    "div",
    { class: "check-choice", "data-testid": "check-panel", hidden: true },
    checkTitle,
    checkHint,
    h("div", { class: "check-buttons" }, checkOk),
  );
  checkOk.addEventListener("click", () => answerCheck("ok"));
  fill(dom.decision, checkBox, fallBox, handPanel);

  const outList = h("div", { class: "mini-tiles" });
  const outTitle = h("h2", { class: "panel-title" });
  const legendTitle = h("summary", {});
  const legendText = h("p", { class: "legend-text" });
  const legendKeys = h("p", { class: "legend-text muted" });
  const legendTiles = h("div", { class: "legend-tiles" });
  const calloutTitle = h("h2", { class: "panel-title" });
  const calloutText = h("p", { class: "legend-text" });
  const calloutHints = h("p", { class: "legend-text muted" });
  const calloutPanel = h(
    "section",
    { class: "panel callout-panel", "data-testid": "callout-panel", hidden: true },
    calloutTitle,
    calloutText,
    calloutHints,
  );
  fill(
    dom.gameSide,
    calloutPanel,
    h("section", { class: "panel out-panel" }, outTitle, outList),
    h("details", { class: "panel legend" }, legendTitle, legendTiles, legendText, legendKeys),
  );

  let selected = null;
  let frame = null;
  let leaning = new Set(); // spots of tiles resting on one support (the drawing's geometry)
  let sortedHand = [];
  // What the checks told so far (call-out mode): `found` is the badge of overlooked mayhem
  // found by a call (kept until the next check ends), `alarm` the false alarm of the state
  // on screen; both come from events only, and `seq` is the state they were read from.
  let notes = { seq: -1, found: null, alarm: null };

  function placements(msg) {
    const map = new Map();
    if (!ctx.isInteractive()) return map;
    for (const action of msg.legal || []) {
      if (!action.includes("@")) continue;
      const p = parsePlaced(action);
      if (!map.has(p.tile)) map.set(p.tile, []);
      map.get(p.tile).push(p.spot);
    }
    return map;
  }

  function fallInfo(msg) {
    const pending = msg.view && msg.view.pending;
    if (!pending || pending.kind !== "fall" || !pending.tile) return null;
    const p = parsePlaced(pending.tile);
    const legal = msg.legal || [];
    const mine = ctx.isInteractive() && legal.includes("left") && legal.includes("right");
    return { spot: p.spot, tile: p.tile, targets: fallTargets(p.spot), mine, player: pending.player };
  }

  /** The pending check (call-out mode): who checks, and what the viewer may answer. */
  function checkInfo(msg) {
    const pending = msg.view && msg.view.pending;
    if (!pending || pending.kind !== "check") return null;
    const calls = new Set();
    let ok = false;
    if (ctx.isInteractive() && pending.player === ctx.seat) {
      for (const action of msg.legal || []) {
        if (action === "ok") ok = true;
        else if (action.startsWith("call:")) calls.add(action.slice("call:".length));
      }
    }
    return { player: pending.player, mine: ok || calls.size > 0, ok, calls };
  }

  function answerCheck(action) {
    const msg = ctx.current;
    if (!msg) return;
    const check = checkInfo(msg);
    if (!check || !check.mine) return;
    if (action === "ok" ? !check.ok : !check.calls.has(action.slice("call:".length))) return;
    ctx.send(action);
  }

  function callTile(spot) {
    answerCheck(`call:${spot}`);
  }

  /** `notes` after the action `last` (its events, in order). */
  function readNotes(last, before, players, variant) {
    let found = before.found;
    let alarm = null;
    for (const ev of (last && last.events) || []) {
      const data = ev.data || {};
      if (ev.kind === "call") {
        found = data.overlooked ? foundNote(data, players, variant) : null;
      } else if (ev.kind === "check_ok" || ev.kind === "false_alarm") {
        found = null;
      }
      if (ev.kind === "false_alarm") alarm = { at: data.at, seat: data.seat };
    }
    return { seq: last ? last.seq : before.seq, found, alarm };
  }

  /** The badge of overlooked mayhem found by the call `data` (its seat is the checker;
   * the active player, whose turn it is, sits to its right). */
  function foundNote(data, players, variant) {
    const checker = Number(data.seat);
    const active = players ? (checker - 1 + players) % players : null;
    return { variant, active, at: data.at };
  }

  function variantOf(view) {
    const rules = (view && view.rules) || {};
    return rules.callout && rules.callout !== "off" ? rules.callout : null;
  }

  function updateNotes(msg) {
    if (!msg || msg.seq === notes.seq) return;
    const view = msg.view || {};
    notes = readNotes(msg.last, notes, view.players, variantOf(view));
    notes.seq = msg.seq;
  }

  function renderNotices() {
    const items = [];
    if (notes.found) {
      const cost =
        notes.found.variant === "competitive"
          ? t("overlooked_cost_competitive", { who: ctx.names[notes.found.active] ?? notes.found.active })
          : t("overlooked_cost_family");
      items.push(
        h(
          "span",
          { class: "badge overlooked", "data-testid": "overlooked-badge", "data-variant": notes.found.variant || "" },
          h("strong", {}, t("overlooked_found")),
          ` · ${cost}`,
        ),
      );
    }
    if (notes.alarm) {
      items.push(h("span", { class: "notice false-alarm", "data-testid": "false-alarm" }, t("false_alarm")));
    }
    if (leaning.size) {
      items.push(
        h("span", { class: "notice one-support-note", "data-testid": "one-support-note" }, t("one_support_note", { n: leaning.size })),
      );
    }
    fill(notices, items);
    notices.hidden = items.length === 0;
  }

  function renderCheck(msg) {
    const check = checkInfo(msg);
    if (!check || !check.mine) {
      checkBox.hidden = true;
      return check;
    }
    checkBox.hidden = false;
    checkTitle.textContent = t("check_title");
    checkHint.textContent = t("check_hint");
    checkOk.textContent = t("check_ok");
    checkOk.disabled = !check.ok;
    return check;
  }

  function renderCalloutPanel(view) {
    const variant = variantOf(view);
    calloutPanel.hidden = !variant;
    if (!variant) return;
    calloutTitle.textContent = t("callout_title", { variant: t(`opt_callout_${variant}`) });
    calloutText.textContent = `${t("callout_help")} ${t(`callout_help_${variant}`)}`;
    const settings = ctx.summary && ctx.summary.settings;
    calloutHints.textContent = settings && settings.hints === false ? t("callout_no_hints") : "";
  }

  function quenchedSet(view) {
    return new Set(view.quenched ? Object.keys(view.quenched) : []);
  }

  function chooseFall(side) {
    const msg = ctx.current;
    if (!msg) return;
    const fall = fallInfo(msg);
    if (!fall || !fall.mine) return;
    ctx.send(side);
  }

  function chooseSpot(spot) {
    if (!selected) return;
    const action = `${selected}@${spot}`;
    selected = null;
    ctx.send(action);
  }

  function pick(tile) {
    selected = selected === tile ? null : tile;
    render(ctx.current);
  }

  /** The search's best move (a bot hint, table-hint.js) as the drawing shows it: the spot
   * (and tile) it plays for drawPyramid, the hand tile, or the fall side; null: no hint. */
  function bestMove(msg, fall) {
    const action = ctx.hintAction ? ctx.hintAction(msg) : null;
    if (!action) return null;
    const label = capitalise(actionWords(action, { form: "button" }));
    if (action.includes("@")) {
      const p = parsePlaced(action);
      return { action, spot: p.spot, tile: p.tile, hand: p.tile, label };
    }
    if ((action === "left" || action === "right") && fall) {
      return { action, spot: fall.targets[action === "left" ? 0 : 1], tile: fall.tile, side: action, label };
    }
    if (action.startsWith("call:")) return { action, spot: action.slice("call:".length), label };
    return { action, label };
  }

  function renderHand(msg, places, best) {
    const view = msg.view;
    if (!Array.isArray(view.hand)) {
      handPanel.hidden = true;
      return;
    }
    handPanel.hidden = false;
    handTitle.textContent = t("your_hand");
    sortedHand = [...view.hand].sort(compareTiles);
    const interactive = places.size > 0;
    const state = ctx.turnState();
    handHint.textContent = !view.hand.length
      ? t("hand_empty")
      : interactive
        ? selected
          ? t("hand_hint_picked", { tile: tileWords(selected) })
          : t("hand_hint")
        : state.hand;
    handHint.dataset.phase = state.phase;
    fill(
      hand,
      sortedHand.map((tile, i) =>
        h(
          "button",
          {
            type: "button",
            class: `hand-tile${tile === selected ? " selected" : ""}${best && best.hand === tile ? " hint-best" : ""}`,
            "data-testid": "hand-tile",
            "data-tile": tile,
            disabled: !places.has(tile),
            "aria-pressed": String(tile === selected),
            title: tileTitle(tile),
            "aria-label": capitalise(tileWords(tile)),
            onclick: () => pick(tile),
          },
          tileSvg(tile),
          i < 9 ? h("span", { class: "key-hint", "aria-hidden": "true" }, String(i + 1)) : null,
        ),
      ),
    );
    const spots = selected ? places.get(selected) || [] : [];
    fill(
      chips,
      spots.length ? h("span", { class: "chips-label" }, t("spots_label", { tile: tileWords(selected) })) : null,
      spots.map((spot) => {
        const hint = fitHint(msg.hints, selected, spot);
        return h(
          "button",
          {
            type: "button",
            class: `chip spot-chip${hint.fits === false ? " misfit" : ""}${best && best.hand === selected && best.spot === spot ? " hint-best" : ""}`,
            "data-testid": "spot-button",
            "data-spot": spot,
            title: [
              `${capitalise(flamingActionWords(`${selected}@${spot}`, { form: "button" }))} (${selected}@${spot})`,
              hint.fits === false ? `${t("collapses")}: ${hint.reason}` : hint.fits ? t("fits") : "",
            ]
              .filter(Boolean)
              .join(" — "),
            onclick: () => chooseSpot(spot),
          },
          `${spot} ${hintMark(hint)}`.trim(),
        );
      }),
    );
  }

  function renderFall(msg, best) {
    const fall = fallInfo(msg);
    if (!fall || !fall.mine) {
      fallBox.hidden = true;
      return;
    }
    fallBox.hidden = false;
    fallLeft.classList.toggle("hint-best", Boolean(best && best.side === "left"));
    fallRight.classList.toggle("hint-best", Boolean(best && best.side === "right"));
    fallTitle.textContent = capitalise(t("fall_title", { tile: tileWords(fall.tile) }));
    fallTitle.title = `${fall.tile}@${fall.spot}`;
    fallLeft.textContent = `← ${t("fall_left", { spot: fall.targets[0] })}`;
    fallRight.textContent = `${t("fall_right", { spot: fall.targets[1] })} →`;
    fallLeft.title = "left";
    fallRight.title = "right";
  }

  function renderSide(view) {
    outTitle.textContent = t("out_title");
    fill(
      outList,
      view.out && view.out.length
        ? view.out.map((tile) => tileSvg(tile, "tile-svg mini"))
        : h("span", { class: "muted" }, t("none")),
    );
    legendTitle.textContent = t("legend_title");
    legendText.textContent = t("legend_text");
    legendKeys.textContent = t("keyboard_hint");
    if (!legendTiles.childElementCount) {
      for (const code of ["Y4", "R30", "G100", "B7", "W200"]) {
        legendTiles.append(tileSvg(code, "tile-svg legend-tile"));
      }
    }
  }

  function render(msg) {
    if (!msg || !msg.view) return;
    const view = msg.view;
    const board = boardFromList(view.pyramid);
    const places = placements(msg);
    if (selected && !places.has(selected)) selected = null;
    const fall = fallInfo(msg);
    const spots = selected
      ? (places.get(selected) || []).map((spot) => ({ spot, hint: fitHint(msg.hints, selected, spot) }))
      : [];
    updateNotes(msg);
    const check = renderCheck(msg);
    const callable = check && check.mine ? check.calls : null;
    // call-out games draw every tile alike (spotting what breaks a rule is the game there)
    leaning = variantOf(view) ? new Set() : oneSupportSpots(board);
    const best = bestMove(msg, fall);
    frame = drawPyramid(svg, board, {
      oneSupport: leaning,
      spots,
      fall,
      quenched: quenchedSet(view),
      onSpot: chooseSpot,
      onFall: chooseFall,
      callable,
      onTile: callTile,
      hint: best && best.spot ? best : null,
    });
    svg.classList.toggle("picking", spots.length > 0);
    svg.classList.toggle("checking", Boolean(callable && callable.size));
    checkOk.classList.toggle("hint-best", Boolean(best && best.action === "ok"));
    renderHand(msg, places, best);
    renderFall(msg, best);
    renderNotices();
    renderSide(view);
    renderCalloutPanel(view);
  }

  // --- animations ---------------------------------------------------------------------

  function bodyAt(spot) {
    const el = tileElement(svg, spot);
    return el ? el.querySelector(".tile-body") : null;
  }

  async function play(el, keyframes, duration) {
    if (!el || duration <= 0) return;
    const anim = el.animate(keyframes, { duration, easing: "ease-in-out", fill: "forwards" });
    try {
      await anim.finished;
    } catch {
      // cancelled: fine
    }
  }

  function overlayLayer() {
    let layer = svg.querySelector("g.fx");
    if (!layer) {
      layer = s("g", { class: "fx", "aria-hidden": "true" });
      svg.append(layer);
    }
    return layer;
  }

  function centre(spot) {
    const [r, c] = parseSpot(spot);
    const [x, y] = tileXY(r, c);
    return [x + TW / 2, y + TH / 2];
  }

  async function burst(spots, duration, colour = "url(#burst)") {
    const layer = overlayLayer();
    const circles = spots.map((spot) => {
      const [cx, cy] = centre(spot);
      const circle = s("circle", { cx, cy, r: 40, fill: colour, class: "burst" });
      layer.append(circle);
      return circle;
    });
    await Promise.all(
      circles.map((c) =>
        play(
          c,
          [
            { transform: "scale(0.2)", opacity: 1 },
            { transform: "scale(1.6)", opacity: 0 },
          ],
          duration,
        ),
      ),
    );
    circles.forEach((c) => c.remove());
  }

  /** A ring around the tile at `spot` (a called tile), pulsing for `duration` ms. */
  async function ring(spot, duration, className) {
    const [r, c] = parseSpot(spot);
    const [x, y] = tileXY(r, c);
    const mark = s("rect", {
      x: x - 3,
      y: y - 3,
      width: TW + 6,
      height: TH + 6,
      rx: 9,
      class: `call-ring ${className}`,
      "data-testid": "called-tile",
      "data-spot": spot,
    });
    overlayLayer().append(mark);
    await play(
      mark,
      [
        { opacity: 0, strokeWidth: "8px" },
        { opacity: 1, strokeWidth: "4px", offset: 0.25 },
        { opacity: 1, strokeWidth: "4px", offset: 0.8 },
        { opacity: 0, strokeWidth: "4px" },
      ],
      duration,
    );
    mark.remove();
  }

  async function flames(spots, duration) {
    const layer = overlayLayer();
    const groups = spots.map((spot) => {
      const [r, c] = parseSpot(spot);
      const [x, y] = tileXY(r, c);
      // the outer group places, the inner one is animated (a CSS transform would
      // replace the transform attribute)
      const g = s(
        "g",
        { class: "flames" },
        s("use", { href: "#mat-ember", x: 6, y: 4, width: 22, height: 30 }),
        s("use", { href: "#mat-ember", x: 22, y: -4, width: 24, height: 36 }),
        s("use", { href: "#mat-ember", x: 38, y: 5, width: 20, height: 28 }),
      );
      layer.append(s("g", { transform: `translate(${x} ${y})` }, g));
      return g;
    });
    await Promise.all([
      ...groups.map((g) =>
        play(
          g,
          [
            { opacity: 0, transform: "translateY(8px)" },
            { opacity: 1, transform: "translateY(0px)", offset: 0.3 },
            { opacity: 0.8, transform: "translateY(-4px)", offset: 0.6 },
            { opacity: 0, transform: "translateY(-14px)" },
          ],
          duration,
        ),
      ),
      ...spots.map((spot) => {
        // the tile catches fire, glows, chars black, then crumbles away
        tileElement(svg, spot)?.classList.add("on-fire");
        return play(
          bodyAt(spot),
          [
            { opacity: 1, filter: "none" },
            { opacity: 1, filter: "sepia(1) saturate(5) hue-rotate(-25deg) drop-shadow(0 0 6px #ff7a00)", offset: 0.25 },
            { opacity: 1, filter: "sepia(1) saturate(3) brightness(0.6) drop-shadow(0 0 8px #ff4500)", offset: 0.55 },
            { opacity: 0.9, filter: "grayscale(1) brightness(0.25)", offset: 0.8 },
            { opacity: 0, filter: "grayscale(1) brightness(0.1)", transform: "translateY(-6px)" },
          ],
          duration,
        );
      }),
    ]);
    groups.forEach((g) => g.parentNode.remove());
  }

  async function dropAway(spots, duration) {
    await Promise.all(
      spots.map((spot) =>
        play(
          bodyAt(spot),
          [
            { transform: "translate(0px, 0px) rotate(0deg)", opacity: 1 },
            { transform: "translate(-2px, 0px) rotate(-2deg)", opacity: 1, offset: 0.15 },
            { transform: "translate(2px, 0px) rotate(2deg)", opacity: 1, offset: 0.3 },
            { transform: "translate(0px, 34px) rotate(8deg)", opacity: 0 },
          ],
          duration,
        ),
      ),
    );
  }

  async function flyAway(spots, origin, duration) {
    const [ox, oy] = origin ? centre(origin) : [0, 0];
    await Promise.all(
      spots.map((spot) => {
        const [cx, cy] = centre(spot);
        const dx = (cx - ox || 1) * 0.8;
        const dy = (cy - oy || -1) * 0.8 - 20;
        return play(
          bodyAt(spot),
          [
            { transform: "translate(0px, 0px) rotate(0deg)", opacity: 1 },
            { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 25 : -25}deg)`, opacity: 0 },
          ],
          duration,
        );
      }),
    );
  }

  async function curseAway(spots, duration) {
    await Promise.all(
      spots.map((spot) =>
        play(
          bodyAt(spot),
          [
            { transform: "translateY(0px)", opacity: 1, filter: "none" },
            {
              transform: "translateY(-6px)",
              opacity: 1,
              filter: "drop-shadow(0 0 6px #8e44ad)",
              offset: 0.5,
            },
            { transform: "translateY(-30px)", opacity: 0, filter: "drop-shadow(0 0 10px #8e44ad)" },
          ],
          duration,
        ),
      ),
    );
  }

  async function animate(prev, msg) {
    const board = boardFromList(prev.view.pyramid);
    let fall = null;
    let burning = null;
    const quenched = quenchedSet(prev.view);
    const redraw = () => {
      frame = drawPyramid(svg, board, { fall, burning, quenched, frame });
    };
    // nothing to click while the story plays
    selected = null;
    fill(chips);
    for (const b of hand.querySelectorAll("button")) b.disabled = true;
    const state = ctx.turnState();
    handHint.textContent = state.hand;
    handHint.dataset.phase = state.phase;
    fallBox.hidden = true;
    checkBox.hidden = true;
    redraw();
    const seat = msg.last.seat;
    const view = msg.view || {};
    for (const ev of msg.last.events || []) {
      const d = (ms) => ms * ctx.speed();
      const data = ev.data || {};
      ctx.setReason(ev, seat);
      switch (ev.kind) {
        case "check_ok": {
          notes = { ...notes, found: null, alarm: null };
          renderNotices();
          await sleep(d(500));
          break;
        }
        case "false_alarm": {
          notes = { ...notes, found: null, alarm: { at: data.at, seat: data.seat } };
          renderNotices();
          await ring(data.at, d(1000), "wrong");
          break;
        }
        case "call": {
          notes = {
            ...notes,
            alarm: null,
            found: data.overlooked ? foundNote(data, view.players, variantOf(view)) : null,
          };
          renderNotices();
          await ring(data.at, d(900), "right");
          break;
        }
        case "place": {
          board.set(data.at, data.tile);
          redraw();
          await play(
            bodyAt(data.at),
            [
              { transform: "translateY(-40px)", opacity: 0 },
              { transform: "translateY(0px)", opacity: 1 },
            ],
            d(340),
          );
          await sleep(d(120));
          break;
        }
        case "free_air": {
          fall = { spot: data.at, targets: fallTargets(data.at), mine: false };
          redraw();
          await play(
            bodyAt(data.at),
            [
              { transform: "translateY(0px)" },
              { transform: "translateY(4px)" },
              { transform: "translateY(0px)" },
            ],
            d(500),
          );
          break;
        }
        case "collapse": {
          const gone = (data.collapsed || []).map((c) => c.at);
          fall = { spot: data.at, targets: fallTargets(data.at), mine: false };
          redraw();
          await dropAway(gone, d(700));
          gone.forEach((spot) => board.delete(spot));
          redraw();
          await sleep(d(200));
          break;
        }
        case "fall": {
          const tile = board.get(data.from) || data.tile;
          board.delete(data.from);
          board.set(data.to, tile);
          fall = null;
          redraw();
          const [r0, c0] = parseSpot(data.from);
          const [r1, c1] = parseSpot(data.to);
          const [x0, y0] = tileXY(r0, c0);
          const [x1, y1] = tileXY(r1, c1);
          await play(
            bodyAt(data.to),
            [
              { transform: `translate(${x0 - x1}px, ${y0 - y1}px)` },
              { transform: "translate(0px, 0px)" },
            ],
            d(450),
          );
          await sleep(d(150));
          break;
        }
        case "explosion": {
          const embers = (data.embers || []).map((c) => c.at);
          const victims = (data.victims || []).map((c) => c.at);
          await Promise.all([burst(embers, d(700)), flyAway([...embers, ...victims], embers[0], d(700))]);
          [...embers, ...victims].forEach((spot) => board.delete(spot));
          redraw();
          break;
        }
        case "die_explosion": {
          const victims = (data.victims || []).map((c) => c.at);
          burning = null;
          await Promise.all([burst([data.at], d(700)), flyAway([data.at, ...victims], data.at, d(700))]);
          [data.at, ...victims].forEach((spot) => board.delete(spot));
          redraw();
          break;
        }
        case "fire_found": {
          burning = data.at;
          redraw();
          await sleep(d(600));
          break;
        }
        case "fire": {
          const burnt = (data.burnt || []).map((c) => c.at);
          burning = data.at;
          redraw();
          await flames(burnt, d(900));
          burnt.forEach((spot) => board.delete(spot));
          burning = null;
          if (data.ember_removed) {
            redraw();
            await play(bodyAt(data.at), [{ opacity: 1 }, { opacity: 0, transform: "scale(0.6)" }], d(350));
            board.delete(data.at);
          }
          redraw();
          break;
        }
        case "quench": {
          burning = null;
          quenched.add(data.ember);
          redraw();
          await sleep(d(600));
          break;
        }
        case "curse": {
          const trio = (data.tiles || []).map((c) => c.at);
          await curseAway(trio, d(900));
          trio.forEach((spot) => board.delete(spot));
          redraw();
          break;
        }
        case "draw":
          await sleep(d(250));
          break;
        default:
          await sleep(d(700));
      }
    }
  }

  // --- text for the shared parts ---------------------------------------------------------

  /** The status line and the hand's words for a pending decision (the shared turnState
   * asks; the page's one source of whose turn it is). */
  function turnText(msg) {
    const view = msg.view || {};
    const pending = view.pending;
    const who = pending ? ctx.names[pending.player] ?? pending.player : "";
    if (pending && pending.kind === "fall" && pending.tile) {
      const tile = tileWords(parsePlaced(pending.tile).tile);
      if (pending.player === ctx.seat) return { text: t("turn_fall_you", { tile }), mine: true, hand: t("hand_fall_first") };
      return { text: t("turn_fall_other", { who, tile }), mine: false, hand: t("hand_wait_fall", { who }) };
    }
    if (pending && pending.kind === "die") {
      return { text: t("turn_die", { who }), mine: false, hand: t("hand_wait_die") };
    }
    if (pending && pending.kind === "check") {
      if (pending.player === ctx.seat) return { text: t("turn_check_you"), mine: true, hand: t("hand_check_first") };
      return { text: t("turn_check_other", { who }), mine: false, hand: t("hand_wait_check", { who }) };
    }
    return null;
  }

  /** The words under the board before the first move: the leftover tiles that start the
   * pyramid (a 2-player deal, FP-SETUP-2), else null (the shared "Waiting for the first move."). */
  function restingText(msg) {
    const pyramid = (msg.view && msg.view.pyramid) || [];
    if (!pyramid.length) return null;
    const tiles = pyramid.map((item) => tileWords(parsePlaced(item).tile)).join(", ");
    return t(pyramid.length === 1 ? "leftover_start_one" : "leftover_start", { n: pyramid.length, tiles });
  }

  function actionWords(action, opts) {
    const pending = ctx.current && ctx.current.view && ctx.current.view.pending;
    let tile = null;
    if (opts.form === "button" && pending && pending.tile) tile = parsePlaced(pending.tile).tile;
    if (opts.form === "button" && action.startsWith("call:")) {
      const board = boardFromList(ctx.current.view.pyramid);
      tile = board.get(action.slice("call:".length)) || null;
    }
    return flamingActionWords(action, { ...opts, tile });
  }

  function seatDetails(view, seat) {
    if (!view) return null;
    const known =
      seat !== ctx.seat && view.hand_known && view.hand_known[seat] && view.hand_known[seat].length
        ? h(
            "div",
            { class: "seat-known" },
            h("span", { class: "muted" }, t("seat_known")),
            view.hand_known[seat].map((tile) => tileSvg(tile, "tile-svg mini")),
          )
        : null;
    return h(
      "div",
      { class: "seat-body" },
      h(
        "div",
        { class: "seat-stats" },
        h("span", { class: "stat", "data-stat": "hand" }, h("b", {}, String(view.hand_sizes?.[seat] ?? "?")), ` ${t("seat_hand")}`),
        h("span", { class: "stat", "data-stat": "pile" }, h("b", {}, String(view.pile_sizes?.[seat] ?? "?")), ` ${t("seat_pile")}`),
      ),
      known,
    );
  }

  function rankingDetail(view, seat) {
    if (!view || !view.hand_sizes) return "";
    return t("tiles_left", { n: (view.hand_sizes[seat] || 0) + (view.pile_sizes[seat] || 0) });
  }

  function onKey(ev) {
    const msg = ctx.current;
    if (!msg || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (/^[1-9]$/.test(ev.key)) {
      const tile = sortedHand[Number(ev.key) - 1];
      const places = placements(msg);
      if (tile && places.has(tile)) {
        pick(tile);
        ev.preventDefault();
      }
    } else if (ev.key === "Escape" && selected) {
      selected = null;
      render(msg);
    } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      const fall = fallInfo(msg);
      if (fall && fall.mine) {
        ev.preventDefault();
        chooseFall(ev.key === "ArrowLeft" ? "left" : "right");
      }
    }
  }

  return {
    name: "flaming",
    render,
    isCheck: (msg) => Boolean(msg && msg.view && msg.view.pending && msg.view.pending.kind === "check"),
    animate,
    turnText,
    restingText,
    actionWords,
    toldByAction: TOLD_BY_ACTION,
    renderEnd: renderFlamingEnd,
    seatDetails,
    rankingDetail,
    onKey,
    relang: () => render(ctx.current),
  };
}

/** Whether a replay step's events hold a call that found overlooked mayhem. */
function foundOverlooked(step) {
  return (step.events || []).some((ev) => ev.kind === "call" && ev.data && ev.data.overlooked);
}

/** Whether overlooked mayhem began to stand at this step (the full position says so once
 * the game is over: `overlooked` of the position JSON). */
function overlookedHere(step, previous) {
  return Boolean(step.state && step.state.overlooked) && !(previous && previous.state && previous.state.overlooked);
}

/** The replay page's drawer: a finished game's full positions (every hand shown). In a
 * call-out game, where mayhem was overlooked and where it was found are marked: nothing is
 * hidden once the game is over. */
export function createReplay(dom) {
  installDefs();
  const svg = s("svg", { class: "pyramid", "data-testid": "pyramid", role: "group" });
  const notes = h("div", { class: "callout-notices", "data-testid": "replay-notes" });
  fill(dom.area, notes, h("div", { class: "pyramid-wrap" }, svg));
  return {
    // a step in words, as on the table: form "log" says "{who} plays the red 40 on 1,1"
    actionWords: (action, { events = [], form = "log" } = {}) => flamingActionWords(action, { events, form }),
    toldByAction: TOLD_BY_ACTION,
    marksTitle: () => t("replay_marks"),
    marks(steps) {
      const marks = [];
      steps.forEach((step, i) => {
        if (i > 0 && overlookedHere(step, steps[i - 1])) {
          marks.push({ index: i, kind: "overlooked", text: t("replay_mark_overlooked", { n: step.seq }) });
        }
        if (foundOverlooked(step)) {
          marks.push({ index: i, kind: "found", text: t("replay_mark_found", { n: step.seq }) });
        }
      });
      return marks;
    },
    render(state, names, at = {}) {
      const pending = state.pending && state.pending.kind === "fall" ? state.pending : null;
      let fall = null;
      if (pending) {
        const spot = pending.tile.split("@")[1];
        const [r, c] = spot.split(",").map(Number);
        fall = { spot, targets: [`${r - 1},${c - 1}`, `${r - 1},${c + 1}`], mine: false };
      }
      const items = [];
      const step = at.step || null;
      if (step && foundOverlooked(step)) {
        items.push(h("span", { class: "badge overlooked", "data-testid": "replay-found" }, t("replay_found")));
      } else if (step && overlookedHere(step, at.previous)) {
        items.push(h("span", { class: "badge overlooked", "data-testid": "replay-overlooked" }, t("replay_overlooked_here")));
      } else if (state.overlooked) {
        items.push(h("span", { class: "badge overlooked muted", "data-testid": "replay-overlooked" }, t("replay_overlooked_stands")));
      }
      if (state.pending && state.pending.kind === "check") {
        const who = names[state.pending.player] ?? state.pending.player;
        items.push(h("span", { class: "badge" }, t("replay_check", { who })));
      }
      fill(notes, items);
      drawPyramid(svg, boardFromList(state.pyramid), { fall });
      fill(
        dom.hands,
        (state.hands || []).map((hand, seat) =>
          h(
            "div",
            { class: "replay-hand seat", "data-seat": seat },
            replaySeatHead(state, seat, names),
            h("div", { class: "mini-tiles" }, hand.map((tile) => tileSvg(tile, "tile-svg mini"))),
            h(
              "div",
              { class: "seat-stats" },
              h("span", {}, h("b", {}, String(hand.length)), ` ${t("seat_hand")}`),
              h("span", {}, h("b", {}, String((state.piles || [])[seat]?.length ?? 0)), ` ${t("seat_pile")}`),
            ),
          ),
        ),
      );
    },
  };
}
