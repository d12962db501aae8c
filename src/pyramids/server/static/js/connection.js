// The table's WebSocket: connects, reconnects with exponential backoff, and hands
// every server message to the page. After a reconnect the server's hello carries the
// whole log and the next state the full view, so the page simply resyncs from them.

const BACKOFF_START = 500; // ms
const BACKOFF_MAX = 15000;
const PING_EVERY = 25000;

export class TableConnection {
  /**
   * tableId, token (or "" to watch); handlers: onMessage(msg), onStatus(status, info)
   * where status is "connecting" | "online" | "offline" (info.retryIn ms).
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.delay = BACKOFF_START;
    this.retryTimer = null;
    this.pingTimer = null;
    this.closed = false;
    this.nextId = 1;
    this.seat = null; // without a token: the seat bound to the logged-in account (?seat=N)
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.token
      ? `?token=${encodeURIComponent(this.token)}`
      : this.seat !== null
        ? `?seat=${encodeURIComponent(this.seat)}`
        : "";
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  /** Open the socket (again). */
  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.handlers.onStatus("connecting", {});
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.handlers.onStatus("online", {});
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "hello") this.delay = BACKOFF_START; // a full resync: healthy again
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      // 4xxx codes are the server refusing us for good (unknown table, bad token)
      if (ev.code >= 4000 && ev.code < 4500 && this.handlers.onRefused) {
        this.handlers.onRefused(ev.code, ev.reason);
        return;
      }
      this.scheduleRetry();
    });
    ws.addEventListener("error", () => {
      // a close event follows; nothing else to do
    });
  }

  scheduleRetry() {
    if (this.closed) return;
    const jitter = 0.8 + Math.random() * 0.4;
    const wait = Math.min(BACKOFF_MAX, this.delay) * jitter;
    this.delay = Math.min(BACKOFF_MAX, this.delay * 2);
    this.handlers.onStatus("offline", { retryIn: wait });
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Whether the socket is open. */
  isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a JSON message; false when the socket is not open. */
  send(msg) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send an action decided on the state `seq`; returns the request id, or null. */
  sendAction(seq, action) {
    const id = `c${this.nextId++}`;
    return this.send({ type: "action", id, seq, action }) ? id : null;
  }

  /** Ask for a fresh hello and state. */
  sync() {
    return this.send({ type: "sync" });
  }

  /** Reconnect now (e.g. when the tab becomes visible again and the socket is gone). */
  reconnectNow() {
    if (this.closed || this.isOpen()) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.delay = BACKOFF_START;
    this.connect();
  }

  /** Close for good. */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
