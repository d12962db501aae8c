"""Hand-made inputs that play never reaches, decided in the contract's spirit (issue 32,
point 7) and answered alike by both engines: the same refusal (class, code, facts) or the
same accepted position. Each test runs on the Python and on the native engine.

Before the decision (both engines at commit 445bb95):

- ``"ranking": [true, 2]``: both accepted; Python stored ``[true, 2]``, native ``[1, 2]``.
- ``"R100@٠,0"`` (an Arabic-Indic zero): Python's ``\\d`` accepted it as row 0; native refused.
- ``"quenched": {"Y1": [3]}``: Python crashed (AttributeError), native refused.
- rows beyond 1000: both refused, with the row's digits in the words.
- ``"turn": 2**70``: Python accepted it, the native wrapper crashed (a ValueError from its
  snapshot); ``"max_turns": 2**70`` was accepted by Python, the native engine read a float.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pyramids._native")

from pyramids.core.errors import ActionParseError, PositionError
from pyramids.core.game import State
from pyramids.flaming import FlamingGame, FlamingOptions, position_from_json
from pyramids.native.flaming import NativeFlamingGame, load_position
from pyramids.texts import refusal

ENGINES: dict[str, Callable[[Any], State]] = {"python": position_from_json, "native": load_position}


def _base(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": 2,
        "pyramid": ["R100@0,0", "B120@0,2"],
        "hands": [["R40", "Y2"], ["G4"]],
        "piles": [["Y4"], ["R2"]],
    }
    data.update(changes)
    return data


def _refused(engine: str, data: dict[str, Any]) -> PositionError:
    with pytest.raises(PositionError) as caught:
        ENGINES[engine](data)
    return caught.value


@pytest.mark.parametrize("engine", ENGINES)
def test_a_json_true_is_not_a_rank(engine: str) -> None:
    """FP-NOTE-4: ``ranking`` gives "a rank per seat, 1 the best": a JSON ``true`` is no
    number, so it is refused rather than read as 1."""
    err = _refused(engine, _base(ranking=[True, 2], hands=[[], []], piles=[[], []]))
    assert (err.code, err.data) == ("position.not_an_integer", {"field": "ranking", "value": True})


@pytest.mark.parametrize("engine", ENGINES)
def test_a_json_true_is_not_a_seat_number(engine: str) -> None:
    """FP-NOTE-3: ``first_player`` is a seat number; ``true`` is not one (nor is a
    ``winner`` of ``true``)."""
    err = _refused(engine, _base(rules={"first_player": True}))
    assert (err.code, err.data) == (
        "position.not_an_integer",
        {"field": "first_player", "value": True},
    )
    err = _refused(engine, _base(winner=True))
    assert (err.code, err.data) == ("position.not_an_integer", {"field": "winner", "value": True})


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("entry", ["B120@\u0660,2", "B120@0,\u0662", "B\u0661\u0662\u0660@0,2"])
def test_the_notations_digits_are_ascii(engine: str, entry: str) -> None:
    """FP-NOTE-1: ``TILE@row,col`` is written with the digits 0 to 9; another script's
    digits (which Python's ``\\d`` takes) make the entry unreadable."""
    err = _refused(engine, _base(pyramid=["R100@0,0", entry]))
    assert (err.code, err.data) == ("flaming.not_tile_at", {"field": "pyramid", "value": entry})


@pytest.mark.parametrize("text", ["B120@\u0660,2", "call:\u0660,0", "die:\u0663"])
def test_an_action_with_non_ascii_digits_does_not_parse(text: str) -> None:
    """FP-NOTE-2: actions use the same ASCII digits, on both engines' states."""
    for game in (FlamingGame(2), NativeFlamingGame(2)):
        state = game.new_initial_state(1)
        with pytest.raises(ActionParseError) as caught:
            state.parse_action(text)
        assert caught.value.code == "flaming.unreadable_action"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("touching", [[3], [None], "B120", [["B120"]]])
def test_a_quenched_ember_lists_tile_codes(engine: str, touching: Any) -> None:
    """FP-NOTE-4: ``quenched`` maps an ember to "the tiles it was touching at the roll",
    tile codes: anything else is a refused position, never a crash."""
    data = _base(
        rules={"fire_die": True},
        pyramid=["R100@0,0", "B120@0,2", "Y1@0,4"],
        quenched={"Y1": touching},
    )
    err = _refused(engine, data)
    assert (err.code, err.data) == ("flaming.not_tile_list", {"field": "quenched[Y1]"})


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("entry", "spot"),
    [
        ("Y2@1001,1", "1001,1"),
        ("Y2@-1,1", "-1,1"),
        ("Y2@99999999999999999999999,1", "99999999999999999999999,1"),
        ("Y2@0001001,01", "1001,1"),
    ],
)
def test_a_spots_row_is_one_the_pyramid_can_have(engine: str, entry: str, spot: str) -> None:
    """FP-GEOM-1: rows run from 0 (the base) up to 1000; a row outside, of any size, is
    refused with the spot as written (the digits, so no engine has to hold the number)."""
    err = _refused(engine, _base(pyramid=["R100@0,0", "B120@0,2", entry]))
    assert (err.code, err.data) == ("flaming.row_out_of_range", {"spot": spot, "max_row": 1000})


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"turn": 2**70}, "turn"),
        ({"turn": 2**63}, "turn"),
        ({"players": -(2**63) - 1}, "players"),
        ({"winner": 2**64}, "winner"),
        ({"ranking": [1, 2**80]}, "ranking"),
        ({"rules": {"max_turns": 2**70}}, "max_turns"),
        ({"rules": {"first_player": 2**64}}, "first_player"),
        ({"pending": {"player": 2**65, "kind": "die"}}, "pending.player"),
    ],
)
def test_an_integer_beyond_64_bits_is_refused(
    engine: str, changes: dict[str, Any], field: str
) -> None:
    """FP-NOTE-3: every number of a position fits a signed 64-bit integer; a larger one is
    ``position.integer_too_large`` (the field, not the value: no engine holds it)."""
    err = _refused(engine, _base(**changes))
    assert (err.code, err.data) == ("position.integer_too_large", {"field": field})


def test_the_largest_64_bit_turn_is_accepted_alike() -> None:
    """FP-NOTE-3: the edge itself is a number both engines hold."""
    data = _base(turn=2**63 - 1)
    assert load_position(data).to_json() == position_from_json(data).to_json()


def test_an_options_integer_beyond_64_bits_is_refused_by_both_games() -> None:
    """The options of a new game are read by the same rule as a position's ``rules``."""
    with pytest.raises(PositionError) as caught:
        FlamingOptions(max_turns=2**70)
    assert (caught.value.code, caught.value.data) == (
        "position.integer_too_large",
        {"field": "max_turns"},
    )


def test_the_edge_refusals_read_in_english_and_french() -> None:
    """The words of two edge refusals, in both languages."""
    err = _refused("native", _base(pyramid=["R100@0,0", "B120@1001,1"]))
    assert refusal(err, "en") == "spot 1001,1: the row is out of range (0 to 1000)"
    assert refusal(err, "fr") == "case 1001,1 : la rangée est hors limites (de 0 à 1000)"
    err = _refused("native", _base(pyramid=["R100@0,0", "B120@\u0660,2"]))
    assert refusal(err, "en") == (
        "pyramid: B120@\u0660,2 is not of the form TILE@row,col (e.g. R40@1,1)"
    )
