// Who is logged in, for every page: the session as GET /api/session tells it (cached),
// the CSRF header a cookie-authenticated write must carry, and a change signal.
//
// getSession() resolves to {account: {name, created} | null, csrf: string | null}; it asks
// the server once per page (getSession({refresh: true}) asks again). csrfHeaders() gives
// {"X-CSRF-Token": …} when logged in, {} otherwise (util.js api() adds it to every write).
// setSession(data) is for the account page after signing up, logging in or out; every
// onSessionChange(fn) listener then runs with the new session, in this tab and in the
// browser's other tabs of the site (BroadcastChannel).

const LOGGED_OUT = Object.freeze({ account: null, csrf: null });
const CHANNEL = "pyramids.session";

let current = null; // the last known session, null before the first answer
let pending = null; // the request under way, if any
const listeners = new Set();
let channel = null;

try {
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = () => {
    refresh().catch(() => {});
  };
} catch {
  channel = null; // no other tab is told; each one still asks on its own load
}

function normalise(data) {
  if (!data || !data.account) return LOGGED_OUT;
  return { account: data.account, csrf: data.csrf || null };
}

function sameSession(a, b) {
  const nameA = a && a.account ? a.account.name : null;
  const nameB = b && b.account ? b.account.name : null;
  return nameA === nameB && (a ? a.csrf : null) === (b ? b.csrf : null);
}

function publish(next, { broadcast }) {
  const changed = !sameSession(current, next);
  current = next;
  if (changed) {
    for (const fn of listeners) {
      try {
        fn(next);
      } catch (err) {
        console.error(err);
      }
    }
  }
  if (broadcast && channel) channel.postMessage("changed");
  return next;
}

async function refresh() {
  // A plain fetch, not util.js api(): api() asks this module for the CSRF header.
  pending = (async () => {
    try {
      const response = await fetch("/api/session", { cache: "no-store", credentials: "same-origin" });
      if (!response.ok) return current || LOGGED_OUT;
      return publish(normalise(await response.json()), { broadcast: false });
    } catch {
      return current || LOGGED_OUT;
    } finally {
      pending = null;
    }
  })();
  return pending;
}

/** The session ({account, csrf}); asks the server once, then answers from the cache. */
export function getSession({ refresh: again = false } = {}) {
  if (pending) return pending;
  if (current && !again) return Promise.resolve(current);
  return refresh();
}

/** The last known session without asking (null before the first answer). */
export function knownSession() {
  return current;
}

/** The header a cookie-authenticated write needs: {"X-CSRF-Token": …} or {}. */
export function csrfHeaders() {
  return current && current.csrf ? { "X-CSRF-Token": current.csrf } : {};
}

/** Record a new session (after sign-up, log-in, log-out, rename); tells every listener. */
export function setSession(data) {
  return publish(normalise(data), { broadcast: true });
}

/** Call `fn(session)` whenever the session changes; returns a function that stops it. */
export function onSessionChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
