"""``pyramids play --engine`` reaches every bot and hint of the game (issue 32, docs/NATIVE.md
"Engine selection"): the bots of ``--seats`` (and the random bot seated where a chosen one
does not play the game) are made on the command's engine, so a search bot simulates on
states of that engine, and ``?``'s hint searches on the engine the game plays on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pyramids.bots import ISMCTSBot
from pyramids.bots import ismcts as ismcts_module
from pyramids.cli import prompt_hint, terminal
from pyramids.core.game import Bot, Game
from pyramids.games.engine import NATIVE, PYTHON, Engine, engine_of, native_available
from tests.cli.test_play_replay import run


@pytest.fixture(params=[PYTHON, NATIVE])
def engine(request: pytest.FixtureRequest) -> Engine:
    """The ``--engine`` of the command."""
    choice = Engine(request.param)
    if choice == NATIVE and not native_available():
        pytest.skip("the native core is not built")
    return choice


def bots_made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Engine | None, Bot]]:
    """Spy on the terminal's ``make_bot``: the engine asked for and the bot, in order."""
    made: list[tuple[Engine | None, Bot]] = []
    real: Callable[..., Bot] = terminal.make_bot

    def spy(spec: str, *, engine: Engine | None = None) -> Bot:
        bot = real(spec, engine=engine)
        made.append((engine, bot))
        return bot

    monkeypatch.setattr(terminal, "make_bot", spy)
    return made


def play(engine: Engine, seats: str, path: Path, stdin: str | None = None) -> Result:
    """``pyramids play`` of Flaming Pyramids' basic preset on ``engine``, seed 3."""
    return run(
        "play", "--engine", str(engine), "--seats", seats, "--preset", "basic",
        "--seed", "3", "--delay", "0", "--record", str(path), "--hint-iterations", "20",
        stdin=stdin,
    )  # fmt: skip


def test_plays_bots_are_made_on_the_commands_engine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, engine: Engine
) -> None:
    """``--seats ismcts:20,greedy``: every bot the command makes gets ``--engine``; the
    search bot plays on it (its ``engine``), on Python states under ``--engine python``."""
    made = bots_made(monkeypatch)
    searched: list[Engine] = []
    real_game_of_view: Callable[..., Game] = ismcts_module.game_of_view

    def spy(view: Any, *, engine: str | None = None) -> Game:
        game = real_game_of_view(view, engine=engine)
        searched.append(engine_of(game.new_initial_state(0)))
        return game

    monkeypatch.setattr(ismcts_module, "game_of_view", spy)
    result = play(engine, "ismcts:20,greedy", tmp_path / "g.json")
    assert result.exit_code == 0, result.output
    assert made and all(asked == engine for asked, _ in made)
    search_bots = [bot for _, bot in made if isinstance(bot, ISMCTSBot)]
    assert search_bots and all(bot.engine == engine for bot in search_bots)
    if engine == PYTHON:  # the Python search simulates on games of the Python engine
        assert searched and set(searched) == {PYTHON}


def test_the_hint_searches_on_the_engine_the_game_plays_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, engine: Engine
) -> None:
    """``?`` at a human's decision: ``advice.hint`` gets the game's engine
    (``engine_of(state)``), not ``auto``."""
    asked: list[str | None] = []
    real_hint: Callable[..., Any] = prompt_hint.hint

    def spy(*args: Any, engine: str | None = None, **kwargs: Any) -> Any:
        asked.append(engine)
        return real_hint(*args, engine=engine, **kwargs)

    monkeypatch.setattr(prompt_hint, "hint", spy)
    result = play(engine, "human,random", tmp_path / "g.json", stdin="?\nq\n")
    assert result.exit_code == 0, result.output
    assert asked == [engine]
