// "Link this seat to my account" on the table page (issue 29, item 3).
//
// Opening an invite link never binds the seat to the account the browser is logged in to
// (a page of another site can send the browser there): the seat joins the account only by
// this button's request, POST /api/tables/{id}/link with the session's CSRF header
// (util.js api() adds it). Shown to a logged-in player whose seat has no account yet, while
// the game is not over.

import * as bus from "./table-bus.js";
import { onLangChange, t } from "./i18n.js";
import { getSession, onSessionChange } from "./session.js";
import { api, errorText, h, toast } from "./util.js";

const button = h(
  "button",
  { type: "button", class: "btn ghost link-seat", id: "link-seat", "data-testid": "link-seat", hidden: true },
  "",
);
let session = null;
let busy = false;

function place() {
  if (button.isConnected) return;
  const meta = document.querySelector(".status-meta");
  if (meta) meta.append(button);
}

/** Whether the button applies: logged in, seated by a token, the seat has no account. */
function applies(ctx) {
  if (!session || !session.account || !ctx || !ctx.token) return false;
  if (ctx.seat === null || ctx.seat === undefined) return false;
  const summary = ctx.summary;
  const seats = (ctx.current && ctx.current.seats) || (summary && summary.seats) || [];
  const seat = seats[ctx.seat];
  const status = (ctx.current && ctx.current.status) || (summary && summary.status);
  return Boolean(seat) && !seat.account && (status === "open" || status === "running");
}

function render() {
  place();
  const ctx = bus.ctx();
  button.textContent = t("link_seat");
  button.title = t("link_seat_hint");
  button.disabled = busy;
  button.hidden = !applies(ctx);
}

async function link() {
  const ctx = bus.ctx();
  if (busy || !applies(ctx)) return;
  busy = true;
  render();
  try {
    await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/link`, {
      method: "POST",
      body: { token: ctx.token },
    });
    toast(t("link_seat_done"));
    button.hidden = true; // the server's `table` message tells the seat's account next
  } catch (err) {
    toast(errorText(err.code, err.message, err), "error");
  } finally {
    busy = false;
    render();
  }
}

button.addEventListener("click", link);
for (const type of ["hello", "state", "table"]) bus.on(type, () => queueMicrotask(render));
onSessionChange((next) => {
  session = next;
  render();
});
onLangChange(render);
getSession().then((s) => {
  session = s;
  render();
});
