// Small helpers shared by every page: building DOM, calling the HTTP API, toasts,
// seat names, and the seat tokens this browser holds.

import { has, lang, t } from "./i18n.js";
import { csrfHeaders, getSession } from "./session.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child…). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of `el`, then append `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An error from the API: `code` and `message` as the server sent them; a refusal with
 * words also has `refusal` ({code, data}) and `text_en` / `text_fr` (docs/PROTOCOL.md). */
export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
    this.refusal = null;
    this.text_en = null;
    this.text_fr = null;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function send(path, method, body, write) {
  if (write) await getSession(); // the CSRF token of a logged-in browser
  const headers = write ? { ...csrfHeaders() } : {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    return await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch (err) {
    throw new ApiError("network", String(err));
  }
}

/**
 * Call the JSON API; resolves to the parsed body, rejects with an ApiError. A write
 * (not GET) carries the session's X-CSRF-Token when logged in; refused for a stale
 * token (the session changed in another tab), it asks for the session again and retries once.
 */
export async function api(path, { method = "GET", body } = {}) {
  const write = !SAFE_METHODS.has(method.toUpperCase());
  let response = await send(path, method, body, write);
  if (write && response.status === 403) {
    const code = await response
      .clone()
      .json()
      .then((d) => d && d.error && d.error.code)
      .catch(() => null);
    if (code === "csrf") {
      await getSession({ refresh: true });
      response = await send(path, method, body, write);
    }
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    const detail = data && data.detail ? JSON.stringify(data.detail) : response.statusText;
    const failure = new ApiError(error.code || "http", error.message || detail, response.status);
    // a refusal's code, facts and words in every language (shown in the page's language)
    if (error.refusal) failure.refusal = error.refusal;
    if (typeof error.text_en === "string") failure.text_en = error.text_en;
    if (typeof error.text_fr === "string") failure.text_fr = error.text_fr;
    // a refusal for going too fast says when to ask again (429 rate_limited, seconds)
    const retryAfter = Number(response.headers.get("Retry-After"));
    if (Number.isFinite(retryAfter) && retryAfter > 0) failure.retryAfter = retryAfter;
    // a refused action that used an invite still bound the seat: its credential (issue 29)
    if (error.seat_token) failure.seatToken = error.seat_token;
    throw failure;
  }
  return data;
}

/** The refusal's own words in the page's language, as the server sent them with the
 * error (`text_en` / `text_fr` of an HTTP error body or a socket `error` message), or
 * null when the error has none (the server's English `message` is then all there is). */
export function refusalWords(error) {
  const words = error ? error[`text_${lang()}`] : null;
  return typeof words === "string" && words ? words : null;
}

/**
 * A server error (code, message) in the current language. `error` is the error as the
 * server sent it (an ApiError or the socket's `error` message): when it carries the
 * refusal's words in the page's language, they are said in place of the English message
 * (after the words of the code, e.g. "Ce coup n'est pas permis ici. C'est à la place 1…").
 */
export function errorText(code, message, error = null) {
  const key = `err_${code}`;
  if (code === "network") return t("err_network");
  const words = refusalWords(error);
  if (words !== null) {
    if (!has(key)) return capitalise(words);
    const entry = t(key);
    return entry.includes("{message}") ? t(key, { message: words }) : `${entry} ${sentence(words)}`;
  }
  return has(key) ? t(key, { message }) : t("err_generic", { message: message || code });
}

/** `text` as a sentence of its own: a capital first letter and a full stop. */
function sentence(text) {
  const out = capitalise(text.trim());
  return /[.!?…]$/.test(out) ? out : `${out}.`;
}

let toastBox = null;

/** Show a short message at the bottom of the screen; kind "error" stays longer. */
export function toast(text, kind = "info") {
  if (!toastBox) {
    toastBox = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  const item = h("div", { class: `toast toast-${kind}`, "data-testid": "toast" }, text);
  toastBox.append(item);
  const ttl = kind === "error" ? 6000 : 2500;
  setTimeout(() => {
    item.classList.add("leaving");
    setTimeout(() => item.remove(), 400);
  }, ttl);
  item.addEventListener("click", () => item.remove());
}

/** Names to show for each seat: the table's names, made unique. */
export function seatNames(seats, count) {
  const names = [];
  for (let i = 0; i < count; i++) {
    const seat = seats && seats[i];
    let name = seat && seat.name ? String(seat.name) : t("seat_label", { n: i + 1 });
    names.push(name);
  }
  const seen = new Map();
  for (const name of names) seen.set(name, (seen.get(name) || 0) + 1);
  return names.map((name, i) => (seen.get(name) > 1 ? `${name} (${i + 1})` : name));
}

/**
 * An event text with "seat N" replaced by the seat's name, so the table reads
 * "Ann plays R40 at 1,1" rather than "seat 0 plays …" (seats count from 0 in the engine).
 */
export function withNames(text, names) {
  if (!text || !names || !names.length) return text || "";
  const name = (n) => names[Number(n)] ?? n;
  if (lang() === "fr") {
    return text
      .replace(/\b(du|au) joueur (\d+)\b/g, (m, art, n) => {
        const who = name(n);
        const vowel = /^[aeiouyhàâéèêëîïôöûüAEIOUYHÉÈ]/.test(who);
        if (art === "du") return vowel ? `d'${who}` : `de ${who}`;
        return vowel ? `à ${who}` : `à ${who}`;
      })
      .replace(/\b[Ll]e joueur (\d+)\b/g, (m, n) => name(n))
      .replace(/\bjoueur (\d+)\b/g, (m, n) => name(n));
  }
  return text
    .replace(/\b[Ss]eat (\d+)'s\b/g, (m, n) => `${name(n)}'s`)
    .replace(/\b[Ss]eat (\d+)\b/g, (m, n) => name(n));
}

/** Capitalise the first letter (event texts begin in lower case). */
export function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

const TOKENS_KEY = "pyramids.seats";

/** Seats this browser holds: [{table, seat, token, name, game}], newest first. */
export function heldSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(TOKENS_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Remember that this browser holds `token` for seat `seat` of `table`. */
export function rememberSeat(entry) {
  const list = heldSeats().filter((e) => !(e.table === entry.table && e.seat === entry.seat));
  list.unshift({ ...entry, at: Date.now() });
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(list.slice(0, 30)));
  } catch {
    // not remembered: the invite link still works
  }
}

/** Forget a held seat. */
export function forgetSeat(table, seat) {
  const list = heldSeats().filter((e) => !(e.table === table && e.seat === seat));
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(list));
  } catch {
    // nothing to do
  }
}

/** The table id in a path like /t/{id} or /t/{id}/replay. */
export function tableIdFromPath() {
  const match = location.pathname.match(/\/t\/([^/]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** A short relative date ("3 min ago") in the current language. */
export function relativeTime(iso) {
  if (!iso) return "";
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const secs = Math.round((then - Date.now()) / 1000);
  const fmt = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  const abs = Math.abs(secs);
  if (abs < 60) return fmt.format(secs, "second");
  if (abs < 3600) return fmt.format(Math.round(secs / 60), "minute");
  if (abs < 86400) return fmt.format(Math.round(secs / 3600), "hour");
  return fmt.format(Math.round(secs / 86400), "day");
}

/** Whether the user asked for less motion. */
export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A replay seat's name line: colour dot, name, a star for the winner. */
export function replaySeatHead(state, seat, names) {
  return h(
    "div",
    { class: "seat-head" },
    h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
    h("span", { class: "seat-name" }, names[seat] ?? seat),
    state.winner === seat ? h("span", { class: "badge turn" }, "★") : null,
  );
}
