// Times in words for the clocks, the turn-based tables, "Your games" and the lobby's clock
// fields (part H4); the words are the catalogue's (pyramids/texts/messages/<lang>/
// web-clocks.json), through the `t` each function is given.

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
