"""Table chat in the browser: plain text only, the two channels, mute, and the replay.

Issue 15: "Table chat: per table, plain text (never rendered as HTML) … mute a player for
yourself … stored with the game and shown in the replay". Two people (two browser
contexts) and a spectator on a real `pyramids serve`; the payloads are markup that would
run or create an element if the page ever set it as HTML.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.browser.conftest import (
    DESKTOP,
    PageErrors,
    seat_token,
    wait_for_hello,
    watch_errors,
)
from tests.live import LiveServer

PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('chat')</script>",
    "<b>bold</b>",
]


def _table(server: LiveServer, **options: Any) -> tuple[str, list[str]]:
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "options": {"preset": "basic", **options},
    }
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    return created["table"]["id"], [server.url + inv["url"] for inv in created["invites"]]


def _say(pg: Any, text: str) -> None:
    pg.fill("[data-testid=chat-input]", text)
    pg.click("[data-testid=chat-send]")


def _texts(pg: Any) -> list[str]:
    return list(pg.locator("[data-testid=chat-text]").all_text_contents())


def test_markup_in_chat_shows_as_literal_text(
    browser_page: tuple[Any, PageErrors], browser: Any, server: LiveServer
) -> None:
    """HTML and script payloads arrive as text: no element is created, no dialog opens, and
    the spectators' channel and mute work on the way."""
    pg, errors = browser_page
    dialogs: list[str] = []
    tid, (ann_url, bob_url) = _table(server)
    other = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        bob = other.new_page()
        bob_errors = watch_errors(bob)
        watcher = other.new_page()
        watcher_errors = watch_errors(watcher)  # read only if the page never connects
        for page in (pg, bob, watcher):
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        pg.goto(ann_url)
        bob.goto(bob_url)
        watcher.goto(f"{server.url}/t/{tid}")
        for page, page_errors in ((pg, errors), (bob, bob_errors), (watcher, watcher_errors)):
            wait_for_hello(page, page_errors, server)
        for text in PAYLOADS:
            _say(pg, text)
        bob.wait_for_function(
            "() => document.querySelectorAll('[data-testid=chat-text]').length === 3"
        )
        assert _texts(bob) == PAYLOADS
        assert _texts(pg) == PAYLOADS
        log = bob.locator("[data-testid=chat-log]")
        assert log.locator("img, script, b").count() == 0
        assert (
            bob.evaluate("() => document.querySelectorAll('img[src=x], .chat-log b').length") == 0
        )
        # the spectator reads none of the players' channel while the game runs
        assert _texts(watcher) == []
        _say(watcher, "<i>go Ann</i>")
        pg.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=chat-text]')].some(e => e.textContent === '<i>go Ann</i>')"
        )
        spectator_line = pg.locator("[data-testid=chat-message][data-channel=spectators]")
        assert spectator_line.locator("[data-testid=chat-name]").inner_text() == "Spectator"
        assert pg.locator("[data-testid=chat-log] i").count() == 0
        # Bob mutes Ann: her messages are hidden for him only, and come back on unmute
        bob.locator("[data-testid=chat-message]").first.locator("[data-testid=chat-mute]").click()
        bob.wait_for_function(
            "() => !document.querySelector('[data-testid=chat-message][data-channel=seats]')"
        )
        assert "3" in bob.locator("[data-testid=chat-hidden]").inner_text()
        assert bob.locator("[data-testid=chat-muted-name]").all_text_contents() == ["Ann"]
        assert len(_texts(pg)) == 4
        bob.locator("[data-testid=chat-muted-list] summary").click()
        bob.click("[data-testid=chat-unmute]")
        bob.wait_for_function(
            "() => document.querySelectorAll('[data-testid=chat-text]').length === 4"
        )
        # Ann switches the spectators' channel off: the spectator can no longer write
        pg.locator("[data-testid=chat-spectators-toggle]").uncheck()
        watcher.locator("[data-testid=chat-off]").wait_for()
        assert watcher.locator("[data-testid=chat-input]").is_disabled()
        assert (
            httpx.get(f"{server.url}/api/tables/{tid}").json()["settings"]["spectator_chat"]
            is False
        )
        bob.reload()  # shown again from the server after a reload
        bob.wait_for_function(
            "() => document.querySelectorAll('[data-testid=chat-text]').length === 3"
        )
        assert _texts(bob) == PAYLOADS
        assert dialogs == []
        assert errors.messages == [] and bob_errors.messages == [], (
            errors.messages,
            bob_errors.messages,
        )
    finally:
        other.close()


def test_the_replay_shows_the_chat_up_to_the_step(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Each message appears in the replay from the step it was said at."""
    pg, errors = browser_page
    body = {
        "game": "flaming",
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "greedy", "name": "Greta"},
        ],
        "options": {"preset": "basic", "max_turns": 2},
        "seed": 3,
        "bot_delay": 0,
    }
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    tid, token = created["table"]["id"], created["invites"][0]["token"]
    pg.goto(server.url + created["invites"][0]["url"])
    wait_for_hello(pg, errors, server)
    token = seat_token(pg, tid, token)  # the page used the invite: the seat's credential
    _say(pg, "<b>hello</b> at the start")
    pg.wait_for_function("() => document.querySelectorAll('[data-testid=chat-text]').length === 1")
    for _ in range(40):  # Ann plays her first legal action over HTTP until the turn limit
        st = httpx.get(f"{server.url}/api/tables/{tid}/state", params={"token": token}).json()
        if st["status"] == "finished":
            break
        if st["legal"]:
            action = {"token": token, "seq": st["seq"], "action": st["legal"][0]}
            httpx.post(f"{server.url}/api/tables/{tid}/actions", json=action)
    pg.locator("[data-testid=end-row]").first.wait_for()
    _say(pg, "gg")
    pg.wait_for_function("() => document.querySelectorAll('[data-testid=chat-text]').length === 2")
    pg.goto(f"{server.url}/t/{tid}/replay")
    pg.locator("[data-testid=replay-chat]").wait_for()
    assert _texts(pg) == ["<b>hello</b> at the start"]
    assert pg.locator("[data-testid=replay-chat] b").count() == 0
    pg.click("[data-testid=replay-last]")
    pg.wait_for_function("() => document.querySelectorAll('[data-testid=chat-text]').length === 2")
    assert _texts(pg) == ["<b>hello</b> at the start", "gg"]
    pg.click("[data-testid=lang-fr]")
    assert (
        pg.locator("[data-testid=replay-chat] .panel-title").inner_text().lower()
        == "la discussion jusqu'ici"
    )
    assert errors.messages == [], errors.messages
