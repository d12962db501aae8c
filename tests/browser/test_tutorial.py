"""The tutorial in the browser (issue 14, item 2, and its test).

"A newcomer completes the first tutorial lesson of each game" and "progress remembered in
the browser; offered to first-time visitors". A first-time visitor of the lobby sees the
tutorial's banner, follows it to /learn/flaming and plays the first lesson (FP-EX-D: a tile
on one of the two spots above the base) by clicking a hand tile, then a spot; the page tells
what happened in the engine's sentences and why in the lesson's text; after a reload the
lesson is marked done and the page opens at the next one. The same for /learn/flags (the
first lesson: move a piece, clicking the piece then its destination). Both in English and
in French, with no console error. A wrong move is explained and can be tried again; the
banner, once dismissed, stays dismissed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import pyramids.server
from tests.browser.conftest import DESKTOP, PageErrors, watch_errors
from tests.live import LiveServer

LESSONS: dict[str, Any] = json.loads(
    (Path(pyramids.server.__file__).parent / "static/data/learn-lessons.json").read_text("utf-8")
)
WORDS = {
    "en": {"done": "Well done", "wrong": "Not quite", "next": "Next lesson"},
    "fr": {"done": "Bravo", "wrong": "Pas tout à fait", "next": "Leçon suivante"},
}


def lesson(game: str, index: int) -> dict[str, Any]:
    """The lesson data the page shows."""
    return LESSONS[game][index]


def new_page(browser: Any, lang: str) -> tuple[Any, Any, PageErrors]:
    """A fresh context (no memory of any visit) whose browser speaks ``lang``."""
    locale = "fr-FR" if lang == "fr" else "en-GB"
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    return context, pg, watch_errors(pg)


def wait_outcome(pg: Any, outcome: str) -> None:
    """Until the lesson's result panel shows ``outcome`` (done, wrong, refused)."""
    pg.locator(f"[data-testid=learn-result][data-outcome={outcome}]").wait_for()


def check_lesson_text(pg: Any, game: str, index: int, lang: str) -> None:
    """The lesson's title, intro and task are the lesson's own, in ``lang``."""
    data = lesson(game, index)
    title = pg.locator("[data-testid=learn-lesson-title]")
    title.wait_for()
    pg.wait_for_function(
        "(t) => document.querySelector('[data-testid=learn-lesson-title]').textContent === t",
        arg=data["title"][lang],
    )
    assert data["intro"][lang] in pg.locator("[data-testid=learn-intro]").inner_text()
    assert pg.locator("[data-testid=learn-task]").inner_text() == data["tasks"][0][lang]
    assert pg.evaluate("document.documentElement.lang") == lang


def check_done(pg: Any, game: str, index: int, lang: str, kind: str) -> None:
    """The lesson is won: the events in words (with the learner's name) and why."""
    wait_outcome(pg, "done")
    assert pg.locator("#learn-result-title").text_content() == WORDS[lang]["done"]
    events = pg.locator(f"[data-testid=learn-events] li[data-kind={kind}]")
    assert events.count() >= 1
    first = events.first.inner_text()
    assert first.startswith("Alice"), first
    assert "seat 0" not in first and "joueur 0" not in first
    explain = pg.locator("[data-testid=learn-explain]").inner_text()
    assert explain == lesson(game, index)["explain"][lang]
    assert pg.locator("[data-testid=learn-next]").inner_text() == WORDS[lang]["next"]
    link = pg.locator(f"[data-testid=lesson-link][data-lesson={lesson(game, index)['id']}]")
    assert link.get_attribute("data-done") == "true"


def check_reload_keeps_progress(pg: Any, game: str, lang: str) -> None:
    """After a reload the first lesson is still done and the page opens at the second."""
    pg.reload()
    first = pg.locator(f"[data-testid=lesson-link][data-lesson={lesson(game, 0)['id']}]")
    first.wait_for()
    assert first.get_attribute("data-done") == "true"
    second = pg.locator(f"[data-testid=lesson-link][data-lesson={lesson(game, 1)['id']}]")
    assert second.get_attribute("data-done") == "false"
    check_lesson_text(pg, game, 1, lang)


def play_flaming_first_lesson(pg: Any, tile: str, spot: str) -> None:
    """Click a hand tile, then a spot of the pyramid."""
    pg.locator(f"[data-testid=hand-tile][data-tile={tile}]:not([disabled])").click()
    pg.locator(f"[data-testid=spot][data-spot='{spot}']").click()


def play_flags_move(pg: Any, piece: str, target: str) -> None:
    """Click a piece on the table, then the piece it lands on."""
    pg.locator(f"[data-testid=towers] button[data-piece={piece}]").click()
    pg.locator(f"[data-testid=towers] button.target[data-piece={target}]").click()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_newcomer_completes_the_first_flaming_lesson_from_the_lobby(
    browser: Any, server: LiveServer, lang: str
) -> None:
    """Lobby banner -> /learn/flaming -> FP-EX-D by clicking; progress survives a reload."""
    context, pg, errors = new_page(browser, lang)
    try:
        pg.goto(server.url + "/")
        banner = pg.locator("[data-testid=learn-banner][data-state=offer]")
        banner.wait_for()
        if lang == "fr":
            assert "Première visite" in banner.inner_text()
        pg.locator("[data-testid=learn-banner-flaming]").click()
        pg.wait_for_url("**/learn/flaming")
        check_lesson_text(pg, "flaming", 0, lang)
        # the engine's fit hints mark the spots: the red 40 fits above the red 100 only
        pg.locator("[data-testid=hand-tile][data-tile=R40]:not([disabled])").click()
        classes = (
            "(els) => els.map((e) => e.dataset.spot + (e.classList.contains('misfit') ? '!' : ''))"
        )
        assert pg.locator("[data-testid=spot]").evaluate_all(classes) == ["1,1", "1,3!"]
        pg.locator("[data-testid=spot][data-spot='1,1']").click()
        check_done(pg, "flaming", 0, lang, "place")
        tiles = pg.locator("[data-testid=pyramid] [data-testid=tile]")
        assert "R40" in tiles.evaluate_all("els => els.map(e => e.dataset.tile)")
        check_reload_keeps_progress(pg, "flaming", lang)
        # the lobby no longer offers the tutorial as to a first-time visitor
        pg.goto(server.url + "/")
        pg.locator("[data-testid=learn-banner][data-state=quiet]").wait_for()
        assert errors.messages == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_newcomer_completes_the_first_flags_lesson(
    browser: Any, server: LiveServer, lang: str
) -> None:
    """/learn/flags: a move by clicking a piece and its destination; progress survives."""
    context, pg, errors = new_page(browser, lang)
    try:
        pg.goto(server.url + "/learn/flags")
        check_lesson_text(pg, "flags", 0, lang)
        play_flags_move(pg, "W1", "W2")
        check_done(pg, "flags", 0, lang, "move")
        check_reload_keeps_progress(pg, "flags", lang)
        assert errors.messages == []
    finally:
        context.close()


def test_a_wrong_move_is_explained_and_can_be_tried_again(
    browser: Any, browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """FP-EX-D with the yellow 2 above the red 100: it collapses; the lesson says why."""
    pg, errors = browser_page
    pg.goto(server.url + "/learn/flaming")
    check_lesson_text(pg, "flaming", 0, "en")
    play_flaming_first_lesson(pg, "Y2", "1,1")
    wait_outcome(pg, "wrong")
    assert pg.locator("#learn-result-title").text_content() == WORDS["en"]["wrong"]
    kinds = pg.locator("[data-testid=learn-events] li").evaluate_all(
        "els => els.map(e => e.dataset.kind)"
    )
    assert kinds == ["place", "collapse"]
    assert "matches neither" in pg.locator("[data-testid=learn-events] li").nth(1).inner_text()
    assert (
        pg.locator("[data-testid=learn-explain]").inner_text()
        == lesson("flaming", 0)["wrong"]["en"]
    )
    link = pg.locator("[data-testid=lesson-link][data-lesson=place]")
    assert link.get_attribute("data-done") == "false"
    pg.locator("[data-testid=learn-retry]").click()
    pg.locator("[data-testid=learn-result]").wait_for(state="hidden")
    play_flaming_first_lesson(pg, "Y2", "1,3")
    wait_outcome(pg, "done")
    assert errors.messages == []


def test_the_lobby_banner_once_dismissed_stays_dismissed(
    browser: Any, browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The offer is dismissible and remembered; the tutorial stays one link away."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    pg.locator("[data-testid=learn-banner][data-state=offer]").wait_for()
    pg.locator("[data-testid=learn-banner-dismiss]").click()
    pg.locator("[data-testid=learn-banner][data-state=quiet]").wait_for()
    pg.reload()
    pg.locator("[data-testid=learn-banner][data-state=quiet]").wait_for()
    assert pg.locator("[data-testid=learn-banner-dismiss]").count() == 0
    assert pg.locator("[data-testid=learn-banner-flags]").get_attribute("href") == "/learn/flags"
    assert errors.messages == []
