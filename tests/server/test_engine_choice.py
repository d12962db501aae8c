"""The server's engine choice reaches everything it plays (issue 32, docs/NATIVE.md "Engine
selection"): a server started with ``engine=python`` (``pyramids serve --engine python``)
plays its tables, rates them, replays the unrated ones at its next start, verifies their
records and stages the tutorial's positions on Python states, and with ``engine=native`` on
native ones (``engine_of(state)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.core.game import Game, State
from pyramids.games.engine import NATIVE, PYTHON, Engine, engine_of, native_available
from pyramids.server import Settings, create_app, learn, ratings, verify
from tests import http_play
from tests.flaming.helpers import position_json
from tests.server.conftest import bot, create, make_settings
from tests.server.test_ratings import wait_results
from tests.waiting import wait_until

CHOICES = [PYTHON, NATIVE]
"""The engines a server is started on here (native only where the core is built)."""
QUICK = {"max_turns": 1}
"""Flaming's turn limit of one: a table of bots ends after its first placement (FP-END-4)."""
EXAMPLE_J = position_json(pyramid=["B120@0,0", "R100@0,2"], hands=[["R40", "G2"], ["Y2"]])
"""The rulebook's diagram J, staged by the tutorial (docs/RULES.md FP-EX-J)."""


@pytest.fixture(params=CHOICES)
def engine(request: pytest.FixtureRequest) -> Engine:
    """The engine the server is started on."""
    choice = Engine(request.param)
    if choice == NATIVE and not native_available():
        pytest.skip("the native core is not built")
    return choice


@pytest.fixture
def engine_settings(tmp_path: Path, engine: Engine) -> Settings:
    """Test settings on ``engine`` (``Settings.engine``, as ``pyramids serve --engine``)."""
    return make_settings(tmp_path, engine=engine)


@pytest.fixture
def engine_client(engine_settings: Settings) -> Iterator[TestClient]:
    """A started app on ``engine``."""
    with TestClient(create_app(engine_settings)) as c:
        yield c


def games_made(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[Engine]:
    """Spy on ``module.make_game``: the engine of every game it makes, in order."""
    made: list[Engine] = []
    real: Callable[..., Game] = module.make_game

    def spy(*args: Any, **kwargs: Any) -> Game:
        game = real(*args, **kwargs)
        made.append(engine_of(game.new_initial_state(0)))
        return game

    monkeypatch.setattr(module, "make_game", spy)
    return made


def bots_table(client: TestClient) -> str:
    """A table of two random bots, played to its end (one placement)."""
    body = create(client, [bot("random"), bot("random")], options=QUICK)
    table = str(body["table"]["id"])
    http_play.wait_finished(client, table)
    return table


def test_tables_and_their_ratings_run_on_the_servers_engine(
    monkeypatch: pytest.MonkeyPatch, engine_client: TestClient, engine_settings: Settings
) -> None:
    """A table plays on ``Settings.engine``; the finished hook's statistics replay the game
    on the engine its state ran on (``ratings.seat_stats``)."""
    made = games_made(monkeypatch, ratings)
    table = bots_table(engine_client)
    live = engine_client.app.state.manager.tables[table]  # type: ignore[attr-defined]
    assert engine_of(live.state) == engine_settings.engine
    wait_results(engine_settings, table)
    assert made == [engine_settings.engine]


def test_a_table_left_unrated_is_replayed_on_the_servers_engine_at_the_next_start(
    monkeypatch: pytest.MonkeyPatch, engine_settings: Settings
) -> None:
    """``catch_up`` (the started hook) replays a finished table without results on
    ``Settings.engine`` (``ratings.load_finished``), its statistics likewise."""
    with TestClient(create_app(engine_settings)) as client:
        table = bots_table(client)
        wait_results(engine_settings, table)
    db = create_engine(engine_settings.db_url)
    try:
        with db.begin() as conn:
            conn.execute(text("DELETE FROM results WHERE table_id = :t"), {"t": table})
    finally:
        db.dispose()
    assessed: list[Engine] = []
    real_assess = ratings.assess

    def spy(game: ratings.FinishedGame, state: State) -> ratings.Assessed | None:
        assessed.append(engine_of(state))
        return real_assess(game, state)

    monkeypatch.setattr(ratings, "assess", spy)
    made = games_made(monkeypatch, ratings)
    with TestClient(create_app(engine_settings)):
        wait_until(lambda: assessed, f"table {table}: rated again at the start")
        wait_results(engine_settings, table)
    assert assessed == [engine_settings.engine]
    assert made == [engine_settings.engine]


def test_a_record_is_verified_on_the_servers_engine(
    monkeypatch: pytest.MonkeyPatch, engine_client: TestClient, engine_settings: Settings
) -> None:
    """``GET /api/tables/{id}/verify`` replays the stored record on ``Settings.engine``."""
    table = bots_table(engine_client)
    made = games_made(monkeypatch, verify)
    r = engine_client.get(f"/api/tables/{table}/verify")
    assert r.status_code == 200, r.text
    assert r.json()["failure"] is None
    assert made == [engine_settings.engine]


@pytest.mark.parametrize("route", ["show", "apply"])
def test_the_tutorials_positions_are_staged_on_the_servers_engine(
    monkeypatch: pytest.MonkeyPatch,
    engine_client: TestClient,
    engine_settings: Settings,
    route: str,
) -> None:
    """``/api/learn/{game}/show`` and ``apply`` load the staged position on
    ``Settings.engine`` (``learn.load_staged``)."""
    staged: list[Engine] = []
    real_answer = learn.answer

    def spy(desc: Any, state: State, seat: int | None, events: bool) -> dict[str, Any]:
        staged.append(engine_of(state))
        return real_answer(desc, state, seat, events)

    monkeypatch.setattr(learn, "answer", spy)
    body: dict[str, Any] = {"position": EXAMPLE_J}
    if route == "apply":
        body["action"] = "R40@1,1"
    r = engine_client.post(f"/api/learn/flaming/{route}", json=body)
    assert r.status_code == 200, r.text
    assert staged == [engine_settings.engine]
