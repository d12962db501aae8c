"""Fuzz the HTTP API from its own OpenAPI document (schemathesis): never a server error.

Issue 4, Bad input: "Fuzz the HTTP API from its OpenAPI document (schemathesis): no server
error." docs/PROTOCOL.md: "Every error is a JSON body `{"error": {"code": "...",
"message": "..."}}` with a 4xx status."

Schemathesis generates requests that fit the schema and requests that break it (every
operation, examples, boundary values and random data), derandomized and bounded, against
the app on a fresh SQLite file (in-process ASGI, with its lifespan). Each response must not
be a 5xx, and every error must be the protocol's error body. A second pass aims the same
fuzzing at a real table (its id, and a real seat token in action bodies), where random ids
would only ever meet ``unknown_table``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case, Response
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import get_client, shutdown_lifespans

from pyramids.server import Settings, create_app
from pyramids.server.config import LimitSettings, sqlite_url
from tests.waiting import wait_until

MAX_EXAMPLES = 50
FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)


class DeferredApp:
    """An ASGI app that forwards to the app the module fixture builds.

    The schema must exist when the module is imported (schemathesis makes one test per
    operation at collection), but the database should not: it is made per module run, in
    pytest's temporary directory, only when the tests actually run.
    """

    def __init__(self) -> None:
        self.app: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Forward the connection (HTTP or lifespan) to the real app."""
        if self.app is None:
            raise RuntimeError("the fuzz_app fixture has not built the app yet")
        await self.app(scope, receive, send)


APP = DeferredApp()
# The OpenAPI document of an app that never starts (no lifespan: no database is opened).
schema = schemathesis.openapi.from_dict(create_app(Settings(db_url="sqlite://")).openapi())
schema.app = APP


@pytest.fixture(scope="module", autouse=True)
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The app on a fresh SQLite file; bots that would think hard play randomly instead."""
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    # Fuzzed tables may seat ISMCTS bots: what they play does not matter here, only the API.
    settings = Settings(
        db_url=sqlite_url(tmp / "fuzz.sqlite3"),
        data_dir=tmp,
        ismcts_spec="random",
        limits=LimitSettings(exempt="testclient"),  # the fuzzer is faster than any person
    )
    APP.app = create_app(settings)
    try:
        yield APP
    finally:
        # Stop the lifespan schemathesis started (bots, the writer thread, the database).
        shutdown_lifespans()
        APP.app = None


@pytest.fixture(scope="module")
def real_table(fuzz_app: Any) -> dict[str, Any]:
    """A running two-human table (seat 0 to move): both seats claimed from the lobby."""
    with get_client(fuzz_app) as client:
        human = {"kind": "human"}
        # two humans: the server's seed; public, so its seats can be claimed
        body = {"game": "flaming", "seats": [human, human], "public": True}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        tokens = []
        for seat in range(2):
            claim = client.post(f"/api/tables/{table}/seats/{seat}/claim", json={"name": "x"})
            assert claim.status_code == 200, claim.text
            tokens.append(claim.json()["token"])

        def decided() -> tuple[int] | None:
            """(the seat to move) once the chance draw is out of the way (the seed is the
            server's, so there may be one)."""
            to_move: int = client.get(f"/api/tables/{table}/state").json()["to_move"]
            return (to_move,) if to_move != -1 else None

        (to_move,) = wait_until(decided, "a seat's decision after the chance draw")
        tokens = [tokens[to_move], tokens[1 - to_move]]  # the seat to move first
        state = client.get(f"/api/tables/{table}/state", params={"token": tokens[0]}).json()
        assert state["status"] == "running" and state["legal"], state
    return {"id": table, "tokens": tokens}


def check_response(case: Case, response: Response) -> None:
    """No 5xx; every error is a 4xx with the protocol's error body."""
    case.validate_response(response, checks=[not_a_server_error])
    if response.status_code >= 400:
        assert 400 <= response.status_code < 500, response.status_code
        body = response.json()
        assert isinstance(body, dict) and set(body) == {"error"}, body
        error = body["error"]
        assert isinstance(error.get("code"), str) and error["code"], body
        assert isinstance(error.get("message"), str) and error["message"], body


@schema.parametrize()
@FUZZ_SETTINGS
def test_fuzz_every_operation_never_answers_a_server_error(case: Case) -> None:
    """Issue 4: "Fuzz the HTTP API from its OpenAPI document (schemathesis): no server error";
    PROTOCOL: every error is ``{"error": {"code", "message"}}`` with a 4xx status."""
    check_response(case, case.call())


@schema.include(path_regex=r"\{table_id\}").parametrize()
@FUZZ_SETTINGS
def test_fuzz_on_a_real_table_never_answers_a_server_error(
    case: Case, real_table: dict[str, Any]
) -> None:
    """The same on a real running table: its id in the path and a seat's token in action
    bodies, so the fuzzing reaches the game (stale, out of turn, illegal, malformed); query
    tokens stay as generated (bad_token on a table that exists)."""
    case.path_parameters = {**(case.path_parameters or {}), "table_id": real_table["id"]}
    token = real_table["tokens"][0]
    if isinstance(case.body, dict) and "token" in case.body:
        case.body = {**case.body, "token": token}
    check_response(case, case.call())
