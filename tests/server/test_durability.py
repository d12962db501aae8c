"""Restart durability: a real server SIGKILLed in the middle of games loses nothing it acked.

Issue 4, Durability: "A server killed with SIGKILL in the middle of games and restarted
continues every game where it was, nothing lost." docs/PROTOCOL.md, Storage: "An action is
committed before it is acknowledged or broadcast. On start the server rebuilds every
unfinished game by replaying its record [...] bots and takeovers resume on their own."

The scenario runs against a `tests.live.LiveServer` (a `pyramids serve` subprocess): human
tables are driven by seeded random clients (over WebSockets, and one over the HTTP action
endpoint) that act the moment they see a decision, so actions are always in flight when the
server is killed; a bots-only table plays on its own. `test_postgres.py` runs the same
scenario on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from pyramids.core import GameRecord
from pyramids.core.record import replay
from pyramids.games import make_game
from tests.http_play import use_invite
from tests.live import LiveServer, live_server
from tests.waiting import until

SCENARIO_TIMEOUT = 240.0  # seconds: a hang guard only, never reached by a working server
# Network failures a client sees when the server dies under it.
DISCONNECTS = (ConnectionClosed, OSError, httpx.TransportError, asyncio.IncompleteReadError)


@dataclass
class TableRun:
    """One table of the scenario and everything its clients were told."""

    index: int
    id: str
    via: str  # "ws" (one WebSocket per seat), "http" (POST .../actions) or "bots" (spectator)
    tokens: list[str]
    acked: dict[int, str] = field(default_factory=dict)  # seq of the new state -> action text
    errors: list[str] = field(default_factory=list)
    seq: int = 0  # highest seq seen
    finished: bool = False

    def ack(self, seq: int, action: str) -> None:
        """Note an acknowledged action; the same seq acknowledged twice is an error."""
        if seq in self.acked:
            self.errors.append(f"seq {seq} acknowledged twice: {self.acked[seq]} and {action}")
        self.acked[seq] = action
        self.seq = max(self.seq, seq)

    def choose(self, seq: int, legal: list[str]) -> str:
        """A seeded random choice: the same table, seq and legal list give the same action."""
        return random.Random(self.index * 1_000_003 + seq).choice(legal)


def table_body(seats: list[dict[str, Any]], seed: int, bot_delay: float = 0.0) -> dict[str, Any]:
    """A create-table request for Flaming Pyramids that never hands a seat to a takeover bot
    (public: some seats are taken from the lobby). ``seed`` only where a client may choose
    it (issue 12: at most one human seat); the others get the server's secret seed."""
    body: dict[str, Any] = {
        "game": "flaming",
        "public": True,
        "seats": seats,
        "options": {"preset": "standard"},
        "bot_delay": bot_delay,
        "absent_after": 0,
        "turn_time": 0,
    }
    if sum(s["kind"] == "human" for s in seats) <= 1:
        body["seed"] = seed
    return body


def claim(client: httpx.Client, table: str, seat: int) -> str:
    """Take a human seat from the lobby; its new token."""
    r = client.post(f"/api/tables/{table}/seats/{seat}/claim", json={"name": f"C{seat}"})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == seat
    token: str = r.json()["token"]
    return token


def create_tables(
    server: LiveServer, humans: int, http_tables: int, bot_delay: float
) -> list[TableRun]:
    """`humans` all-human 3-seat tables (the last `http_tables` of them played over HTTP),
    plus one 3-greedy-bot table playing with `bot_delay`."""
    runs: list[TableRun] = []
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for i in range(humans):
            seats = [{"kind": "human", "name": f"P{s}"} for s in range(3)]
            r = client.post("/api/tables", json=table_body(seats, seed=100 + i))
            assert r.status_code == 201, r.text
            data = r.json()
            via = "http" if i >= humans - http_tables else "ws"
            if via == "http":
                # Seats taken from the lobby instead: the claim's token replaces the invite.
                tokens = [claim(client, data["table"]["id"], seat) for seat in range(3)]
            else:  # each invite used once: the seats' credentials (issue 29)
                invites = sorted(data["invites"], key=lambda v: v["seat"])
                tokens = [use_invite(client, data["table"]["id"], v["token"]) for v in invites]
            runs.append(TableRun(i, data["table"]["id"], via, tokens))
        bots = [{"kind": "bot", "bot": "greedy"} for _ in range(3)]
        r = client.post("/api/tables", json=table_body(bots, seed=999, bot_delay=bot_delay))
        assert r.status_code == 201, r.text
        runs.append(TableRun(humans, r.json()["table"]["id"], "bots", []))
    return runs


async def _seat_loop(ws: ClientConnection, run: TableRun, seat: int) -> None:
    """Play one seat: answer every decision at once, note acks, stop at the end."""
    sent: dict[str, tuple[int, str]] = {}
    acted: set[int] = set()
    async for raw in ws:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "state":
            run.seq = max(run.seq, msg["seq"])
            if msg["status"] == "finished":
                run.finished = True
                return
            seq = msg["seq"]
            if msg["legal"] and seq not in acted:
                acted.add(seq)
                action = run.choose(seq, msg["legal"])
                mid = f"s{seat}q{seq}"
                sent[mid] = (seq, action)
                await ws.send(
                    json.dumps({"type": "action", "id": mid, "seq": seq, "action": action})
                )
        elif kind == "ack":
            seq, action = sent.pop(msg["id"])
            if msg["seq"] != seq + 1:
                run.errors.append(f"action at seq {seq} acknowledged with seq {msg['seq']}")
            run.ack(msg["seq"], action)
        elif kind == "error":
            run.errors.append(f"seat {seat}: {msg}")


async def _watch_loop(ws: ClientConnection, run: TableRun) -> None:
    """Follow a bots-only table as a spectator until its end."""
    async for raw in ws:
        msg = json.loads(raw)
        if msg.get("type") == "state":
            run.seq = max(run.seq, msg["seq"])
            if msg["status"] == "finished":
                run.finished = True
                return


async def drive_ws(server: LiveServer, run: TableRun) -> None:
    """Play every seat of `run` over its own WebSocket (or watch, for the bot table)."""
    base = f"{server.ws_url}/ws/tables/{run.id}"
    async with contextlib.AsyncExitStack() as stack:
        if run.via == "bots":
            ws = await stack.enter_async_context(connect(base))
            await _watch_loop(ws, run)
            return
        conns = [await stack.enter_async_context(connect(f"{base}?token={t}")) for t in run.tokens]
        tasks = [asyncio.create_task(_seat_loop(ws, run, s)) for s, ws in enumerate(conns)]
        try:
            # Every seat sees the final state; one dying connection means the server is gone.
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def drive_http(server: LiveServer, run: TableRun) -> None:
    """Play every seat of `run` with GET .../state and POST .../actions."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        while True:
            public = (await client.get(f"/api/tables/{run.id}/state")).json()
            run.seq = max(run.seq, public["seq"])
            if public["status"] == "finished":
                run.finished = True
                return
            seat = public["to_move"]
            mine = (
                await client.get(f"/api/tables/{run.id}/state", params={"token": run.tokens[seat]})
            ).json()
            if not mine["legal"]:
                run.errors.append(f"seat {seat} to move at seq {mine['seq']} has no legal action")
                return
            action = run.choose(mine["seq"], mine["legal"])
            body = {"token": run.tokens[seat], "seq": mine["seq"], "action": action}
            r = await client.post(f"/api/tables/{run.id}/actions", json=body)
            if r.status_code != 200:
                run.errors.append(f"POST action {body}: {r.status_code} {r.text}")
                return
            run.ack(r.json()["seq"], action)


async def drive(server: LiveServer, run: TableRun) -> None:
    """Drive one table until its game ends or the server goes away."""
    if run.finished:
        return
    with contextlib.suppress(*DISCONNECTS):
        if run.via == "http":
            await drive_http(server, run)
        else:
            await drive_ws(server, run)


async def play(
    server: LiveServer, runs: list[TableRun], kill_when: Callable[[], bool] | None
) -> None:
    """Drive every table; SIGKILL the server as soon as `kill_when()` holds (None: play out)."""
    tasks = [asyncio.create_task(drive(server, run)) for run in runs]
    if kill_when is not None:
        # While the clients keep sending: actions are in flight as it dies.
        await until(
            lambda: kill_when() or all(t.done() for t in tasks), "the moment to kill", every=0.005
        )
        server.kill()
    await asyncio.gather(*tasks)


def check_restart(server: LiveServer, runs: list[TableRun]) -> None:
    """After a restart, every table is at least at its highest acknowledged seq."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for run in runs:
            r = client.get(f"/api/tables/{run.id}/state")
            assert r.status_code == 200, r.text
            state = r.json()
            top = max(run.acked, default=0)
            assert state["seq"] >= top, (
                f"table {run.id} restarted at seq {state['seq']} but seq {top} was acknowledged"
            )
            run.seq = state["seq"]
            run.finished = state["status"] == "finished"


def check_records(server: LiveServer, runs: list[TableRun]) -> None:
    """Every game is over, its record holds every acknowledged action and replays to the end."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for run in runs:
            assert not run.errors, f"table {run.id}: {run.errors}"
            summary = client.get(f"/api/tables/{run.id}").json()
            assert summary["status"] == "finished", summary
            r = client.get(f"/api/tables/{run.id}/record")
            assert r.status_code == 200, r.text
            record = GameRecord.from_json(r.json())
            assert len(record.actions) == summary["seq"]
            for seq, action in sorted(run.acked.items()):
                assert record.actions[seq - 1] == action, (
                    f"table {run.id}: seq {seq} was acknowledged as {action} "
                    f"but the record has {record.actions[seq - 1]}"
                )
            game = make_game(record.game, record.players, record.options)
            final = None
            for _, state in replay(game, record):
                final = state
            assert final is not None and final.is_terminal()


async def _with_timeout(coro: Awaitable[None]) -> None:
    await asyncio.wait_for(coro, SCENARIO_TIMEOUT)


def run_durability_scenario(
    server: LiveServer, humans: int = 4, http_tables: int = 1, kills: int = 2, per_phase: int = 12
) -> list[TableRun]:
    """Play `humans` human tables and one bot table, SIGKILL and restart `kills` times, finish."""
    runs = create_tables(server, humans, http_tables, bot_delay=0.05)
    human_runs = [r for r in runs if r.via != "bots"]
    bot_run = runs[-1]
    bot_seq_at_restart: list[int] = []
    for phase in range(kills):
        start = {r.id: len(r.acked) for r in human_runs}

        def ready(start: dict[str, int] = start, phase: int = phase) -> bool:
            humans_moved = all(
                r.finished or len(r.acked) - start[r.id] >= per_phase for r in human_runs
            )
            return humans_moved and (phase > 0 or bot_run.seq >= 3 or bot_run.finished)

        asyncio.run(_with_timeout(play(server, runs, ready)))
        server.start()
        check_restart(server, runs)
        bot_seq_at_restart.append(bot_run.seq)
        if phase == 0:
            assert not bot_run.finished, "the bot table ended before the first kill: slow it down"
    asyncio.run(_with_timeout(play(server, runs, None)))
    # The bot table went on by itself after the restarts: nobody drives it.
    assert bot_run.finished and bot_run.seq > bot_seq_at_restart[0]
    check_records(server, runs)
    return runs


def test_sigkill_in_mid_game_loses_no_acknowledged_action(tmp_path: Path) -> None:
    """Issue 4: "A server killed with SIGKILL in the middle of games and restarted continues
    every game where it was, nothing lost" (SQLite file, two kills)."""
    db = f"sqlite:///{tmp_path / 'durable.sqlite3'}"
    with live_server(db) as server:
        runs = run_durability_scenario(server)
        assert server.starts == 3
    assert all(run.finished for run in runs)
