// The replay's "Computer analysis" section (issue 30). The analysis is asked for with a
// button ("Analyse this game"), not on opening the page: it costs the server a search at
// every decision, so it runs for the games someone wants judged (the server keeps one per
// table, so a second visitor gets it at once). GET /api/tables/{id}/analysis answers 202
// while it is queued (with the queue position) or running, asked again every POLL_MS, then
// 200 with every decision judged from the deciding seat's view: the chance to win before
// (the search's preferred move) and after the move played, the drop, and the mistakes.
// Shown: a chart of each seat's chance over the game (analysis-chart.js) and a list of
// every decision in words (the game's replay drawer words the moves, as the replay does),
// mistakes marked in words and with the class `mistake`; a decision jumps the replay to
// the step that plays it (step N plays the record's action N-1: replay.js's steps).

import { onLangChange, t } from "./i18n.js";
import { analysisChart } from "./analysis-chart.js";
import { api, fill, h } from "./util.js";
import { adviceError, counted, percent } from "./words-advice.js";

const POLL_MS = 1000;

/**
 * The analysis section in `box` for table `tableId`. `names()`: the seats' names;
 * `moveWords(action, seat, index, played)`: a move in words (`played`: the record's move at
 * action `index`, else the search's preferred one there); `jump(seq)`: show replay step
 * `seq`. Returns {setStep(seq)}: the replay tells which step it shows.
 */
export function initAnalysis({ box, tableId, names, moveWords, jump }) {
  const status = h("p", { class: "analysis-status", "data-testid": "analysis-status", "aria-live": "polite" });
  const body = h("div", { class: "analysis-body" });
  fill(box, status, body);
  let state = { phase: "idle", position: null, error: null, retryAfter: 0, analysis: null };
  let shownSeq = null;
  let timer = null;

  async function ask() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    let answer;
    try {
      answer = await api(`/api/tables/${encodeURIComponent(tableId)}/analysis`);
    } catch (err) {
      if (err.code === "rate_limited") {
        state = { ...state, error: err.code, retryAfter: err.retryAfter || 1 };
        timer = setTimeout(ask, Math.max(POLL_MS, (err.retryAfter || 1) * 1000));
      } else {
        state = { ...state, phase: "error", error: err.code || "http" };
      }
      render();
      return;
    }
    if (answer && answer.status === "done" && answer.analysis) {
      state = { phase: "done", position: null, error: null, retryAfter: 0, analysis: answer.analysis };
      render();
      return;
    }
    const position = answer && answer.status === "queued" && Number.isInteger(answer.position) ? answer.position : null;
    state = { ...state, phase: "waiting", position, error: null };
    render();
    timer = setTimeout(ask, POLL_MS);
  }

  function start() {
    if (state.phase === "waiting" || state.phase === "done") return;
    state = { phase: "waiting", position: null, error: null, retryAfter: 0, analysis: null };
    render();
    ask();
  }

  function statusText() {
    if (state.phase === "waiting") {
      const waiting = state.position ? t("analysis_queue", { n: state.position }) : t("analysis_running");
      return state.error ? `${waiting} ${adviceError(state.error, state)}` : waiting;
    }
    if (state.phase === "error") return adviceError(state.error, state);
    if (state.phase === "done") {
      const a = state.analysis;
      const decisions = a.decisions || [];
      return decisions.length
        ? t("analysis_summary", {
            decisions: counted("decisions", decisions.length),
            mistakes: counted("mistakes", decisions.filter((d) => d.mistake).length),
            it: a.iterations,
          })
        : t("analysis_none");
    }
    return "";
  }

  /** One decision of the list: a button that shows its step in the replay. */
  function decisionItem(d) {
    const n = d.index + 1;
    const seat = d.seat;
    const better = d.best && d.best !== d.action;
    return h(
      "li",
      {
        class: `analysis-decision${d.mistake ? " mistake" : ""}`,
        "data-testid": "analysis-decision",
        "data-index": d.index,
        "data-seat": seat,
        "data-mistake": d.mistake ? "true" : "false",
      },
      h(
        "button",
        {
          type: "button",
          class: "analysis-jump",
          title: t("analysis_jump", { n }),
          onclick: () => jump(n),
        },
        h("span", { class: "analysis-n" }, t("analysis_action_n", { n })),
        h("span", { class: `seat-dot seat-c${seat}`, "aria-hidden": "true" }),
        h("span", { class: "analysis-move", title: d.action }, moveWords(d.action, seat, d.index, true)),
        h(
          "span",
          { class: "analysis-chance", "data-testid": "analysis-chance" },
          t("analysis_before_after", { a: percent(d.before), b: percent(d.after) }),
        ),
        better
          ? h(
              "span",
              { class: "analysis-best", title: d.best },
              t("analysis_best", { move: moveWords(d.best, seat, d.index, false), p: percent(d.before) }),
            )
          : null,
        d.mistake
          ? h(
              "strong",
              { class: "analysis-mistake", "data-testid": "analysis-mistake" },
              t("analysis_mistake", { n: Math.round((d.drop ?? d.before - d.after) * 100) }),
            )
          : null,
        d.played_by ? h("span", { class: "muted analysis-played-by" }, t("analysis_played_by")) : null,
      ),
    );
  }

  function render() {
    status.textContent = statusText();
    status.dataset.phase = state.phase;
    if (state.phase === "done") {
      const a = state.analysis;
      const decisions = a.decisions || [];
      fill(
        body,
        h("p", { class: "muted analysis-intro" }, t("analysis_intro", { n: Math.round((a.mistake ?? 0.1) * 100) })),
        decisions.length ? analysisChart(a, names()) : null,
        decisions.length ? h("h3", { class: "analysis-list-title" }, t("analysis_list_title")) : null,
        decisions.length ? h("ol", { class: "analysis-list", "data-testid": "analysis-list" }, decisions.map(decisionItem)) : null,
      );
      markStep();
      return;
    }
    fill(
      body,
      h("p", { class: "muted analysis-intro" }, t("analysis_intro", { n: 10 })),
      h(
        "button",
        {
          type: "button",
          class: "btn analysis-button",
          "data-testid": "analysis-button",
          disabled: state.phase === "waiting",
          onclick: start,
        },
        state.phase === "error" ? t("analysis_again") : t("analysis_button"),
      ),
    );
  }

  /** Mark the decision the replay shows (its step plays that decision's move). */
  function markStep() {
    for (const item of body.querySelectorAll("[data-testid=analysis-decision]")) {
      const here = Number(item.dataset.index) + 1 === shownSeq;
      item.classList.toggle("current", here);
      const button = item.querySelector("button");
      if (here) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
  }

  onLangChange(render);
  render();
  return {
    setStep(seq) {
      shownSeq = seq;
      markStep();
    },
  };
}
