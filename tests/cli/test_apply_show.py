"""`pyramids flaming apply|show`: positions in, positions and drawings out (FP-NOTE-6/7/8).

Every refusal must exit with status 2, say why on stderr and print nothing on stdout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pyramids.flaming.tiles import BY_NAME, key_of
from pyramids.games.flaming.render import render_pyramid_text
from tests.cli.runner import run

# R100 B120 Y30 on the base; seat 0 holds G6 (no colour or number in common with the
# supports of 1,1) and Y2; seat 1 holds B4 with B6 on its pile.
COLLAPSE = {
    "players": 2,
    "pyramid": ["R100@0,0", "B120@0,2", "Y30@0,4"],
    "hands": [["G6", "Y2"], ["B4"]],
    "piles": [[], ["B6"]],
}


def write(tmp_path: Path, data: Any, name: str = "pos.json") -> str:
    """Write ``data`` as JSON and return the path."""
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def refused(result: Result) -> str:
    """Assert a refusal (exit 2, nothing on stdout) and return the stderr text."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    return result.stderr


# --- apply ------------------------------------------------------------------------------


def test_apply_collapse_then_left_prints_position_and_every_event(tmp_path: Path) -> None:
    """FP-COLLAPSE-1: "Its present supports ... go under P's pile, left one first; then P
    chooses left or right". G6@1,1 collapses R100 and B120; `left` drops G6 to 0,0."""
    result = run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1", "left")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pyramid"] == ["G6@0,0", "Y30@0,4"]
    assert data["to_move"] == 1
    assert data["turn"] == 2
    assert data["piles"] == [[], ["B6"]]
    assert sorted(data["hands"][0]) == ["B120", "R100", "Y2"]
    assert "pending" not in data
    events = data["events"]
    assert events[0] == "seat 0 plays G6 at 1,1"
    assert "R100 and B120 collapse under seat 0's pile" in events[1]
    assert events[2] == "seat 0 lets G6 fall left, from 1,1 to 0,0"
    assert events[3] == "seat 0 draws 2 tiles"
    assert len(events) == 4


def test_apply_stops_at_a_pending_fall(tmp_path: Path) -> None:
    """FP-NOTE-4: "Mid-turn, pending names the decision and its owner"."""
    result = run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pending"] == {"player": 0, "kind": "fall", "tile": "G6@1,1"}
    assert data["pyramid"] == ["Y30@0,4", "G6@1,1"]
    assert data["piles"][0] == ["R100", "B120"]


def test_apply_without_actions_prints_the_normalized_position(tmp_path: Path) -> None:
    """FP-NOTE-3: the position is printed in the notation (rules filled in, base first)."""
    pos = dict(COLLAPSE, pyramid=["Y30@0,4", "R100@0,0", "B120@0,2"])
    result = run("flaming", "apply", write(tmp_path, pos))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pyramid"] == ["R100@0,0", "B120@0,2", "Y30@0,4"]
    assert data["rules"] == {
        "preset": "standard",
        "curse": True,
        "fire_die": False,
        "max_turns": 1000,
    }
    assert data["events"] == []
    assert data["out"] == []


def test_apply_reads_standard_input() -> None:
    """FP-NOTE-6: POSITION `-` is read from standard input."""
    result = run("flaming", "apply", "-", "G6@1,1", "right", stdin=json.dumps(COLLAPSE))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["pyramid"] == ["G6@0,2", "Y30@0,4"]


def test_apply_reads_a_literal_json_argument() -> None:
    """FP-NOTE-6: a POSITION starting with `{` is the position itself."""
    result = run("flaming", "apply", json.dumps(COLLAPSE), "Y2@1,1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["events"][0] == "seat 0 plays Y2 at 1,1"


def test_apply_output_feeds_back_into_apply(tmp_path: Path) -> None:
    """FP-NOTE-6: the printed position (with its events) is a valid position; the old events
    are ignored and only the new action's events are listed."""
    first = run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1")
    assert first.exit_code == 0
    second = run("flaming", "apply", "-", "left", stdin=first.stdout)
    assert second.exit_code == 0, second.output
    data = json.loads(second.stdout)
    assert data["events"][0] == "seat 0 lets G6 fall left, from 1,1 to 0,0"
    both = run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1", "left")
    expected = json.loads(both.stdout)
    assert {k: v for k, v in data.items() if k != "events"} == {
        k: v for k, v in expected.items() if k != "events"
    }


def test_apply_french_events(tmp_path: Path) -> None:
    """Events come in French with --lang fr."""
    result = run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1", "left", "--lang", "fr")
    assert result.exit_code == 0, result.output
    events = json.loads(result.stdout)["events"]
    assert events[0] == "le joueur 0 pose G6 en 1,1"
    assert "s'effondrent sous la pioche du joueur 0" in events[1]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"pyramid": ["X40@0,0"]}, "unknown tile 'X40'"),
        ({"hands": [["G6", "Y2"], ["G6"]]}, "G6 is listed twice"),
        ({"pyramid": ["R100@0,0", "B120@0,0"]}, "two tiles on one spot 0,0"),
        ({"pyramid": ["R100@0,1"]}, "wrong parity"),
        ({"hands": [["G6", "Y2", "Y4", "Y6", "Y10", "Y20"], ["B4"]]}, "a hand holds at most 5"),
        ({"players": 7}, "'players' must be from 2 to 6"),
        ({"colour": "red"}, "unknown position field: colour"),
    ],
    ids=[
        "unknown-tile",
        "tile-twice",
        "two-on-one-spot",
        "wrong-parity",
        "hand-over-5",
        "players",
        "field",
    ],
)
def test_apply_refuses_a_position_that_breaks_the_notation(
    tmp_path: Path, change: dict[str, Any], reason: str
) -> None:
    """FP-NOTE-7: "apply refuses, with a message saying why and exit status 2: ... a position
    with a tile twice, two tiles on one spot, a tile on the wrong parity, an unknown tile or a
    hand over 5"."""
    err = refused(run("flaming", "apply", write(tmp_path, {**COLLAPSE, **change}), "G6@1,1"))
    assert "bad position" in err
    assert reason in err


def test_apply_refuses_an_illegal_action_naming_it_and_the_reason(tmp_path: Path) -> None:
    """FP-NOTE-7: "an action that is not legal" is refused with the engine's reason."""
    err = refused(run("flaming", "apply", write(tmp_path, COLLAPSE), "R40@1,1"))
    assert err.strip() == "error: action 1 (R40@1,1): R40 is not in seat 0's hand"


def test_apply_refuses_the_second_action_with_its_index(tmp_path: Path) -> None:
    """FP-AIR/FP-COLLAPSE: while a tile falls only left or right may follow."""
    err = refused(run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1", "Y2@1,3"))
    assert err.startswith("error: action 2 (Y2@1,3): ")
    assert "G6 at 1,1 is falling: seat 0 must first choose left or right" in err


def test_apply_refuses_a_wrong_spot_listing_the_right_ones(tmp_path: Path) -> None:
    """FP-PLACE-3: with forced spots the player must play on one of them."""
    err = refused(run("flaming", "apply", write(tmp_path, COLLAPSE), "Y2@0,6"))
    assert "action 1 (Y2@0,6)" in err
    assert "one of: 1,1; 1,3" in err


def test_apply_refuses_an_unparseable_action(tmp_path: Path) -> None:
    """FP-NOTE-7: "text that does not parse" is refused."""
    err = refused(run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1", "sideways"))
    assert "action 2 (sideways): cannot read action 'sideways'" in err


def test_apply_refuses_invalid_json_with_line_and_column(tmp_path: Path) -> None:
    """A JSON syntax error names the file, the line and the column."""
    path = write(tmp_path, '{"players": 2,\n  "pyramid": [}\n')
    err = refused(run("flaming", "apply", path))
    assert f"invalid JSON in {path}" in err
    assert "line 2, column 15" in err


def test_apply_refuses_invalid_json_on_stdin() -> None:
    """Standard input is named as such in the message."""
    err = refused(run("flaming", "apply", "-", stdin="{nope"))
    assert "invalid JSON in standard input" in err
    assert "line 1, column 2" in err


def test_apply_refuses_a_missing_file(tmp_path: Path) -> None:
    """An unreadable POSITION is refused with exit 2."""
    err = refused(run("flaming", "apply", str(tmp_path / "missing.json")))
    assert "missing.json: no such file" in err


def test_apply_refuses_json_that_is_not_an_object(tmp_path: Path) -> None:
    """A position is a JSON object."""
    err = refused(run("flaming", "apply", write(tmp_path, [1, 2])))
    assert "not an object" in err


def test_apply_refuses_an_action_after_the_end(tmp_path: Path) -> None:
    """FP-END-2: once someone has won no action applies."""
    pos = {
        "players": 2,
        "pyramid": ["R100@0,0"],
        "hands": [[], ["B4"]],
        "piles": [[], []],
        "winner": 0,
    }
    err = refused(run("flaming", "apply", write(tmp_path, pos), "left"))
    assert "action 1 (left): the game is over" in err


# --- show -------------------------------------------------------------------------------


def test_render_pyramid_text_puts_a_tile_between_its_supports() -> None:
    """FP-GEOM-2: "The supports of (r, c) are ... (r-1, c-1) and ... (r-1, c+1)"; the drawing
    uses half-tile columns so R40@1,1 is drawn between R100@0,0 and B120@0,2."""
    board = {
        key_of(0, 0): BY_NAME["R100"],
        key_of(0, 2): BY_NAME["B120"],
        key_of(0, 4): BY_NAME["Y30"],
        key_of(1, 1): BY_NAME["R40"],
    }
    text = render_pyramid_text(board, spots=[key_of(1, 3)])
    assert text == "1    [ R40] ·1,3·\n0 [R100][B120][ Y30]\n     0     2     4"
    top, base, _ = text.split("\n")
    assert base.index("R100") < top.index("R40") < base.index("B120")


def test_render_pyramid_text_marks_a_falling_tile_and_negative_columns() -> None:
    """FP-GEOM-1 (negative columns of the right parity are spots like any other)."""
    board = {key_of(0, -2): BY_NAME["W200"], key_of(1, 1): BY_NAME["G6"]}
    text = render_pyramid_text(board, falling=key_of(1, 1))
    assert "↓ G6 ↓" in text
    assert "[W200]" in text
    assert text.splitlines()[-1].split() == ["-2", "0"]


def test_render_empty_pyramid_shows_the_first_spot() -> None:
    """FP-PLACE-2: "On an empty pyramid the only spot is (0, 0)"."""
    assert render_pyramid_text({}, spots=[key_of(0, 0)]).splitlines()[0] == "0  ·0,0·"


def test_show_without_colour_is_readable_from_the_codes(tmp_path: Path) -> None:
    """Every tile carries its code, so the drawing reads without colour (NO_COLOR)."""
    result = run("flaming", "show", write(tmp_path, COLLAPSE), env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b[" not in out
    for code in ("[R100]", "[B120]", "[ Y30]", "·1,1·", "·1,3·"):
        assert code in out
    assert "Turn 1: seat 0 to play" in out
    assert "seat 1  hand  1  pile  1" in out
    assert "Spots to play: 1,1; 1,3" in out
    assert "Hand of" not in out


def test_show_with_colour_keeps_the_codes(tmp_path: Path) -> None:
    """With colour forced the codes are still there, inside ANSI colour sequences."""
    result = run("flaming", "show", write(tmp_path, COLLAPSE), "--color")
    assert result.exit_code == 0, result.output
    assert "\x1b[" in result.stdout
    assert "41m" in result.stdout  # red background for R100
    for code in ("R100", "B120", "Y30"):
        assert code in result.stdout


def test_show_no_color_env_wins_over_forced_terminal(tmp_path: Path) -> None:
    """NO_COLOR=1 removes colours even when a terminal is forced."""
    result = run("flaming", "show", write(tmp_path, COLLAPSE), "--color", env={"NO_COLOR": "1"})
    assert result.exit_code == 0
    assert "41m" not in result.stdout
    assert "R100" in result.stdout


def test_show_seat_shows_that_hand_only(tmp_path: Path) -> None:
    """FP-VIEW-1: a seat's view holds "its own hand" and only sizes for the others."""
    result = run("flaming", "show", write(tmp_path, COLLAPSE), "--seat", "1")
    assert result.exit_code == 0, result.output
    assert "Hand of seat 1: [B4]" in result.stdout
    assert "G6" not in result.stdout


def test_show_pending_fall_and_events_of_apply_output(tmp_path: Path) -> None:
    """A position printed by apply mid-collapse shows the falling tile, the choice and the events."""
    applied = run("flaming", "apply", write(tmp_path, COLLAPSE), "G6@1,1")
    result = run("flaming", "show", "-", stdin=applied.stdout)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "↓ G6 ↓" in out
    assert "seat 0 must choose where G6@1,1 falls: left to 0,0 or right to 0,2" in out
    assert "Events:" in out
    assert "seat 0 plays G6 at 1,1" in out


def test_show_in_french(tmp_path: Path) -> None:
    """The status is in French with --lang fr."""
    result = run("flaming", "show", write(tmp_path, COLLAPSE), "--lang", "fr", "--seat", "0")
    assert result.exit_code == 0
    assert "Tour 1 : au tour de joueur 0" in result.stdout
    assert "Main de joueur 0 :" in result.stdout


def test_show_refuses_a_bad_seat_and_a_bad_position(tmp_path: Path) -> None:
    """Refusals of show are the same as apply's."""
    assert "--seat 5" in refused(run("flaming", "show", write(tmp_path, COLLAPSE), "--seat", "5"))
    assert "wrong parity" in refused(
        run("flaming", "show", json.dumps({**COLLAPSE, "pyramid": ["R2@1,2"]}))
    )
