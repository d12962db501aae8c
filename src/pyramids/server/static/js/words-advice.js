// The search's advice in words (issue 30): the lobby's "Bot hints" box, the table's Hint
// button and panel (table-hint.js), the replay's computer analysis (replay-analysis.js,
// analysis-chart.js), and the error codes of the hint and analysis endpoints. The words are
// the catalogue's (pyramids/texts/messages/<lang>/web-advice.json); a percentage is written
// by `percent` with the catalogue's number formatter ("62%", "62 %").

import { formatPercent, has, t } from "./i18n.js";

/** A chance (0..1) as a whole percentage in the page's language ("62%", "62 %"). */
export function percent(value) {
  return formatPercent(Math.max(0, Math.min(1, Number(value) || 0)), 0);
}

/** "1 mistake", "3 mistakes" (`what`: decisions or mistakes). */
export function counted(what, n) {
  return t(n === 1 ? `analysis_${what}_one` : `analysis_${what}_n`, { n });
}

/** A hint's or an analysis's refusal in words, by its code (never the server's message):
 * the hint's own sentence when there is one, else the page's sentence for the code. */
export function adviceError(code, { retryAfter = 0 } = {}) {
  if (has(`hint_err_${code}`)) return t(`hint_err_${code}`, { s: Math.max(1, Math.round(retryAfter || 1)) });
  if (code === "network") return t("err_network");
  // (a sentence made to end with the server's message ends where it would begin)
  return t(has(`err_${code}`) ? `err_${code}` : "err_http", { message: "" }).replace(/\s*:\s*$/, ".");
}
