"""`--lang fr` says the rules' refusals in French (issue 32, point 5, the terminal's side).

A refusal is a code and its facts; the CLI prints the message catalogue's
``refusal.<code>`` in the language chosen with ``--lang``: ``pyramids <game> apply`` for a
bad position or an action the rules refuse, ``pyramids play`` for options the game
refuses and for a typed action it cannot read. Each test computes the expected words
from the refusal the engine itself raises for the same input (whatever its code), and
checks that the French words are what is printed and that they are not the English ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pyramids import texts
from pyramids.core.errors import PyramidsError
from pyramids.flags.text import parse_action as parse_flags_action
from pyramids.flaming import position_from_json
from pyramids.games import descriptor, make_game
from tests.cli.runner import run

# seat 0 to move holds G6 and Y2 (no R40); R100 B120 Y30 on the base.
POSITION: dict[str, Any] = {
    "players": 2,
    "pyramid": ["R100@0,0", "B120@0,2", "Y30@0,4"],
    "hands": [["G6", "Y2"], ["B4"]],
    "piles": [[], ["B6"]],
}


def refused(result: Result) -> str:
    """Exit 2, nothing on stdout: the stderr line after ``error: ``."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    return result.stderr.removeprefix("error: ").rstrip("\n")


def raised(work: Any) -> PyramidsError:
    """The refusal ``work()`` raises (it must raise one)."""
    with pytest.raises(PyramidsError) as caught:
        work()
    return caught.value


def check_not_english(error: PyramidsError) -> None:
    """The refusal's French words are not its English ones (the catalogue has both)."""
    assert texts.refusal_key(error.code) in texts.catalogue("fr"), error.code
    assert texts.refusal(error, "fr") != texts.refusal(error, "en"), error.code


def test_apply_says_an_illegal_action_in_french(tmp_path: Path) -> None:
    """`pyramids flaming apply POSITION R40@1,1 --lang fr`: R40 is not in the hand."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(POSITION))
    state = position_from_json(POSITION)
    error = raised(lambda: state.apply(state.parse_action("R40@1,1")))
    said = refused(run("flaming", "apply", str(path), "R40@1,1", "--lang", "fr"))
    reason = texts.refusal(error, "fr")
    assert said == f"action 1 (R40@1,1) : {reason}"
    english = refused(run("flaming", "apply", str(path), "R40@1,1"))
    assert english == f"action 1 (R40@1,1): {texts.refusal(error, 'en')}"
    check_not_english(error)


def test_apply_says_a_bad_position_in_french() -> None:
    """`pyramids flaming apply '{"players": "two"}' --lang fr`: the position is refused."""
    bad = {**POSITION, "players": "two"}
    error = raised(lambda: descriptor("flaming").load_position(bad))
    said = refused(run("flaming", "apply", json.dumps(bad), "--lang", "fr"))
    assert said == f"position invalide : {texts.refusal(error, 'fr')}"
    assert refused(run("flaming", "apply", json.dumps(bad))).startswith("bad position: ")
    check_not_english(error)


def test_play_says_refused_options_in_french() -> None:
    """`pyramids play --preset huge --lang fr`: the game refuses the options in French."""
    error = raised(lambda: make_game("flaming", 2, {"preset": "huge"}))
    said = refused(run("play", "--seats", "random,random", "--preset", "huge", "--lang", "fr"))
    assert said == texts.refusal(error, "fr")
    check_not_english(error)


def test_play_says_why_a_typed_action_cannot_be_read_in_french(tmp_path: Path) -> None:
    """`pyramids play --game flags --lang fr`: a typed move naming no piece is refused,
    with the rules' reason in French."""
    error = raised(lambda: parse_flags_action("Z9>K1", 2))
    result = run(
        "play", "--game", "flags", "--seats", "human,random", "--seed", "1", "--delay", "0",
        "--lang", "fr", "--record", str(tmp_path / "fr.json"),
        stdin="Z9>K1\nq\n",
    )  # fmt: skip
    assert "Impossible de lire 'Z9>K1'" in result.stdout, result.stdout
    assert texts.refusal(error, "fr") in result.stdout
    check_not_english(error)
