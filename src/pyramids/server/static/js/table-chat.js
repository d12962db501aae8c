// The table chat (#chat-panel): the messages this connection may read (chat_history on
// connecting, then each `chat`), an input writing on the players' channel (a seated
// player may choose the spectators' one, which everyone reads), the seated players'
// switch of the spectators' channel, and "mute" per player: the muted names are kept in
// this browser (localStorage) and their messages hidden, with an unmute list.
// User text only ever goes in with textContent (util.js h()), never as HTML.

import * as bus from "./table-bus.js";
import { onLangChange, t } from "./i18n.js";
import { fill, h, toast } from "./util.js";

const MUTED_KEY = "pyramids.chat.muted";
const MAX_CHARS = 300;

/** Load this part's stylesheet (the table page's head names the game's ones only). */
export function loadChatCss() {
  if (document.querySelector("link[data-chat-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/chat.css", "data-chat-css": true }));
}

/** The names muted in this browser. */
export function mutedNames() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return Array.isArray(list) ? list.filter((n) => typeof n === "string") : [];
  } catch {
    return [];
  }
}

function saveMuted(list) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify(list));
  } catch {
    // not remembered: muted for this page only
  }
}

/** Whether `name`'s messages are hidden here. */
export function isMuted(name, muted = mutedNames()) {
  return muted.includes(name);
}

/** One message as a list item: name, channel badge, text (all as text). */
export function messageItem(msg, { own = false, onMute = null } = {}) {
  const name = msg.seat === null || msg.seat === undefined ? t("chat_spectator") : msg.name;
  return h(
    "li",
    {
      class: `chat-msg channel-${msg.channel}${own ? " own" : ""}`,
      "data-testid": "chat-message",
      "data-channel": msg.channel,
      "data-seq": msg.seq,
      "data-id": msg.id,
    },
    h("span", { class: "chat-name", "data-testid": "chat-name" }, own ? `${name} (${t("chat_you")})` : name),
    msg.channel === "spectators" ? h("span", { class: "chat-channel" }, t("chat_channel_spectators")) : null,
    h("span", { class: "chat-text", "data-testid": "chat-text" }, msg.text),
    onMute
      ? h(
          "button",
          {
            type: "button",
            class: "btn small ghost chat-mute",
            "data-testid": "chat-mute",
            title: t("chat_mute_title", { name: msg.name }),
            onclick: () => onMute(msg.name),
          },
          t("chat_mute"),
        )
      : null,
  );
}

const panel = document.getElementById("chat-panel");
const chat = {
  messages: [],
  spectators: true,
  seat: null,
  status: null,
  own: new Set(), // ids of the messages this page sent (a spectator has no seat to tell)
  pending: new Map(), // message id sent -> text, until the ack
  notice: "",
  counter: 0,
  draft: "",
  channel: "seats",
};

function isSeated() {
  return chat.seat !== null && chat.seat !== undefined;
}

function mute(name) {
  const list = mutedNames();
  if (!list.includes(name)) list.push(name);
  saveMuted(list);
  render();
}

function unmute(name) {
  saveMuted(mutedNames().filter((n) => n !== name));
  render();
}

function isOwn(msg) {
  return chat.own.has(msg.id) || (isSeated() && msg.seat === chat.seat);
}

function sendMessage(input) {
  const text = input.value.trim();
  if (!text) return;
  const id = `chat-${++chat.counter}`;
  const msg = { type: "chat", id, text };
  if (isSeated()) msg.channel = chat.channel;
  if (!bus.send(msg)) {
    toast(t("chat_offline"), "error");
    return;
  }
  chat.pending.set(id, text);
  input.value = "";
  chat.draft = "";
}

function switchSpectators(on) {
  if (!bus.send({ type: "chat_settings", id: `chat-set-${++chat.counter}`, spectators: on })) {
    toast(t("chat_offline"), "error");
  }
}

function render() {
  if (!panel) return;
  const muted = mutedNames();
  const visible = chat.messages.filter((m) => !isMuted(m.name, muted) || isOwn(m));
  const hidden = chat.messages.length - visible.length;
  const input = h("input", {
    type: "text",
    maxlength: MAX_CHARS,
    placeholder: t("chat_placeholder"),
    "aria-label": t("chat_placeholder"),
    "data-testid": "chat-input",
    autocomplete: "off",
    disabled: !isSeated() && !chat.spectators,
  });
  input.value = chat.draft;
  input.addEventListener("input", () => (chat.draft = input.value));
  const channelPick = isSeated()
    ? h(
        "label",
        { class: "chat-to" },
        h("span", { class: "visually-hidden" }, t("chat_to")),
        h(
          "select",
          {
            "data-testid": "chat-channel",
            onchange: (ev) => (chat.channel = ev.target.value),
          },
          h("option", { value: "seats", selected: chat.channel === "seats" }, `${t("chat_to")} ${t("chat_to_seats")}`),
          chat.spectators
            ? h(
                "option",
                { value: "spectators", selected: chat.channel === "spectators" },
                `${t("chat_to")} ${t("chat_to_spectators")}`,
              )
            : null,
        ),
      )
    : null;
  const log = h(
    "ol",
    { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" },
    visible.length
      ? visible.map((m) =>
          messageItem(m, { own: isOwn(m), onMute: isOwn(m) ? null : mute }),
        )
      : h("li", { class: "chat-note" }, t("chat_empty")),
  );
  fill(
    panel,
    h("h2", { class: "panel-title" }, t("chat_title")),
    log,
    hidden ? h("p", { class: "chat-hidden", "data-testid": "chat-hidden" }, t("chat_hidden", { n: hidden })) : null,
    chat.notice ? h("p", { class: "chat-note", "data-testid": "chat-notice" }, chat.notice) : null,
    !chat.spectators && !isSeated()
      ? h("p", { class: "chat-note", "data-testid": "chat-off" }, t("chat_spectators_off"))
      : null,
    h(
      "form",
      {
        class: "chat-form",
        "data-testid": "chat-form",
        onsubmit: (ev) => {
          ev.preventDefault();
          sendMessage(input);
        },
      },
      channelPick,
      input,
      h(
        "button",
        { type: "submit", class: "btn small", "data-testid": "chat-send", disabled: !isSeated() && !chat.spectators },
        t("chat_send"),
      ),
    ),
    isSeated()
      ? h(
          "label",
          { class: "toggle" },
          h("input", {
            type: "checkbox",
            "data-testid": "chat-spectators-toggle",
            checked: chat.spectators,
            onchange: (ev) => switchSpectators(ev.target.checked),
          }),
          h("span", {}, t("chat_spectators_toggle")),
        )
      : null,
    muted.length
      ? h(
          "details",
          { class: "chat-muted-list", "data-testid": "chat-muted-list" },
          h("summary", {}, t("chat_muted", { n: muted.length })),
          h(
            "ul",
            {},
            muted.map((name) =>
              h(
                "li",
                {},
                h("span", { "data-testid": "chat-muted-name" }, name),
                h(
                  "button",
                  { type: "button", class: "btn small ghost", "data-testid": "chat-unmute", onclick: () => unmute(name) },
                  t("chat_unmute"),
                ),
              ),
            ),
          ),
        )
      : null,
  );
  panel.hidden = false;
  log.scrollTop = log.scrollHeight;
}

function keepFocus(fn) {
  const hadFocus = document.activeElement && document.activeElement.dataset?.testid === "chat-input";
  fn();
  if (hadFocus) panel.querySelector("[data-testid=chat-input]")?.focus();
}

function init() {
  if (!panel) return;
  loadChatCss();
  bus.on("hello", (msg) => {
    chat.seat = msg.seat ?? null;
    chat.status = msg.table && msg.table.status;
    if (msg.table && msg.table.settings) chat.spectators = msg.table.settings.spectator_chat !== false;
    if (!isSeated()) chat.channel = "spectators";
    chat.messages = []; // a chat_history follows when there is anything to read
    keepFocus(render);
  });
  bus.on("chat_history", (msg) => {
    chat.messages = Array.isArray(msg.messages) ? msg.messages : [];
    chat.spectators = msg.spectators !== false;
    if (!chat.spectators && chat.channel === "spectators" && isSeated()) chat.channel = "seats";
    keepFocus(render);
  });
  bus.on("chat", (msg) => {
    if (!msg.message) return;
    if (!chat.messages.some((m) => m.id === msg.message.id)) chat.messages.push(msg.message);
    keepFocus(render);
  });
  bus.on("chat_settings", (msg, ctx) => {
    chat.spectators = Boolean(msg.spectators);
    const who = ctx && ctx.names ? (ctx.names[msg.by] ?? msg.by) : msg.by;
    chat.notice = t(msg.spectators ? "chat_spectators_turned_on" : "chat_spectators_turned_off", { who });
    keepFocus(render);
  });
  bus.on("ack", (msg) => {
    if (!chat.pending.has(msg.id)) return;
    chat.pending.delete(msg.id);
    if (msg.message_id !== undefined) chat.own.add(msg.message_id);
    keepFocus(render);
  });
  bus.on("error", (msg) => {
    if (!chat.pending.has(msg.id)) return;
    const input = panel.querySelector("[data-testid=chat-input]");
    if (input && !input.value) input.value = chat.pending.get(msg.id); // give the text back
    chat.draft = input ? input.value : chat.draft;
    chat.pending.delete(msg.id);
    // table.js shows the error itself (a toast)
  });
  onLangChange(() => keepFocus(render));
}

init();
