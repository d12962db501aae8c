"""Pyramids and Flags goal cards as in the box, and its moves in words (issue 14, items 3 and 4).

"Flags cards as in the box: country, capital, the flag picture, the four facts with their
values and the size they rate, the colour legend, group badges; French country and capital
names." and "Flags capture buttons and log lines read as words": Ann (the human) plays a
seeded table against Bob, a greedy bot. The test reads the cards off the page and checks
them against the engine's deck (``pyramids.flags.cards``: the page rates nothing itself),
in English and in French (country names from pycountry's ISO 3166 French translations,
written into static/data/flags-cards.json by scripts/build_flags_deck.py). Then Ann plays
her first moves (the first legal move each time, sent over HTTP: the page follows) until
she captures for a flag: the capture buttons say "Take the medium orange pyramid from the
bank", "Take Bob's … pyramid", "End the capture"; the log says what Ann and Bob did in
words, and the notation stays in the tooltips.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from pyramids.flags.cards import BY_CODE, CARDS
from tests.browser.conftest import PageErrors, seat_token, shown_seq, wait_after_action
from tests.live import LiveServer
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "pyramids" / "server" / "static"
CSV = ROOT.parent / "shared" / "data" / "flags-countries.csv"
SEED = 5
"""With Ann moving the first legal move each time, this deal brings her a capture at her
10th decision, with bank and opponent takes offered (the server seeds its bot, so the game is
the same every run)."""
MAX_DECISIONS = 40
SIZE_WORDS = {
    "en": {1: "small", 2: "medium", 3: "large"},
    "fr": {1: "petite", 2: "moyenne", 3: "grande"},
}
COLOUR_WORDS = {"O": "orange", "P": "purple", "C": "cyan", "X": "clear"}
NOTATION = re.compile(r"\b[KWYBGROPCX][123]\b|take:|swap:|@\d|\bdone\b|\b\d+,\d+\b")
"""What the notation looks like: piece codes, action prefixes, seats after @, spots."""

CARDS_ON_PAGE = """() => [...document.querySelectorAll('[data-testid=cards] [data-testid=card]')].map((c) => ({
  code: c.dataset.card,
  country: c.querySelector('[data-testid=card-country]').textContent,
  capital: c.querySelector('[data-testid=card-capital]').textContent,
  flag: (() => { const img = c.querySelector('img[data-testid=card-flag]');
                 return img ? { src: img.getAttribute('src'), w: img.naturalWidth, done: img.complete } : null; })(),
  facts: [...c.querySelectorAll('[data-testid=card-fact]')].map((f) => ({
    colour: f.dataset.fact, size: Number(f.dataset.size),
    value: f.querySelector('[data-testid=fact-value]').textContent,
    sizeText: f.querySelector('[data-testid=fact-size]').textContent })),
  badges: [...c.querySelectorAll('[data-testid=group-badge]')].map((b) => b.dataset.group),
  swap: (() => { const b = c.querySelector('[data-testid=action]');
                 return b ? { action: b.dataset.action, text: b.querySelector('.action-words').innerText, title: b.title } : null; })(),
}))"""

BUTTONS = """() => [...document.querySelectorAll('[data-testid=flags-actions] [data-testid=action]')].map((b) => ({
  action: b.dataset.action, text: b.querySelector('.action-words').innerText, title: b.title }))"""

LOG = """() => [...document.querySelectorAll('[data-testid=log] li.log-entry')].map((li) => ({
  seq: Number(li.dataset.seq), title: li.title,
  words: (li.querySelector('[data-testid=log-words]') || li.querySelector('.log-head')).innerText,
  events: [...li.querySelectorAll('.log-event')].map((e) => e.innerText) }))"""


def _create(server: LiveServer) -> tuple[str, str]:
    """A seeded table, Ann (human) against Bob (greedy bot); its id and Ann's invite URL."""
    body = {
        "game": "flags",
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "greedy", "name": "Bob"},
        ],
        "seed": SEED,
        "bot_delay": 0,
    }
    r = httpx.post(f"{server.url}/api/tables", json=body)
    r.raise_for_status()
    data = r.json()
    url = data["invites"][0]["url"]
    return data["table"]["id"], url if url.startswith("http") else server.url + url


def _token(url: str) -> str:
    return url.split("token=", 1)[1].split("&", 1)[0]


def _ann_decides(server: LiveServer, table: str, token: str) -> dict[str, Any]:
    """The state message once Ann has a decision (or the game is over)."""

    def decides() -> dict[str, Any] | None:
        st: dict[str, Any] = httpx.get(
            f"{server.url}/api/tables/{table}/state", params={"token": token}
        ).json()
        return st if st["status"] == "finished" or st.get("legal") else None

    return wait_until(decides, "Ann's decision")


def _open(pg: Any, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("[data-testid=cards] [data-testid=card] [data-testid=card-fact]")
    pg.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=cards] img[data-testid=card-flag]')]"
        ".every((img) => img.complete)"
    )


def _check_cards(pg: Any, lang: str) -> list[dict[str, Any]]:
    """Every card of Ann's hand against the engine's deck, in `lang`; the cards read."""
    deck = json.loads((STATIC / "data" / "flags-cards.json").read_text(encoding="utf-8"))
    names = {c["code"]: c for c in deck["cards"]}
    shown = pg.evaluate(CARDS_ON_PAGE)
    assert len(shown) == 4, shown
    for card in shown:
        engine = CARDS[BY_CODE[card["code"]]]
        data = names[card["code"]]
        country = data["country_fr"] if lang == "fr" else engine.country
        capital = data["capital_fr"] if lang == "fr" else engine.capital
        assert card["country"] == country, card
        assert capital in card["capital"] and card["capital"] != capital, card  # "Capital: …"
        assert card["flag"] is not None and card["flag"]["done"], card
        assert card["flag"]["w"] > 0, f"the flag picture of {card['code']} did not load: {card}"
        assert card["flag"]["src"] == f"/static/data/flags/{data['iso2']}.svg"
        assert [f["colour"] for f in card["facts"]] == ["O", "P", "C", "X"]
        for fact in card["facts"]:
            rated = engine.facts[fact["colour"]]
            # PF-CARD-3: the size each fact rates is the engine's, shown in words
            assert fact["size"] == rated["size"], (card["code"], fact)
            assert fact["sizeText"] == SIZE_WORDS[lang][rated["size"]], fact
            digits = re.sub(r"\D", "", fact["value"])
            whole = str(int(rated["value"])) if fact["colour"] in "OX" else None
            assert whole is None or whole in digits, (card["code"], fact, rated)
        assert card["facts"][0]["value"].startswith(
            data["facts"]["O"]["name_fr" if lang == "fr" else "name"]
        )
        assert card["badges"] == list(engine.groups), card
    return shown


def test_flags_goal_cards_show_capital_flag_facts_sizes_legend_and_badges(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """PF-CARD-1..4 on the page: each card of Ann's hand as in the box, in English and French."""
    pg, errors = browser_page
    _table, url = _create(server)
    _open(pg, url)
    shown = _check_cards(pg, "en")
    assert any(c["badges"] for c in shown), "this deal gives Ann a card of a group"
    legend = pg.locator("[data-testid=flags-legend]")
    text = " ".join(legend.locator(".legend-text").all_inner_texts())
    for words in (
        "Orange = Highest point",
        "Purple = Population",
        "Cyan = Average temperature",
        "Clear = GDP per capita",
    ):
        assert words in text, text
    assert "1,500 m" in text and "$47,500" in text, text  # the engine's thresholds
    assert sorted(
        legend.locator("[data-testid=group-badge]").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.group)"
        )
    ) == [
        "Africa",
        "Caribbean",
        "EU",
        "Oil",
    ]
    # Ann moves first: each card offers its exchange, in words, the notation in the tooltip
    for card in shown:
        swap = card["swap"]
        assert swap is not None and swap["action"] == f"swap:{card['code']}", card
        assert swap["text"] == f"Exchange {card['country']}", swap
        assert swap["action"] in swap["title"]
    pg.screenshot(path=str(artifacts / "flags-cards-en.png"), full_page=True)

    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    shown_fr = _check_cards(pg, "fr")
    deck = {
        c["code"]: c
        for c in json.loads((STATIC / "data" / "flags-cards.json").read_text("utf-8"))["cards"]
    }
    assert deck["CZE"]["country_fr"] == "Tchéquie" and deck["DEU"]["country_fr"] == "Allemagne"
    for card in shown_fr:
        assert card["swap"]["text"] == f"Échanger la carte {deck[card['code']]['country_fr']}"
    text = " ".join(pg.locator("[data-testid=flags-legend] .legend-text").all_inner_texts())
    assert "Violet = Population" in text and "Transparent = PIB par habitant" in text, text
    pg.screenshot(path=str(artifacts / "flags-cards-fr.png"), full_page=True)
    assert errors.messages == [], errors.messages


def test_flags_capture_buttons_and_log_lines_read_as_words(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """PF-CAPTURE-1 in words: "Take the medium orange pyramid from the bank", "Take Bob's …"."""
    pg, errors = browser_page
    table, url = _create(server)
    _open(pg, url)
    token = seat_token(pg, table, _token(url))  # the page used the invite (issue 29)
    for _ in range(MAX_DECISIONS):
        st = _ann_decides(server, table, token)
        assert st["status"] != "finished"
        if any(a.startswith("take:") for a in st["legal"]):
            break
        moves = [a for a in st["legal"] if ">" in a]
        body = {"token": token, "seq": st["seq"], "action": (moves or st["legal"])[0]}
        httpx.post(f"{server.url}/api/tables/{table}/actions", json=body).raise_for_status()
    else:
        raise AssertionError("no capture for Ann in this deal")
    pg.wait_for_function(
        "(seq) => Number(document.querySelector('[data-testid=seq]').textContent) >= seq",
        arg=st["seq"],
    )
    pg.wait_for_selector("[data-testid=flags-actions] [data-action^='take:']")
    buttons = {b["action"]: b for b in pg.evaluate(BUTTONS)}
    takes = [a for a in buttons if a.startswith("take:")]
    assert sorted([*takes, "done"]) == sorted(st["legal"]), (buttons, st["legal"])
    for action, button in buttons.items():
        assert not NOTATION.search(button["text"]), button  # words on the button
        assert action in button["title"], button  # the notation in its tooltip
        m = re.fullmatch(r"take:([OPCX])([123])(?:@(\d))?", action)
        if m:
            piece = f"{SIZE_WORDS['en'][int(m[2])]} {COLOUR_WORDS[m[1]]} pyramid"
            want = f"Take Bob's {piece}" if m[3] else f"Take the {piece} from the bank"
            assert button["text"] == want, button
    assert buttons["done"]["text"] == "End the capture"
    # the card the capture is for, with its facts, beside the buttons
    pending = st["view"]["pending"]
    assert (
        pg.locator(
            f"[data-testid=flags-actions] [data-testid=card][data-card={pending['card']}] [data-testid=card-fact]"
        ).count()
        == 4
    )
    pg.screenshot(path=str(artifacts / "flags-capture.png"), full_page=True)

    bank = sorted(a for a in takes if "@" not in a)[0]
    before = shown_seq(pg)
    pg.click(f"[data-testid=flags-actions] [data-action='{bank}']")
    wait_after_action(pg, before)
    taken = f"the {SIZE_WORDS['en'][int(bank[-1])]} {COLOUR_WORDS[bank[5]]} pyramid"
    pg.wait_for_function(
        "(seq) => document.querySelector(`[data-testid=log] li.log-entry[data-seq='${seq}']`) !== null",
        arg=before + 1,
    )
    log = {e["seq"]: e for e in pg.evaluate(LOG)}
    line = log[before + 1]
    assert line["words"] == f"Ann takes {taken} from the bank", line
    assert bank in line["title"], line
    # every line so far in words: who did what, no notation outside the tooltips
    for entry in log.values():
        assert not NOTATION.search(entry["words"]), entry
        for event in entry["events"]:
            assert not NOTATION.search(event), entry
    assert any("moves" in e["words"] and "Bob" in e["words"] for e in log.values()), log
    assert any(any("the flag of" in ev.lower() for ev in e["events"]) for e in log.values()), log

    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    log = {e["seq"]: e for e in pg.evaluate(LOG)}
    colour_fr = {"O": "orange", "P": "violette", "C": "cyan", "X": "transparente"}[bank[5]]
    taken_fr = {
        "1": f"la petite pyramide {colour_fr}",
        "2": f"la pyramide {colour_fr} moyenne",
        "3": f"la grande pyramide {colour_fr}",
    }[bank[-1]]
    assert log[before + 1]["words"] == f"Ann prend {taken_fr} à la banque", log[before + 1]
    for entry in log.values():
        assert "done" not in " ".join(entry["events"]), entry  # no "(ou refuser : done)"
    if "done" in (st2 := _ann_decides(server, table, token)).get("legal", []):
        buttons = {b["action"]: b for b in pg.evaluate(BUTTONS)}
        assert buttons["done"]["text"] == "Terminer la capture", buttons
        before = shown_seq(pg)
        pg.click("[data-testid=flags-actions] [data-action='done']")
        wait_after_action(pg, before)
        pg.wait_for_function(
            "(seq) => document.querySelector(`[data-testid=log] li.log-entry[data-seq='${seq}']`) !== null",
            arg=before + 1,
        )
        log = {e["seq"]: e for e in pg.evaluate(LOG)}
        assert log[before + 1]["words"] == "Ann termine la capture", log[before + 1]
        assert st2["seq"] == before
    pg.screenshot(path=str(artifacts / "flags-capture-log-fr.png"), full_page=True)
    assert errors.messages == [], errors.messages


def test_every_card_has_its_vendored_flag_picture_and_the_licence_is_there() -> None:
    """The 36 flag pictures (flag-icons, MIT) that scripts/fetch_flag_images.sh vendors."""
    deck = json.loads((STATIC / "data" / "flags-cards.json").read_text(encoding="utf-8"))
    flags = STATIC / "data" / "flags"
    assert sorted(p.stem for p in flags.glob("*.svg")) == sorted(c["iso2"] for c in deck["cards"])
    for card in deck["cards"]:
        assert (
            (flags / f"{card['iso2']}.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
        )
    assert "MIT License" in (flags / "LICENSE").read_text(encoding="utf-8")
    assert "flag-icons" in (flags / "SOURCE.md").read_text(encoding="utf-8")


@pytest.mark.skipif(not CSV.exists(), reason="shared/data is not checked out next to the repo")
def test_static_flags_cards_are_what_the_build_script_makes(tmp_path: Path) -> None:
    """static/data/flags-cards.json is exactly what scripts/build_flags_deck.py writes (French
    country names from pycountry, capitals from its table, the engine's thresholds)."""
    pytest.importorskip("pycountry")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "build_flags_deck", ROOT / "scripts" / "build_flags_deck.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "cards.json"
    args = ["--csv", str(CSV), "--out", str(tmp_path / "deck.py"), "--json", str(out)]
    assert module.main(args) == 0
    assert out.read_text("utf-8") == (STATIC / "data" / "flags-cards.json").read_text("utf-8")
