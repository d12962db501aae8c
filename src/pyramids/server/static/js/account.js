// The account page (/account): log in or sign up when logged out; when logged in, the
// name, log out, change the name or the password, and delete the account (a confirm step).
// Errors are shown under their form in the page's language.

import { initI18n, onLangChange, t } from "./i18n.js";
import { getSession, onSessionChange, setSession } from "./session.js";
import { api, errorText, relativeTime } from "./util.js";

const NAME_CHARS = /^[\p{L}\p{M}\p{Nd}_.-]+$/u;
const NAME_ENDS = /^[\p{L}\p{Nd}].*[\p{L}\p{M}\p{Nd}]$|^[\p{L}\p{Nd}]$/u;

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** The rule a new name breaks, in words, or "" (the server checks the same rules). */
function nameProblem(raw) {
  const name = raw.normalize("NFKC").trim();
  const length = [...name].length;
  if (length < 3 || length > 24) return t("account_check_name_length");
  if (!NAME_CHARS.test(name)) return t("account_check_name_chars");
  if (!NAME_ENDS.test(name)) return t("account_check_name_ends");
  return "";
}

/** The rule a new password breaks, in words, or "". */
function passwordProblem(password, again, name) {
  const normal = password.normalize("NFKC");
  if ([...normal].length < 8) return t("account_check_password_length");
  if (name && normal.toLowerCase() === name.normalize("NFKC").trim().toLowerCase()) {
    return t("account_check_password_name");
  }
  if (again !== undefined && password !== again) return t("account_check_password_match");
  return "";
}

function showError(id, text) {
  $(id).textContent = text || "";
}

function apiProblem(err) {
  return errorText(err.code, err.message, err);
}

/** Run `work` with the form's button disabled; its error shown under the form. */
async function submitting(form, errorId, work) {
  const button = form.querySelector("button[type=submit]");
  showError(errorId, "");
  button.disabled = true;
  try {
    await work();
  } catch (err) {
    showError(errorId, apiProblem(err));
  } finally {
    button.disabled = false;
  }
}

let session = null;

function render() {
  const account = session && session.account;
  $("logged-out").hidden = Boolean(account);
  $("logged-in").hidden = !account;
  if (account) {
    $("account-name").textContent = t("account_logged_in_as", { name: account.name });
    $("account-since").textContent = t("account_since", { when: relativeTime(account.created) });
    $("account-player-page").href = `/players/${encodeURIComponent(account.name)}`;
  }
  document.querySelector("#account").setAttribute("aria-busy", "false");
}

function say(text) {
  $("account-message").textContent = text || "";
}

function wire() {
  const logIn = document.querySelector("#log-in-form");
  logIn.addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(logIn, "log-in-error", async () => {
      const name = logIn.elements.name.value.trim();
      const password = logIn.elements.password.value;
      const data = await api("/api/session", { method: "POST", body: { name, password } });
      logIn.reset();
      setSession(data);
      say(t("account_hello", { name: data.account.name }));
    });
  });

  const signUp = document.querySelector("#sign-up-form");
  signUp.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = signUp.elements.name.value;
    const password = signUp.elements.password.value;
    const problem =
      nameProblem(name) || passwordProblem(password, signUp.elements.again.value, name);
    if (problem) {
      showError("sign-up-error", problem);
      return;
    }
    submitting(signUp, "sign-up-error", async () => {
      const data = await api("/api/accounts", {
        method: "POST",
        body: { name: name.trim(), password },
      });
      signUp.reset();
      setSession(data);
      say(t("account_welcome", { name: data.account.name }));
    });
  });

  $("account-log-out").addEventListener("click", async () => {
    try {
      await api("/api/session", { method: "DELETE" });
      setSession(null);
      say("");
    } catch (err) {
      say(apiProblem(err));
    }
  });

  const rename = document.querySelector("#rename-form");
  rename.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = rename.elements.name.value;
    const problem = nameProblem(name);
    if (problem) {
      showError("rename-error", problem);
      return;
    }
    submitting(rename, "rename-error", async () => {
      const data = await api("/api/accounts/me", {
        method: "PATCH",
        body: { current_password: rename.elements.current.value, name: name.trim() },
      });
      rename.reset();
      setSession(data);
      say(t("account_renamed", { name: data.account.name }));
    });
  });

  const change = document.querySelector("#password-form");
  change.addEventListener("submit", (event) => {
    event.preventDefault();
    const password = change.elements.password.value;
    const problem = passwordProblem(
      password,
      change.elements.again.value,
      session && session.account ? session.account.name : "",
    );
    if (problem) {
      showError("password-error", problem);
      return;
    }
    submitting(change, "password-error", async () => {
      await api("/api/accounts/me", {
        method: "PATCH",
        body: { current_password: change.elements.current.value, password },
      });
      change.reset();
      say(t("account_password_changed"));
    });
  });

  const remove = document.querySelector("#delete-form");
  const step = $("delete-confirm-step");
  $("delete-start").addEventListener("click", () => {
    step.hidden = false;
    $("delete-start").hidden = true;
    $("delete-password").focus();
  });
  $("delete-cancel").addEventListener("click", () => {
    step.hidden = true;
    $("delete-start").hidden = false;
    remove.reset();
    showError("delete-error", "");
  });
  remove.addEventListener("submit", (event) => {
    event.preventDefault();
    submitting(remove, "delete-error", async () => {
      await api("/api/accounts/me", {
        method: "DELETE",
        body: { password: remove.elements.password.value },
      });
      remove.reset();
      step.hidden = true;
      $("delete-start").hidden = false;
      setSession(null);
      say(t("account_deleted"));
    });
  });
}

async function start() {
  initI18n();
  wire();
  session = await getSession();
  render();
  onSessionChange((next) => {
    session = next;
    render();
  });
  onLangChange(render);
}

start();
