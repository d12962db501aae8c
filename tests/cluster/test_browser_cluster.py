"""Two friends play a whole game in two browsers whose pages come from different instances.

A real cluster (three instances on one PostgreSQL behind HAProxy; the pages go to the
instances themselves, past the balancer) and Debian's Chromium. The table is created in
the lobby of ``i3``, which so owns it (runs its bot and chance draws); Ann's page and
socket are ``i1``'s, Bob's ``i2``'s. Every move then crosses instances: a seat's action
goes to an instance that does not own the table and is applied through the database, and
the two other instances follow it by PostgreSQL notifications. The game is played by
clicking, with test_friends.py's helpers: each page shows its own hand only, both log
every move alike, and both end on the same ranking.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlparse

from sqlalchemy import create_engine, text

# the browser tests' fixtures, for this module (a non-root conftest cannot name a plugin)
from tests.browser.conftest import (  # noqa: F401
    artifacts,
    browser,
    seat_token,
    shown_seq,
    wait_after_action,
)
from tests.browser.test_friends import (
    ANIMATIONS_DONE,
    _create_friends_table,
    _log,
    _other_browser,
    _summary,
    _token,
    play_to_the_end,
)
from tests.cluster.cluster import Cluster
from tests.live import LiveServer

INSTANCE_HEADER = "x-pyramids-instance"
LOBBY = "i3"
"""The instance whose lobby creates the table, and so owns it."""
PAGES = {0: "i1", 1: "i2"}
"""The instance serving each human seat's page (and its WebSocket)."""


@dataclass
class Instance:
    """One instance's address, where test_friends.py's helpers want a server's ``url``."""

    url: str


def as_server(cluster: Cluster, name: str) -> LiveServer:
    """Instance ``name`` as the helpers' ``server`` argument (they read only its ``url``)."""
    return cast(LiveServer, Instance(cluster.instance_url(name)))


def owner_of(cluster: Cluster, table: str) -> str:
    """The instance holding ``table``'s lease (its name, without the run's suffix)."""
    engine = create_engine(cluster.db_url)
    try:
        with engine.connect() as conn:
            owner = conn.execute(
                text("SELECT owner FROM table_leases WHERE table_id = :t"), {"t": table}
            ).scalar_one()
    finally:
        engine.dispose()
    return str(owner).split("/")[0]


@contextmanager
def seat_page(chromium: Any, cluster: Cluster, seat: int, invite: str) -> Iterator[tuple[Any, Any]]:
    """A browser of its own opening ``invite`` on the seat's instance; the page and its
    errors, once the page and its WebSocket are proven to be that instance's."""
    name = PAGES[seat]
    base = cluster.instance_url(name)
    address = urlparse(invite)
    with _other_browser(chromium, speed="off") as (_context, page, errors):
        with page.expect_websocket() as socket:
            response = page.goto(f"{base}{address.path}?{address.query}")
        assert response is not None and response.status == 200
        assert response.headers[INSTANCE_HEADER] == name, response.headers
        assert socket.value.url.startswith(base.replace("http", "ws", 1) + "/ws/tables/")
        yield page, errors


def test_two_friends_on_two_instances_play_a_whole_game(
    browser: Any,  # noqa: F811
    cluster: Cluster,
    artifacts: Path,  # noqa: F811
) -> None:
    """Issue 16: a client may connect to any instance; every instance holding sockets for
    a table sends each its own view. Ann on i1 and Bob on i2 play a game that i3 owns."""
    started = time.monotonic()
    lobby = as_server(cluster, LOBBY)
    with _other_browser(browser, speed="off") as (_context, creator, creator_errors):
        response = creator.goto(lobby.url + "/")
        assert response is not None and response.headers[INSTANCE_HEADER] == LOBBY
        invites = _create_friends_table(creator, lobby)
        assert creator_errors.messages == [], creator_errors.messages
    tokens = {seat: _token(url) for seat, url in invites.items()}
    table = urlparse(invites[0]).path.split("/t/")[1]
    assert owner_of(cluster, table) == LOBBY

    with (
        seat_page(browser, cluster, 0, invites[0]) as (page_a, errors_a),
        seat_page(browser, cluster, 1, invites[1]) as (page_b, errors_b),
    ):
        for page in (page_a, page_b):
            page.wait_for_function(
                "() => !['Waiting for every player to join', 'Loading…'].includes("
                "document.querySelector('[data-testid=turn]').textContent)"
            )
        assert _summary(lobby, table)["status"] == "running"
        assert page_b.locator("[data-testid=seat-info][data-seat='1'] .badge.you").is_visible()
        # the pages used the invites: the seats' credentials (issue 29)
        tokens = {0: seat_token(page_a, table, tokens[0]), 1: seat_token(page_b, table, tokens[1])}

        decisions, falls, _ = play_to_the_end(lobby, table, page_a, page_b, tokens)
        assert _log(page_a) == _log(page_b), "the two instances tell the game differently"
        for pg, name in ((page_a, "ann"), (page_b, "bob")):
            pg.evaluate(ANIMATIONS_DONE)
            pg.screenshot(path=str(artifacts / f"cluster-friends-{name}-end.png"), full_page=True)
        assert errors_a.messages == [], errors_a.messages
        assert errors_b.messages == [], errors_b.messages
    print(
        f"cluster friends game: Ann {decisions[0]} decisions on i1, Bob {decisions[1]} on i2"
        f" ({falls} falls), owned by i3, in {time.monotonic() - started:.1f} s"
    )
