"""i18n without gaps (issue 14, item 9): "a test that fails when an English string reaches
the French page (for every page and both games); lobby and table fit 360 px wide in both
languages (assert no horizontal overflow)".

What counts as English: the pages' own English words (the catalogue's ``web.*`` entries,
read through i18n.js's ``catalogue`` export) and the whole catalogue (/texts/en.json), every
entry whose French differs from its English (or that has no French at all, which falls back
to English). Each entry is cut at its placeholders into fragments; a fragment is a "tell"
when it has a word of four letters or more and does not occur in any French text (so
"Pause", "Options" or "pyramids verify" never count). The French page's visible text
(inner text with every ``<details>`` opened, plus titles, labels and placeholders, and the
tab's title) has the seats' names, tile and card codes and numbers taken out before the
tells are looked for.

No overflow: ``document.documentElement.scrollWidth <= innerWidth``, and no visible element
reaches past the right edge (``body`` hides horizontal overflow, which would only clip it),
unless an ancestor that scrolls or clips within the screen holds it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests import http_play
from tests.browser.conftest import REPO_ROOT, PageErrors, submit_create, watch_errors
from tests.live import LiveServer

NARROW = {"width": 360, "height": 780}
BOT_NAMES = ["greedy", "random"]
OPTIONAL_PAGES = ["/rules/flaming", "/rules/flags", "/learn/flaming", "/learn/flags"]
"""Pages checked when the server has them (a 404 skips them)."""

VISIBLE_TEXT = """() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], img[alt]')) {
    if (el.closest('[hidden]') || (el.checkVisibility && !el.checkVisibility())) continue;
    for (const attr of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = el.getAttribute(attr);
      if (value) parts.push(value);
    }
  }
  return parts.join('\\n');
}"""

OVERFLOW = """() => {
  const width = innerWidth;
  const clips = (el) => {
    const style = getComputedStyle(el);
    return ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX);
  };
  const past = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.right <= width + 1) continue;
    if (el.checkVisibility && !el.checkVisibility()) continue;
    let held = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (clips(up) && up.getBoundingClientRect().right <= width + 1) {
        held = true;
        break;
      }
    }
    if (held) continue;
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    past.push(`${name} (right ${Math.round(box.right)}): ${(el.textContent || '').trim().slice(0, 40)}`);
  }
  return {scroll: document.documentElement.scrollWidth, width, past: past.slice(0, 12)};
}"""

CATALOGUES = """async () => {
  const i18n = await import('/static/js/i18n.js');
  const texts = async (code) => (await fetch(`/texts/${code}.json`)).json();
  return {page: [i18n.catalogue('en'), i18n.catalogue('fr')], events: [await texts('en'), await texts('fr')]};
}"""

CODES = re.compile(r"\b[A-Z]{1,2}\d+(?:@-?\d+,-?\d+)?\b|\b[A-Z]{3}\b|-?\d+(?:[.,]\d+)?")
"""Tile, piece and card codes (R40@1,-1, O2, MAR) and numbers: the same in both languages."""
NOTATION = re.compile(
    r"^\s*(?:left|right|done|[a-z]+:\S+|\S*[@>]\S*)\s*$|\b[a-z]+:[A-Z0-9@,>-]+", re.M
)
"""Actions in the games' notation (a tooltip's `left`, `take:O1`, `W2>R3`): no language's."""
WORD = re.compile(r"[^\W\d_]{4,}")


def normalise(text: str) -> str:
    """Lower case, typographic apostrophes and spaces made plain, runs of space as one."""
    text = text.replace("’", "'").replace("\u202f", " ").replace("\xa0", " ")
    return re.sub(r"\s+", " ", text).strip().lower()


def fragments(message: str) -> list[str]:
    """A catalogue entry's literal pieces: every {placeholder} (nested ones too) cuts it."""
    text = message
    while True:
        cut = re.sub(r"\{[^{}]*\}", "\x00", text)
        if cut == text:
            break
        text = cut
    pieces = re.split(r"[\x00\n]|[:;()«»\"“”]| - |…", text)
    return [p.strip(" .,!?'·/—–") for p in pieces if p.strip(" .,!?'·/—–")]


def english_tells(page: list[dict[str, str]], events: list[dict[str, str]]) -> list[str]:
    """The English fragments a French page must never show (see the module docstring)."""
    french_corpus = " \n ".join(normalise(v) for cat in (page[1], events[1]) for v in cat.values())
    tells: set[str] = set()
    for english, french in (page, events):
        for key, value in english.items():
            if not isinstance(value, str) or french.get(key) == value:
                continue
            for piece in fragments(value):
                phrase = normalise(piece)
                if not WORD.search(phrase) or not re.search(r"[a-z]", phrase):
                    continue
                if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", french_corpus):
                    continue
                tells.add(phrase)
    return sorted(tells, key=len, reverse=True)


def place_names() -> list[str]:
    """The French proper names on the Flags cards (a highest point such as "pic Blue
    Mountain" keeps its English words in French): names, not untranslated text."""
    path = REPO_ROOT / "src" / "pyramids" / "server" / "static" / "data" / "flags-cards.json"
    cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
    names = [c[k] for c in cards for k in ("country_fr", "capital_fr") if c.get(k)]
    names += [f["name_fr"] for c in cards for f in c["facts"].values() if f.get("name_fr")]
    return names


def english_found(text: str, tells: list[str], names: list[str]) -> list[str]:
    """The tells that occur in a page's text once names, codes and numbers are taken out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    seen = normalise(CODES.sub(" ", NOTATION.sub(" ", text)))
    found = []
    for phrase in tells:
        if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", seen):
            found.append(phrase)
            seen = seen.replace(phrase, " ")
    return found


def wait_finished(url: str, tid: str) -> None:
    """Until the table's game is over."""
    http_play.wait_finished(url, tid)


def new_table(url: str, game: str, *, human: bool, seed: int) -> tuple[str, str | None]:
    """A table (Ann and two bots, or two bots); its id and Ann's invite URL."""
    bots = [{"kind": "bot", "bot": b} for b in BOT_NAMES]
    seats = [{"kind": "human", "name": "Ann"}, *bots] if human else bots
    body: dict[str, Any] = {"game": game, "seats": seats, "bot_delay": 0}
    if not human:
        body["seed"] = seed
    created = httpx.post(f"{url}/api/tables", json=body).json()
    tid: str = created["table"]["id"]
    invite = created["invites"][0]["url"] if human else None
    if not human:
        wait_finished(url, tid)
    return tid, invite


@pytest.fixture(scope="module")
def tables(server: LiveServer) -> dict[str, str]:
    """Two finished all-bot tables (Ann's seats come from ``seat_link``: an invite opens
    in one browser only)."""
    found: dict[str, str] = {}
    for i, game in enumerate(("flaming", "flags")):
        tid, _ = new_table(server.url, game, human=False, seed=141 + 2 * i)
        found[f"{game}_finished"] = tid
    return found


def seat_link(server: LiveServer, game: str) -> str:
    """Ann's invite at a new table of ``game`` with two bots, for one browser: an invite is
    used once (issue 29), and each check opens the table in a new browser context."""
    _, invite = new_table(server.url, game, human=True, seed=0)
    assert invite
    return invite


@pytest.fixture
def page_in(browser: Any) -> Iterator[Any]:
    """A factory of pages in a language (`fr-FR` / `en-GB`) at a viewport, all closed after."""
    contexts: list[Any] = []

    def make(locale: str, viewport: dict[str, int] | None = None) -> tuple[Any, PageErrors]:
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900}, locale=locale
        )
        context.set_default_timeout(30_000)
        contexts.append(context)
        pg = context.new_page()
        return pg, watch_errors(pg)

    yield make
    for context in contexts:
        context.close()


def settle_table(pg: Any) -> None:
    """Until a table page has drawn its first state."""
    pg.wait_for_function("() => (document.querySelector('[data-testid=seq]') || {}).textContent")
    pg.wait_for_timeout(300)


def settle_replay(pg: Any) -> None:
    """Until a replay shows a step."""
    pg.wait_for_selector("[data-testid=replay-step][data-seq]")
    pg.wait_for_timeout(300)


def create_in_lobby(pg: Any) -> None:
    """Fill the lobby's form with every seat and setting shown, and create the table."""
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    last = form.locator("select[name=players] option").last.get_attribute("value")
    form.locator("select[name=players]").select_option(last)
    pg.wait_for_selector("[data-testid=seat-kind-1]")
    pg.select_option("[data-testid=seat-kind-0]", "human")
    pg.select_option("[data-testid=seat-kind-1]", "human")
    pg.evaluate("() => { for (const d of document.querySelectorAll('details')) d.open = true; }")
    submit_create(pg)


def french_pages(server: LiveServer, tables: dict[str, str]) -> list[tuple[str, str, Any]]:
    """(what, path, how to wait for it) for every page checked in French."""
    pages: list[tuple[str, str, Any]] = [
        ("Flaming table (Ann's seat)", seat_link(server, "flaming"), settle_table),
        ("Flags table (Ann's seat)", seat_link(server, "flags"), settle_table),
        ("Flaming table, finished", f"/t/{tables['flaming_finished']}", settle_table),
        ("Flags table, finished", f"/t/{tables['flags_finished']}", settle_table),
        ("Flaming replay", f"/t/{tables['flaming_finished']}/replay", settle_replay),
        ("Flags replay", f"/t/{tables['flags_finished']}/replay", settle_replay),
    ]
    for path in OPTIONAL_PAGES:
        if httpx.get(server.url + path).status_code != 404:
            pages.append((f"page {path}", path, lambda pg: pg.wait_for_timeout(800)))
    return pages


def test_no_english_reaches_a_french_page(
    page_in: Any, server: LiveServer, tables: dict[str, str]
) -> None:
    """Every page of both games, in French, shows no fragment of the English catalogue."""
    pg, errors = page_in("fr-FR")
    pg.goto(server.url + "/")
    pg.locator("[data-testid=create-form] select[name=game] option").first.wait_for(
        state="attached"
    )
    data = pg.evaluate(CATALOGUES)
    tells = english_tells(data["page"], data["events"])
    assert len(tells) > 100, "the English catalogue should give many tells"

    names = ["Ann", *BOT_NAMES, *place_names()]
    gaps: dict[str, list[str]] = {}
    create_in_lobby(pg)
    if found := english_found(pg.evaluate(VISIBLE_TEXT), tells, names):
        gaps["lobby"] = found
    for what, path, settle in french_pages(server, tables):
        pg.goto(server.url + path)
        settle(pg)
        if found := english_found(pg.evaluate(VISIBLE_TEXT), tells, names):
            gaps[what] = found
    # A bad link: the server's English reason must not show (the err_bad_token text does).
    tid = tables["flaming_finished"]
    pg.goto(f"{server.url}/t/{tid}?token=not-a-token")
    pg.wait_for_timeout(1500)
    if found := english_found(pg.evaluate(VISIBLE_TEXT), [*tells, "this token"], names):
        gaps["a bad invite link"] = found
    assert gaps == {}, gaps
    # the bad link's refusals are the only console errors expected
    assert all("403" in m or "Forbidden" in m or "token" in m for m in errors.messages), (
        errors.messages
    )


def protocol_error_codes() -> list[str]:
    """The error codes docs/PROTOCOL.md lists (its "Codes:" paragraph), and `network`."""
    doc = (REPO_ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    paragraph = doc.split("Codes:", 1)[1].split("\n\n", 1)[0]
    # a code is followed by its status, a comma, "and" or ")": "a `seed` for a table" is none
    return sorted({*re.findall(r"`([a-z_]+)`(?=\s*[(),]|\s+and\b)", paragraph), "network"})


def test_every_server_error_code_is_told_in_english_and_french(
    page_in: Any, server: LiveServer
) -> None:
    """Each code of the protocol has its own words in both languages; in French the
    server's (English) message is never part of them."""
    codes = protocol_error_codes()
    assert {"bad_token", "illegal", "rate_limited", "unavailable"} <= set(codes)
    pg, errors = page_in("fr-FR")
    pg.goto(server.url + "/")
    told = pg.evaluate(
        """async (codes) => {
          const i18n = await import('/static/js/i18n.js');
          const util = await import('/static/js/util.js');
          const en = i18n.catalogue('en'), fr = i18n.catalogue('fr');
          const said = {};
          for (const code of codes) {
            i18n.setLang('fr');
            const french = util.errorText(code, 'this token is not the token of a seat');
            i18n.setLang('en');
            const english = util.errorText(code, 'this token is not the token of a seat');
            said[code] = {en: `err_${code}` in en, fr: `err_${code}` in fr, french, english};
          }
          return said;
        }""",
        codes,
    )
    missing = {c: v for c, v in told.items() if not (v["en"] and v["fr"])}
    assert missing == {}, missing
    leaked = {c: v["french"] for c, v in told.items() if "token of a seat" in v["french"]}
    assert leaked == {}, leaked
    assert told["bad_token"]["french"] == "Ce lien ne donne pas de place à cette table."
    assert "token of a seat" in told["bad_token"]["english"]
    assert errors.messages == [], errors.messages


def test_the_tell_list_catches_english_and_spares_french_names_and_codes() -> None:
    """The matcher itself: English fragments found, names, codes and French words not."""
    page = [
        {"a": "Your turn", "b": "Seat {n} plays {tile} at {at}", "c": "Pause", "d": "Options"},
        {
            "a": "À vous de jouer",
            "b": "Le joueur {n} pose {tile} en {at}",
            "c": "Pause",
            "d": "Options",
        },
    ]
    tells = english_tells(page, [{}, {}])
    assert "your turn" in tells and "plays" in tells
    assert "pause" not in tells and "options" not in tells
    assert english_found("Ann pose R40 en 1,-1 · Options", tells, ["Ann"]) == []
    assert english_found("Player Ann plays R40", tells, ["Ann"]) == ["plays"]
    assert english_found("À VOUS DE JOUER — YOUR TURN", tells, []) == ["your turn"]
    assert english_found("take:O1\nleft\nW2>R3", ["take", "left"], []) == []
    assert english_found("G20 falls left", ["left"], []) == ["left"]
    assert "pic Blue Mountain" in place_names()  # a place keeps its name in French
    assert english_found("Jamaïque · pic Blue Mountain", ["blue"], place_names()) == []
    assert english_found("la pyramide blue", ["blue"], place_names()) == ["blue"]


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"], ids=["en", "fr"])
def test_lobby_and_tables_fit_360_px(
    page_in: Any, server: LiveServer, tables: dict[str, str], locale: str
) -> None:
    """No horizontal overflow at 360 px: the lobby (with the new table's invites and every
    setting open), Ann's Flaming and Flags tables, and a finished table."""
    pg, errors = page_in(locale, NARROW)
    where: dict[str, Any] = {}
    pg.goto(server.url + "/")
    pg.locator("[data-testid=create-form] select[name=game] option").first.wait_for(
        state="attached"
    )
    create_in_lobby(pg)
    where["lobby"] = pg.evaluate(OVERFLOW)
    for what, path in [
        ("Flaming table", seat_link(server, "flaming")),
        ("Flags table", seat_link(server, "flags")),
        ("Flaming table, finished", f"/t/{tables['flaming_finished']}"),
        ("Flags table, finished", f"/t/{tables['flags_finished']}"),
    ]:
        pg.goto(server.url + path)
        settle_table(pg)
        pg.evaluate(
            "() => { for (const d of document.querySelectorAll('details')) d.open = true; }"
        )
        where[what] = pg.evaluate(OVERFLOW)
    bad = {k: v for k, v in where.items() if v["scroll"] > v["width"] or v["past"]}
    assert bad == {}, bad
    assert errors.messages == [], errors.messages


WATCH_TEXTS = """
(() => {
  // the catalogue's answer comes late (as on a slow network) ...
  const realFetch = window.fetch.bind(window);
  window.fetch = (url, ...rest) => String(url).includes('/texts/')
    ? new Promise((done) => setTimeout(done, 700)).then(() => realFetch(url, ...rest))
    : realFetch(url, ...rest);
  // ... and every text the page ever shows is kept
  window.__texts = [];
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'characterData') window.__texts.push(r.target.data);
      else if (r.type === 'attributes') window.__texts.push(r.target.getAttribute(r.attributeName) || '');
      for (const node of r.addedNodes || []) window.__texts.push(node.textContent || '');
    }
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true,
                        attributeFilter: ['title', 'aria-label', 'placeholder', 'alt']});
})();
"""
KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9-]+)+\b")


def test_a_page_never_shows_a_key_while_its_words_load(
    page_in: Any, server: LiveServer, tables: dict[str, str]
) -> None:
    """The pages' words are the catalogue's, fetched from /texts/<lang>.json: with that
    answer slowed down, the lobby and a table wait for it and never show a key (``t()``
    gives the key itself for a word it does not have)."""
    keys = httpx.get(f"{server.url}/texts/en.json").json()
    page_keys = {k.removeprefix("web.") for k in keys if k.startswith("web.")}
    pg, errors = page_in("fr-FR")
    pg.context.add_init_script(WATCH_TEXTS)
    shown: dict[str, list[str]] = {}
    pg.goto(server.url + "/")
    pg.locator("[data-testid=create-form] select[name=game] option").first.wait_for(
        state="attached"
    )
    shown["lobby"] = pg.evaluate("() => [...window.__texts, document.body.innerText]")
    assert "Nouvelle table" in shown["lobby"][-1]
    pg.goto(server.url + f"/t/{tables['flaming_finished']}")
    settle_table(pg)
    shown["table"] = pg.evaluate("() => [...window.__texts, document.body.innerText]")
    leaked = {
        where: sorted({k for text in texts for k in KEY.findall(text)} & page_keys)
        for where, texts in shown.items()
    }
    assert leaked == {"lobby": [], "table": []}
    assert errors.messages == [], errors.messages
