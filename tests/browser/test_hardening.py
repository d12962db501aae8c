"""Hardening in a real Chromium (issue 12, points 7 and 8): every page works under the
Content-Security-Policy, the seat token leaves the address bar, and the log and the
replay say "time ran out: a bot played for Alice"."""

from __future__ import annotations

from typing import Any

import httpx

from tests.browser.conftest import PageErrors
from tests.http_play import wait_finished
from tests.live import LiveServer

VIOLATIONS = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""
TIMED_OUT = "Time ran out: a bot played for Alice"


def _create(server: LiveServer, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "flaming", "seats": seats, "options": {"preset": "basic"}, **extra},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def _no_violations(pg: Any, errors: PageErrors) -> None:
    assert pg.evaluate("() => window.__csp") == []
    assert not [m for m in errors.messages if "Content Security Policy" in m], errors.messages


def test_every_page_works_under_the_csp(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Lobby, table and replay draw themselves, connect and report no CSP violation."""
    pg, errors = browser_page
    pg.add_init_script(VIOLATIONS)
    pg.goto(server.url + "/")
    pg.locator("[data-testid=create-form] select[name=game] option").first.wait_for(
        state="attached"
    )
    pg.locator("details:has(input[name=absent_after]) > summary").click()
    assert pg.locator(".more-settings").evaluate("e => getComputedStyle(e).marginTop") != "0px"
    _no_violations(pg, errors)

    body = _create(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    pg.goto(server.url + body["invites"][0]["url"])
    pg.locator("[data-testid=pyramid]").wait_for()
    pg.wait_for_function("() => document.getElementById('conn').dataset.status === 'online'")
    _no_violations(pg, errors)

    done = _create(
        server,
        [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        seed=3,
        bot_delay=0,
    )
    tid = done["table"]["id"]
    wait_finished(server.url, tid)
    pg.goto(f"{server.url}/t/{tid}/replay")
    pg.locator("[data-testid=replay-step]").wait_for()
    pg.wait_for_function("() => document.getElementById('step').textContent.trim() !== ''")
    _no_violations(pg, errors)
    assert errors.messages == []


def test_the_token_leaves_the_address_bar_and_a_reload_keeps_the_seat(
    browser: Any, browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The invite's ?token= is dropped from the address and the history entry; the seat's
    credential the server handed over replaces it (issue 29: an invite is used once) in
    session storage and the lobby's "your seats"; reloading, the lobby's link and the invite
    link again in this browser are still seated; another browser gets ``invite_used``."""
    pg, errors = browser_page
    body = _create(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    pg.goto(server.url + body["invites"][0]["url"])
    pg.locator(".badge.you").wait_for()
    assert pg.url == f"{server.url}/t/{tid}"
    assert "token" not in pg.evaluate("() => location.href")
    credential = pg.evaluate(f"() => sessionStorage.getItem('pyramids.token.{tid}')")
    assert credential and credential != token
    state = httpx.get(f"{server.url}/api/tables/{tid}/state", params={"token": credential})
    assert state.json()["view"]["viewer"] == 0
    pg.reload()
    pg.locator(".badge.you").wait_for()
    assert pg.url == f"{server.url}/t/{tid}"
    # the lobby's list of this browser's seats links back to the seat, with the credential
    pg.goto(server.url + "/")
    link = pg.locator(f"a[href*='/t/{tid}?token={credential}']").first
    link.wait_for()
    link.click()
    pg.locator(".badge.you").wait_for()
    assert pg.url == f"{server.url}/t/{tid}"
    pg.goto(server.url + body["invites"][0]["url"])  # the friend's chat link, clicked again
    pg.locator(".badge.you").wait_for()
    assert errors.messages == []
    other = browser.new_context(locale="en-GB")
    try:
        page = other.new_page()
        page.goto(server.url + body["invites"][0]["url"])
        banner = page.locator("#banner")
        banner.wait_for()
        assert "This invite was already used" in banner.inner_text()
        assert page.locator("#banner a", has_text="Watch").count() == 1
    finally:
        other.close()


def test_the_log_and_the_replay_say_a_bot_played_for_alice(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Alice sits and never decides: each timed-out turn is told in the table's log, and the
    replay's step lists the same notice."""
    pg, errors = browser_page
    body = _create(
        server,
        [{"kind": "human", "name": "Alice"}, {"kind": "bot", "bot": "greedy"}],
        turn_time=0.2,
        bot_delay=0,
    )
    tid = body["table"]["id"]
    pg.goto(server.url + body["invites"][0]["url"])
    log = pg.locator("[data-testid=log]")
    log.locator(f"li.log-event.ev-stand_in:has-text('{TIMED_OUT}')").first.wait_for(timeout=30_000)
    wait_finished(server.url, tid)
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()
    first = next(s["seq"] for s in steps if any(e["kind"] == "stand_in" for e in s["events"]))
    pg.goto(f"{server.url}/t/{tid}/replay")
    pg.locator("[data-testid=replay-step]").wait_for()
    pg.wait_for_function("() => document.getElementById('step').textContent.trim() !== ''")
    # the replay opens at its first step, where "first" is disabled
    pg.wait_for_function("() => document.getElementById('first').disabled")
    for _ in range(first):
        pg.locator("[data-testid=replay-next]").click()
    assert TIMED_OUT in pg.locator("[data-testid=replay-events]").inner_text()
    assert errors.messages == []
