// The account chip of every page's top bar ([data-account-chip]): logged out, a "Log in"
// link to /account; logged in, the name (linking to the player's page), links to the
// account page and the leaderboard, and "Log out". It follows the session as it changes.

import { onLangChange, t } from "./i18n.js";
import { getSession, onSessionChange, setSession } from "./session.js";
import { api, errorText, fill, h, toast } from "./util.js";

function playerUrl(name) {
  return `/players/${encodeURIComponent(name)}`;
}

async function logOut() {
  try {
    await api("/api/session", { method: "DELETE" });
    setSession(null);
    toast(t("chip_logged_out"));
  } catch (err) {
    toast(errorText(err.code, err.message, err), "error");
  }
}

function render(chip, session) {
  const account = session && session.account;
  if (!account) {
    fill(
      chip,
      h("a", { class: "chip", href: "/account", "data-testid": "chip-log-in" }, t("chip_log_in")),
    );
    chip.dataset.state = "logged-out";
    return;
  }
  fill(
    chip,
    h(
      "a",
      {
        class: "chip chip-name",
        href: playerUrl(account.name),
        title: t("chip_profile_title"),
        "data-testid": "chip-name",
      },
      account.name,
    ),
    h("a", { class: "chip", href: "/account", "data-testid": "chip-account" }, t("chip_account")),
    h(
      "a",
      { class: "chip", href: "/leaderboard", "data-testid": "chip-leaderboard" },
      t("chip_leaderboard"),
    ),
    h(
      "button",
      { type: "button", class: "chip", "data-testid": "chip-log-out", onclick: logOut },
      t("chip_log_out"),
    ),
  );
  chip.dataset.state = "logged-in";
}

function renderAll(session) {
  for (const chip of document.querySelectorAll("[data-account-chip]")) render(chip, session);
}

function addStyles() {
  // every page shows the chip, not every page links account.css
  if (document.querySelector('link[data-account-css]')) return;
  const link = h("link", { rel: "stylesheet", href: "/static/css/account.css", "data-account-css": true });
  document.head.append(link);
}

async function start() {
  addStyles();
  let session = await getSession();
  renderAll(session);
  onSessionChange((next) => {
    session = next;
    renderAll(session);
  });
  onLangChange(() => renderAll(session));
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start, { once: true });
} else {
  start();
}
