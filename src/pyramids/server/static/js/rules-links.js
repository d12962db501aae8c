// Links from the other pages to the rules pages (/rules/flaming, /rules/flags): the anchor
// of the rule behind each lobby option, the option's one-line explanation with its link
// (used where lobby.js renders the options), and the table page's "Rules" link.

import { has, lang, t } from "./i18n.js";
import { h, tableIdFromPath } from "./util.js";

/** The rules section (anchor on the game's rules page) behind each lobby option. */
export const RULE_ANCHORS = {
  flaming: {
    preset: "presets",
    curse: "curse",
    fire_die: "fire-die",
    callout: "callout",
    hints: "fit-hints",
    max_turns: "turn-limit",
    first_player: "first-player",
  },
  flags: {
    preset: "presets",
    actions: "trees",
    max_turns: "turn-limit",
    first_player: "setup",
  },
};

/** The rules page of a game, at the section of `option` when it has one. */
export function rulesHref(game, option = null) {
  const anchor = option ? (RULE_ANCHORS[game] || {})[option] : null;
  return `/rules/${encodeURIComponent(game)}${anchor ? `#${anchor}` : ""}`;
}

/** An option's one-line explanation: this file's words, else the server's help. */
function optionLine(game, field) {
  const key = `rules_opt_${game}_${field.name}`;
  if (has(key)) return t(key);
  return (lang() === "fr" && field.help_fr) || field.help || "";
}

/**
 * The line under a lobby option: what it does in one line and a link to its rule.
 * `field` is the option's descriptor from GET /api/games ({name, help, help_fr}), or
 * {name: "preset"} / {name: "hints"} for the rules select and the table's hints box.
 */
export function optionRuleLine(game, field) {
  const anchor = (RULE_ANCHORS[game] || {})[field.name];
  return h(
    "p",
    { class: "option-rule muted", "data-testid": `option-rule-${field.name}` },
    optionLine(game, field),
    anchor
      ? [
          " ",
          h(
            "a",
            {
              href: rulesHref(game, field.name),
              target: "_blank",
              rel: "noopener",
              "data-testid": "rule-link",
              "data-option": field.name,
            },
            t("rules_see_rule"),
          ),
        ]
      : null,
  );
}

/** `el` (an option's input as lobby.js renders it) with its rule line under it. */
export function withRuleLine(game, field, el) {
  return h("div", { class: "option-with-rule" }, el, optionRuleLine(game, field));
}

/** Keep the line under the rules select (`select`, in its label) for `game` up to date. */
export function presetRuleLine(select, game) {
  const label = select.closest("label") || select;
  const next = label.nextElementSibling;
  if (next && next.classList.contains("option-rule")) next.remove();
  label.after(optionRuleLine(game, { name: "preset" }));
}

/** The table page: point its "Rules" link (data-testid=rules-link) at the table's game. */
async function wireTableLink() {
  const link = document.querySelector("[data-testid=rules-link]");
  const id = tableIdFromPath();
  if (!link || !id) return;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(id)}`);
    if (!response.ok) return;
    const table = await response.json();
    if (table && table.game) link.setAttribute("href", rulesHref(table.game));
  } catch {
    // the link keeps its default (the list of rules pages)
  }
}

if (typeof document !== "undefined" && document.body && document.body.classList.contains("page-table")) {
  wireTableLink();
}
