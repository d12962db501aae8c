"""A French page shows a French refusal (issue 32, point 5, and its check).

"A French page shows a French refusal for an illegal action and a bad position (a
browser test)." A refusal is a code and its facts (``pyramids.core.errors``); the server
sends it with the refused request's error together with its words in English and French
(``refusal``, ``text_en``, ``text_fr``: docs/PROTOCOL.md, "Errors"), and the page says the
words of its own language. Each test drives a real page in French (a ``fr-FR`` browser),
makes the server refuse something through the page itself, and checks that what the page
shows is the French catalogue's entry ``refusal.<code>`` (the ``/texts/fr.json`` the
browser loads) filled with the facts the server sent, and not the English sentence:

- an action that arrives stale at the table (the server's own ``server.stale``);
- an illegal action at the table (the rules' refusal, e.g. a tile not in the hand);
- a bad position staged by the tutorial page (the rules' refusal of the position).

The page's own actions are legal and on time, so the tests make them bad on their way to
the server: the table's socket is routed through Playwright (the action's ``seq`` or text
rewritten), and the tutorial's lesson file is served with a broken position.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pyramids.flaming.tiles import NAMES as TILE_NAMES
from pyramids.texts.format import format_message
from tests.browser.conftest import PageErrors, page_of, wait_for_hello
from tests.http_play import use_invite
from tests.live import LiveServer

PLACE = "() => document.querySelector('[data-testid=hand-tile]:not([disabled])') !== null"
"""The page offers seat 0 a placement (the human's first decision)."""
TOAST = ".toast-error"


@pytest.fixture
def french(browser: Any) -> Iterator[tuple[Any, PageErrors]]:
    """A fresh page of a browser that speaks French (the pages open in French)."""
    with page_of(browser, "fr-FR") as page:
        yield page


def catalogue(pg: Any, lang: str) -> dict[str, str]:
    """The shared catalogue of ``lang`` as the browser loads it (``/texts/<lang>.json``)."""
    entries = pg.evaluate(
        "(lang) => fetch(`/texts/${lang}.json`).then((r) => r.json())",
        lang,
    )
    assert isinstance(entries, dict)
    return entries


def words_of(entries: dict[str, str], refusal: dict[str, Any]) -> str:
    """The catalogue's entry ``refusal.<code>`` filled with the refusal's facts."""
    key = f"refusal.{refusal['code']}"
    assert key in entries, f"the catalogue has no {key} (the server sent {refusal})"

    def lookup(name: str) -> str | None:
        return entries.get(name)

    return format_message(entries[key], refusal.get("data") or {}, lookup)


def check_french(pg: Any, shown: str, error: dict[str, Any]) -> None:
    """``shown`` (what the page says) is the refusal in the French catalogue's words,
    as the server sent them, and not in the English ones."""
    refusal = error.get("refusal")
    assert isinstance(refusal, dict), f"the error carries no refusal: {error}"
    french = words_of(catalogue(pg, "fr"), refusal)
    english = words_of(catalogue(pg, "en"), refusal)
    assert error["text_fr"] == french
    assert error["text_en"] == english
    assert french != english, f"{refusal['code']} reads the same in French and English"
    assert french.casefold() in shown.casefold(), (shown, french)
    assert english.casefold() not in shown.casefold(), (shown, english)
    assert pg.evaluate("document.documentElement.lang") == "fr"


class SocketTap:
    """The table page's socket routed through Playwright: each outgoing ``action`` is
    changed by ``rewrite`` on its way to the server; the server's ``error`` messages are
    kept (``errors``)."""

    def __init__(self, rewrite: Any) -> None:
        self.rewrite = rewrite
        self.errors: list[dict[str, Any]] = []

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def outgoing(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "action":
                data = self.rewrite(data)
            server.send(json.dumps(data))

        def incoming(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "error":
                self.errors.append(data)
            ws.send(message)

        ws.on_message(outgoing)
        server.on_message(incoming)


def open_table(pg: Any, server: LiveServer, tap: SocketTap, errors: PageErrors) -> None:
    """A Flaming Pyramids table (seat 0 human, seat 1 a bot) opened by seat 0's page with
    its socket tapped; until the page offers the first placement."""
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "flaming",
            "seats": [{"kind": "human", "name": "Alice"}, {"kind": "bot", "bot": "random"}],
        },
    )
    assert r.status_code == 201, r.text
    created = r.json()
    table = created["table"]["id"]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        token = use_invite(http, table, created["invites"][0]["token"])
    pg.route_web_socket(re.compile(r"/ws/tables/"), tap.route)
    pg.goto(f"{server.url}/t/{table}?token={token}")
    wait_for_hello(pg, errors, server)
    pg.wait_for_function(PLACE, timeout=60_000)


def place_first_tile(pg: Any) -> None:
    """Click the first playable hand tile, then the first spot offered."""
    pg.locator("[data-testid=hand-tile]:not([disabled])").first.click()
    spot = pg.locator("[data-testid=spot]").first
    spot.wait_for()
    spot.click()


def refused_toast(pg: Any, tap: SocketTap) -> tuple[str, dict[str, Any]]:
    """The error toast the page shows, and the server's error message it shows."""
    toast = pg.locator(TOAST).first
    toast.wait_for()
    assert tap.errors, "the page shows an error the server did not send"
    return toast.inner_text(), tap.errors[0]


def test_a_stale_action_is_refused_in_french_on_a_french_table_page(
    french: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """The action arrives for a later seq than the game's: the server refuses it
    (``stale``, ``server.stale``) and the French page says so in French."""
    pg, errors = french

    def later(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "seq": data["seq"] + 5}

    tap = SocketTap(later)
    open_table(pg, server, tap, errors)
    place_first_tile(pg)
    shown, error = refused_toast(pg, tap)
    assert error["code"] == "stale"
    assert error["refusal"]["code"] == "server.stale"
    assert shown.startswith("La partie a avancé"), shown
    check_french(pg, shown, error)
    pg.screenshot(path=str(artifacts / "refusal-fr-stale.png"))
    assert errors.messages == [], errors.messages


def test_an_illegal_action_is_refused_in_french_on_a_french_table_page(
    french: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """The action places a tile that is not in the seat's hand: the rules refuse it
    (``illegal``, the rules' code and facts) and the French page says why in French."""
    pg, errors = french
    missing: list[str] = []

    def not_in_hand(data: dict[str, Any]) -> dict[str, Any]:
        _tile, _, spot = str(data["action"]).partition("@")
        return {**data, "action": f"{missing[0]}@{spot}"}

    tap = SocketTap(not_in_hand)
    open_table(pg, server, tap, errors)
    hand = set(
        pg.locator("[data-testid=hand-tile]").evaluate_all("els => els.map((e) => e.dataset.tile)")
    )
    missing.extend(name for name in TILE_NAMES if name not in hand)
    place_first_tile(pg)
    shown, error = refused_toast(pg, tap)
    assert error["code"] in ("illegal", "malformed"), error
    check_french(pg, shown, error)
    pg.screenshot(path=str(artifacts / "refusal-fr-illegal.png"))


def test_a_bad_position_is_refused_in_french_on_the_french_tutorial_page(
    french: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """The tutorial stages a position the rules refuse (a seat count that is no number):
    422 ``bad_position`` with the rules' refusal, said in French under the board."""
    pg, _errors = french
    lessons = httpx.get(f"{server.url}/static/data/learn-lessons.json").json()
    lessons["flaming"][0]["position"] = {**lessons["flaming"][0]["position"], "players": "two"}

    def broken(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(lessons))

    pg.route("**/static/data/learn-lessons.json", broken)
    with pg.expect_response(re.compile(r"/api/learn/flaming/show")) as answer:
        pg.goto(f"{server.url}/learn/flaming")
    response = answer.value
    assert response.status == 422
    error = response.json()["error"]
    assert error["code"] == "bad_position"
    pg.locator("[data-testid=learn-result][data-outcome=refused]").wait_for()
    shown = pg.locator("[data-testid=learn-explain]").inner_text()
    assert shown.startswith("Le serveur ne peut pas mettre en place cette position"), shown
    check_french(pg, shown, error)
    pg.screenshot(path=str(artifacts / "refusal-fr-position.png"))
