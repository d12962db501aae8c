// The tutorial's Pyramids and Flags board: the flags table's own drawing and controls
// (flags-table.js createGame: towers, bank, the learner's cards, the legal actions as
// buttons, click a piece then its destination), fed with the server's answer for the
// staged position instead of a table's state message. Its `send` goes to the tutorial's
// endpoint; the table's behaviour is untouched.

import { t } from "./i18n.js";
import { createGame } from "./flags-table.js";
import { fill, h } from "./util.js";

/** Build the board in `root`; returns {render(answer, opts), relang()}. */
export function createBoard(root, names) {
  const dom = {
    gameArea: h("div", { class: "game-area" }),
    decision: h("div", { class: "decision-area" }),
    gameSide: h("div"),
  };
  const seatsBox = h("ul", { class: "seats learn-seats", "data-testid": "seats" });
  fill(
    root,
    dom.gameArea,
    dom.decision,
    h("section", { class: "panel" }, h("h2", { class: "panel-title", "data-i18n": "seats" }, t("seats")), seatsBox),
  );
  let opts = { interactive: false, onAction: () => {} };
  let last = null;
  const ctx = {
    seat: 0,
    names,
    summary: null,
    current: null,
    busy: false,
    animating: false,
    reason: null,
    send: (text) => opts.onAction(text),
    setReason: () => {},
    speed: () => 0,
    rerender: () => {},
    isInteractive: () => Boolean(opts.interactive && last && last.to_move === ctx.seat),
  };
  const game = createGame(dom, ctx);

  function renderSeats(answer) {
    const view = answer.view;
    fill(
      seatsBox,
      names.map((name, seat) =>
        h(
          "li",
          { class: `seat${seat === answer.to_move ? " to-move" : ""}${seat === ctx.seat ? " me" : ""}`, "data-seat": seat },
          h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, name), seat === ctx.seat ? h("span", { class: "badge you" }, t("seat_you")) : null),
          game.seatDetails ? game.seatDetails(view, seat, ctx) : null,
        ),
      ),
    );
  }

  function render(answer, options) {
    last = answer;
    opts = options;
    ctx.seat = answer.seat;
    ctx.current = {
      type: "state",
      seq: 0,
      status: answer.terminal ? "finished" : "running",
      view: answer.view,
      hints: answer.hints,
      to_move: answer.to_move,
      legal: answer.legal,
      last: null,
      ranking: null,
      seats: names.map((name) => ({ name, kind: "human" })),
    };
    game.render(ctx.current, ctx);
    renderSeats(answer);
  }

  return {
    render,
    reset() {},
    relang() {
      if (last) render(last, opts);
    },
  };
}
