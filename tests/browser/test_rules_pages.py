"""Issue 14, item 1: "Rules pages for both games in English and French (/rules/flaming,
/rules/flags), linked from lobby and table, ... illustrated with the table's own SVG
drawing of the rulebook's examples. Every lobby option has a one-line explanation and a
link to its rule."

Each rules page draws every diagram of its content module (rules-flaming.js,
rules-flags.js) with every tile or piece of its position, in both languages, with no
console error; the lobby links to both pages; every option the lobby renders (from
GET /api/games, plus the rules select and the hints box) has its line and a link that
lands on an existing section of the rules page; the table page links to its game's rules.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser.conftest import PageErrors
from tests.live import LiveServer

# Per diagram: [tiles or pieces drawn, spots drawn] against what the page's content says.
DRAWN_VS_DATA = """async (game) => {
  const content = await import(`/static/js/rules-${game}.js`);
  const figures = content.SECTIONS.flatMap((sec) => sec.figures || sec.steps || []);
  const drawn = [...document.querySelectorAll('[data-testid=rules-diagram]')];
  return {
    expected: figures.map((f) => game === 'flaming'
      ? [f.pyramid.length, (f.spots || []).length]
      : [(f.towers ? f.towers.flat() : f.pieces).length, 0]),
    drawn: drawn.map((d) => game === 'flaming'
      ? [d.querySelectorAll('g[data-testid=tile]').length, d.querySelectorAll('g[data-testid=spot]').length]
      : [d.querySelectorAll('[data-testid=rules-piece] svg').length, 0]),
    sections: content.SECTIONS.length,
  };
}"""

# Every text of the content in both languages, and the French one not the English one.
UNTRANSLATED = """async (game) => {
  const content = await import(`/static/js/rules-${game}.js`);
  const bad = [];
  const walk = (value) => {
    if (!value || typeof value !== 'object') return;
    if ('en' in value || 'fr' in value) {
      if (!value.en || !value.fr || value.en === value.fr) bad.push(value.en || value.fr);
      return;
    }
    Object.values(value).forEach(walk);
  };
  walk({ title: content.TITLE, intro: content.INTRO, sections: content.SECTIONS });
  return bad;
}"""

SAME_IN_BOTH = {"Explosions"}  # the same word in French

TITLES = {
    "flaming": ("Flaming Pyramids: the rules", "Pyramides en flammes : les règles"),
    "flags": ("Pyramids and Flags: the rules", "Pyramides et drapeaux : les règles"),
}


def _check_drawn(pg: Any, game: str) -> int:
    """Every diagram of the content drawn with all its tiles/pieces; the number of diagrams."""
    result = pg.evaluate(DRAWN_VS_DATA, game)
    assert result["drawn"] == result["expected"]
    assert pg.locator("[data-testid=rules-section]").count() == result["sections"]
    return len(result["drawn"])


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_rules_page_draws_every_diagram_in_english_and_french(
    browser_page: tuple[Any, PageErrors], server: LiveServer, game: str
) -> None:
    """Item 1: both rules pages render their diagrams in both languages, no console error."""
    pg, errors = browser_page
    pg.goto(f"{server.url}/rules/{game}")
    pg.locator("[data-testid=rules-diagram]").first.wait_for()
    english, french = TITLES[game]
    assert pg.locator("h1").inner_text() == english
    drawn = _check_drawn(pg, game)
    assert set(pg.evaluate(UNTRANSLATED, game)) <= SAME_IN_BOTH
    assert drawn >= (25 if game == "flaming" else 10)
    if game == "flaming":
        # the table's own drawing: its tiles, with their titles in the page's language
        explosion = pg.locator("#explosion [data-testid=rules-diagram]").first
        assert explosion.locator("g[data-testid=tile]").count() == 8
        assert explosion.locator("g.rules-gone").count() == 5
        assert explosion.locator("g.rules-boom").count() == 2
        title = pg.locator("#tiles g[data-testid=tile] title").first.text_content()
        assert title and "straw" in title
    else:
        assert pg.locator("#volcano [data-testid=rules-diagram]").count() == 4

    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert pg.locator("h1").inner_text() == french
    assert _check_drawn(pg, game) == drawn
    if game == "flaming":
        title = pg.locator("#tiles g[data-testid=tile] title").first.text_content()
        assert title and "paille" in title
    assert "règles" in pg.title()

    pg.reload()  # the language is remembered
    pg.locator("[data-testid=rules-diagram]").first.wait_for()
    assert pg.locator("h1").inner_text() == french
    assert errors.messages == [], errors.messages


def test_a_rules_anchor_opens_at_its_section(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The sections exist only once the page has drawn them: an address with #fire-die still
    opens there."""
    pg, errors = browser_page
    pg.goto(f"{server.url}/rules/flaming#fire-die")
    section = pg.locator("#fire-die")
    section.wait_for()
    pg.wait_for_function(
        "() => document.getElementById('fire-die').getBoundingClientRect().top < 200"
    )
    assert errors.messages == [], errors.messages


def test_unknown_game_has_no_rules_page(server: LiveServer) -> None:
    """Only games of the registry have a rules page; /rules lists them."""
    assert httpx.get(f"{server.url}/rules/chess").status_code == 404
    assert httpx.get(f"{server.url}/rules").status_code == 200


def _option_names(game: dict[str, Any]) -> list[str]:
    """The options the lobby renders for `game`: the rules select, each option the presets do
    not set, and the hints box when the game gives hints (as lobby.js renders them)."""
    preset_keys = {"preset"} | {k for p in game["presets"] for k in p["options"]}
    names = ["preset"] + [f["name"] for f in game["options"] if f["name"] not in preset_keys]
    if game.get("hints"):
        names.append("hints")
    return names


def test_lobby_links_to_the_rules_and_every_option_to_its_section(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Item 1: the lobby links to both rules pages; every lobby option has a one-line
    explanation (English and French) and a link that lands on an existing anchor."""
    pg, errors = browser_page
    catalog = httpx.get(f"{server.url}/api/games").json()
    pg.goto(server.url + "/")
    for name in ("flaming", "flags"):
        assert (
            pg.locator(f"[data-testid=rules-link-{name}]").get_attribute("href") == f"/rules/{name}"
        )

    links: dict[str, str] = {}
    form = pg.locator("[data-testid=create-form]")
    for game in catalog["games"]:
        form.locator("select[name=game]").select_option(game["name"])
        pg.wait_for_selector("[data-testid=seat-kind-1]")
        for option in _option_names(game):
            line = pg.locator(f"[data-testid=option-rule-{option}]")
            assert line.count() == 1, (game["name"], option)
            # text_content: the numbers sit under the closed "More settings"
            text = line.text_content() or ""
            assert len(text.strip()) > len("See the rule") + 10, (game["name"], option)
            href = line.locator("[data-testid=rule-link]").get_attribute("href")
            assert href and href.startswith(f"/rules/{game['name']}#"), (game["name"], option, href)
            links[f"{game['name']}.{option}"] = href
        english = pg.locator("[data-testid=option-rule-preset]").inner_text()
        pg.click("[data-testid=lang-fr]")
        pg.wait_for_function("() => document.documentElement.lang === 'fr'")
        french = pg.locator("[data-testid=option-rule-preset]")
        assert french.inner_text() != english and "Voir la règle" in french.inner_text()
        pg.click("[data-testid=lang-en]")
        pg.wait_for_function("() => document.documentElement.lang === 'en'")

    for key, href in sorted(links.items()):
        pg.goto(server.url + href)
        anchor = href.split("#", 1)[1]
        pg.locator("[data-testid=rules-section]").first.wait_for()
        assert pg.locator(f"section#{anchor}[data-testid=rules-section]").count() == 1, key
    assert errors.messages == [], errors.messages


def test_table_page_links_to_its_games_rules(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Item 1: the table page links to the rules of the game it plays."""
    pg, errors = browser_page
    for game in ("flaming", "flags"):
        created = httpx.post(
            f"{server.url}/api/tables",
            json={
                "game": game,
                "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
                "bot_delay": 5,
            },
        )
        assert created.status_code < 300, created.text
        table_id = created.json()["table"]["id"]
        pg.goto(f"{server.url}/t/{table_id}")
        link = pg.locator("[data-testid=rules-link]")
        pg.wait_for_function(
            "(href) => document.querySelector('[data-testid=rules-link]').getAttribute('href') === href",
            arg=f"/rules/{game}",
        )
        assert link.inner_text() == "Rules"
    assert errors.messages == [], errors.messages
