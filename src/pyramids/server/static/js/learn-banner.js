// The lobby's offer of the tutorial: a first-time visitor (no lesson done, the banner
// never dismissed) sees a banner with a link to each game's tutorial and a dismiss
// button, remembered in this browser (learn-progress.js); everyone else sees one quiet
// line of links, so the tutorial stays one click away.

import { onLangChange, t } from "./i18n.js";
import { dismissBanner, hasStarted, isBannerDismissed } from "./learn-progress.js";
import { fill, h } from "./util.js";

const GAMES = [
  ["flaming", "game_flaming"],
  ["flags", "game_flags"],
];

function links(quiet) {
  return GAMES.map(([name, title]) =>
    h("a", { class: quiet ? "chip" : "btn small", href: `/learn/${name}`, "data-testid": `learn-banner-${name}` }, t(title)),
  );
}

/** Show the tutorial's offer in `box` (the lobby's #learn-banner), kept in the language. */
export function initLearnBanner(box) {
  if (!box) return;
  function render() {
    const firstTime = !isBannerDismissed() && !hasStarted();
    box.hidden = false;
    box.classList.toggle("first-time", firstTime);
    box.dataset.state = firstTime ? "offer" : "quiet";
    if (firstTime) {
      fill(
        box,
        h("div", { class: "learn-banner-text" }, h("strong", {}, t("learn_banner_title")), " ", t("learn_banner_text")),
        h("div", { class: "learn-banner-links" }, links(false)),
        h(
          "button",
          {
            type: "button",
            class: "chip learn-banner-close",
            "data-testid": "learn-banner-dismiss",
            "aria-label": t("learn_banner_dismiss"),
            title: t("learn_banner_dismiss"),
            onclick: () => {
              dismissBanner();
              render();
            },
          },
          t("learn_banner_close"),
        ),
      );
    } else {
      fill(box, h("span", { class: "muted" }, t("learn_banner_quiet")), " ", links(true));
    }
  }
  render();
  onLangChange(render);
}
