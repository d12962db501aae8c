// The words of the clocks, the turn-based tables, "Your games" and the lobby's clock and
// rating fields (part H4), in English and French.

import { addMessages } from "./i18n.js";

addMessages(
  {
    clocks_title: "Clocks",
    clock_mode_realtime: "Real-time clock",
    clock_mode_turn_based: "Turn-based",
    clock_per_move: "+{t} per move",
    clock_running: "thinking",
    clock_out: "time is up",
    clock_forfeited: "forfeited on time",
    clock_days: "{d} d {h} h",
    notify_toggle: "Notify me when it is my turn",
    notify_denied: "The browser refused notifications for this site.",
    notify_title: "Your turn",
    notify_body: "{game} · table {id} needs your move.",
    field_clock: "Clock",
    clock_none: "None",
    clock_group_realtime: "Real-time",
    clock_group_turn_based: "Turn-based",
    clock_rt_5_3: "5 min + 3 s per move",
    clock_rt_10_5: "10 min + 5 s per move",
    clock_rt_30_10: "30 min + 10 s per move",
    clock_tb_1d: "1 day per move + 3 days in reserve",
    clock_tb_3d: "3 days per move + 7 days in reserve",
    clock_custom: "Custom…",
    field_clock_mode: "Kind",
    field_clock_bank: "Bank (minutes)",
    field_clock_increment: "Increment per move (seconds)",
    field_clock_per_move: "Free time per move (hours)",
    field_on_expiry: "When a player's time runs out",
    on_expiry_stand_in: "a bot plays that move",
    on_expiry_forfeit: "the player forfeits",
    field_rated: "Rated game (every player logged in; against bots: the separate vs-bots rating)",
    rated_hint: "Counts for the ratings when every player is logged in, or against bots in the separate “vs bots” rating.",
    your_games: "Your games",
    your_turn_badge: "your turn",
    your_games_waiting: "waiting for players",
    your_games_deadline: "time left: {t}",
    your_games_open: "Open",
    your_games_watch: "Watch",
    your_games_login_hint: "Seats you hold on this device. Log in to see your games on every device.",
    your_games_account_hint: "The tables you sit at with your account.",
    err_out_of_time: "Your time has run out: the table's clock decided this move.",
    // the deadline per move (issue 29): lobby rows and the create form
    dur_s: "{n} s",
    dur_min: "{n} min",
    dur_min_s: "{m} min {s} s",
    dur_h: "{n} h",
    dur_h_min: "{h} h {m} min",
    dur_d: "{n} d",
    pace_per_move: "{t} per move",
    pace_realtime: "clock {t} + {inc} per move",
    pace_turn_based: "turn-based, {t} per move",
    pace_note: "Without a clock each move has {t}; then a bot plays it for the player.",
    pace_note_rated:
      "Without a clock each move has {t}; then a bot plays it for the player, and {n} in a row forfeit a rated game.",
    turn_time_placeholder: "{s} (default)",
    turn_time_bounds: "A rated table gives {min} to {max} per move.",
    err_bad_turn_time: "This time per move is refused: {message}",
  },
  {
    clocks_title: "Pendules",
    clock_mode_realtime: "Pendule en temps réel",
    clock_mode_turn_based: "Partie par correspondance",
    clock_per_move: "+{t} par coup",
    clock_running: "réfléchit",
    clock_out: "temps écoulé",
    clock_forfeited: "a perdu au temps",
    clock_days: "{d} j {h} h",
    notify_toggle: "Me prévenir quand c’est mon tour",
    notify_denied: "Le navigateur a refusé les notifications pour ce site.",
    notify_title: "À vous de jouer",
    notify_body: "{game} · la table {id} attend votre coup.",
    field_clock: "Pendule",
    clock_none: "Aucune",
    clock_group_realtime: "Temps réel",
    clock_group_turn_based: "Par correspondance",
    clock_rt_5_3: "5 min + 3 s par coup",
    clock_rt_10_5: "10 min + 5 s par coup",
    clock_rt_30_10: "30 min + 10 s par coup",
    clock_tb_1d: "1 jour par coup + 3 jours de réserve",
    clock_tb_3d: "3 jours par coup + 7 jours de réserve",
    clock_custom: "Personnalisée…",
    field_clock_mode: "Type",
    field_clock_bank: "Réserve (minutes)",
    field_clock_increment: "Ajout par coup (secondes)",
    field_clock_per_move: "Temps libre par coup (heures)",
    field_on_expiry: "Quand le temps d’un joueur est écoulé",
    on_expiry_stand_in: "un bot joue ce coup",
    on_expiry_forfeit: "le joueur perd la partie",
    field_rated: "Partie classée (tous les joueurs connectés ; contre des bots : le classement à part contre les bots)",
    rated_hint: "Compte pour le classement quand tous les joueurs sont connectés, ou contre les bots dans le classement « contre les bots » à part.",
    your_games: "Vos parties",
    your_turn_badge: "à vous",
    your_games_waiting: "attend des joueurs",
    your_games_deadline: "temps restant : {t}",
    your_games_open: "Ouvrir",
    your_games_watch: "Regarder",
    your_games_login_hint: "Les places que vous tenez sur cet appareil. Connectez-vous pour voir vos parties sur tous vos appareils.",
    your_games_account_hint: "Les tables où vous êtes assis avec votre compte.",
    err_out_of_time: "Votre temps est écoulé : l'horloge de la table a tranché ce coup.",
    dur_s: "{n} s",
    dur_min: "{n} min",
    dur_min_s: "{m} min {s} s",
    dur_h: "{n} h",
    dur_h_min: "{h} h {m} min",
    dur_d: "{n} j",
    pace_per_move: "{t} par coup",
    pace_realtime: "pendule {t} + {inc} par coup",
    pace_turn_based: "par correspondance, {t} par coup",
    pace_note: "Sans pendule, chaque coup dispose de {t} ; ensuite un bot le joue à la place du joueur.",
    pace_note_rated:
      "Sans pendule, chaque coup dispose de {t} ; ensuite un bot le joue à la place du joueur, et {n} de suite font perdre une partie classée.",
    turn_time_placeholder: "{s} (par défaut)",
    turn_time_bounds: "Une table classée donne de {min} à {max} par coup.",
    err_bad_turn_time: "Ce temps par coup est refusé : {message}",
  },
);

/** Seconds as a clock reads: "4:05", "1:02:03", or "2 d 03 h" (days). */
export function formatSeconds(seconds, t) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const pad = (n) => String(n).padStart(2, "0");
  if (d > 0) return t("clock_days", { d, h: pad(hh) });
  if (hh > 0) return `${hh}:${pad(mm)}:${pad(ss)}`;
  return `${mm}:${pad(ss)}`;
}

/** A length of time in words: "45 s", "5 min", "1 h 30 min", "2 d" (no clock digits). */
export function formatDuration(seconds, t) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("dur_s", { n: s });
  if (s < 3600) {
    const m = Math.floor(s / 60);
    return s % 60 ? t("dur_min_s", { m, s: s % 60 }) : t("dur_min", { n: m });
  }
  if (s < 86400) {
    const hh = Math.floor(s / 3600);
    const mm = Math.floor((s % 3600) / 60);
    return mm ? t("dur_h_min", { h: hh, m: mm }) : t("dur_h", { n: hh });
  }
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  return hh ? t("clock_days", { d, h: hh }) : t("dur_d", { n: d });
}

/** A table's deadline per move as the lobby lists it (a summary's `settings`): its clock,
 * else its `turn_time`; "" when it has neither (a finished table stored before issue 29). */
export function paceText(settings, t) {
  const clock = settings && settings.clock;
  if (clock && clock.mode === "turn_based") {
    return t("pace_turn_based", { t: formatDuration(clock.per_move || clock.bank, t) });
  }
  if (clock) {
    return t("pace_realtime", { t: formatDuration(clock.bank, t), inc: formatDuration(clock.increment || 0, t) });
  }
  const turn = Number((settings && settings.turn_time) || 0);
  return turn > 0 ? t("pace_per_move", { t: formatDuration(turn, t) }) : "";
}
