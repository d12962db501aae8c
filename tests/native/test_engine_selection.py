"""Engine selection in every host (docs/NATIVE.md, "Engine selection"; issue 11 point 2).

``--engine auto|native|python`` on the commands that play, ``PYRAMIDS_ENGINE`` for the
rest and for worker processes, ``engine=`` in the RL adapters: an unknown engine, or
``native`` without the build, is refused with exit status 2 and the reason; the native
core, where it is built, plays the very games the Python engine plays (the summaries of
``simulate`` and ``tournament`` agree but for the engine and the clock).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.analysis.parallel import play_chunks
from pyramids.cli.main import app
from pyramids.games import descriptor, descriptors, engine_for
from pyramids.games.engine import ENV_VAR, NATIVE, PYTHON, EngineError, native_available

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

TIMING_KEYS = {"seconds", "games_per_s", "engine"}


def native_games() -> list[str]:
    """The registered games that play on the native core here (none when it is not built)."""
    found = []
    for desc in descriptors():
        try:
            if engine_for(desc, NATIVE) == NATIVE:
                found.append(desc.name)
        except EngineError:
            continue
    return found


NATIVE_GAMES = native_games()
needs_native = pytest.mark.skipif(
    not NATIVE_GAMES and os.environ.get("CI") != "true",
    reason="the native core is not built (./run builds it when cargo is there)",
)


@pytest.fixture(autouse=True)
def _engine_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from the process's engine choice and leaves it as it was (the
    commands set ``PYRAMIDS_ENGINE`` for their workers)."""
    monkeypatch.setenv(ENV_VAR, os.environ.get(ENV_VAR, "auto"))


def invoke(*args: str) -> Any:
    """Run a ``pyramids`` command in this process."""
    return runner.invoke(app, list(args))


COMMANDS = [
    ["simulate", "--games", "1", "-j", "1", "-q"],
    ["tournament", "--games", "2", "-j", "1", "-q"],
    ["bench", "--seconds", "0.01", "--json"],
    ["play", "--seats", "random,random", "--seed", "1"],
    ["serve", "--port", "0"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_an_unknown_engine_is_refused_with_exit_status_2(command: list[str]) -> None:
    """Every host's ``--engine`` names the choices when the name is not one of them."""
    result = invoke(*command, "--engine", "turbo")
    assert result.exit_code == 2, result.output
    assert "unknown engine 'turbo' (choose auto, native, python)" in result.output


def test_an_unknown_engine_in_the_environment_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PYRAMIDS_ENGINE=turbo`` without the option: the same refusal, naming the variable."""
    monkeypatch.setenv(ENV_VAR, "turbo")
    result = invoke("simulate", "--games", "1", "-j", "1", "-q")
    assert result.exit_code == 2
    assert "unknown PYRAMIDS_ENGINE 'turbo'" in result.output


BLOCK_NATIVE = textwrap.dedent(
    """
    import sys

    class _Blocker:
        def find_spec(self, name, path=None, target=None):
            if name == "pyramids._native":
                raise ModuleNotFoundError("No module named 'pyramids._native'", name=name)
            return None

    sys.meta_path.insert(0, _Blocker())
    from pyramids.cli.main import main
    sys.argv = ["pyramids", *sys.argv[1:]]
    main()
    """
)
"""A ``pyramids`` command in an interpreter on which the native core looks unbuilt."""


def run_unbuilt(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``pyramids ARGS`` where ``pyramids._native`` cannot be imported."""
    return subprocess.run(
        [sys.executable, "-c", BLOCK_NATIVE, *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_native_without_the_build_is_refused_and_auto_plays_python() -> None:
    """``--engine native`` without the build: exit 2 and how to build it; ``auto``: Python."""
    refused = run_unbuilt("simulate", "--games", "1", "-j", "1", "-q", "--engine", "native")
    assert refused.returncode == 2, refused.stderr[-2000:]
    assert "the native core is not built" in refused.stderr
    assert "Traceback" not in refused.stderr
    auto = run_unbuilt("simulate", "--games", "2", "-j", "1", "-q", env={ENV_VAR: "auto"})
    assert auto.returncode == 0, auto.stderr[-2000:]
    assert json.loads(auto.stdout)["engine"] == PYTHON


def test_bench_without_the_build_measures_python_and_says_so() -> None:
    """``pyramids bench`` (auto) without the build: the Python figures, a note on stderr."""
    done = run_unbuilt(
        "bench", "--game", "flaming", "--seconds", "0.02", "--json", env={ENV_VAR: "auto"}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert figures["engine_native"] is False
    assert "native_turns_per_s_random" not in figures
    assert "native core is not built" in done.stderr


def test_python_is_python_everywhere() -> None:
    """``--engine python``: the summary says so, whatever the build."""
    result = invoke("simulate", "--games", "2", "-j", "1", "-q", "--engine", "python")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["engine"] == PYTHON


def _worker_engine(_config: object, indices: list[int]) -> list[str | None]:
    """A worker's ``PYRAMIDS_ENGINE``, once per game index."""
    return [os.environ.get(ENV_VAR) for _ in indices]


def test_worker_processes_get_the_engine_choice() -> None:
    """``play_chunks(environ=...)``: spawned workers see the variables they are given."""
    seen = play_chunks(_worker_engine, None, 4, 2, per_job=1, at_most=2, environ={ENV_VAR: PYTHON})
    assert seen == [PYTHON] * 4


@needs_native
@pytest.mark.parametrize("name", NATIVE_GAMES or ["flaming"])
def test_simulate_plays_the_same_games_on_both_engines(name: str) -> None:
    """The same seeds and bots give the same summary on either engine (two processes on the
    native side: the workers play on it too)."""
    common = ["--game", name, "--games", "6", "--bots", "greedy,random", "--seed", "3", "-q"]
    if name == "flags":
        common += ["--max-turns", "60"]
    python = invoke("simulate", *common, "-j", "1", "--engine", "python")
    native = invoke("simulate", *common, "-j", "2", "--engine", "native")
    assert python.exit_code == 0 and native.exit_code == 0, python.output + native.output
    left, right = json.loads(python.stdout), json.loads(native.stdout)
    assert (left["engine"], right["engine"]) == (PYTHON, NATIVE)
    strip = lambda s: {k: v for k, v in s.items() if k not in TIMING_KEYS | {"jobs"}}  # noqa: E731
    assert strip(left) == strip(right)


@needs_native
def test_tournament_reports_the_engine_and_the_same_standings() -> None:
    """A short tournament on either engine: the same standings and head-to-head scores."""
    args = ["--games", "4", "-j", "1", "-q", "--bots", "greedy,random", "--out-json"]
    reports = []
    for engine in (PYTHON, NATIVE):
        out = ROOT / "test-artifacts" / f"tournament-{engine}-{os.getpid()}.json"
        out.parent.mkdir(exist_ok=True)
        result = invoke("tournament", *args, str(out), "--engine", engine)
        assert result.exit_code == 0, result.output
        reports.append(json.loads(out.read_text(encoding="utf-8")))
        out.unlink()
    assert [r["engine"] for r in reports] == [PYTHON, NATIVE]
    assert reports[0]["standings"] == reports[1]["standings"]
    assert reports[0]["head_to_head"] == reports[1]["head_to_head"]


@needs_native
def test_bench_reports_both_engines_side_by_side() -> None:
    """``pyramids bench --engine native``: the native figures next to Python's, the same
    games on both, the ratios and the targets."""
    name = NATIVE_GAMES[0] if NATIVE_GAMES else "flaming"
    result = invoke("bench", "--game", name, "--seconds", "0.05", "--json", "--engine", "native")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    suffix = "" if name == descriptors()[0].name else f"_{name}"
    assert figures[f"engine_native{suffix}"] is True
    assert figures[f"native_same_games{suffix}"] is True
    assert figures[f"native_compared_games{suffix}"] > 0
    for key in ("native_turns_per_s_random", "native_turns_per_s_greedy", "native_clone_us"):
        assert figures[key + suffix] > 0, key
    assert figures[f"native_ratio_random{suffix}"] > 1
    assert set(figures[f"native_targets{suffix}"]) == {"random", "greedy", "clone_us", "ismcts"}
    table = invoke("bench", "--game", name, "--seconds", "0.05", "--engine", "native")
    assert table.exit_code == 0, table.output
    assert "native/Python" in table.stdout and "same games on both engines" in table.stdout


@needs_native
def test_the_rl_adapters_pass_the_engine_through() -> None:
    """``engine=`` of the Gymnasium and PettingZoo environments picks the game's engine."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from pyramids.rl.gym_env import PyramidsGymEnv
    from pyramids.rl.pettingzoo_env import env_class

    name = NATIVE_GAMES[0] if NATIVE_GAMES else "flaming"
    for engine in (PYTHON, NATIVE):
        gym_env = PyramidsGymEnv(name, opponents=["random"], engine=engine)
        zoo_env = env_class(name)(players=2, engine=engine)
        for game in (gym_env.game, zoo_env.game):
            native = type(game).__module__.startswith("pyramids.native.")
            assert native == (engine == NATIVE), (engine, type(game))
        obs, _ = gym_env.reset(seed=1)
        assert obs is not None


def test_the_choice_names_the_engine_a_game_plays_on() -> None:
    """``engine_for``: python is python; a game without a native engine refuses native."""
    desc = descriptor(descriptors()[0].name)
    assert engine_for(desc, PYTHON) == PYTHON
    if not native_available():
        with pytest.raises(EngineError, match="not built"):
            engine_for(desc, NATIVE)
