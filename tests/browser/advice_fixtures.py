"""Tables and staged games for the hint and analysis browser tests (issue 30).

A staged game is planned here, off the server, then played on a real server over HTTP:
Ann (seat 0, the human) against Bob (seat 1, the server's greedy bot) on a seeded table.
The plan mirrors what the server does, so that the game it plays is the planned one: its
chance draws are ``state.sample_chance(fairness.chance_rng(seed, seq))`` and its bot's move
at ``seq`` is ``make_bot("greedy").act(view, legal, Random(f"{seed}/bot/1/{seq}"))``
(``pyramids.server.bots``). Ann plays the greedy bot's move at every decision but one, her
``k``-th, where she plays the move the search judges worst. The plan keeps the first ``k``
whose blunder ``pyramids.bots.advice.analyse_record`` (at the test server's analysis budget,
seed 0) marks as a mistake: a deterministic loop, so the game and its analysis are the
same every run. ``play_staged`` then plays Ann's moves at the server and checks that the
record it stores is the plan.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import httpx

from pyramids.bots import make_bot
from pyramids.bots.advice import advice_settings, analyse_record
from pyramids.bots.ismcts import ISMCTSBot
from pyramids.core import CHANCE, GameRecord
from pyramids.core.fairness import chance_rng
from pyramids.games import make_game
from tests.http_play import use_invite, wait_finished
from tests.waiting import wait_until

HINT_ITERATIONS = 300
"""The test server's search budget for a hint (``PYRAMIDS_HINT_ITERATIONS``): small, so the
tests stay quick on a shared machine."""
ANALYSIS_ITERATIONS = 300
"""The test server's search budget per decision of an analysis (``PYRAMIDS_ANALYSIS_ITERATIONS``)."""
ADVICE_ENV = {
    "PYRAMIDS_HINT_ITERATIONS": str(HINT_ITERATIONS),
    "PYRAMIDS_ANALYSIS_ITERATIONS": str(ANALYSIS_ITERATIONS),
}
"""The environment of the test server (``tests.live.live_server(env=...)``)."""
PLAYERS = 2
MAX_TRIES = 40
"""Ann's decisions tried in turn for the blunder before the plan gives up."""


@dataclass(frozen=True)
class StagedGame:
    """A planned game: every action in order, who played it (-1: chance), and the index
    of Ann's blunder among the actions."""

    game: str
    seed: int
    actions: list[str]
    movers: list[int]
    blunder: int
    options: dict[str, Any] = field(default_factory=dict)


def _worst(game: str, view: Any, legal: list[Any], key: str) -> Any:
    """The legal action the search (the analysis's own settings) gives the lowest chance."""
    bot = ISMCTSBot(advice_settings(game, PLAYERS, iterations=ANALYSIS_ITERATIONS))
    result = bot.search(view, legal, random.Random(key))
    return min(result.stats, key=lambda st: st.win).action


def _play(
    game: str, seed: int, options: dict[str, Any], blunder_at: int
) -> tuple[list[str], list[int], int | None]:
    """The game as the server plays it with Ann blundering at her decision ``blunder_at``
    (counting those with a choice): (actions, movers, the blunder's index or None when Ann
    has fewer decisions)."""
    state = make_game(game, PLAYERS, options).new_initial_state(seed)
    greedy = make_bot("greedy")
    actions: list[str] = []
    movers: list[int] = []
    decisions = 0
    blunder: int | None = None
    while not state.is_terminal():
        seq = len(actions)
        seat = state.current_player()
        if seat == CHANCE:
            action = state.sample_chance(chance_rng(seed, seq))
        else:
            legal = state.legal_actions()
            view = state.view(seat)
            if seat == 0 and len(legal) > 1 and decisions == blunder_at:
                action = _worst(game, view, legal, f"stage/{seed}/{seq}")
                blunder = seq
            else:
                # Bob: the server's bot and its generator; Ann: the same kind of play
                action = greedy.act(view, legal, random.Random(f"{seed}/bot/{seat}/{seq}"))
            if seat == 0 and len(legal) > 1:
                decisions += 1
        actions.append(state.action_to_string(action))
        movers.append(seat)
        state.apply(action)
    return actions, movers, blunder


def plan_blunder(game: str, seed: int, options: dict[str, Any] | None = None) -> StagedGame:
    """The first staged game (Ann's blunder at her 1st, 2nd, … decision) whose analysis
    marks the blunder as a mistake."""
    options = dict(options or {})
    for k in range(MAX_TRIES):
        actions, movers, blunder = _play(game, seed, options, k)
        if blunder is None:
            break
        record = GameRecord(game=game, options=options, players=PLAYERS, seed=seed, actions=actions)
        analysis = analyse_record(record, iterations=ANALYSIS_ITERATIONS, seed=0)
        if any(d.index == blunder and d.mistake for d in analysis.decisions):
            return StagedGame(game, seed, actions, movers, blunder, options)
    raise AssertionError(f"{game} seed {seed}: no blunder of Ann's is marked as a mistake")


def create_table(
    base_url: str,
    game: str,
    *,
    seed: int | None = None,
    bot_hints: bool | None = True,
    options: dict[str, Any] | None = None,
) -> tuple[str, str]:
    """A table of Ann (human, seat 0) against Bob (greedy bot, no delay); its id and Ann's
    invite URL (absolute)."""
    body: dict[str, Any] = {
        "game": game,
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "greedy", "name": "Bob"},
        ],
        "options": dict(options or {}),
        "bot_delay": 0,
    }
    if seed is not None:
        body["seed"] = seed
    if bot_hints is not None:
        body["bot_hints"] = bot_hints
    r = httpx.post(f"{base_url}/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    data = r.json()
    url = data["invites"][0]["url"]
    return data["table"]["id"], url if url.startswith("http") else base_url + url


def invite_token(url: str) -> str:
    """The token of an invite URL (``/t/ID?token=…``)."""
    return url.split("token=", 1)[1].split("&", 1)[0]


def play_staged(base_url: str, staged: StagedGame) -> str:
    """Play ``staged`` on a new seeded table (Ann's moves over HTTP; Bob and chance are the
    server's); the table's id once its game is over and its record is the plan."""
    table, invite = create_table(
        base_url, staged.game, seed=staged.seed, bot_hints=None, options=staged.options
    )
    with httpx.Client(base_url=base_url, timeout=30) as http:
        token = use_invite(http, table, invite_token(invite))
        for seq, (action, seat) in enumerate(zip(staged.actions, staged.movers, strict=True)):
            if seat != 0:
                continue

            def ready(seq: int = seq) -> dict[str, Any] | None:
                st: dict[str, Any] = http.get(
                    f"/api/tables/{table}/state", params={"token": token}
                ).json()
                over = st["status"] == "finished"
                return st if over or (st["seq"] >= seq and st.get("legal")) else None

            st = wait_until(ready, f"table {table}: Ann's decision at seq {seq}")
            assert st["seq"] == seq, (st["seq"], seq, "the server's game left the plan")
            r = http.post(
                f"/api/tables/{table}/actions",
                json={"token": token, "seq": seq, "action": action},
            )
            assert r.status_code == 200, r.text
        wait_finished(http, table)
        record = http.get(f"/api/tables/{table}/record").json()
    assert record["actions"] == staged.actions, "the server's game left the plan"
    return table


def analysis_json(base_url: str, table: str) -> dict[str, Any]:
    """``GET /api/tables/{id}/analysis`` once done: its ``analysis``."""

    def done() -> dict[str, Any] | None:
        r = httpx.get(f"{base_url}/api/tables/{table}/analysis", timeout=30)
        assert r.status_code in (200, 202), r.text
        body: dict[str, Any] = r.json()
        return body["analysis"] if body["status"] == "done" else None

    return wait_until(done, f"table {table}: the analysis")
