"""The lobby offers every bot by name, weakest first, with its sentence (issue 28, point 1):
the seat select has random and each level of the ladder, and "The bots, weakest first"
lists each with what it is and its measured strength, in English and in French."""

from __future__ import annotations

from typing import Any

from pyramids.bots.ladder import OFFERED, level_sentence
from tests.browser.conftest import PageErrors
from tests.live import LiveServer


def test_the_lobby_offers_every_level_with_its_sentence_in_both_languages(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Each seat offers human, random, beginner, greedy, normal and hard; the list of
    bots says each one's sentence, and says it again in French."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    pg.wait_for_selector("[data-testid=seat-kind-1]")
    options = pg.locator("[data-testid=seat-kind-1] option")
    assert options.evaluate_all("os => os.map(o => o.value)") == ["human", *OFFERED]
    pg.click("[data-testid=bot-levels-details] summary")
    for level in OFFERED:
        item = pg.locator(f"[data-testid=bot-level-{level}]")
        assert level_sentence(level, "en") in item.inner_text()
    pg.select_option("[data-testid=seat-kind-1]", "hard")
    pg.click("[data-testid=lang-fr]")
    assert "Robot fort" in pg.locator("[data-testid=seat-kind-1]").inner_text()
    for level in OFFERED:
        item = pg.locator(f"[data-testid=bot-level-{level}]")
        assert level_sentence(level, "fr") in item.inner_text()
    assert errors.messages == []
