"""Durable storage: records, snapshots, restarts, migrations, settings (PROTOCOL "Storage").

"A table is stored as its game record ... plus a snapshot of the full position every 20
actions and at the end. On start the server rebuilds every unfinished game by replaying
its record, checks each snapshot against the replay, and carries on."
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from pyramids.core import GameRecord, replay
from pyramids.games import make_game
from pyramids.server import Settings, create_app
from pyramids.server.config import DB_ENV, resolve_settings, sqlite_url
from pyramids.server.database import Writer
from pyramids.server.db import make_engine, migrate, normalize_url
from pyramids.server.rebuild import StartupError
from tests.http_play import use_invite
from tests.server.conftest import (
    HUMAN,
    bot,
    create,
    db_counts,
    make_settings,
    play_to_end,
    receive,
    receive_until,
)


def play_some(client: TestClient, tid: str, token: str, moves: int) -> dict[str, Any]:
    """Play ``moves`` of the seat's decisions over the socket; return the last state."""
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        receive(ws)
        state = receive(ws)
        for _ in range(moves):
            ws.send_json({"type": "action", "seq": state["seq"], "action": state["legal"][0]})
            state = receive_until(
                ws, lambda m: m["type"] == "state" and (m["legal"] or m["to_move"] is None)
            )
        return state


def test_restart_mid_game_continues_at_the_same_seq(settings: Settings) -> None:
    """Restart the app on the same database: same seq, same view, same legal; then finish."""
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, bot("greedy"), bot("random")])
        tid, invite = body["table"]["id"], body["invites"][0]["token"]
        token = use_invite(client, tid, invite)  # the seat's credential (issue 29)
        before = play_some(client, tid, token, 4)
        hello_before = None
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            hello_before = receive(ws)
    assert before["to_move"] == 0
    with TestClient(create_app(settings)) as client:
        after = client.get(f"/api/tables/{tid}/state", params={"token": token}).json()
        used = client.get(f"/api/tables/{tid}/state", params={"token": invite})
        assert used.json()["error"]["code"] == "invite_used"  # the used invite stays dead
        assert after["seq"] == before["seq"]
        assert after["view"] == before["view"]
        assert after["legal"] == before["legal"]
        assert after["last"] == before["last"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            hello = receive(ws)
            assert hello["log"] == hello_before["log"]
            final = play_to_end(ws, receive(ws))
        assert final["status"] == "finished"
    with TestClient(create_app(settings)) as client:  # finished tables load on demand
        table = client.get(f"/api/tables/{tid}").json()
        assert table["status"] == "finished"
        assert table["ranking"] == final["ranking"]
        assert client.get(f"/api/tables/{tid}/state").json()["seq"] == final["seq"]


def test_bots_resume_after_a_restart(settings: Settings, tmp_path: Path) -> None:
    """A bots-only game stopped mid-way is carried on by the restarted server to the end."""
    slow = Settings(**{**settings.__dict__, "bot_delay": 0.0})
    with TestClient(create_app(slow)) as client:
        tid = create(client, [bot("greedy"), bot("greedy")], bot_delay=10)["table"]["id"]
    engine = create_engine(settings.db_url)
    with engine.begin() as conn:  # speed the stored table up for the second run
        conn.execute(
            text("UPDATE tables SET settings = :s WHERE id = :t"),
            {
                "s": '{"bot_delay": 0, "absent_after": 0, "turn_time": 0, "takeover_bot": "greedy"}',
                "t": tid,
            },
        )
    engine.dispose()
    with (
        TestClient(create_app(settings)) as client,
        client.websocket_connect(f"/ws/tables/{tid}") as ws,
    ):
        receive(ws)
        final = receive_until(ws, lambda m: m["type"] == "state" and m["to_move"] is None)
        assert final["status"] == "finished"


def test_snapshots_every_20_actions_and_at_the_end_match_the_replay(
    client: TestClient, settings: Settings
) -> None:
    """Snapshots hold ``state.to_json()`` at seq 20, 40, … and at the final seq."""
    tid = create(client, [bot("greedy"), bot("random"), bot("random")])["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        receive(ws)
        final = receive_until(ws, lambda m: m["type"] == "state" and m["to_move"] is None)
    engine = create_engine(settings.db_url)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seq, position FROM snapshots WHERE table_id = :t ORDER BY seq"),
            {"t": tid},
        ).all()
        status = conn.execute(text("SELECT status FROM tables WHERE id = :t"), {"t": tid})
        assert status.scalar_one() == "finished"
    engine.dispose()
    seqs = [r.seq for r in rows]
    n = final["seq"]
    assert seqs == sorted({*range(20, n + 1, 20), n})
    record = client.get(f"/api/tables/{tid}/record").json()
    game = make_game("flaming", 3, record["options"])
    positions = {
        i: s.to_json()
        for i, (_, s) in enumerate(replay(game, GameRecord.from_json(record)), start=1)
    }
    import json

    for row in rows:
        stored = json.loads(row.position) if isinstance(row.position, str) else row.position
        assert stored == json.loads(json.dumps(positions[row.seq]))


def test_a_snapshot_that_disagrees_with_the_replay_stops_the_start(tmp_path: Path) -> None:
    """Start refuses with an error naming the table whose snapshot does not match."""
    settings = make_settings(tmp_path, snapshot_every=5)
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, bot("greedy")])
        tid = body["table"]["id"]
        token = use_invite(client, tid, body["invites"][0]["token"])
        state = play_some(client, tid, token, 6)
        assert state["seq"] >= 5
        assert state["to_move"] is not None
    engine = create_engine(settings.db_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE snapshots SET position = :p WHERE table_id = :t AND seq = 5"),
            {"p": '{"tampered": true}', "t": tid},
        )
    engine.dispose()
    with (
        pytest.raises(StartupError, match=f"table {tid}: the snapshot at seq 5"),
        TestClient(create_app(settings)),
    ):
        pass


def test_open_table_and_claims_survive_a_restart(settings: Settings) -> None:
    """An open table stays open with its used invites after a restart."""
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, HUMAN], public=True)
        tid = body["table"]["id"]
        claim = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Zoé"}).json()
    with TestClient(create_app(settings)) as client:
        table = client.get(f"/api/tables/{tid}").json()
        assert table["status"] == "open"
        assert [s["claimed"] for s in table["seats"]] == [True, False]
        assert table["seats"][0]["name"] == "Zoé"
        state = client.get(f"/api/tables/{tid}/state", params={"token": claim["token"]})
        assert state.status_code == 200


def test_migrations_reach_head_and_are_idempotent(tmp_path: Path) -> None:
    """Alembic upgrade head creates the four tables; running it again changes nothing."""
    engine = make_engine(sqlite_url(tmp_path / "m.sqlite3"), writer=True)
    migrate(engine)
    migrate(engine)
    with engine.connect() as conn:
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        names = {
            r[0] for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))
        }
        journal = conn.execute(text("PRAGMA journal_mode")).scalar_one()
        sync = conn.execute(text("PRAGMA synchronous")).scalar_one()
        fks = conn.execute(text("PRAGMA foreign_keys")).scalar_one()
    engine.dispose()
    assert version == "0007"
    assert {"tables", "seats", "actions", "snapshots"} <= names
    assert (journal, sync, fks) == ("wal", 2, 1)


def test_migration_0002_keeps_old_tables_with_fair_defaults(tmp_path: Path) -> None:
    """A table stored at revision 0001 upgrades to 0002: no salt or commitment, private, unseeded."""
    from alembic import command
    from alembic.config import Config

    from pyramids.server.db import MIGRATIONS_DIR
    from pyramids.server.store import load_table

    engine = make_engine(sqlite_url(tmp_path / "old.sqlite3"), writer=True)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        conn.execute(
            text(
                "INSERT INTO tables (id, game, players, options, seed, rules_version, status,"
                " settings, created, updated, seq) VALUES ('old', 'flaming', 2, '{}', 7,"
                " 'v', 'open', '{}', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 0)"
            )
        )
    migrate(engine)
    with engine.connect() as conn:
        table = load_table(conn, "old")
    engine.dispose()
    assert table is not None
    assert (table.salt, table.commitment, table.seeded, table.public, table.created_by) == (
        None,
        None,
        False,
        False,
        None,
    )


def test_writer_group_failure_only_fails_the_culprit(tmp_path: Path) -> None:
    """Group commit: a write that breaks the (table, seq) key fails alone; others commit."""
    engine = make_engine(sqlite_url(tmp_path / "w.sqlite3"), writer=True)
    engine_setup = engine
    with engine_setup.begin() as conn:
        conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
        conn.execute(text("INSERT INTO t VALUES (1)"))
    writer = Writer(engine)
    writer.start()

    def put(k: int) -> Any:
        return lambda conn: conn.execute(text("INSERT INTO t VALUES (:k)"), {"k": k}).rowcount

    async def scenario() -> list[Any]:
        return await asyncio.gather(
            writer.run(put(2)), writer.run(put(1)), writer.run(put(3)), return_exceptions=True
        )

    results = asyncio.run(scenario())
    writer.stop()
    assert results[0] == 1
    assert isinstance(results[1], IntegrityError)
    assert results[2] == 1
    with engine.connect() as conn:
        assert [r[0] for r in conn.execute(text("SELECT k FROM t ORDER BY k"))] == [1, 2, 3]
    engine.dispose()


def test_database_url_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """--db beats PYRAMIDS_DB beats the data directory's SQLite file."""
    monkeypatch.delenv(DB_ENV, raising=False)
    assert resolve_settings(None, tmp_path).db_url == sqlite_url(tmp_path / "pyramids.sqlite3")
    monkeypatch.setenv(DB_ENV, "sqlite:///env.db")
    assert resolve_settings(None, tmp_path).db_url == "sqlite:///env.db"
    assert resolve_settings("sqlite:///cli.db", tmp_path).db_url == "sqlite:///cli.db"
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_a_table_of_older_rules_that_no_longer_replays_is_kept_but_not_resumed(
    tmp_path: Path,
) -> None:
    """A rules version bump (flags-1 dealt a new start as one chance outcome) must not stop
    the server: such a table stays in the database untouched, and opening it says why."""
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, bot("greedy")])
        tid = body["table"]["id"]
        play_some(client, tid, use_invite(client, tid, body["invites"][0]["token"]), 2)
    engine = create_engine(settings.db_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE tables SET rules_version = 'flaming-0' WHERE id = :t"), {"t": tid}
        )
        conn.execute(
            text("UPDATE actions SET action = 'X9@9,9' WHERE table_id = :t AND seq = 1"),
            {"t": tid},
        )
        stored = conn.execute(
            text("SELECT count(*) FROM actions WHERE table_id = :t"), {"t": tid}
        ).scalar_one()
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        r = client.get(f"/api/tables/{tid}/state")
        assert r.status_code == 503
        message = r.json()["error"]["message"]
        assert "recorded under rules flaming-0, this server plays flaming-2" in message
        assert client.get("/api/games").status_code == 200
    assert db_counts(settings, tid)[1] == stored
