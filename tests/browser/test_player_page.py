"""The player's page and the leaderboard in the browser (issue 15, part 3): after two rated
games between accounts, the player's page shows the ratings, a line chart of the rating over
the games, the statistics, and the finished games with replay and record links; the
leaderboard lists both players best first (screenshots in the test artifacts).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from pyramids.server import ratings
from tests.browser.conftest import PageErrors
from tests.http_play import HttpSeat, play_out
from tests.live import LiveServer
from tests.waiting import wait_until

PASSWORD = "correct horse battery"


def account(server: LiveServer, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """A client logged in as a new account (its cookie kept), and its CSRF header."""
    http = httpx.Client(base_url=server.url, timeout=10.0)
    r = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http, {"X-CSRF-Token": r.json()["csrf"]}


def rated_game(server: LiveServer, a: Any, b: Any) -> str:
    """A quick rated game (turn limit 1) between two logged-in clients; its id once rated."""
    (ha, ca), (hb, cb) = a, b
    r = ha.post(
        "/api/tables",
        json={
            "game": "flaming",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "public": True,
            "rated": True,
            "options": {"max_turns": 1},
        },
        headers=ca,
    )
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    seats = []
    for seat, (http, csrf) in enumerate(((ha, ca), (hb, cb))):
        r = http.post(f"/api/tables/{tid}/seats/{seat}/claim", json={}, headers=csrf)
        assert r.status_code == 200, r.text
        seats.append(HttpSeat(r.json()["token"], http, csrf))
    play_out(tid, seats)

    def rated() -> bool:
        games = ha.get("/api/players/" + "Zoé").json().get("games", [])
        return any(g["table_id"] == tid for g in games)

    wait_until(rated, f"table {tid}: rated")
    return str(tid)


def test_a_players_page_shows_the_chart_and_the_games_and_the_leaderboard_ranks(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """Zoé plays two rated games against Max; her page (found by its accented name) draws a
    two-point chart and lists both games with working links; the French page says it in
    French; an unknown name is said so; the leaderboard lists both and, for the bots pool,
    the bots' fixed ratings."""
    pg, errors = browser_page
    zoe, max_ = account(server, "Zoé"), account(server, "Max")
    ids = [rated_game(server, zoe, max_) for _ in range(2)]
    page = zoe[0].get("/api/players/zoé").json()

    pg.goto(f"{server.url}/players/Zo%C3%A9")
    pg.locator("[data-testid=player-name]").wait_for()
    pg.wait_for_function("() => document.querySelectorAll('[data-testid=game-row]').length === 2")
    assert pg.locator("[data-testid=player-name]").inner_text() == "Zoé"
    rows = pg.locator("[data-testid=game-row]")
    assert [rows.nth(i).get_attribute("data-table") for i in range(2)] == ids[::-1]
    replay = rows.first.locator("[data-testid=game-replay]")
    assert replay.get_attribute("href") == f"/t/{ids[1]}/replay"
    record = rows.first.locator("[data-testid=game-record]")
    assert record.get_attribute("href") == f"/api/tables/{ids[1]}/record"
    assert record.get_attribute("download") == f"{ids[1]}.json"
    assert httpx.get(server.url + record.get_attribute("href")).json()["seed"] >= 0
    assert "Max" in rows.first.inner_text()

    # the chart: one point per rated game, the line through them
    chart = pg.locator("[data-testid=rating-chart] svg")
    chart.wait_for()
    assert pg.locator("[data-testid=chart-dot]").count() == 2
    points = pg.locator("[data-testid=chart-line]").get_attribute("points") or ""
    assert len(points.split()) == 2
    shown = pg.locator("[data-testid=rating-display]").first.inner_text()
    assert shown == f"{page['ratings'][0]['display']:.1f}".replace("-", "−")
    assert pg.locator("[data-testid=stat-played]").inner_text() == "2"
    pg.screenshot(path=str(artifacts / "player-page.png"), full_page=True)

    pg.click("[data-testid=lang-fr]")
    assert "parties terminées" in pg.locator("#games-panel").inner_text().casefold()
    assert "Revoir" in rows.first.inner_text()
    pg.click("[data-testid=lang-en]")

    assert errors.messages == []

    # an unknown player is said so (the browser logs the API's 404 answer)
    pg.goto(f"{server.url}/players/nobody-here")
    error = pg.locator("[data-testid=player-error]")
    error.wait_for()
    assert error.inner_text() == "There is no player called nobody-here."
    errors.messages.clear()

    # the leaderboard: both players, best first, linking to their pages
    pg.goto(f"{server.url}/leaderboard?game=flaming")
    pg.wait_for_function("() => document.querySelectorAll('[data-testid=board-row]').length === 2")
    board = httpx.get(f"{server.url}/api/leaderboard", params={"game": "flaming"}).json()
    names = [p["name"] for p in board["players"]]
    assert sorted(names) == ["Max", "Zoé"]
    links = pg.locator("[data-testid=board-row] a")
    assert [links.nth(i).inner_text() for i in range(2)] == names
    pg.select_option("[data-testid=board-pool]", "bots")
    pg.locator("[data-testid=board-empty]").wait_for()
    rated = len(ratings.rated_bots())  # the bots the shipped file rates
    pg.wait_for_function(
        f"() => document.querySelectorAll('[data-testid=bot-row]').length === {rated}"
    )
    assert "pool=bots" in pg.url
    pg.screenshot(path=str(artifacts / "leaderboard-bots.png"), full_page=True)
    assert errors.messages == []
