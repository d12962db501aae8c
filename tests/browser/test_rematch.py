"""Rematch in the browser: two players click it on the end screen and land on the new
table, where the player who moved second now moves first, with the match score shown.

Issue 15: "Rematch: one click on the end screen, same seats and options, first player
moving one seat to the left (the rulebook's "playing in rounds"); a match score across
rematches."
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import httpx

from tests.browser.conftest import (
    DESKTOP,
    PageErrors,
    seat_token,
    wait_for_hello,
    watch_errors,
)
from tests.live import LiveServer


def _finish(server: LiveServer, table: str, tokens: list[str]) -> None:
    """Both play their first legal action over HTTP until the (one-turn) game is over."""
    for _ in range(60):
        states = [
            httpx.get(f"{server.url}/api/tables/{table}/state", params={"token": tok}).json()
            for tok in tokens
        ]
        if states[0]["status"] == "finished":
            return
        seat = next((i for i, st in enumerate(states) if st["legal"]), None)
        if seat is None:
            continue
        action = {
            "token": tokens[seat],
            "seq": states[seat]["seq"],
            "action": states[seat]["legal"][0],
        }
        httpx.post(f"{server.url}/api/tables/{table}/actions", json=action)
    raise AssertionError("the one-turn game did not end")


def _held_token(page: Any, table: str) -> str | None:
    """The token this browser remembers for its seat at ``table`` (util.js heldSeats)."""
    return page.evaluate(
        "(t) => (JSON.parse(localStorage.getItem('pyramids.seats') || '[]')"
        ".find((e) => e.table === t) || {}).token || null",
        table,
    )


def test_two_players_click_rematch_and_land_on_the_new_table(
    browser_page: tuple[Any, PageErrors], browser: Any, server: LiveServer
) -> None:
    """Ann asks, Bob's page offers to join, both land on their seats; Bob starts."""
    ann, errors = browser_page
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "options": {"preset": "basic", "max_turns": 1},
    }
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    old = created["table"]["id"]
    tokens = [inv["token"] for inv in created["invites"]]
    other = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        bob = other.new_page()
        bob_errors = watch_errors(bob)
        bob.goto(server.url + created["invites"][1]["url"])
        ann.goto(server.url + created["invites"][0]["url"])
        for page, page_errors in ((ann, errors), (bob, bob_errors)):
            wait_for_hello(page, page_errors, server)  # connected
        # the pages used the invites: the seats' credentials (issue 29)
        tokens = [seat_token(page, old, t) for page, t in zip((ann, bob), tokens, strict=True)]
        _finish(server, old, tokens)
        for page in (ann, bob):
            page.locator("[data-testid=rematch]").wait_for()
        assert ann.locator("[data-testid=rematch]").inner_text() == "Rematch: Bob starts"
        ann.click("[data-testid=rematch]")
        ann.wait_for_url(re.compile(r"/t/(?!" + old + r")\w+\?token="))
        new = urlparse(ann.url).path.split("/t/")[1]
        bob.locator("[data-testid=rematch-offer]").wait_for()
        assert bob.locator("[data-testid=rematch-offer]").inner_text() == "Ann wants a rematch."
        assert bob.locator("[data-testid=rematch]").inner_text() == "Join the rematch"
        bob.click("[data-testid=rematch]")
        bob.wait_for_url(re.compile(r"/t/" + new + r"\?token="))
        bob.locator("[data-testid=hand-tile]").first.wait_for()
        assert bob.locator("#you").inner_text() == "You play Bob"
        bob.wait_for_function(
            "() => document.querySelector('[data-testid=turn]').textContent === 'Your turn'"
        )
        ann.wait_for_function(
            "() => document.querySelector('[data-testid=turn]').textContent === 'Bob to play'"
        )
        assert ann.locator("#you").inner_text() == "You play Ann"
        # the new tokens are the seats' own, and the match score shows during the game
        held = [_held_token(page, new) for page in (ann, bob)]
        assert all(held) and not set(held) & set(tokens), held
        seen = [
            httpx.get(f"{server.url}/api/tables/{new}/state", params={"token": tok}).json()
            for tok in held
        ]
        assert [st["legal"] != [] for st in seen] == [False, True]
        summary = httpx.get(f"{server.url}/api/tables/{new}").json()
        assert summary["status"] == "running" and summary["match_id"] == old
        assert summary["options"]["first_player"] == 1
        for page in (ann, bob):
            panel = page.locator("[data-testid=match-panel]")
            panel.wait_for()
            assert panel.locator("[data-testid=match-row]").count() == 2
        match = httpx.get(f"{server.url}/api/matches/{old}", params={"token": held[1]}).json()
        wins = bob.locator("[data-testid=match-row][data-player='1'] [data-stat=wins]").inner_text()
        assert float(wins) == match["players"][1]["wins"]
        bob.click("[data-testid=lang-fr]")
        assert (
            bob.locator("[data-testid=match-panel] h3")
            .inner_text()
            .lower()
            .startswith("score du match")
        )
        assert errors.messages == [] and bob_errors.messages == [], (
            errors.messages,
            bob_errors.messages,
        )
    finally:
        other.close()
