"""Accounts through the real pages (issue 15, part 1): sign up, log out, a wrong password
shown in words, log in, a cookie-authenticated write from the lobby (util.js ``api()`` sends
the CSRF token), and deleting the account with its confirm step.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.browser.conftest import PageErrors, submit_create
from tests.live import LiveServer

PASSWORD = "correct horse battery"


def _chip(pg: Any) -> Any:
    return pg.locator("[data-testid=account-chip]")


def test_sign_up_log_out_log_in_and_delete_through_the_account_page(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The whole life of an account in one browser, with errors in English and French."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    _chip(pg).locator("[data-testid=chip-log-in]").click()
    pg.wait_for_url("**/account")
    pg.locator("[data-testid=logged-out]").wait_for()

    # a name breaking a rule is explained before anything is sent
    pg.fill("[data-testid=sign-up-name]", "_x")
    pg.fill("[data-testid=sign-up-password]", PASSWORD)
    pg.fill("[data-testid=sign-up-again]", PASSWORD)
    pg.click("[data-testid=sign-up-submit]")
    assert "3 to 24" in pg.locator("[data-testid=sign-up-error]").inner_text()

    pg.fill("[data-testid=sign-up-name]", "Ninon")
    pg.click("[data-testid=sign-up-submit]")
    pg.locator("[data-testid=logged-in]").wait_for()
    assert "Ninon" in pg.locator("[data-testid=account-name]").inner_text()
    chip_name = _chip(pg).locator("[data-testid=chip-name]")
    chip_name.wait_for()
    assert chip_name.inner_text() == "Ninon"
    assert chip_name.get_attribute("href") == "/players/Ninon"
    assert _chip(pg).locator("[data-testid=chip-leaderboard]").get_attribute("href") == (
        "/leaderboard"
    )
    cookies = {c["name"]: c for c in pg.context.cookies()}
    assert cookies["pyramids_session"]["httpOnly"] is True
    assert cookies["pyramids_session"]["sameSite"] == "Lax"
    assert pg.evaluate("document.cookie") == ""  # HttpOnly: scripts never see it

    # the lobby's chip and a cookie-authenticated write (the CSRF header goes with it)
    pg.goto(server.url + "/")
    _chip(pg).locator("[data-testid=chip-name]").wait_for()
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("2")
    pg.wait_for_selector("[data-testid=seat-kind-1]")
    pg.select_option("[data-testid=seat-kind-0]", "human")
    pg.select_option("[data-testid=seat-kind-1]", "greedy")
    table_id = submit_create(pg)
    assert httpx.get(f"{server.url}/api/tables/{table_id}").status_code == 200

    # log out from the chip
    _chip(pg).locator("[data-testid=chip-log-out]").click()
    _chip(pg).locator("[data-testid=chip-log-in]").wait_for()

    # a wrong password is shown in words, in French too
    pg.goto(server.url + "/account")
    pg.fill("[data-testid=log-in-name]", "ninon")
    pg.fill("[data-testid=log-in-password]", "not the password")
    pg.click("[data-testid=log-in-submit]")
    error = pg.locator("[data-testid=log-in-error]")
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=log-in-error]').textContent !== ''"
    )
    assert error.inner_text() == "Wrong name or password."
    pg.click("[data-testid=lang-fr]")
    pg.click("[data-testid=log-in-submit]")
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=log-in-error]').textContent"
        ".includes('incorrect')"
    )
    assert error.inner_text() == "Nom ou mot de passe incorrect."
    assert _chip(pg).locator("[data-testid=chip-log-in]").inner_text() == "Se connecter"
    pg.click("[data-testid=lang-en]")

    # log in (the name in another case)
    pg.fill("[data-testid=log-in-password]", PASSWORD)
    pg.click("[data-testid=log-in-submit]")
    pg.locator("[data-testid=logged-in]").wait_for()
    _chip(pg).locator("[data-testid=chip-name]").wait_for()

    # delete: a confirm step, the password asked
    assert pg.locator("[data-testid=delete-confirm-step]").is_hidden()
    pg.click("[data-testid=delete-start]")
    pg.locator("[data-testid=delete-confirm-step]").wait_for()
    pg.fill("[data-testid=delete-password]", "wrong wrong wrong")
    pg.click("[data-testid=delete-confirm]")
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=delete-error]').textContent !== ''"
    )
    assert pg.locator("[data-testid=delete-error]").inner_text() == (
        "The current password is wrong."
    )
    pg.fill("[data-testid=delete-password]", PASSWORD)
    pg.click("[data-testid=delete-confirm]")
    pg.locator("[data-testid=logged-out]").wait_for()
    assert pg.locator("[data-testid=account-message]").inner_text() == (
        "Your account has been deleted."
    )
    _chip(pg).locator("[data-testid=chip-log-in]").wait_for()
    r = httpx.post(f"{server.url}/api/session", json={"name": "Ninon", "password": PASSWORD})
    assert r.status_code == 401
    assert errors.messages == [m for m in errors.messages if "401" in m or "403" in m]


def test_a_cookie_write_without_the_csrf_token_is_refused_in_the_browser(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The browser sends the session cookie with any script's request; without the
    session's X-CSRF-Token header the server refuses the write (403 csrf) and nothing
    changes: the account is still there and still logged in. With the header (as the
    pages send it) the same write goes through."""
    pg, _errors = browser_page
    pg.goto(server.url + "/account")
    pg.locator("[data-testid=logged-out]").wait_for()
    pg.fill("[data-testid=sign-up-name]", "Ysolde")
    pg.fill("[data-testid=sign-up-password]", PASSWORD)
    pg.fill("[data-testid=sign-up-again]", PASSWORD)
    pg.click("[data-testid=sign-up-submit]")
    pg.locator("[data-testid=logged-in]").wait_for()
    forged = pg.evaluate(
        """async (password) => {
          const r = await fetch('/api/accounts/me', {method: 'DELETE',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({password})});
          return {status: r.status, body: await r.json()};
        }""",
        PASSWORD,
    )
    assert forged["status"] == 403 and forged["body"]["error"]["code"] == "csrf"
    assert pg.evaluate("fetch('/api/session').then(r => r.json())")["account"]["name"] == "Ysolde"
    logged_out = pg.evaluate(
        """async () => {
          const s = await (await fetch('/api/session')).json();
          const r = await fetch('/api/session', {method: 'DELETE',
            headers: {'X-CSRF-Token': s.csrf}});
          return [r.status, (await (await fetch('/api/session')).json()).account];
        }"""
    )
    assert logged_out == [204, None]


def test_an_invite_opened_while_logged_in_joins_the_account_only_by_the_link_button(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Issue 29, item 3: opening an invite link while logged in (a page of another site can
    send the browser there) seats the player but binds no account; the table page offers
    "Link this seat to my account", whose click (a CSRF-checked write) binds it."""
    pg, errors = browser_page
    pg.goto(server.url + "/account")
    pg.locator("[data-testid=logged-out]").wait_for()
    pg.fill("[data-testid=sign-up-name]", "Gaspard")
    pg.fill("[data-testid=sign-up-password]", PASSWORD)
    pg.fill("[data-testid=sign-up-again]", PASSWORD)
    pg.click("[data-testid=sign-up-submit]")
    pg.locator("[data-testid=logged-in]").wait_for()
    seats = [{"kind": "human", "name": "Seat A"}, {"kind": "bot", "bot": "greedy"}]
    body = httpx.post(f"{server.url}/api/tables", json={"game": "flaming", "seats": seats}).json()
    tid = body["table"]["id"]
    pg.goto(server.url + body["invites"][0]["url"])
    pg.locator(".badge.you").wait_for()
    summary = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert (summary["seats"][0]["claimed"], summary["seats"][0]["account"]) == (True, False)
    button = pg.locator("[data-testid=link-seat]")
    button.wait_for()
    assert button.inner_text() == "Link this seat to my account"
    button.click()
    button.wait_for(state="hidden")
    seat = httpx.get(f"{server.url}/api/tables/{tid}").json()["seats"][0]
    assert (seat["name"], seat["account"]) == ("Gaspard", True)
    assert errors.messages == []
