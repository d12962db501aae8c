// The rules pages (/rules/flaming, /rules/flags, and /rules listing both): the sections of
// rules-flaming.js / rules-flags.js in the page's language, with their diagrams drawn by the
// tables' own code (flaming-draw.js for the pyramid, the flags table's pieces for towers).
// Every section is an anchor (#curse, #fire-die, …) that the lobby's options link to.

import {
  boardFromList,
  drawPyramid,
  fallTargets,
  installDefs,
  tileElement,
} from "./flaming-draw.js";
import { initI18n, lang, onLangChange, t } from "./i18n.js";
import * as FLAGS from "./rules-flags.js";
import { drawPieces, drawTowers } from "./rules-flags-draw.js";
import * as FLAMING from "./rules-flaming.js";
import { fill, h, s } from "./util.js";

const GAMES = { flaming: FLAMING, flags: FLAGS };

/** The game named by the address (/rules/<game>), or null for the list of rules pages. */
function gameFromPath() {
  const match = location.pathname.match(/^\/rules\/([^/]+)/);
  const name = match ? decodeURIComponent(match[1]) : "";
  return name in GAMES ? name : null;
}

/** A {en, fr} text in the page's language. */
function tr(text) {
  return text[lang()] ?? text.en;
}

/** Mark tiles of a drawn pyramid with a rules class (placed, burn, gone, boom, curse, call). */
function markTiles(svg, spots, cls) {
  for (const spot of spots || []) {
    const el = tileElement(svg, spot);
    if (el) el.classList.add(cls);
  }
}

/** One Flaming Pyramids diagram: the pyramid drawn by the table's drawPyramid. */
function flamingFigure(fig) {
  const svg = s("svg", {
    class: "pyramid rules-diagram",
    "data-testid": "rules-diagram",
    role: "img",
    "aria-label": tr(fig.caption),
  });
  drawPyramid(svg, boardFromList(fig.pyramid), {
    spots: (fig.spots || []).map((spot) => ({ spot, hint: { fits: null, reason: "" } })),
    fall: fig.fall ? { spot: fig.fall, targets: fallTargets(fig.fall), mine: false } : null,
    burning: fig.burning || null,
    quenched: new Set(fig.quenched || []),
  });
  // a picture, not a control: the spots are not buttons here
  for (const el of svg.querySelectorAll("[role=button]")) {
    el.removeAttribute("role");
    el.removeAttribute("tabindex");
  }
  markTiles(svg, fig.placed ? [fig.placed] : [], "rules-placed");
  markTiles(svg, fig.burn, "rules-burn");
  markTiles(svg, fig.gone, "rules-gone");
  markTiles(svg, fig.boom, "rules-boom");
  markTiles(svg, fig.curse, "rules-curse");
  markTiles(svg, fig.call ? [fig.call] : [], "rules-call");
  return svg;
}

/** One Pyramids and Flags diagram: towers or a set of pieces. */
function flagsFigure(fig) {
  const body = fig.kind === "towers" ? drawTowers(fig.towers, fig.marks) : drawPieces(fig.pieces, fig.marks);
  body.setAttribute("data-testid", "rules-diagram");
  body.setAttribute("role", "img");
  body.setAttribute("aria-label", tr(fig.caption));
  return body;
}

function figure(game, fig) {
  return h(
    "figure",
    { class: `rules-figure rules-figure-${game}` },
    game === "flaming" ? flamingFigure(fig) : flagsFigure(fig),
    h("figcaption", {}, tr(fig.caption)),
  );
}

function section(game, sec) {
  const paragraphs = (list) => (list || []).map((p) => h("p", {}, tr(p)));
  const figures = sec.figures || sec.steps;
  return h(
    "section",
    { class: "rules-section panel", id: sec.id, "data-testid": "rules-section" },
    h("h2", {}, h("a", { class: "anchor", href: `#${sec.id}`, "aria-hidden": "true" }, "#"), " ", tr(sec.title)),
    paragraphs(sec.text),
    sec.list ? h("ul", {}, sec.list.map((item) => h("li", {}, tr(item)))) : null,
    paragraphs(sec.after),
    figures
      ? h(
          "div",
          { class: `rules-figures${sec.steps ? " steps" : ""}` },
          figures.map((fig) => figure(game, fig)),
        )
      : null,
  );
}

function otherGames(game) {
  return Object.keys(GAMES)
    .filter((name) => name !== game)
    .map((name) => h("a", { class: "chip", href: `/rules/${name}`, "data-testid": `rules-to-${name}` }, t("rules_of", { game: tr(GAMES[name].NAME) })));
}

function renderGame(root, game) {
  const content = GAMES[game];
  document.title = `${tr(content.TITLE)} · ${t("app_name")}`;
  fill(
    root,
    h("h1", {}, tr(content.TITLE)),
    h("p", { class: "rules-intro" }, tr(content.INTRO)),
    h(
      "nav",
      { class: "rules-toc panel", "aria-label": t("rules_contents") },
      h("h2", {}, t("rules_contents")),
      h(
        "ol",
        {},
        content.SECTIONS.map((sec) => h("li", {}, h("a", { href: `#${sec.id}` }, tr(sec.title)))),
      ),
      h("p", { class: "rules-nav" }, otherGames(game), h("a", { class: "chip", href: "/" }, t("back_lobby"))),
    ),
    content.SECTIONS.map((sec) => section(game, sec)),
  );
}

function renderIndex(root) {
  document.title = `${t("rules_title")} · ${t("app_name")}`;
  fill(
    root,
    h("h1", {}, t("rules_title")),
    h("p", { class: "rules-nav" }, otherGames(null), h("a", { class: "chip", href: "/" }, t("back_lobby"))),
  );
}

function render() {
  const root = document.getElementById("rules");
  const game = gameFromPath();
  document.body.dataset.game = game || "";
  if (game) renderGame(root, game);
  else renderIndex(root);
}

function scrollToHash() {
  if (!location.hash) return;
  const el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (el) el.scrollIntoView();
}

installDefs();
initI18n();
render();
scrollToHash(); // the sections exist only now, after the browser looked for the anchor
onLangChange(() => render());
