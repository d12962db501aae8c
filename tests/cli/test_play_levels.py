"""`pyramids play` offers the ladder of levels (issue 28): ``--list-bots`` says what each bot
is and how strong, in English and French; ``--seats`` takes a level by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.bots.ladder import OFFERED, level_name, level_sentence
from pyramids.cli.main import app
from tests.cli.test_play_replay import load, run


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_list_bots_says_every_level_by_name_weakest_first(lang: str) -> None:
    """Random, then beginner < greedy < normal < hard, each with its sentence."""
    result = CliRunner().invoke(
        app, ["play", "--list-bots", "--lang", lang], env={"COLUMNS": "2000"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(" ")[0].rstrip(":") for line in lines] == [
        level_name(level, lang) for level in OFFERED
    ]
    for level, line in zip(OFFERED, lines, strict=True):
        assert line.startswith(level_sentence(level, lang)[:40])


def test_a_seat_may_be_a_level_of_the_ladder(tmp_path: Path) -> None:
    """``--seats beginner,greedy`` plays a whole game; the record names the levels."""
    path = tmp_path / "g.json"
    result = run(
        "play", "--seats", "beginner,greedy", "--preset", "basic", "--seed", "3",
        "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert load(path).seats == ["beginner", "greedy"]


def test_the_oracle_is_still_refused_and_the_levels_are_named() -> None:
    """A yardstick is not an opponent: the error names random and the ladder."""
    result = run("play", "--seats", "human,oracle", "--seed", "1")
    assert result.exit_code == 2
    assert "random, beginner, greedy, normal, hard" in result.output
