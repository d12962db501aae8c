"""The ladder of levels at the server (issue 28): offered by the lobby, played at tables,
and the old bot kinds still accepted.

``GET /api/games`` lists random and every level of ``pyramids.bots.LADDER`` with its
sentence in English and French (``pyramids.bots.ladder.level_sentence``); a seat or the
stand-in may be any of them; ``ismcts``, the kind stored before the ladder, plays
``normal`` and takes its rating.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pyramids.bots import LADDER, level_spec
from pyramids.bots.ladder import OFFERED, level_sentence
from pyramids.server import create_app, ratings
from tests import http_play
from tests.server.conftest import HUMAN, bot, create, make_settings

TINY = {"ismcts_spec": "ismcts:5", "hard_spec": "ismcts:8"}
"""Search levels at a tiny budget, for speed."""


def test_the_lobby_offers_random_and_every_level_with_its_sentence_in_both_languages(
    client: TestClient,
) -> None:
    """GET /api/games: random, beginner, greedy, normal, hard, each said in en and fr."""
    bots = client.get("/api/games").json()["bots"]
    assert [b["name"] for b in bots] == list(OFFERED) == ["random", *LADDER]
    for b in bots:
        assert b["description_en"] == level_sentence(b["name"], "en")
        assert b["description_fr"] == level_sentence(b["name"], "fr")
        assert b["description_en"] != b["description_fr"]


def test_every_level_plays_at_a_table_with_the_spec_the_server_gives_it(tmp_path: Path) -> None:
    """Seats of every level play a game to the end; each plays the level's spec
    (the search levels as the server's settings say)."""
    settings = make_settings(tmp_path, **TINY)
    assert settings.bot_spec("beginner") == level_spec("beginner")
    assert settings.bot_spec("greedy") == level_spec("greedy")
    assert settings.bot_spec("normal") == "ismcts:5"
    assert settings.bot_spec("hard") == "ismcts:8"
    with TestClient(create_app(settings)) as client:
        seats = [bot(level) for level in LADDER]
        body = create(client, seats)
        table = http_play.wait_finished(client, body["table"]["id"])
        assert [s["bot"] for s in table["seats"]] == list(LADDER)
        assert sorted(table["ranking"]) == [0, 1, 2, 3]


def test_the_old_kind_ismcts_is_still_accepted_and_plays_normal(tmp_path: Path) -> None:
    """Tables, rematches and invites stored before the ladder say ``ismcts``: it is still a
    seat kind and a stand-in, stored as it was, and plays the normal level's spec."""
    settings = make_settings(tmp_path, **TINY)
    assert settings.bot_spec("ismcts") == settings.bot_spec("normal")
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, bot("ismcts")], takeover_bot="ismcts")
        table_id = body["table"]["id"]
    with TestClient(create_app(settings)) as client:  # loaded back from the database
        r = client.get(f"/api/tables/{table_id}")
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["bot"] == "ismcts"


def test_an_unknown_bot_kind_is_refused_with_the_kinds_named(client: TestClient) -> None:
    """Bad input says what is wrong: the 422 names the kinds a seat may have."""
    r = client.post("/api/tables", json={"game": "flaming", "seats": [bot("expert"), bot()]})
    assert r.status_code == 422
    assert "beginner" in r.text and "hard" in r.text


def test_an_old_ismcts_seat_takes_the_normal_levels_rating_once_published(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rating file made for the ladder rates ``normal``; an ``ismcts`` seat takes it."""
    published = {
        "bots": {"random": "random", "normal": "ismcts:normal"},
        "games": {"flaming": {"2": {"ratings": {"normal": {"mu": 30.0, "sigma": 2.0}}}}},
    }
    monkeypatch.setattr(ratings, "bot_ratings_file", lambda: published)
    assert ratings.bot_rating("flaming", "2", "ismcts") == ratings.BotRating(30.0, 2.0)
    assert ratings.bot_rating("flaming", "2", "normal") == ratings.BotRating(30.0, 2.0)
    assert ratings.bot_rating("flaming", "2", "hard") is None
    assert ratings.rated_bots() == ("random", "normal")


@pytest.mark.parametrize("players", [2, 3])
def test_a_bot_seat_plays_on_from_what_its_bot_remembered_so_that_inference_reads_on(
    tmp_path: Path, players: int
) -> None:
    """The server makes a bot per decision (in the search workers, so what it remembers
    crosses processes); the table keeps, per bot seat, what that bot remembered
    (``LiveTable.bot_memory``) and, with more than two seats, the seat's views since
    (``bot_seen``), handed to the next decision's bot (``bot_runner.bot_action_remembering``) so that a level that
    infers hands reads every opponent's moves at tables too, belief across turns included."""
    settings = make_settings(tmp_path, ismcts_spec="ismcts:20+greedy+guided+h5+infer")
    with TestClient(create_app(settings)) as client:
        body = create(client, [bot("normal")] * players, game="flags")
        table_id = body["table"]["id"]
        http_play.wait_finished(client, table_id)
        table = client.app.state.manager.tables[table_id]  # type: ignore[attr-defined]
        assert sorted(table.bot_memory) == list(range(players))
        for seat, memory in table.bot_memory.items():
            assert memory.view is not None
            assert memory.view.player == seat
            assert isinstance(memory.action, int)
            assert set(memory.beliefs) - {seat}, "no opponent's move was read"
            last = max(i for i, (s, _) in enumerate(table.actions) if s == seat)
            assert all(k > last for k, _ in table.bot_seen.get(seat, []))
        assert bool(table.bot_seen) == (players > 2)
