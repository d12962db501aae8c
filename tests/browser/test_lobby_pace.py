"""The deadline per move in the lobby (issue 29, item 4): "every table has a deadline per
move (rated tables at least a generous default, shown in the lobby)".

The lists say each table's deadline (its ``turn_time``, or its clock), in English and
French; the create form says what a table made now gets (the server's default for an
unrated or a rated table, or the time typed in), and a rated table's time per move outside
30 s to 30 minutes is explained before anything is sent.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.browser.conftest import PageErrors
from tests.live import LiveServer

PASSWORD = "a long enough passphrase"
ALICE = {"kind": "human", "name": "Alice"}
BOT = {"kind": "bot", "bot": "greedy"}
TURN_BASED = {"mode": "turn_based", "per_move": 86400, "bank": 3 * 86400}


def _public_table(server: LiveServer, **extra: Any) -> str:
    body = {"game": "flaming", "seats": [ALICE, BOT], "public": True, **extra}
    r = httpx.post(f"{server.url}/api/tables", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["table"]["id"])


def _meta(pg: Any, tid: str) -> str:
    row = pg.locator(f"[data-testid=tables-open] [data-table='{tid}']")
    row.wait_for()
    return str(row.locator(".table-meta").inner_text())


def test_the_lobby_lists_each_tables_deadline_per_move_in_both_languages(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """An unrated table made with the defaults has 10 minutes a move, a rated one 5, one
    made with 90 s says so, and a turn-based table shows its clock instead."""
    pg, errors = browser_page
    unrated = _public_table(server)
    rated = _public_table(server, rated=True)
    quick = _public_table(server, turn_time=90)
    days = _public_table(server, clock=TURN_BASED)
    pg.goto(server.url + "/")
    assert "10 min per move" in _meta(pg, unrated)
    assert "5 min per move" in _meta(pg, rated)
    assert "1 min 30 s per move" in _meta(pg, quick)
    assert "turn-based, 1 d per move" in _meta(pg, days)
    pg.click("[data-testid=lang-fr]")
    assert "10 min par coup" in _meta(pg, unrated)
    assert "par correspondance, 1 j par coup" in _meta(pg, days)
    assert errors.messages == []


def test_the_create_form_says_the_time_per_move_and_refuses_a_rated_one_out_of_bounds(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """No clock: the note gives the default (10 minutes; 5 at a rated table, where three
    in a row forfeit) or the time typed in; a clock hides it; a rated table asking for an
    hour a move is refused in words before anything is sent."""
    pg, errors = browser_page
    r = pg.request.post(
        server.url + "/api/accounts", data={"name": "Paceline", "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    pg.goto(server.url + "/")
    note = pg.locator("[data-testid=pace-note]")
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=pace-note]').textContent.includes('10 min')"
    )
    assert note.inner_text() == (
        "Without a clock each move has 10 min; then a bot plays it for the player."
    )
    turn_time = pg.locator("[data-testid=create-turn-time]")
    assert turn_time.get_attribute("placeholder") == "600 (default)"
    pg.locator("details:has([data-testid=create-turn-time]) > summary").click()
    turn_time.fill("90")
    assert "each move has 1 min 30 s;" in note.inner_text()
    turn_time.fill("")

    pg.locator("#rated-field").wait_for()
    pg.check("[data-testid=create-rated]")
    assert note.inner_text() == (
        "Without a clock each move has 5 min; then a bot plays it for the player, "
        "and 3 in a row forfeit a rated game."
    )
    assert turn_time.get_attribute("placeholder") == "300 (default)"
    pg.select_option("[data-testid=create-clock]", "tb_1d")
    assert note.is_hidden()
    pg.select_option("[data-testid=create-clock]", "")
    assert note.is_visible()

    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("2")
    turn_time.fill("3600")
    watch = pg.locator("#created-watch")
    before = watch.get_attribute("href")
    pg.click("[data-testid=create-submit]")
    toast = pg.locator("[data-testid=toast]").last
    toast.wait_for()
    assert toast.inner_text() == "A rated table gives 30 s to 30 min per move."
    assert watch.get_attribute("href") == before  # no table was made
    pg.click("[data-testid=lang-fr]")
    assert note.inner_text().startswith("Sans pendule, chaque coup dispose de 1 h ;")
    assert errors.messages == []
