"""Playing Flaming Pyramids in the browser, end to end (issue 4: the browser test).

A real `pyramids serve` process, Debian's Chromium: open the lobby, create a table with
one human and two bots (greedy, random; no bot delay), follow the invite link and play a
complete game by clicking (a hand tile, a highlighted spot, a fall direction when asked)
until the final ranking shows. Along the way: screenshots of the table mid-game, on a
phone-sized screen and at the end; no console errors; the French switch translates the
page; a 375x667 screen shows the pyramid and the hand without scrolling sideways. Then
the replay viewer steps through a finished game.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from pyramids.flags.cards import CARDS
from pyramids.flags.pieces import NAMES as PIECE_NAMES
from tests.browser.conftest import DESKTOP, PageErrors, seat_token, shown_seq, wait_after_action
from tests.http_play import wait_finished
from tests.live import LiveServer

PHONE = {"width": 375, "height": 667}
SEED = 2
"""With the clicks below this seed gives the human 21 decisions, 8 of them falls (0.1 s of
the bots' thinking each; the game is the same every run: the server seeds its bots)."""
MAX_DECISIONS = 400
"""A 3-player basic game gives the human about 15 to 50 decisions; far more means a hang."""
STATIC = Path(__file__).resolve().parents[2] / "src" / "pyramids" / "server" / "static"

# What the page offers next: the game is over, a fall to choose, or a tile to place.
NEXT_DECISION = """() => {
  const shown = (el) => el !== null && el.offsetParent !== null;
  if (shown(document.querySelector('[data-testid=ranking]'))) return 'over';
  if (shown(document.querySelector('[data-testid=fall-left]'))) return 'fall';
  if (document.querySelector('[data-testid=hand-tile]:not([disabled])')) return 'place';
  return false;
}"""

FINISHED: dict[str, str] = {}
"""Table id of the game the first test finished, for the replay test in the same process."""


def _no_horizontal_scroll(page: Any) -> bool:
    return bool(
        page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    )


def _inside_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


def _check_phone(page: Any, artifacts: Path) -> None:
    """FP table on 375x667: pyramid and hand visible, nothing wider than the screen."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)  # layout only; nothing is asserted on time
    assert _no_horizontal_scroll(page), "the phone layout scrolls sideways"
    assert page.locator("[data-testid=pyramid]").is_visible()
    assert page.locator("[data-testid=hand]").is_visible()
    assert _inside_viewport(page, "[data-testid=pyramid]")
    assert _inside_viewport(page, "[data-testid=hand]")
    tile = page.locator("[data-testid=hand-tile]").first
    box = tile.bounding_box()
    assert box is not None and box["width"] >= 40 and box["height"] >= 40, "touch target < 40px"
    page.screenshot(path=str(artifacts / "table-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def _check_french(page: Any) -> None:
    """The fr switch changes the page's own words, and en brings them back."""
    title = page.locator(".hand-panel .panel-title")
    assert title.inner_text().strip().lower() == "your hand"
    page.click("[data-testid=lang-fr]")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert title.inner_text().strip().lower() == "votre main"
    assert page.locator(".log-panel .panel-title").inner_text().strip().lower() == "journal"
    page.click("[data-testid=lang-en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert title.inner_text().strip().lower() == "your hand"


SHOWN_SPOTS = """() => [...document.querySelectorAll('[data-testid=spot]')].map((g) => [
  g.dataset.spot, g.classList.contains('misfit'), g.querySelector('.spot-hint').textContent,
  g.getAttribute('aria-label')])"""


def _check_fit_hints(page: Any, server: LiveServer, invite: str) -> None:
    """Issue 9: the spots of the picked tile show the engine's fit hints (``hints`` of the
    state message) - a ✓ where it fits, a ⚠ and the reason where it would collapse."""
    table_id, token = invite.split("/t/")[1].split("?token=")
    token = seat_token(page, table_id, token)  # the page used the invite (issue 29)
    msg = httpx.get(f"{server.url}/api/tables/{table_id}/state", params={"token": token}).json()
    tile = page.locator("[data-testid=hand-tile].selected").get_attribute("data-tile")
    hints = msg["hints"]["spots"][tile]
    shown = {
        spot: (misfit, mark, label) for spot, misfit, mark, label in page.evaluate(SHOWN_SPOTS)
    }
    assert set(shown) == set(hints)
    for spot, hint in hints.items():
        misfit, mark, label = shown[spot]
        assert (misfit, mark) == (not hint["fits"], "✓" if hint["fits"] else "⚠"), spot
        if not hint["fits"]:
            assert "collapse: " in label and label.split("collapse: ")[1].strip(), label
    chips = page.locator("[data-testid=spot-button]").evaluate_all(
        "els => els.map((e) => [e.dataset.spot, e.textContent])"
    )
    assert {spot: text.split()[-1] for spot, text in chips} == {
        spot: "✓" if hint["fits"] else "⚠" for spot, hint in hints.items()
    }


def _create_table_in_lobby(page: Any, server: LiveServer) -> str:
    """Fill the lobby form: Flaming Pyramids, basic, Ann + greedy + random, no bot delay."""
    page.goto(server.url + "/")
    form = page.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("3")
    page.wait_for_selector("[data-testid=seat-kind-2]")
    form.locator("select[name=preset]").select_option("basic")
    page.select_option("[data-testid=seat-kind-0]", "human")
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.select_option("[data-testid=seat-kind-1]", "greedy")
    page.select_option("[data-testid=seat-kind-2]", "random")
    page.fill("input[name=bot_delay]", "0")
    page.locator("details:has(input[name=seed]) > summary").click()
    page.fill("input[name=seed]", str(SEED))
    page.click("[data-testid=create-submit]")
    links = page.locator("[data-testid=invite-link]")
    links.first.wait_for()
    assert links.count() == 1, "one invite per human seat"
    assert links.first.get_attribute("data-seat") == "0"
    href = links.first.get_attribute("href")
    assert href and "/t/" in href and "token=" in href
    return href


def test_play_a_complete_flaming_game_by_clicking(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """Issue 4: "play a complete game through the page by clicking tiles, spots and fall
    choices, reach the final ranking; save screenshots of the table mid-game and of the
    end screen"."""
    pg, errors = browser_page
    started = time.monotonic()
    invite = _create_table_in_lobby(pg, server)
    pg.goto(invite)
    pg.locator("[data-testid=pyramid]").wait_for()
    assert pg.locator("[data-testid=seat-info]").count() == 3
    decisions = 0
    falls = 0
    checked_midgame = False
    while True:
        kind = pg.wait_for_function(NEXT_DECISION, timeout=60_000).json_value()
        if kind == "over":
            break
        decisions += 1
        assert decisions <= MAX_DECISIONS, "the game does not end"
        before = shown_seq(pg)
        if kind == "fall":
            falls += 1
            side = "left" if falls % 2 else "right"
            pg.click(f"[data-testid=fall-{side}]")
        else:
            pg.locator("[data-testid=hand-tile]:not([disabled])").first.click()
            assert pg.locator("[data-testid=hand-tile].selected").count() == 1
            spot = pg.locator("[data-testid=spot]").first
            spot.wait_for()
            _check_fit_hints(pg, server, invite)
            if not checked_midgame and decisions >= 5:
                checked_midgame = True
                pg.screenshot(path=str(artifacts / "table-midgame.png"), full_page=True)
                _check_phone(pg, artifacts)
                _check_french(pg)
                pg.select_option("[data-testid=speed]", "fast")  # the rest: shorter animations
            spot.click()
        wait_after_action(pg, before)
    assert checked_midgame, "the game ended before the mid-game checks"
    assert falls > 0, "the game never asked for a fall direction"
    ranking = pg.locator("[data-testid=ranking] li")
    assert ranking.count() == 3
    assert pg.locator("[data-testid=log] li.log-entry").count() >= decisions
    assert pg.locator("[data-testid=turn]").inner_text().strip() == "Game over"
    pg.evaluate(
        "() => Promise.all(document.getAnimations().filter("
        "a => a.effect && a.effect.getTiming().iterations !== Infinity).map(a => a.finished))"
    )
    pg.screenshot(path=str(artifacts / "table-end.png"), full_page=True)
    assert errors.messages == [], errors.messages
    table_id = invite.split("/t/")[1].split("?")[0]
    summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert summary["status"] == "finished"
    assert summary["ranking"] == [
        int(x) for x in ranking.evaluate_all("els => els.map(e => e.dataset.seat)")
    ]
    FINISHED["table"] = table_id
    print(f"browser game: {decisions} decisions in {time.monotonic() - started:.1f} s")


def _finished_table(server: LiveServer) -> str:
    """The first test's game when this process ran it; else a quick all-bot game."""
    if "table" in FINISHED:
        return FINISHED["table"]
    body = {
        "game": "flaming",
        "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        "options": {"preset": "basic"},
        "seed": 7,
        "bot_delay": 0,
    }
    table = httpx.post(f"{server.url}/api/tables", json=body).json()["table"]["id"]
    wait_finished(server.url, table)
    return str(table)


def test_replay_viewer_steps_through_a_finished_game(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """Issue 4: "a replay viewer that steps through any finished game"."""
    pg, errors = browser_page
    table = _finished_table(server)
    steps = httpx.get(f"{server.url}/api/tables/{table}/replay").json()
    last = steps[-1]["seq"]
    pg.goto(f"{server.url}/t/{table}/replay")
    step = pg.locator("[data-testid=replay-step]")
    pg.wait_for_function(
        "() => /^0 \\/ \\d+$/.test(document.querySelector('[data-testid=replay-step]').textContent)"
    )
    assert step.inner_text() == f"0 / {last}"
    start_tiles = pg.locator("[data-testid=pyramid] [data-testid=tile]").count()
    assert start_tiles == len(steps[0]["state"].get("pyramid", []))
    pg.click("[data-testid=replay-next]")
    assert step.inner_text() == f"1 / {last}"
    first = steps[1]
    placed = first["action"].split("@")
    assert pg.locator(f"[data-testid=tile][data-tile={placed[0]}]").count() >= 1 or (
        len(steps[1]["state"]["pyramid"]) < start_tiles + 1  # the placed tile left at once
    )
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    assert step.inner_text() == f"3 / {last}"
    pg.keyboard.press("ArrowLeft")
    assert step.inner_text() == f"2 / {last}"
    pg.click("[data-testid=replay-prev]")
    assert step.inner_text() == f"1 / {last}"
    pg.click("[data-testid=replay-last]")
    assert step.inner_text() == f"{last} / {last}"
    final = steps[-1]["state"]
    assert pg.locator("[data-testid=pyramid] [data-testid=tile]").count() == len(final["pyramid"])
    pg.screenshot(path=str(artifacts / "replay-end.png"), full_page=True)
    assert errors.messages == [], errors.messages


def test_replay_viewer_draws_a_pyramids_and_flags_game_with_its_own_module(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Issue 9: the replay page names no game; the game's table module draws its positions."""
    pg, errors = browser_page
    body = {
        "game": "flags",
        "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
        "seed": 3,
        "bot_delay": 0,
    }
    table = httpx.post(f"{server.url}/api/tables", json=body).json()["table"]["id"]
    wait_finished(server.url, table)
    steps = httpx.get(f"{server.url}/api/tables/{table}/replay").json()
    pg.goto(f"{server.url}/t/{table}/replay")
    pg.wait_for_selector("[data-testid=towers]")
    pg.click("[data-testid=replay-last]")
    final = steps[-1]["state"]
    assert pg.locator("[data-testid=towers] .tower").count() == len(final["towers"])
    assert pg.locator(".replay-hand").count() == 2
    assert "Pyramids and Flags" in pg.title()
    assert errors.messages == [], errors.messages


def test_static_flags_cards_match_the_package_data() -> None:
    """PF-CARD-1: "36 goal cards", the generated module pyramids/flags/deck.py — the browser's
    copy (static/data/flags-cards.json) must say the same flags and pieces."""
    data = json.loads((STATIC / "data" / "flags-cards.json").read_text(encoding="utf-8"))
    ours = {c["code"]: c for c in data["cards"]}
    assert sorted(ours) == sorted(c.code for c in CARDS)
    for card in CARDS:
        mine = ours[card.code]
        assert mine["country"] == card.country
        assert mine["groups"] == list(card.groups)
        assert mine["tower"] == [PIECE_NAMES[p] for p in card.tower]
        assert mine["pieces"] == [PIECE_NAMES[p] for p in card.pieces]
