"""Tampering with a finished table's stored record, as whoever holds the database could.

Issue 29, item 6: "the replay page says "Verified" for a record whose die roll was changed
in the database". :func:`finished_die_table` plays an all-bot Flaming table with the fire
die until one rolls it; :func:`change_a_die_roll` changes its last roll in the database.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from pyramids.core import CHANCE, GameRecord, fairness
from pyramids.games import make_game
from tests.http_play import wait_finished

TRIES = 8
"""Tables played at most: about 1 game in 27 rolls no die with another face possible."""


def finished_die_table(http: Any) -> str:
    """A finished all-bot Flaming table (a seed the server drew) that rolled the fire die
    with another face possible; ``http`` a client of the server (``post``, ``get``)."""
    bots = [{"kind": "bot", "bot": "greedy"}, *[{"kind": "bot", "bot": "random"}] * 2]
    body = {"game": "flaming", "seats": bots, "options": {"fire_die": True}, "bot_delay": 0}
    for _ in range(TRIES):
        r = http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        tid = str(r.json()["table"]["id"])
        wait_finished(http, tid)
        rec = GameRecord.from_json(http.get(f"/api/tables/{tid}/record").json())
        if fairness.verify_record(make_game(rec.game, rec.players, rec.options), rec).chance_draws:
            return tid
    raise AssertionError(f"{TRIES} games without a fire-die roll")


def change_a_die_roll(db_url: str, tid: str, record: dict[str, Any]) -> tuple[int, str, str]:
    """Change the last fire-die roll of table ``tid`` that had another face possible, in
    the database: its seq, the roll stored and the one written instead."""
    rec = GameRecord.from_json(record)
    state = make_game(rec.game, rec.players, rec.options).new_initial_state(rec.seed)
    found: tuple[int, str, str] | None = None
    for index, action in enumerate(rec.actions):
        if state.current_player() == CHANCE and len(state.chance_outcomes()) > 1:
            other = next(
                state.action_to_string(a)
                for a, _ in state.chance_outcomes()
                if state.action_to_string(a) != action
            )
            found = (index + 1, action, other)
        state.apply(state.parse_action(action))
    assert found is not None, "the game rolled no die"
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE actions SET action = :a WHERE table_id = :t AND seq = :s"),
                {"a": found[2], "t": tid, "s": found[0]},
            )
    finally:
        engine.dispose()
    return found
