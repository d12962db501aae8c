// The player's page's and the leaderboard's numbers (their words are the catalogue's:
// pyramids/texts/messages/<lang>/web-players.json).

import { formatNumber } from "./i18n.js";

/** A rating as shown (one decimal in the page's language, the minus sign typographic). */
export function ratingText(value) {
  return formatNumber(Number(value), 1);
}
