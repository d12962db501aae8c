"""Verifiable randomness in the browser (issue 12, point 1), against a real server.

"when the game ends the record reveals seed and salt, and [...] the replay page recompute[s]
the commitment [...] A seeded table [...] is marked "seeded" in the lobby, the table and the
record." The replay page hashes the revealed seed and salt with ``crypto.subtle`` and says
"verified" or "does not match"; a record whose salt was changed on the way must not match.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from pyramids.core import fairness
from tests.browser.conftest import PageErrors, seat_token
from tests.http_play import HttpSeat, play_out
from tests.live import LiveServer
from tests.tamper import change_a_die_roll, finished_die_table

BOTS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


def play_to_end(url: str, tid: str, token: str) -> None:
    """Play the human seat over HTTP (first legal action) until the game is over."""
    with httpx.Client(base_url=url, timeout=30) as http:
        play_out(tid, [HttpSeat(token, http)])


def test_replay_page_checks_the_revealed_seed_and_salt_against_the_commitment(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """A server-drawn seed (62 bits: past a JS number's exact range) verifies; a salt changed
    in transit "does not match"; the page points to `pyramids verify` for the draws."""
    pg, errors = browser_page
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": "Ann"}, *BOTS],
        "options": {"fire_die": True},
        "bot_delay": 0,
    }
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    tid, commitment = created["table"]["id"], created["table"]["commitment"]
    play_to_end(server.url, tid, created["invites"][0]["token"])  # its first use: one seat
    raw = httpx.get(f"{server.url}/api/tables/{tid}/record").text
    record = json.loads(raw)
    assert fairness.commitment(record["seed"], record["salt"]) == commitment

    pg.goto(f"{server.url}/t/{tid}/replay")
    verdict = pg.locator("[data-testid=fair-verdict]")
    pg.wait_for_selector("[data-testid=fair-verdict][data-verdict=verified]")
    assert "Verified" in verdict.inner_text()
    assert pg.locator("[data-testid=fair-commitment]").inner_text() == commitment
    assert pg.locator("[data-testid=fair-seed]").inner_text() == str(record["seed"])
    assert pg.locator("[data-testid=fair-salt]").inner_text() == record["salt"]
    assert "pyramids verify" in pg.locator("[data-testid=fairness]").inner_text()
    assert not pg.locator("#fair-seeded").is_visible()

    tampered = raw.replace(record["salt"], record["salt"][::-1])
    pg.route(
        f"**/api/tables/{tid}/record",
        lambda route: route.fulfill(status=200, content_type="application/json", body=tampered),
    )
    pg.reload()
    pg.wait_for_selector("[data-testid=fair-verdict][data-verdict=mismatch]")
    assert "Does not match" in verdict.inner_text()
    assert errors.messages == [], errors.messages


def test_a_seeded_table_is_marked_in_the_lobby_the_table_and_the_replay(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """A table whose creator chose the seed (one human, the rest bots) says "seeded"."""
    pg, errors = browser_page
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": "Ann"}, BOTS[0]],
        "seed": 42,
        "bot_delay": 0,
        "public": True,
    }
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    tid, token = created["table"]["id"], created["invites"][0]["token"]
    assert created["table"]["seeded"] is True
    pg.goto(f"{server.url}/")
    row = pg.locator(f'[data-testid=table-row][data-table="{tid}"]')
    row.locator("[data-testid=seeded]").wait_for()
    assert row.locator("[data-testid=seeded]").inner_text() == "seeded"

    pg.goto(f"{server.url}/t/{tid}?token={token}")
    pg.locator("header [data-testid=seeded]").wait_for()
    commitment = pg.locator("[data-testid=commitment]")
    commitment.wait_for()
    assert created["table"]["commitment"][:12] in commitment.inner_text()

    play_to_end(server.url, tid, seat_token(pg, tid, token))
    pg.goto(f"{server.url}/t/{tid}/replay")
    pg.wait_for_selector("[data-testid=fair-verdict][data-verdict=verified]")
    assert pg.locator("#fair-seeded").is_visible()
    assert pg.locator("[data-testid=fair-seed]").inner_text() == "42"

    drawn = httpx.post(
        f"{server.url}/api/tables",
        json={**body, "seats": [{"kind": "human"}, {"kind": "human"}], "seed": None},
    ).json()["table"]
    pg.goto(f"{server.url}/t/{drawn['id']}")
    pg.locator("[data-testid=commitment]").wait_for()
    assert not pg.locator("header [data-testid=seeded]").is_visible()
    assert errors.messages == [], errors.messages


def test_replay_page_runs_the_full_check_and_a_die_roll_changed_in_the_database_fails(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Issue 29, item 6: "the replay page says "Verified" for a record whose die roll was
    changed in the database (it checks only the commitment)". The page shows the check of
    `pyramids verify` run by the server on the stored record, step by step: all passed;
    then, the last die roll changed in the database, "Not verified" with the replay as the
    first failing step (the step's seq, the roll stored and the seed's) and the end not
    checked."""
    pg, errors = browser_page
    with httpx.Client(base_url=server.url, timeout=30) as http:
        tid = finished_die_table(http)
        record = http.get(f"/api/tables/{tid}/record").json()
    pg.goto(f"{server.url}/t/{tid}/replay")
    pg.wait_for_selector("[data-testid=fair-verdict][data-verdict=verified]")
    steps = pg.locator("[data-testid=fair-step]")
    assert [steps.nth(i).get_attribute("data-step") for i in range(steps.count())] == [
        "commitment",
        "deal",
        "replay",
        "end",
    ]
    assert {steps.nth(i).get_attribute("data-status") for i in range(4)} == {"passed"}
    replay_step = pg.locator("[data-testid=fair-step][data-step=replay]").inner_text()
    checked = httpx.get(f"{server.url}/api/tables/{tid}/verify").json()
    draws, actions = checked["chance_draws"], len(record["actions"])
    said = (
        f"The one chance draw follows from the seed; all {actions} actions are legal."
        if draws == 1
        else f"All {draws} chance draws follow from the seed; all {actions} actions are legal."
    )
    assert replay_step == f"Chance draws and actions {said}"
    end_step = pg.locator("[data-testid=fair-step][data-step=end]").inner_text()
    assert end_step == "End of the game The game is over by its rules."
    assert pg.locator("[data-testid=fair-local]").get_attribute("data-verdict") == "verified"

    seq, stored, changed = change_a_die_roll(server.db_url, tid, record)
    pg.reload()
    pg.wait_for_selector("[data-testid=fair-verdict][data-verdict=failed]")
    verdict = pg.locator("[data-testid=fair-verdict]").inner_text()
    assert verdict == "Not verified: the check “Chance draws and actions” fails."
    statuses = [steps.nth(i).get_attribute("data-status") for i in range(steps.count())]
    assert statuses == ["passed", "passed", "failed", "not_checked"]
    failed = pg.locator("[data-testid=fair-step][data-status=failed]").inner_text()
    assert f"At step {seq} the record has {changed}, but the seed gives {stored}." in failed
    assert "Not checked" in pg.locator("[data-testid=fair-step][data-step=end]").inner_text()
    pg.click("[data-testid=lang-fr]")
    assert "Non vérifié" in pg.locator("[data-testid=fair-verdict]").inner_text()
    failed_fr = pg.locator("[data-testid=fair-step][data-status=failed]").inner_text()
    assert f"la graine donne {stored}" in failed_fr
    assert errors.messages == [], errors.messages
