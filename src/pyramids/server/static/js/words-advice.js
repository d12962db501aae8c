// The search's advice in words, English and French (issue 30): the lobby's "Bot hints" box,
// the table's Hint button and panel (table-hint.js), the replay's computer analysis
// (replay-analysis.js, analysis-chart.js), and the error codes of the hint and analysis
// endpoints. A percentage is written by `percent` in the page's language ("62%", "62 %").

import { addMessages, has, lang, t } from "./i18n.js";

addMessages(
  {
    // lobby
    field_bot_hints: "Bot hints (best moves with win chances)",
    bot_hints_hint:
      "A seated player may ask the search for its best moves at their turn, each with its chance to win. Off by default at rated tables and in call-out games.",
    // the table's Hint
    hint_button: "Hint",
    hint_button_title: "Ask the search for its best moves here, each with its chance to win",
    hint_title: "The search's best moves",
    hint_thinking: "Thinking…",
    hint_queue: "Thinking… {n} ahead of you in the queue",
    hint_win: "{p} to win",
    hint_drawn: "The best move is outlined on the table.",
    hint_cost: "{n} simulations in {s} s",
    hint_best_badge: "best",
    hint_err_hints_off: "This table does not allow bot hints.",
    hint_err_bad_token: "Only a seated player may ask for a hint.",
    hint_err_not_your_turn: "A hint is given at your own turn only.",
    hint_err_stale: "The game moved on before the hint came: ask again.",
    hint_err_check: "No hint during a check: spotting the mayhem is the game.",
    hint_err_not_running: "The game is not being played: no hint.",
    hint_err_rate_limited: "Too many requests: asking again in {s} s.",
    hint_err_busy: "The server's search queue is full: try again in a moment.",
    // the replay's analysis
    analysis_title: "Computer analysis",
    analysis_button: "Analyse this game",
    analysis_intro:
      "The search judges every decision from the deciding player's view: the chance to win before the move (with the search's preferred move) and after the move played. A drop of {n} points or more is a mistake.",
    analysis_queue: "Analysing… {n} ahead in the queue",
    analysis_running: "Analysing…",
    analysis_again: "Try again",
    analysis_summary: "{decisions} judged, {mistakes}; {it} simulations per decision.",
    analysis_decisions_one: "1 decision",
    analysis_decisions_n: "{n} decisions",
    analysis_mistakes_one: "1 mistake",
    analysis_mistakes_n: "{n} mistakes",
    analysis_chart_title: "Estimated chance to win at each decision",
    analysis_chart_x: "actions",
    analysis_chart_seat: "{who}: {a} at the first decision, {b} at the last; {mistakes}",
    analysis_legend_mistake: "mistake",
    analysis_list_title: "Every decision",
    analysis_none: "No decision to judge in this game.",
    analysis_action_n: "Action {n}",
    analysis_before_after: "chance to win {a} → {b}",
    analysis_best: "Best: {move} ({p})",
    analysis_mistake: "Mistake: −{n} points",
    analysis_played_by: "played by a bot for the player",
    analysis_jump: "Show action {n} in the replay",
    // error codes of the hint and analysis endpoints (docs/PROTOCOL.md)
    err_hints_off: "This table does not allow bot hints.",
    err_not_your_turn: "It is not your turn.",
    err_check: "Not during a call-out check.",
    err_not_running: "The game is not being played.",
    err_busy: "The server is busy: try again in a moment.",
    err_spectator: "Only a seated player may ask for a hint.",
    err_no_analysis: "This game's record cannot be analysed.",
  },
  {
    field_bot_hints: "Conseils du robot (meilleurs coups et chances de gagner)",
    bot_hints_hint:
      "Un joueur assis peut demander à la recherche ses meilleurs coups à son tour, chacun avec sa chance de gagner. Désactivés par défaut aux tables classées et dans les parties à signalement.",
    hint_button: "Conseil",
    hint_button_title: "Demander à la recherche ses meilleurs coups ici, chacun avec sa chance de gagner",
    hint_title: "Les meilleurs coups selon la recherche",
    hint_thinking: "Réflexion…",
    hint_queue: "Réflexion… {n} avant vous dans la file d'attente",
    hint_win: "{p} de chances de gagner",
    hint_drawn: "Le meilleur coup est entouré sur la table.",
    hint_cost: "{n} simulations en {s} s",
    hint_best_badge: "meilleur",
    hint_err_hints_off: "Cette table n'autorise pas les conseils du robot.",
    hint_err_bad_token: "Seul un joueur assis peut demander un conseil.",
    hint_err_not_your_turn: "Un conseil n'est donné qu'à votre tour.",
    hint_err_stale: "La partie a avancé avant le conseil : redemandez.",
    hint_err_check: "Pas de conseil pendant une vérification : repérer le chaos, c'est le jeu.",
    hint_err_not_running: "La partie n'est pas en cours : pas de conseil.",
    hint_err_rate_limited: "Trop de demandes : nouvel essai dans {s} s.",
    hint_err_busy: "La file d'attente des recherches du serveur est pleine : réessayez dans un instant.",
    analysis_title: "Analyse par ordinateur",
    analysis_button: "Analyser cette partie",
    analysis_intro:
      "La recherche juge chaque décision du point de vue du joueur qui décide : sa chance de gagner avant le coup (avec le coup qu'elle préfère) et après le coup joué. Une baisse de {n} points ou plus est une erreur.",
    analysis_queue: "Analyse… {n} avant elle dans la file d'attente",
    analysis_running: "Analyse en cours…",
    analysis_again: "Réessayer",
    analysis_summary: "{decisions} jugées, {mistakes} ; {it} simulations par décision.",
    analysis_decisions_one: "1 décision",
    analysis_decisions_n: "{n} décisions",
    analysis_mistakes_one: "1 erreur",
    analysis_mistakes_n: "{n} erreurs",
    analysis_chart_title: "Chance de gagner estimée à chaque décision",
    analysis_chart_x: "actions",
    analysis_chart_seat: "{who} : {a} à la première décision, {b} à la dernière ; {mistakes}",
    analysis_legend_mistake: "erreur",
    analysis_list_title: "Toutes les décisions",
    analysis_none: "Aucune décision à juger dans cette partie.",
    analysis_action_n: "Action {n}",
    analysis_before_after: "chance de gagner {a} → {b}",
    analysis_best: "Meilleur : {move} ({p})",
    analysis_mistake: "Erreur : −{n} points",
    analysis_played_by: "joué par un robot pour le joueur",
    analysis_jump: "Voir l'action {n} dans la relecture",
    err_hints_off: "Cette table n'autorise pas les conseils du robot.",
    err_not_your_turn: "Ce n'est pas votre tour.",
    err_check: "Pas pendant une vérification.",
    err_not_running: "La partie n'est pas en cours.",
    err_busy: "Le serveur est occupé : réessayez dans un instant.",
    err_spectator: "Seul un joueur assis peut demander un conseil.",
    err_no_analysis: "Le relevé de cette partie ne peut pas être analysé.",
  },
);

/** A chance (0..1) as a whole percentage in the page's language ("62%", "62 %"). */
export function percent(value) {
  const n = Math.max(0, Math.min(1, Number(value) || 0));
  return new Intl.NumberFormat(lang() === "fr" ? "fr-FR" : "en-GB", { style: "percent", maximumFractionDigits: 0 }).format(n);
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
