"""Clocks and "Your games" in the browser (part H4): the lobby's clock field makes a table
whose clock shows and counts down on the table page, the tab title says when it is your
turn, and the lobby's "Your games" lists the tables of this browser, "your turn" first."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.browser.conftest import PageErrors, submit_create
from tests.http_play import use_invite
from tests.live import LiveServer


def _left(pg: Any, seat: int) -> int:
    return int(
        pg.locator(
            f"[data-testid=seat-clock][data-seat='{seat}'] [data-testid=clock-time]"
        ).get_attribute("data-left")
        or "-1"
    )


def test_a_table_made_with_a_real_time_clock_shows_it_counting_and_the_title_says_your_turn(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    pg, errors = browser_page
    pg.goto(server.url + "/")
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("2")
    pg.wait_for_selector("[data-testid=seat-kind-1]")
    pg.select_option("[data-testid=seat-kind-0]", "human")
    pg.select_option("[data-testid=seat-kind-1]", "greedy")
    assert pg.locator("[data-testid=create-on-expiry]").is_hidden()
    pg.select_option("[data-testid=create-clock]", "rt_10_5")
    assert pg.locator("[data-testid=create-on-expiry]").is_visible()
    pg.click("[data-testid=lang-fr]")
    assert "par coup" in pg.locator("[data-testid=create-clock] option[value=rt_10_5]").inner_text()
    pg.click("[data-testid=lang-en]")
    table_id = submit_create(pg)
    summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert summary["settings"]["clock"] == {
        "mode": "realtime",
        "bank": 600,
        "increment": 5,
        "per_move": 0,
        "on_expiry": "stand_in",
    }

    pg.click("[data-testid=play-now]")
    pg.locator("[data-testid=clocks]").wait_for()
    assert "Real-time clock" in pg.locator("[data-testid=clock-mode]").inner_text()
    running = pg.locator("[data-testid=seat-clock][data-running=true]")
    running.wait_for()
    assert running.get_attribute("data-seat") == "0"
    assert pg.locator("[data-testid=seat-clock]").count() == 1  # the bot has no clock
    pg.wait_for_function("() => document.title.startsWith('● Your turn — ')")
    first = _left(pg, 0)
    assert 590 <= first <= 600
    pg.wait_for_function(
        "(first) => Number(document.querySelector("
        "'[data-testid=seat-clock][data-seat=\"0\"] [data-testid=clock-time]'"
        ").dataset.left) < first",
        arg=first,
        timeout=5000,
    )
    text = pg.locator(
        "[data-testid=seat-clock][data-seat='0'] [data-testid=clock-time]"
    ).inner_text()
    assert text.startswith("9:5"), text
    assert pg.locator("[data-testid=notify-toggle]").count() == 1
    pg.click("[data-testid=lang-fr]")
    assert "temps réel" in pg.locator("[data-testid=clock-mode]").inner_text()
    assert errors.messages == []


def test_your_games_lists_this_browsers_tables_with_your_turn_first(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Held seats (this browser's): a running table waiting for you, and a newer open
    table waiting for another player; yours to play comes first, marked."""
    pg, errors = browser_page
    base = server.url

    def create(seats: list[dict[str, Any]]) -> dict[str, Any]:
        r = httpx.post(f"{base}/api/tables", json={"game": "flaming", "seats": seats})
        assert r.status_code == 201, r.text
        return dict(r.json())

    mine = create([{"kind": "human", "name": "Me"}, {"kind": "bot", "bot": "greedy"}])
    waiting = create([{"kind": "human", "name": "Friend"}, {"kind": "human", "name": "Me"}])
    # the first use of each invite binds the seat (the first table starts) and answers the
    # seat's credential, which this browser keeps (issue 29)
    with httpx.Client(base_url=base, timeout=30) as http:
        mine_token = use_invite(http, mine["table"]["id"], mine["invites"][0]["token"])
        waiting_token = use_invite(http, waiting["table"]["id"], waiting["invites"][1]["token"])
    held = [
        {"table": waiting["table"]["id"], "seat": 1, "token": waiting_token, "game": "flaming"},
        {"table": mine["table"]["id"], "seat": 0, "token": mine_token, "game": "flaming"},
    ]
    pg.goto(base + "/")
    pg.evaluate("(held) => localStorage.setItem('pyramids.seats', held)", json.dumps(held))
    pg.reload()
    rows = pg.locator("[data-testid=your-games] [data-testid=your-game]")
    rows.nth(1).wait_for()
    ids = rows.evaluate_all("els => els.map(e => e.dataset.table)")
    assert ids == [mine["table"]["id"], waiting["table"]["id"]]
    assert rows.nth(0).get_attribute("data-your-turn") == "true"
    assert rows.nth(0).locator("[data-testid=your-turn]").inner_text() == "your turn"
    assert rows.nth(1).get_attribute("data-your-turn") == "false"
    assert "waiting for players" in rows.nth(1).inner_text()
    assert pg.locator("[data-testid=your-games-panel] h2").inner_text() == "Your games"
    href = rows.nth(0).locator("[data-testid=your-game-open]").get_attribute("href")
    assert href == f"/t/{mine['table']['id']}?token={mine_token}"
    pg.click("[data-testid=lang-fr]")
    assert rows.nth(0).locator("[data-testid=your-turn]").inner_text() == "à vous"
    assert errors.messages == []
