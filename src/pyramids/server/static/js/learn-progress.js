// The tutorial's memory in this browser (localStorage): which lessons are done, and
// whether the lobby's tutorial banner was dismissed. Storage may be unavailable (private
// mode): then nothing is remembered and every call still works.

const PROGRESS_KEY = "pyramids.learn";
const BANNER_KEY = "pyramids.learn.banner";

function read() {
  try {
    const data = JSON.parse(localStorage.getItem(PROGRESS_KEY) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/** The ids of the lessons of `game` done in this browser (a Set). */
export function doneLessons(game) {
  const list = read()[game];
  return new Set(Array.isArray(list) ? list.filter((id) => typeof id === "string") : []);
}

/** Remember that lesson `id` of `game` is done. */
export function markDone(game, id) {
  const data = read();
  const done = doneLessons(game);
  done.add(id);
  data[game] = [...done];
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(data));
  } catch {
    // not remembered: the page still moves on
  }
}

/** Whether this browser has started any tutorial. */
export function hasStarted() {
  return Object.values(read()).some((list) => Array.isArray(list) && list.length > 0);
}

/** Whether the lobby's tutorial banner was dismissed in this browser. */
export function isBannerDismissed() {
  try {
    return localStorage.getItem(BANNER_KEY) === "dismissed";
  } catch {
    return false;
  }
}

/** Remember that the banner was dismissed. */
export function dismissBanner() {
  try {
    localStorage.setItem(BANNER_KEY, "dismissed");
  } catch {
    // shown again next time
  }
}
