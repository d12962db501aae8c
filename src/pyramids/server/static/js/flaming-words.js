// Flaming Pyramids in words: an action as a log line ("{who} plays the red 40 on 1,1") or
// a button ("Play the red 40 on 1,1"), and the placement and fall events told the same way
// (registered with i18n.js's event words hook, so the table and the replay both use them).
// The notation stays in tooltips and behind the table's "Show notation" toggle.

import { parsePlaced, tileWords } from "./flaming-draw.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";

/** A seat as the event sentences name it ("seat 1", "le joueur 1"): withNames puts its name in. */
function seatRef(seat) {
  return t("event_seat", { seat });
}

/** The placement and the fall told in words, as the log's action lines ("Ann plays the red
 * 40 on 1,1", not "R40 at 1,1"; "lets the yellow 120 fall to the left, onto 0,4", not
 * "from 1,5 to 0,6"); every other event keeps the shared catalogue's sentence. */
function flamingEventWords(ev) {
  const d = ev.data || {};
  if (ev.kind === "place" && d.tile && d.at) {
    return t("act_place", { who: seatRef(d.seat), tile: tileWords(d.tile), spot: d.at });
  }
  if (ev.kind === "fall" && d.tile && d.to && (d.side === "left" || d.side === "right")) {
    return t("act_fall_to", { who: seatRef(d.seat), tile: tileWords(d.tile), side: t(`side_${d.side}`), spot: d.to });
  }
  return null;
}

// the page's event words hook (i18n.js); absent, the catalogue's sentences stand
if (typeof i18n.setEventWords === "function") i18n.setEventWords("flaming", flamingEventWords);

/** The log's events an action's own words already tell (not listed again under it). */
export const TOLD_BY_ACTION = new Set(["place", "fall", "check_ok"]);

/**
 * An action in words. form "log": a sentence about seat `seat` with "{who}" where its name
 * goes ("{who} plays the red 40 on 1,1"); form "button": what clicking does ("Play the
 * red 40 on 1,1"). `events` (the action's, in the log) name the tile that fell or was called.
 */
export function flamingActionWords(action, { events = [], form = "log", tile = null } = {}) {
  const log = form === "log";
  if (action.includes("@")) {
    const p = parsePlaced(action);
    return t(log ? "act_place" : "btn_place", { tile: tileWords(p.tile), spot: p.spot });
  }
  if (action === "left" || action === "right") {
    const fall = events.find((ev) => ev.kind === "fall");
    const what = (fall && fall.data && fall.data.tile) || tile;
    const side = t(`side_${action}`);
    if (fall && fall.data && fall.data.to && log) {
      return t(what ? "act_fall_to" : "act_fall_to_it", { tile: what ? tileWords(what) : "", side, spot: fall.data.to });
    }
    return t(log ? (what ? "act_fall" : "act_fall_it") : "btn_fall", { tile: what ? tileWords(what) : "", side });
  }
  if (action === "ok") return t(log ? "act_ok" : "btn_ok");
  if (action.startsWith("call:")) {
    const spot = action.slice("call:".length);
    const call = events.find((ev) => ev.kind === "call");
    const what = (call && call.data && call.data.tile) || tile;
    if (what) return t(log ? "act_call" : "btn_call", { tile: tileWords(what), spot });
    return t(log ? "act_call_spot" : "btn_call_spot", { spot });
  }
  if (action.startsWith("die:")) return t("act_die", { n: action.slice("die:".length) });
  return null;
}
