"""Issue 12, point 2 in the lobby page: "tables are invite-only unless the creator makes
them public; only public tables can be claimed from the lobby".

The "Public table" box is off by default (English and French); a table created without it
is not listed, one created with it is listed and a friend in another browser takes its
free seat from the list and lands at the table in that seat.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.browser.conftest import DESKTOP, PageErrors, submit_create, watch_errors
from tests.live import LiveServer


def _create(pg: Any, *, public: bool) -> str:
    """In the lobby: Flaming Pyramids, a human and a greedy bot; the new table's id."""
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("2")
    pg.wait_for_selector("[data-testid=seat-kind-1]")
    pg.select_option("[data-testid=seat-kind-0]", "human")
    pg.select_option("[data-testid=seat-kind-1]", "greedy")
    box = pg.locator("[data-testid=create-public]")
    if public:
        box.check()
    return submit_create(pg)


def _open_ids(pg: Any, shown: str) -> list[str]:
    """The open list's table ids, once it shows table ``shown``."""
    pg.click("#refresh")
    pg.locator(f"[data-testid=tables-open] [data-table='{shown}']").wait_for()
    ids: list[str] = pg.locator("[data-testid=tables-open] [data-testid=table-row]").evaluate_all(
        "els => els.map(e => e.dataset.table)"
    )
    return ids


def test_lobby_public_box_is_off_and_only_public_tables_are_listed_and_joined(
    browser: Any, browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Private by default; a public table's free seat is taken from another browser."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    box = pg.locator("[data-testid=create-public]")
    box.wait_for()
    assert not box.is_checked()
    label = pg.locator("label:has([data-testid=create-public])")
    assert label.inner_text().strip() == "Public table (anyone can take a free seat)"
    pg.click("[data-testid=lang-fr]")
    assert "Table publique" in label.inner_text()
    pg.click("[data-testid=lang-en]")

    private = _create(pg, public=False)
    assert httpx.get(f"{server.url}/api/tables/{private}").json()["public"] is False
    public = _create(pg, public=True)
    assert httpx.get(f"{server.url}/api/tables/{public}").json()["public"] is True
    listed = _open_ids(pg, public)
    assert public in listed and private not in listed

    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    context.set_default_timeout(30_000)
    try:
        friend = context.new_page()
        friend_errors = watch_errors(friend)
        friend.goto(server.url + "/")
        row = friend.locator(f"[data-testid=table-row][data-table='{public}']")
        row.locator("[data-testid=join]").click()
        friend.fill("[data-testid=join-name]", "Zoé")
        friend.click("[data-testid=join-submit]")
        friend.wait_for_url(f"**/t/{public}**")
        friend.locator("[data-testid=pyramid]").wait_for()
        seats = httpx.get(f"{server.url}/api/tables/{public}").json()["seats"]
        assert seats[0]["claimed"] and seats[0]["name"] == "Zoé"
        assert friend_errors.messages == []
    finally:
        context.close()
    assert errors.messages == []
