"""`pyramids analyse-game RECORD` (issue 30): every decision of a recorded game, judged.

The JSON is ``analyse_record``'s, the server's stored analysis for the same record, budget
and seed (``cpu_seconds`` aside, the only field that differs between two runs); the words
mark exactly the mistakes (a drop of 10 points or more); a record that cannot be read or
replayed is refused with exit status 2 and the reason. Short greedy-against-random games
at 200 iterations a decision keep each run well under a second on the native core.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pyramids.bots import make_bot
from pyramids.bots.advice import advice_settings, analyse_record
from pyramids.cli.analyse_game_cmd import MARK
from pyramids.core import GameRecord, play_game
from pyramids.games import make_game
from tests.cli.runner import run

ITERATIONS = 200
GAMES = {"flaming": ({"max_turns": 12}, 1), "flags": ({"max_turns": 4}, 0)}
"""Per game: rules options and seed of a short game with both mistakes and good moves."""


def without_cpu(data: dict[str, Any]) -> dict[str, Any]:
    """An analysis's JSON without ``cpu_seconds`` (processor time, not part of what it found)."""
    return {k: v for k, v in data.items() if k != "cpu_seconds"}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GameRecord, Path]]:
    """Per game: a short greedy-against-random game's record and the file it is saved in."""
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for name, (options, seed) in GAMES.items():
        game = make_game(name, 2, options)
        _, record = play_game(game, [make_bot("greedy"), make_bot("random")], seed)
        path = folder / f"{name}.json"
        path.write_text(json.dumps(record.to_json()), encoding="utf-8")
        out[name] = (record, path)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_json_is_analyse_record_with_seed_0_and_the_normal_level(
    records: dict[str, tuple[GameRecord, Path]], game: str
) -> None:
    """--json prints ``Analysis.to_json()``: the server's analysis (seed 0, normal level)."""
    record, path = records[game]
    result = run("analyse-game", str(path), "--iterations", str(ITERATIONS), "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    expected = analyse_record(record, iterations=ITERATIONS, seed=0).to_json()
    assert without_cpu(printed) == without_cpu(expected)
    assert printed["seed"] == 0 and printed["level"] == "normal"
    assert printed["iterations"] == ITERATIONS
    assert any(d["mistake"] for d in printed["decisions"])
    assert not all(d["mistake"] for d in printed["decisions"])


@pytest.mark.parametrize("game", GAMES)
def test_the_same_command_twice_gives_the_same_analysis(
    records: dict[str, tuple[GameRecord, Path]], game: str
) -> None:
    """Same record, budget and seed, same analysis: from a file or from standard input."""
    _, path = records[game]
    args = ["--iterations", str(ITERATIONS), "--seed", "5", "--json"]
    first = run("analyse-game", str(path), *args)
    second = run("analyse-game", "-", *args, stdin=path.read_text(encoding="utf-8"))
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert json.loads(first.stdout)["seed"] == 5
    assert without_cpu(json.loads(first.stdout)) == without_cpu(json.loads(second.stdout))


def test_the_default_budget_is_the_normal_levels_for_the_game_and_players(
    records: dict[str, tuple[GameRecord, Path]], tmp_path: Path
) -> None:
    """Without --iterations the normal level's budget judges (the start of a game: quick)."""
    record, _ = records["flaming"]
    data = record.to_json()
    data["actions"] = data["actions"][:2]
    path = tmp_path / "start.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("analyse-game", str(path), "--json")
    assert result.exit_code == 0, result.output
    budget = advice_settings("flaming", record.players).iterations
    assert json.loads(result.stdout)["iterations"] == budget


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_the_words_mark_exactly_the_mistakes(
    records: dict[str, tuple[GameRecord, Path]], game: str, lang: str
) -> None:
    """One line per decision (its action number first); the mark on the mistakes only."""
    record, path = records[game]
    analysis = analyse_record(record, iterations=ITERATIONS, seed=0)
    result = run("analyse-game", str(path), "-i", str(ITERATIONS), "--lang", lang)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    numbered = {int(m.group(1)): line for line in lines if (m := re.match(r"\s*(\d+)  ", line))}
    assert sorted(numbered) == [d.index + 1 for d in analysis.decisions]
    marked = [n for n, line in numbered.items() if MARK in line]
    assert marked == [d.index + 1 for d in analysis.mistakes()]
    assert sum(MARK in line for line in lines) == len(marked)
    for decision in analysis.decisions:
        line = numbered[decision.index + 1]
        assert decision.action in line
        assert (decision.best in line.split(decision.action, 1)[1]) == (
            decision.best != decision.action
        )
    words = {
        "en": (f"{ITERATIONS} iterations a decision", "mistake: −", "seat 1 (random): "),
        "fr": (f"{ITERATIONS} itérations par décision", "erreur : −", "joueur 1 (random) : "),
    }[lang]
    assert words[0] in lines[0]
    assert words[1] in numbered[analysis.mistakes()[0].index + 1]
    assert any(line.strip().startswith(words[2]) for line in lines)


def test_mistakes_only_lists_only_the_mistakes(
    records: dict[str, tuple[GameRecord, Path]],
) -> None:
    """--mistakes-only: the head, the mistakes' lines and the summary per seat."""
    record, path = records["flaming"]
    analysis = analyse_record(record, iterations=ITERATIONS, seed=0)
    result = run("analyse-game", str(path), "-i", str(ITERATIONS), "--mistakes-only")
    assert result.exit_code == 0, result.output
    numbered = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)  ", result.stdout, re.M)]
    assert numbered == [d.index + 1 for d in analysis.mistakes()]
    assert "seat 0 (greedy): " in result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_is_refused_with_exit_2_and_the_reason(
    records: dict[str, tuple[GameRecord, Path]], game: str, tmp_path: Path
) -> None:
    """A missing file, bad JSON, not a record, an unknown game, an action that does not
    apply: ``error: …`` on stderr, exit status 2, never a traceback."""
    record, _ = records[game]
    data = record.to_json()
    unknown = tmp_path / "chess.json"
    unknown.write_text(json.dumps({**data, "game": "chess"}), encoding="utf-8")
    broken = tmp_path / "broken.json"
    actions = [*data["actions"][:2], "nonsense", *data["actions"][3:]]
    broken.write_text(json.dumps({**data, "actions": actions}), encoding="utf-8")
    cases = [
        ((str(tmp_path / "missing.json"),), None, "no such file"),
        (("-",), "{not json", "invalid JSON"),
        (("-",), '{"game": "flaming"}', "not a valid game record"),
        ((str(unknown),), None, "unknown game 'chess'"),
        ((str(broken),), None, "record action 3 ('nonsense')"),
    ]
    for args, stdin, reason in cases:
        result = run("analyse-game", *args, "-i", "50", stdin=stdin)
        assert result.exit_code == 2, (args, result.output)
        assert isinstance(result.exception, SystemExit), result.exception
        assert result.stderr.startswith("error: ") and reason in result.stderr, result.stderr
        assert result.stdout == ""
