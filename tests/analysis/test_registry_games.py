"""Analysis names no game: a game added to the registry is simulated, rated and benchmarked.

The third test game (``tests.thirdgame``, Pebble Pyramid) has no terminal interface of
its own here, so ``simulate`` counts every event kind and a turn per action, ``bench``
measures its default rules with every player count, and the CLI reaches it by
``--game`` and its registry options (``--rows``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramids.analysis import bench
from pyramids.analysis.simulate import SimConfig, check_config, simulate
from pyramids.analysis.tournament import TournamentConfig, run_tournament
from pyramids.games import GAMES, register, unregister
from pyramids.games.engine import AUTO, ENV_VAR
from tests.thirdgame import DESCRIPTOR, ENV, python_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _auto_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The third game has no native engine: it plays on Python whatever the choice (the
    fixture keeps these tests off the choice of the run)."""
    monkeypatch.setenv(ENV_VAR, AUTO)


@pytest.fixture
def pebbles() -> Iterator[str]:
    """The third game registered for the test (and removed after it)."""
    added = DESCRIPTOR.name not in GAMES
    if added:
        register(DESCRIPTOR)
    yield DESCRIPTOR.name
    if added:
        unregister(DESCRIPTOR.name)


def test_simulate_counts_a_registered_game_by_event_kind(pebbles: str) -> None:
    """Without a tally of its own a game's events are counted by kind, its options checked."""
    config = SimConfig(game=pebbles, players=2, bots=("random",), games=4, options={"rows": 2})
    summary = simulate(config)
    assert summary["game"] == pebbles
    assert summary["options"]["rows"] == 2
    assert set(summary["events"]) == {kind.kind for kind in DESCRIPTOR.event_kinds}
    assert sum(summary["wins_by_seat"]) + summary["games_ended_by_max_turns"] <= 4
    with pytest.raises(ValueError, match=f"not for --game {pebbles}"):
        check_config(SimConfig(game=pebbles, options={"preset": "basic"}))


def test_tournament_and_bench_run_a_registered_game(pebbles: str) -> None:
    """A tournament rates the game's seats from ``outcome()``; bench measures every count."""
    report = run_tournament(TournamentConfig(bots=("random", "greedy"), game=pebbles, games=2))
    assert sum(c["games"] for c in report["contestants"]) == 4
    figures = bench.bench(0.05, [pebbles])
    suffix = bench.setup_of(pebbles).key_suffix
    assert figures["bench_games"] == [pebbles]
    players = range(DESCRIPTOR.info.min_players, DESCRIPTOR.info.max_players + 1)
    assert [row["players"] for row in figures[f"by_config{suffix}"]] == list(players)


def test_the_cli_offers_a_registered_game_and_its_options() -> None:
    """`pyramids simulate --game pebbles --rows 2` in a process that registers the game."""
    env = {**os.environ, **ENV, "PYTHONPATH": python_path()}
    args = ["simulate", "--game", DESCRIPTOR.name, "--rows", "2", "--games", "2", "-j", "1", "-q"]
    result = subprocess.run(
        [sys.executable, "-m", "pyramids.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["options"]["rows"] == 2
