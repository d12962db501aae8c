// The tutorial (/learn/flaming, /learn/flags; /learn chooses): short lessons, each a
// staged position from the rulebook's examples (static/data/learn-lessons.json). The
// learner makes the move on the drawn board; the server applies it with the engine
// (POST /api/learn/{game}/show and /apply, server/learn.py) and the page tells what
// happened, in the engine's event sentences (the shared catalogue, eventText), and why,
// in the lesson's own text. A lesson is done once the learner's turn is over and every
// action asked for was made; progress is remembered in this browser (learn-progress.js).

import { eventText, initI18n, lang, onLangChange, t } from "./i18n.js";
import { doneLessons, markDone } from "./learn-progress.js";
import { api, capitalise, errorText, fill, h, prefersReducedMotion, withNames } from "./util.js";

const LESSONS_URL = "/static/data/learn-lessons.json";
const GAMES = {
  flaming: { title: "game_flaming", board: () => import("./learn-flaming.js") },
  flags: { title: "game_flags", board: () => import("./learn-flags.js") },
};

const el = (id) => document.getElementById(id);
const dom = {
  heading: el("learn-heading"),
  choose: el("learn-choose"),
  choices: el("learn-choices"),
  nav: el("learn-nav"),
  gameTitle: el("learn-game-title"),
  progress: el("learn-progress"),
  lessons: el("learn-lessons"),
  other: el("learn-other"),
  lesson: el("learn-lesson"),
  step: el("learn-step"),
  title: el("learn-lesson-title"),
  intro: el("learn-intro"),
  task: el("learn-task"),
  board: el("learn-board"),
  result: el("learn-result"),
  resultTitle: el("learn-result-title"),
  events: el("learn-events"),
  explain: el("learn-explain"),
  retry: el("learn-retry"),
  next: el("learn-next"),
  rules: el("learn-rules"),
};

const page = {
  game: null,
  lessons: [],
  names: ["Alice", "Bob"],
  index: 0,
  board: null,
  answer: null, // the server's latest answer for the lesson on screen
  step: 0, // how many actions the learner has made in this lesson
  events: [], // every event of this lesson, in order
  outcome: null, // null while playing, "done", "wrong" or "refused"
  refusal: "",
  busy: false,
};

/** The text of `texts` ({en, fr}) in the current language. */
function say(texts) {
  if (!texts) return "";
  return texts[lang()] || texts.en || "";
}

function gameFromPath() {
  const m = window.location.pathname.match(/^\/learn\/([^/]+)\/?$/);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Whether action `text` is one of `accepted` (`*` matches anything; codes ignore case). */
function isExpected(text, accepted) {
  if (!accepted) return true;
  return accepted.some((pattern) => {
    const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
    return new RegExp(`^${escaped}$`, "i").test(text);
  });
}

function lesson() {
  return page.lessons[page.index];
}

function renderNav() {
  const done = doneLessons(page.game);
  dom.gameTitle.textContent = t(GAMES[page.game].title);
  dom.heading.textContent = `${t("learn_title")} · ${t(GAMES[page.game].title)}`;
  document.title = `${t("learn_title")} · ${t(GAMES[page.game].title)} · ${t("app_name")}`;
  const count = page.lessons.filter((l) => done.has(l.id)).length;
  dom.progress.textContent = t("learn_progress", { done: count, n: page.lessons.length });
  fill(
    dom.lessons,
    page.lessons.map((l, i) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: `learn-lesson-link${i === page.index ? " current" : ""}${done.has(l.id) ? " done" : ""}`,
            "data-testid": "lesson-link",
            "data-lesson": l.id,
            "data-done": String(done.has(l.id)),
            "aria-current": i === page.index ? "step" : undefined,
            onclick: () => start(i),
          },
          h("span", { class: "learn-mark", "aria-hidden": "true" }, done.has(l.id) ? "✓" : String(i + 1)),
          h("span", {}, say(l.title)),
          done.has(l.id) ? h("span", { class: "visually-hidden" }, ` (${t("learn_done")})`) : null,
        ),
      ),
    ),
  );
  const other = page.game === "flaming" ? "flags" : "flaming";
  fill(dom.other, h("a", { href: `/learn/${other}` }, t("learn_other", { game: t(GAMES[other].title) })));
}

function renderLesson() {
  const l = lesson();
  dom.step.textContent = t("learn_lesson_of", { i: page.index + 1, n: page.lessons.length });
  dom.title.textContent = say(l.title);
  dom.intro.textContent = `${t("learn_you_play", { name: page.names[0] })} ${say(l.intro)}`;
  const tasks = l.tasks || [];
  const task = tasks[Math.min(page.step, tasks.length - 1)];
  dom.task.textContent = page.outcome === null ? say(task) : "";
  dom.task.hidden = page.outcome !== null;
  dom.rules.href = `/rules/${page.game}${l.rules_section ? `#${l.rules_section}` : ""}`;
  renderResult();
  if (page.answer && page.board) {
    page.board.render(page.answer, {
      interactive: page.outcome === null && !page.busy,
      onAction: act,
    });
  }
}

function renderResult() {
  const shown = page.events.length > 0 || page.outcome !== null;
  dom.result.hidden = !shown;
  dom.result.dataset.outcome = page.outcome || "playing";
  const titles = { done: "learn_well_done", wrong: "learn_not_quite", refused: "learn_refused" };
  dom.resultTitle.textContent = t(titles[page.outcome] || "learn_what_happened");
  fill(
    dom.events,
    page.events.map((ev) =>
      h("li", { class: `log-event ev-${ev.kind}`, "data-kind": ev.kind }, withNames(capitalise(eventText(ev)), page.names)),
    ),
  );
  const l = lesson();
  let explain = "";
  if (page.outcome === "done") explain = say(l.explain);
  else if (page.outcome === "wrong") explain = say(l.wrong);
  else if (page.outcome === "refused") explain = page.refusal;
  dom.explain.textContent = explain;
  dom.retry.hidden = page.outcome === null;
  dom.retry.textContent = t(page.outcome === "done" ? "learn_again" : "learn_retry");
  dom.next.hidden = page.outcome !== "done";
  const last = page.index === page.lessons.length - 1;
  dom.next.textContent = last ? t("learn_finish") : t("learn_next");
}

/** Stage lesson `i` (its position as the engine reads it). */
async function start(i) {
  page.index = Math.max(0, Math.min(i, page.lessons.length - 1));
  page.step = 0;
  page.events = [];
  page.outcome = null;
  page.refusal = "";
  page.answer = null;
  page.busy = true;
  if (page.board) page.board.reset();
  renderNav();
  renderLesson();
  try {
    page.answer = await api(`/api/learn/${encodeURIComponent(page.game)}/show`, {
      method: "POST",
      body: { position: lesson().position, seat: 0 },
    });
  } catch (err) {
    page.outcome = "refused";
    page.refusal = errorText(err.code, err.message, err);
  } finally {
    page.busy = false;
  }
  renderLesson();
}

/** The learner's action `text`: the engine applies it, the page tells what it did. */
async function act(text) {
  if (page.busy || page.outcome !== null || !page.answer) return;
  page.busy = true;
  renderLesson();
  const l = lesson();
  const accepted = (l.expect || [])[page.step];
  let answer;
  try {
    answer = await api(`/api/learn/${encodeURIComponent(page.game)}/apply`, {
      method: "POST",
      body: { position: page.answer.position, action: text, seat: page.answer.seat },
    });
  } catch (err) {
    page.busy = false;
    page.refusal = errorText(err.code, err.message, err);
    page.outcome = "refused";
    renderLesson();
    showResult();
    return;
  }
  page.busy = false;
  page.answer = answer;
  page.step += 1;
  page.events.push(...answer.events);
  if (!isExpected(text, accepted)) {
    page.outcome = "wrong";
  } else if (answer.terminal || answer.to_move !== answer.seat) {
    page.outcome = "done";
    markDone(page.game, l.id);
    renderNav();
  }
  renderLesson();
  if (page.outcome !== null) showResult();
}

/** Bring the lesson's result into view (it is under the board, which may be long). */
function showResult() {
  if (typeof dom.result.scrollIntoView !== "function") return;
  dom.result.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
}

function next() {
  if (page.index < page.lessons.length - 1) {
    start(page.index + 1);
    return;
  }
  window.location.href = "/";
}

function renderChooser() {
  dom.heading.textContent = t("learn_title");
  document.title = `${t("learn_title")} · ${t("app_name")}`;
  fill(
    dom.choices,
    Object.entries(GAMES).map(([name, g]) =>
      h("a", { class: "btn", href: `/learn/${name}`, "data-testid": `learn-choose-${name}` }, t(g.title)),
    ),
  );
}

async function init() {
  initI18n();
  page.game = gameFromPath();
  if (!page.game || !GAMES[page.game]) {
    dom.choose.hidden = false;
    renderChooser();
    onLangChange(renderChooser);
    return;
  }
  dom.nav.hidden = false;
  dom.lesson.hidden = false;
  let data;
  try {
    const response = await fetch(LESSONS_URL, { cache: "no-store" });
    data = await response.json();
  } catch (err) {
    fill(dom.intro, errorText("network", String(err)));
    return;
  }
  page.lessons = data[page.game] || [];
  page.names = (data.names && data.names[lang()]) || page.names;
  const module = await GAMES[page.game].board();
  page.board = module.createBoard(dom.board, page.names);
  dom.retry.addEventListener("click", () => start(page.index));
  dom.next.addEventListener("click", next);
  onLangChange(() => {
    page.names = (data.names && data.names[lang()]) || page.names;
    renderNav();
    renderLesson();
    page.board.relang();
  });
  const done = doneLessons(page.game);
  const wanted = page.lessons.findIndex((l) => `#${l.id}` === window.location.hash);
  const firstOpen = page.lessons.findIndex((l) => !done.has(l.id));
  start(wanted >= 0 ? wanted : firstOpen >= 0 ? firstOpen : 0);
}

init();
