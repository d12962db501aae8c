"""Issue 9: the server names no game. The lobby's catalogue, the accepted game names, the
table module and the fit hints all come from the game registry (``pyramids.games``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pyramids.core import Outcome
from pyramids.games import descriptor, descriptors, names, register, unregister
from pyramids.server.standings import final_order
from tests.http_play import use_invite
from tests.server.conftest import HUMAN, bot, create

PLACEMENT = re.compile(r"^([A-Z]\d+)@(-?\d+,-?\d+)$")


def test_the_catalogue_is_the_registry(client: TestClient) -> None:
    """GET /api/games lists every registered game, in order, from its descriptor."""
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == list(names())
    for entry, desc in zip(games, descriptors(), strict=True):
        assert entry["title"] == desc.title("en")
        assert entry["title_fr"] == desc.title("fr")
        assert entry["default_preset"] == desc.default_preset
        assert [p["name"] for p in entry["presets"]] == [p.name for p in desc.presets]
        assert [o["name"] for o in entry["options"]] == [o.name for o in desc.options]
        assert entry["browser_module"] == f"/static/{desc.browser_module}"


def test_every_games_table_module_is_served(client: TestClient) -> None:
    """Each game's ``browser_module`` is a JavaScript file the server serves (StaticFiles)."""
    for entry in client.get("/api/games").json()["games"]:
        r = client.get(entry["browser_module"])
        assert r.status_code == 200, entry["browser_module"]
        assert r.headers["content-type"].startswith("text/javascript")
        assert r.headers["cache-control"] == "no-cache"
        assert "export function createGame" in r.text


def test_an_unknown_game_is_refused_naming_the_registered_ones(client: TestClient) -> None:
    """The game name is checked against the registry: the same clear schema error as before."""
    r = client.post("/api/tables", json={"game": "chess", "seats": [HUMAN, HUMAN]})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "malformed"
    expected = " or ".join([", ".join(repr(n) for n in names()[:-1]), repr(names()[-1])])
    assert error["message"] == f"game: Input should be {expected}"
    schema = client.get("/openapi.json").json()["components"]["schemas"]["CreateTableIn"]
    assert schema["properties"]["game"]["enum"] == list(names())


@pytest.fixture
def extra_game() -> Iterator[str]:
    """A game registered at run time (a renamed copy of the first built-in game)."""
    base = descriptors()[0]
    desc = dataclasses.replace(base, info=dataclasses.replace(base.info, short_name="extra"))
    register(desc)
    try:
        yield desc.name
    finally:
        unregister(desc.name)


def test_a_game_registered_at_run_time_is_offered_and_played(
    client: TestClient, extra_game: str
) -> None:
    """No list of games in the server: a new registry entry is in the catalogue and playable."""
    assert extra_game in [g["name"] for g in client.get("/api/games").json()["games"]]
    table = create(client, [bot("random"), bot("random")], game=extra_game)["table"]
    assert table["game"] == extra_game
    unregister(extra_game)
    r = client.post("/api/tables", json={"game": extra_game, "seats": [HUMAN, HUMAN]})
    assert r.status_code == 422


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    """The state message of a seat (or the spectator's)."""
    params = {"token": token} if token else {}
    return dict(client.get(f"/api/tables/{table_id}/state", params=params).json())


def test_the_state_carries_the_engines_fit_hints_for_the_seat_to_place(
    client: TestClient,
) -> None:
    """Flaming Pyramids: the seat to place gets, beside its view, whether each tile of its
    hand fits each legal spot (the engine's FP-FIT); the others and the spectator get none."""
    desc = descriptor("flaming")
    body = create(client, [HUMAN, HUMAN], game="flaming")
    tid = body["table"]["id"]
    tokens = [use_invite(client, tid, i["token"]) for i in body["invites"]]  # the table runs
    mover = state(client, tid, tokens[0])
    assert mover["to_move"] == 0 and mover["legal"]
    spots = mover["hints"]["spots"]
    assert set(spots) == set(mover["view"]["hand"])
    placements: dict[str, set[str]] = {}
    for text in mover["legal"]:
        match = PLACEMENT.match(text)
        if match:
            placements.setdefault(match.group(1), set()).add(match.group(2))
    assert {tile: set(by_spot) for tile, by_spot in spots.items()} == placements
    for by_spot in spots.values():
        for hint in by_spot.values():
            assert hint["fits"] == (not hint["too_heavy"] and not hint["mismatch"])
    assert state(client, tid, tokens[1])["hints"] is None
    assert state(client, tid)["hints"] is None
    assert desc.hints is not None  # the game says where its hints come from


def test_a_game_without_hints_sends_none(client: TestClient) -> None:
    """A descriptor with no ``hints``: the state's ``hints`` is null."""
    no_hints = [d.name for d in descriptors() if d.hints is None]
    if not no_hints:
        pytest.skip("every registered game gives hints")
    body = create(client, [HUMAN, bot()], game=no_hints[0])
    assert state(client, body["table"]["id"], body["invites"][0]["token"])["hints"] is None


class _Ended:
    """A finished game's stand-in: ``final_order`` reads only ``outcome()``."""

    num_players = 4

    def __init__(self, outcome: Outcome) -> None:
        self._outcome = outcome

    def is_terminal(self) -> bool:
        return True

    def outcome(self) -> Outcome:
        return self._outcome


def test_the_final_order_comes_from_the_outcome() -> None:
    """The table's ranking: seats by the outcome's rank, ties in seat order."""
    assert final_order(_Ended(Outcome.won_by(2, 4))) == [2, 0, 1, 3]  # type: ignore[arg-type]
    assert final_order(_Ended(Outcome.ranked([3, 1, 1, 4]))) == [1, 2, 0, 3]  # type: ignore[arg-type]
