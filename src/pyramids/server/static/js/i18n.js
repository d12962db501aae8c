// The language switch and the pages' words, English and French.
//
// Every word is in the one message catalogue of pyramids.texts (src/pyramids/texts/messages/
// <lang>/*.json, the same JSON the terminal and the server read), served merged at
// /texts/<lang>.json and formatted by messageformat.js. The pages' own words are the entries
// web.<key> (messages/<lang>/web*.json); rules events are <game>.<kind>, told from the event's
// game, kind and data (for an event the catalogue lacks, the server's own text_en / text_fr,
// made from the same catalogue, stand in). t(key, params) formats web.<key>; elements with
// data-i18n="key" (text) or data-i18n-attr="attr:key;attr:key" are translated in place by
// applyTranslations(), and again whenever the language changes.
//
// Start-up: this module loads both languages' catalogues before it finishes evaluating (a
// top-level await), so every module that imports it runs, and draws its first page, with
// the words already there: a page never shows a key while the words load.

import { formatMessage, numberText } from "./messageformat.js";

export const LANGS = ["en", "fr"];
const STORAGE_KEY = "pyramids.lang";
const PAGE_PREFIX = "web.";
const listeners = new Set();
const ENTRIES = {}; // lang -> the merged catalogue of pyramids.texts

/** Fetch the catalogue of every language (a failed fetch leaves that language empty: the
 * pages then show keys, and events the server's texts). */
async function loadCatalogues() {
  if (typeof fetch !== "function") return;
  await Promise.all(
    LANGS.map((code) =>
      fetch(`/texts/${code}.json`)
        .then((r) => (r.ok ? r.json() : null))
        .then((entries) => {
          if (entries) ENTRIES[code] = entries;
        })
        .catch(() => {}),
    ),
  );
}

await loadCatalogues();

function initialLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    // storage may be unavailable (private mode): fall back to the browser's language
  }
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

let current = initialLang();

/** The current language code ("en" or "fr"). */
export function lang() {
  return current;
}

/** A catalogue lookup in `code`, English when `code` lacks the key. */
function lookupIn(code) {
  const entries = ENTRIES[code] || {};
  const english = ENTRIES.en || {};
  return (key) => entries[key] ?? english[key];
}

/** The page's entry `key` (catalogue key web.<key>) in the current language, filled with
 * `params`; the key itself when the catalogue lacks it. A placeholder whose parameter is
 * missing stays as written ("{n}"). */
export function t(key, params = {}) {
  const lookup = lookupIn(current);
  const text = lookup(PAGE_PREFIX + key);
  if (text === undefined) return key;
  try {
    return formatMessage(text, params, lookup);
  } catch {
    return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }
}

/** Whether the catalogue has the page entry `key`. */
export function has(key) {
  return PAGE_PREFIX + key in (ENTRIES.en || {});
}

/** Every page entry in `code`, by the key t() takes (the i18n-gap test reads it). */
export function catalogue(code) {
  const out = {};
  for (const [key, text] of Object.entries(ENTRIES[code] || {})) {
    if (key.startsWith(PAGE_PREFIX)) out[key.slice(PAGE_PREFIX.length)] = text;
  }
  return out;
}

/** `value` in the current language's way, as the catalogue's {x, number, N} writes it:
 * "1,234.5" / "1 234,5", a true minus, "+" before positives when `sign`, "–" for null. */
export function formatNumber(value, digits = 0, { sign = false } = {}) {
  const lookup = lookupIn(current);
  const group = lookup("number.group") ?? ",";
  return numberText(value, digits, { sign, group, decimal: lookup("number.decimal") ?? "." });
}

/** The fraction `value` as a percentage in the current language, as {x, number, N%}
 * writes it: "61.6%" / "61,6 %" (U+202F before the sign), "–" for null. */
export function formatPercent(value, digits = 1, { sign = false } = {}) {
  const lookup = lookupIn(current);
  const style = `${sign ? "+" : ""}${digits}%`;
  return formatMessage(`{x, number, ${style}}`, { x: value ?? null }, lookup);
}

const EVENT_WORDS = new Map(); // game -> (event) => its sentence, or null for the catalogue's

/** Let a game's table module tell its events in its own words (Pyramids and Flags names
 * countries and pyramids); `words(event)` returns null to keep the catalogue's. */
export function setEventWords(game, words) {
  EVENT_WORDS.set(game, words);
}

/** The catalogue entry `key`, any key (`refusal.<code>`, `<game>.<kind>`, `web.<key>`...),
 * in `code` (English when `code` lacks it), filled with the facts `data`; null when the
 * catalogue has no such entry or a fact is missing. */
export function message(key, data = {}, code = current) {
  if (!ENTRIES[code]) return null;
  const lookup = lookupIn(code);
  const text = lookup(key);
  if (text === undefined) return null;
  try {
    return formatMessage(text, data, lookup);
  } catch {
    return null;
  }
}

/** An event's sentence in `code` from the shared catalogue, or null when it cannot. */
export function formatEvent(event, code = current) {
  if (!event || !event.game) return null;
  return message(`${event.game}.${event.kind}`, event.data || {}, code);
}

/** An event's one-line reason in the current language (catalogue, else the server's text). */
export function eventText(event) {
  if (!event) return "";
  const own = EVENT_WORDS.get(event.game);
  const words = own ? own(event) : null; // a game's own words first
  if (words) return words;
  const formatted = formatEvent(event);
  if (formatted !== null) return formatted;
  return (current === "fr" ? event.text_fr : event.text_en) || event.text_en || "";
}

/** Translate every element under `root` marked with data-i18n / data-i18n-attr. */
export function applyTranslations(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
  document.documentElement.lang = current;
}

/** Switch language, remember it, re-translate the page and tell the listeners. */
export function setLang(code) {
  if (!LANGS.includes(code)) return;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // not remembered, still switched
  }
  applyTranslations();
  markLangButtons();
  for (const fn of listeners) fn(code);
}

/** Call `fn(lang)` after every language change. */
export function onLangChange(fn) {
  listeners.add(fn);
}

function markLangButtons() {
  for (const code of LANGS) {
    for (const btn of document.querySelectorAll(`[data-testid=lang-${code}]`)) {
      btn.setAttribute("aria-pressed", String(code === current));
    }
  }
}

/** Wire the lang-en / lang-fr buttons of the page and translate it once. */
export function initI18n() {
  for (const code of LANGS) {
    for (const btn of document.querySelectorAll(`[data-testid=lang-${code}]`)) {
      btn.addEventListener("click", () => setLang(code));
    }
  }
  applyTranslations();
  markLangButtons();
}
