// The table page's parts talk through this bus: table.js hands every server message to
// `emit` (before it handles it itself) and sets the sender; the chat, clocks and rematch
// modules (`on(type, fn)`) read the messages they need, `ctx()` for what the page knows
// (seat, summary, current state, names) and `send(msg)` to send on the table's socket;
// `onRender(fn)` is called after every redraw (the hint panel follows the state on screen).

const handlers = new Map(); // message type ("*": every message) -> Set of fn(msg, ctx)
let sender = null;
let context = null;

/** Call `fn(msg, ctx)` for every server message of `type` ("*": of any type). */
export function on(type, fn) {
  if (!handlers.has(type)) handlers.set(type, new Set());
  handlers.get(type).add(fn);
}

/** Hand a server message to its listeners (table.js calls it). */
export function emit(msg) {
  for (const key of [msg.type, "*"]) {
    for (const fn of handlers.get(key) || []) {
      try {
        fn(msg, context);
      } catch (err) {
        console.error(err);
      }
    }
  }
}

/** Send a message on the table's socket (false when it is not open). */
export function send(msg) {
  return sender ? sender(msg) : false;
}

/** The page's shared context (seat, summary, current state, names), as table.js keeps it. */
export function ctx() {
  return context;
}

/** table.js: where `send` goes, and the context object. */
export function attach(sendFn, ctxObject) {
  sender = sendFn;
  context = ctxObject;
}

const renderers = new Set(); // fn(ctx) after every redraw of the page's shared parts

/** Call `fn(ctx)` each time table.js has redrawn the page (a new state on screen, the end of
 * an animation, a summary or a language change): the parts that follow the state on screen,
 * not the latest message, listen here (the hint panel clears when the state changes). */
export function onRender(fn) {
  renderers.add(fn);
}

/** table.js: the page was redrawn. */
export function rendered() {
  for (const fn of renderers) {
    try {
      fn(context);
    } catch (err) {
      console.error(err);
    }
  }
}
