"""The tutorial's endpoints (server/learn.py; docs/PROTOCOL.md "The tutorial's endpoints").

Issue 14, item 2: "an interactive tutorial for each game: a short sequence of staged
positions from those examples where the learner makes the move and the page explains what
happened and why". The page never judges a move: ``POST /api/learn/{game}/apply`` loads the
staged position with the game's loader, applies the action with the engine and answers with
the new position, the legal actions and the events with their reasons, or a clear refusal
(4xx, never a 500). Every lesson of static/data/learn-lessons.json is checked here too: its
position loads and the moves it asks for are legal and do what its text says.
"""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pyramids.server
from pyramids.flaming import position_from_json
from pyramids.texts import describe
from tests.flaming.helpers import position_json

LESSONS_FILE = Path(pyramids.server.__file__).parent / "static" / "data" / "learn-lessons.json"
LESSONS: dict[str, Any] = json.loads(LESSONS_FILE.read_text("utf-8"))

# FP-EX-J: R40@1,1 on B120@0,0 R100@0,2 fits (red matches, 40 <= 220).
EXAMPLE_J = position_json(pyramid=["B120@0,0", "R100@0,2"], hands=[["R40", "G2"], ["Y2"]])


def apply(client: TestClient, game: str, body: Any) -> Any:
    """POST /api/learn/{game}/apply."""
    return client.post(f"/api/learn/{game}/apply", json=body)


def error_of(response: Any) -> tuple[str, str]:
    """The protocol error body's code and message."""
    error = response.json()["error"]
    return error["code"], error["message"]


def test_rulebook_diagram_j_placement_comes_back_with_its_events(client: TestClient) -> None:
    """FP-EX-J: the legal move is applied by the engine; its events carry both sentences."""
    response = apply(client, "flaming", {"position": EXAMPLE_J, "action": "R40@1,1"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["game"] == "flaming"
    assert body["position"]["pyramid"] == ["B120@0,0", "R100@0,2", "R40@1,1"]
    assert body["seat"] == 0
    assert body["to_move"] == 1
    assert body["terminal"] is False
    assert body["legal"] == ["Y2@0,-2", "Y2@0,4"]
    assert [e["kind"] for e in body["events"]] == ["place"]
    place = body["events"][0]
    assert place["game"] == "flaming"
    assert place["data"]["tile"] == "R40"
    engine = position_from_json(EXAMPLE_J)
    engine.apply(engine.parse_action("R40@1,1"))
    assert place["text_en"] == describe(engine.events()[0], "en")
    assert place["text_fr"] == describe(engine.events()[0], "fr")
    assert place["text_en"] != place["text_fr"]
    assert body["view"]["hand"] == ["G2"]


def test_misfit_placement_collapses_and_leaves_the_fall_to_the_learner(client: TestClient) -> None:
    """FP-FIT-1, FP-COLLAPSE-1: G2 matches neither B120 nor R100; the learner must choose a fall."""
    body = apply(client, "flaming", {"position": EXAMPLE_J, "action": "G2@1,1"}).json()
    assert [e["kind"] for e in body["events"]] == ["place", "collapse"]
    assert "matches neither B120 nor R100" in body["events"][1]["text_en"]
    assert body["to_move"] == 0
    assert body["legal"] == ["left", "right"]
    assert body["position"]["pending"] == {"player": 0, "kind": "fall", "tile": "G2@1,1"}
    again = apply(client, "flaming", {"position": body["position"], "action": "left"}).json()
    assert again["events"][0]["kind"] == "fall"


def test_show_gives_legal_actions_and_fit_hints_without_events(client: TestClient) -> None:
    """The staged position as the engine reads it, with the engine's fit hints (FP-FIT-1)."""
    response = client.post("/api/learn/flaming/show", json={"position": EXAMPLE_J})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["legal"] == ["R40@1,1", "G2@1,1"]
    assert body["events"] == []
    assert body["hints"]["spots"]["R40"]["1,1"]["fits"] is True
    assert body["hints"]["spots"]["G2"]["1,1"]["mismatch"] is True


def test_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    """A tile not in hand: 409 ``illegal`` with the engine's reason, nothing applied."""
    response = apply(client, "flaming", {"position": EXAMPLE_J, "action": "B6@1,1"})
    assert response.status_code == 409
    code, message = error_of(response)
    assert code == "illegal"
    assert "B6" in message


def test_illegal_flags_move_says_why(client: TestClient) -> None:
    """PF-MOVE-3: a large piece may not go on a small one."""
    position = LESSONS["flags"][0]["position"]
    response = apply(client, "flags", {"position": position, "action": "B3>W1"})
    assert response.status_code == 409
    code, message = error_of(response)
    assert code == "illegal"
    assert "B3" in message and "W1" in message


@pytest.mark.parametrize(
    ("game", "body", "status", "code"),
    [
        ("flaming", {"position": EXAMPLE_J, "action": "R40 on 1,1"}, 422, "malformed"),
        ("flaming", {"position": {"players": "two"}, "action": "R40@1,1"}, 422, "bad_position"),
        ("flaming", {"position": {}, "action": "R40@1,1"}, 422, "bad_position"),
        (
            "flaming",
            {"position": {**EXAMPLE_J, "pyramid": ["R40@0,1"]}, "action": "R40@1,1"},
            422,
            "bad_position",
        ),
        (
            "flags",
            {"position": {"players": 2, "towers": "K1"}, "action": "K1>K2"},
            422,
            "bad_position",
        ),
        ("flaming", {"position": EXAMPLE_J}, 422, "malformed"),
        ("flaming", {"position": EXAMPLE_J, "action": ""}, 422, "malformed"),
        ("flaming", {"position": [], "action": "R40@1,1"}, 422, "malformed"),
        ("flaming", {"position": EXAMPLE_J, "action": "R40@1,1", "extra": 1}, 422, "malformed"),
        ("chess", {"position": EXAMPLE_J, "action": "e4"}, 404, "unknown_game"),
    ],
)
def test_malformed_input_is_a_4xx_with_a_message(
    client: TestClient, game: str, body: Any, status: int, code: str
) -> None:
    """Bad input gives the protocol's error body with a 4xx status and a message, never a 500."""
    response = apply(client, game, body)
    assert response.status_code == status, response.text
    got, message = error_of(response)
    assert got == code
    assert message


def test_a_body_that_is_not_json_is_a_400(client: TestClient) -> None:
    """Unparseable JSON is ``malformed`` (400), as everywhere in the API."""
    response = client.post(
        "/api/learn/flaming/apply",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert error_of(response)[0] == "malformed"


def test_a_finished_game_takes_no_action(client: TestClient) -> None:
    """PF-WIN-3 (the Volcano lesson's end): once won, an action is 409 ``finished``."""
    lesson = next(x for x in LESSONS["flags"] if x["id"] == "volcano")
    position = lesson["position"]
    for action in ("W1>R2", "take:O2"):
        response = apply(client, "flags", {"position": position, "action": action})
        assert response.status_code == 200, response.text
        position = response.json()["position"]
    assert response.json()["terminal"] is True
    assert [e["kind"] for e in response.json()["events"]][-1] == "win"
    refused = apply(client, "flags", {"position": position, "action": "K1>K2"})
    assert refused.status_code == 409
    assert error_of(refused)[0] == "finished"


def test_the_tutorial_pages_are_served(client: TestClient) -> None:
    """/learn/flaming and /learn/flags are the page; an unknown game is a 404."""
    for path in ("/learn", "/learn/flaming", "/learn/flags"):
        response = client.get(path)
        assert response.status_code == 200
        assert "learn.js" in response.text
    assert client.get("/learn/chess").status_code == 404


LESSON_CASES = [(game, lesson) for game in ("flaming", "flags") for lesson in LESSONS[game]]


@pytest.mark.parametrize(
    ("game", "lesson"), LESSON_CASES, ids=[f"{g}-{x['id']}" for g, x in LESSON_CASES]
)
def test_every_lesson_is_playable_as_its_text_says(
    client: TestClient, game: str, lesson: dict[str, Any]
) -> None:
    """Each lesson loads, each move it asks for is legal, and making them ends its turn."""
    for key in ("title", "intro", "wrong", "explain"):
        assert lesson[key]["en"] and lesson[key]["fr"], key
    assert all(task["en"] and task["fr"] for task in lesson["tasks"])
    shown = client.post(f"/api/learn/{game}/show", json={"position": lesson["position"]})
    assert shown.status_code == 200, shown.text
    answer = shown.json()
    assert answer["to_move"] == 0
    for accepted in lesson["expect"]:
        move = next(a for a in answer["legal"] if any(fnmatchcase(a, p) for p in accepted))
        response = apply(client, game, {"position": answer["position"], "action": move, "seat": 0})
        assert response.status_code == 200, response.text
        answer = response.json()
    # any further decisions of the learner's turn (falls, captures, actions): the first legal
    while not answer["terminal"] and answer["to_move"] == 0:
        move = answer["legal"][0]
        answer = apply(client, game, {"position": answer["position"], "action": move}).json()
    assert answer["terminal"] or answer["to_move"] == 1


def test_lesson_first_moves_follow_the_rulebook_examples(client: TestClient) -> None:
    """FP-EX-STRAW and FP-EX-EXPLODE as staged: the fire and the explosion of the rulebook."""
    by_id = {x["id"]: x for x in LESSONS["flaming"]}
    straw = apply(client, "flaming", {"position": by_id["straw"]["position"], "action": "B2@1,1"})
    fire = next(e for e in straw.json()["events"] if e["kind"] == "fire")
    assert [b["tile"] for b in fire["data"]["burnt"]] == ["B2", "R6"]
    boom = apply(client, "flaming", {"position": by_id["explode"]["position"], "action": "Y1@1,5"})
    assert boom.json()["position"]["pyramid"] == ["G20@0,0"]
