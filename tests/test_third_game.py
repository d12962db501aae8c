"""A game no host has heard of: Pebble Pyramid (``tests.thirdgame``) through every host.

The game is registered only for these tests (``registered()``, or ``$PYRAMIDS_GAMES`` in
a subprocess). It is driven through the conformance suite, ``pyramids <game> show|apply``,
``pyramids play``, ISMCTS, the greedy bot's registry look-up and PettingZoo's
``api_test``; simulate, tournament and bench are in ``tests/analysis/test_registry_games.py``
and the server's HTTP and WebSocket API in ``tests/server/test_third_game_server.py``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pettingzoo.test import api_test

from pyramids.bots import GreedyBot, make_bot
from pyramids.core.conformance import check_game
from pyramids.core.game import CHANCE
from pyramids.games import descriptor, make_game
from pyramids.rl.pettingzoo_env import env as make_env
from pyramids.texts import describe
from tests.thirdgame import DESCRIPTOR, ENV, python_path, registered
from tests.thirdgame.rules import PebblesState, load_position

ROOT = Path(__file__).resolve().parents[1]

# Two tiles left, seat 0 to move with secret 3: the 3 at 0,1 is worth 6, the 1 at 0,0 is 1.
ENDGAME = {
    "rules": {"rows": 2},
    "players": 2,
    "tiles": {"0,0": 1, "0,1": 3},
    "secrets": [3, 1],
    "scores": [2, 6],
    "to_move": 0,
    "coin": False,
}


@pytest.fixture
def pebbles() -> Iterator[str]:
    """The third game, registered for one test."""
    with registered() as name:
        yield name


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``pyramids ARGS`` in a process whose registry has the third game."""
    return subprocess.run(
        [sys.executable, "-m", "pyramids.cli.main", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env={**os.environ, **ENV, "PYTHONPATH": python_path()},
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def test_the_third_game_passes_the_conformance_suite(pebbles: str) -> None:
    """The one suite every game runs, reached through the registry by name."""
    report = check_game(make_game(pebbles, 2, {"rows": 3}), range(40), returns_total=1.0)
    assert report.games == 40
    assert report.chance_actions > 0
    assert report.hidden_states > 0


def test_registry_finds_the_game_its_parts_and_its_sentences(pebbles: str) -> None:
    """One registry entry is all a host needs: factory, options, policy, sentences."""
    desc = descriptor(pebbles)
    assert desc is DESCRIPTOR
    state = desc.load_position(ENDGAME)
    assert isinstance(state, PebblesState)
    state.apply(state.parse_action("take:0,1"))
    assert describe(state.events()[0], "en") == "seat 0 takes the 3 at 0,1 and scores 6"
    assert describe(state.events()[0], "fr") == "la place 0 prend le 3 en 0,1 et marque 6"


def test_cli_show_and_apply_a_third_game_position(tmp_path: Path) -> None:
    """`pyramids pebbles show|apply` exist because the registry has the game."""
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(ENDGAME))
    shown = cli("pebbles", "show", str(path), "--seat", "0")
    assert shown.returncode == 0, shown.stderr
    assert "your secret number: 3" in shown.stdout
    applied = cli("pebbles", "apply", str(path), "take:0,1", "heads")
    assert applied.returncode == 0, applied.stderr
    assert "seat 0 takes the 3 at 0,1 and scores 6" in applied.stdout
    assert (
        '"scores": [\n    9,\n    6\n  ]' in applied.stdout or '"scores": [9, 6]' in applied.stdout
    )
    refused = cli("pebbles", "apply", str(path), "take:1,0")
    assert refused.returncode == 2
    assert "not legal" in refused.stderr + refused.stdout
    assert "Traceback" not in refused.stderr


def test_cli_plays_a_whole_third_game_against_greedy(tmp_path: Path, pebbles: str) -> None:
    """`pyramids play --game pebbles` with a human typing moves, to the end, and a record."""
    moves = "\n".join(f"take:{r},{c}" for r in (1, 0) for c in range(3 - r)) + "\n"
    result = cli(
        "play",
        "--game",
        "pebbles",
        "--rows",
        "2",
        "--seats",
        "human,greedy",
        "--seed",
        "3",
        "--record",
        str(tmp_path / "game.json"),
        stdin=moves * 3,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["game"] == "pebbles"
    state = make_game("pebbles", 2, record["options"]).new_initial_state(record["seed"])
    for action in record["actions"]:
        state.apply(state.parse_action(action) if isinstance(action, str) else action)
    assert state.is_terminal()


def test_analyse_reports_on_a_game_with_no_workbench_part(tmp_path: Path) -> None:
    """`pyramids analyse --game pebbles`: a game that says nothing of its events still gets
    its seat advantage, length and skill figures, report and charts."""
    out = tmp_path / "pebbles"
    result = cli(
        "analyse",
        "--game",
        "pebbles",
        "--rows",
        "2",
        "-p",
        "2",
        "-n",
        "6",
        "-j",
        "1",
        "--bots",
        "greedy,random",
        "--out",
        str(out),
        "-q",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    data = json.loads((out / "analysis.json").read_text())
    assert data["game"] == "pebbles" and data["base_options"]["rows"] == 2
    assert data["seat_advantage"]["by_players"][0]["games"] == 6
    assert data["skill"]["by_players"][0]["games"] == 6
    assert "events" not in data and "holdings" not in data
    assert "--rows 2" in data["command"]
    assert (out / "charts" / "seat_advantage.svg").exists()
    assert "<svg" in (out / "report.html").read_text()


def test_ismcts_plays_the_third_game_and_takes_the_better_tile(pebbles: str) -> None:
    """The search finds the game through ``View.game`` and the registry, and searches it."""
    state = load_position(ENDGAME)
    bot = make_bot("ismcts:200")
    choice = bot.act(state.view(0), state.legal_actions(), random.Random(1))
    assert state.action_to_string(choice) == "take:0,1"


def test_a_whole_third_game_between_ismcts_and_greedy_is_legal_and_reproducible(
    pebbles: str,
) -> None:
    """Every decision is legal; the same seeds give the same game."""

    def play(seed: int) -> list[int]:
        state = make_game(pebbles, 2).new_initial_state(seed)
        rng = random.Random(seed)
        bots = [make_bot("ismcts:60"), GreedyBot()]
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = bots[seat].act(state.view(seat), legal, rng)
            assert action in legal
            state.apply(action)
        return state.history()

    assert play(4) == play(4)


def test_greedy_asks_the_registry_for_the_third_games_policy(pebbles: str) -> None:
    """`greedy` plays any registered game with that game's own policy."""
    state = load_position(ENDGAME)
    assert (
        state.action_to_string(
            GreedyBot().act(state.view(0), state.legal_actions(), random.Random(0))
        )
        == "take:0,1"
    )


def test_pettingzoo_api_test_passes_on_the_third_game(pebbles: str) -> None:
    """PettingZoo's own API test on the environment the registry builds for the game."""
    api_test(make_env(pebbles, players=2), num_cycles=200)
