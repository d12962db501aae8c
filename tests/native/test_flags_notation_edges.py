"""The Pyramids and Flags notation's edge cases, decided once and kept equal on both engines.

Inputs that play never produces but a hand-made position or a typed action can: a JSON
``true`` where a number is expected, digits of other scripts, non-strings where codes
are expected, integers no engine can hold. Each case is one rule of the contract's
notation (PF-NOTE); both engines (the Python rules and the native core) must give the
same answer: the same refusal (class, code, facts) or the same accepted position.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from pyramids.core.errors import ActionParseError, PositionError, PyramidsError
from pyramids.core.game import State
from pyramids.flags.game import FlagsGame, position_from_json
from tests.flags.test_notation import _capture, position

_native = importlib.import_module("pyramids._native")
pytestmark = pytest.mark.skipif(
    not hasattr(_native, "flags_new_game"), reason="the native core has no flags engine"
)


def _native_load(data: Any) -> State:
    from pyramids.native.flags import load_position

    return load_position(data)


def _native_game(players: int) -> FlagsGame:
    from pyramids.native.flags import NativeFlagsGame

    return NativeFlagsGame(players)


LOADERS: dict[str, Callable[[Any], State]] = {
    "python": position_from_json,
    "native": _native_load,
}
GAMES: dict[str, Callable[[int], FlagsGame]] = {"python": FlagsGame, "native": _native_game}


def _refused(load: Callable[[Any], State], data: Any) -> tuple[str, str, dict[str, Any]]:
    with pytest.raises(PyramidsError) as refused:
        load(data)
    err = refused.value
    return (type(err).__name__, err.code, err.data)


def _with(**changes: Any) -> dict[str, Any]:
    data = position(hands=[["CZE"], ["ITA"]])
    data.update(changes)
    return data


def _refused_alike(data: Any) -> tuple[str, str, dict[str, Any]]:
    """The refusal of ``data``, asserted the same on both engines."""
    python, native = (_refused(load, data) for load in LOADERS.values())
    assert python == native
    return python


# --- a JSON true is not a number -----------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "changes"),
    [
        ("players", {"players": True}),
        ("to_move", {"to_move": True}),
        ("turn", {"turn": True}),
        ("winner", {"winner": True}),
        ("ranking[0]", {"ranking": [True, 2]}),
        ("max_turns", {"rules": {"max_turns": True}}),
        ("first_player", {"rules": {"first_player": False}}),
    ],
)
def test_a_json_true_is_not_a_seat_or_rank_number(field: str, changes: dict[str, Any]) -> None:
    """PF-NOTE-2: seats, ranks and counts are JSON integers; ``true`` is refused (it was
    once accepted in a ranking and stored as 1 by one engine, ``True`` by the other)."""
    value = next(iter(changes.values()))
    value = value[0] if isinstance(value, list) else value
    if isinstance(value, dict):
        value = next(iter(value.values()))
    assert _refused_alike(_with(**changes)) == (
        "PositionError",
        "position.not_an_integer",
        {"field": field, "value": value},
    )


def test_a_json_true_is_not_the_seat_of_a_pending_decision() -> None:
    """PF-NOTE-2: ``pending.player`` and ``pending.from`` are seat numbers, not booleans."""
    assert _refused_alike(_capture(pending={"player": True, "kind": "capture", "card": "CZE"})) == (
        "PositionError",
        "position.not_an_integer",
        {"field": "pending.player", "value": True},
    )


# --- the notation's digits are ASCII -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("take:O1@\u0661", "flags.bad_take"),  # ARABIC-INDIC DIGIT ONE
        ("pirate:\u0661", "flags.bad_pirate"),
        ("pirate:\u00b2", "flags.bad_pirate"),  # SUPERSCRIPT TWO: isdigit() but not int()
        ("trade:O1:P2@\uff11", "flags.bad_trade"),  # FULLWIDTH DIGIT ONE
        ("W\uff11>R2", "flags.unreadable_action"),
        ("swap:\u0661", "flags.action_unknown_card"),
    ],
)
@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_notation_digits_are_ascii(engine: str, text: str, code: str) -> None:
    """PF-NOTE-1: seats and sizes are written with the digits 0-9 only; another script's
    digit is not read as one (``\\d`` once took ``take:O1@١`` for seat 1)."""
    state = GAMES[engine](2).new_initial_state(0)
    with pytest.raises(ActionParseError) as refused:
        state.parse_action(text)
    assert refused.value.code == code
    assert refused.value.data["action"] == text


# --- strings where codes are expected ------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"towers": [[5]]}, ("flags.not_a_code_list", {"field": "towers[0]", "kind": "piece"})),
        ({"bank": [None]}, ("flags.not_a_code_list", {"field": "bank", "kind": "piece"})),
        ({"deck": [1]}, ("flags.not_a_code_list", {"field": "deck", "kind": "card"})),
        ({"pending": {"kind": []}}, ("flags.bad_pending_kind", {"value": []})),
        ({"pending": {"kind": 3}}, ("flags.bad_pending_kind", {"value": 3})),
    ],
)
def test_a_code_must_be_a_string(changes: dict[str, Any], expected: tuple[str, Any]) -> None:
    """PF-NOTE-2: pieces, cards and kinds are strings; another JSON value is refused with a
    PositionError naming the field (a list as ``pending.kind`` once crashed the Python
    engine with a TypeError)."""
    assert _refused_alike(_with(**changes)) == ("PositionError", *expected)


@pytest.mark.parametrize(
    ("pending", "expected"),
    [
        (
            {"player": 1, "kind": "capture", "card": 7},
            ("flags.card_not_text", {"field": "pending.card", "value": 7}),
        ),
        (
            {"player": 1, "kind": "capture"},
            ("flags.card_not_text", {"field": "pending.card", "value": None}),
        ),
    ],
)
def test_a_pending_card_must_be_a_card_code(
    pending: dict[str, Any], expected: tuple[str, Any]
) -> None:
    """PF-NOTE-2: ``pending.card`` is a card code; the refused value is a fact as it was."""
    assert _refused_alike(_capture(pending=pending)) == ("PositionError", *expected)


def test_a_pending_colour_must_be_a_tree_colour() -> None:
    """PF-NOTE-2: ``pending.colour`` is one of R B G Y K W; a number is refused."""
    data = _capture(pending={"kind": "action", "colour": 5})
    assert _refused_alike(data) == ("PositionError", "flags.bad_colour", {"value": 5})


# --- integers no engine can hold -----------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "changes"),
    [
        ("players", {"players": 2**80}),
        ("to_move", {"to_move": 2**64}),
        ("turn", {"turn": -(2**63) - 1}),
        ("winner", {"winner": 2**70}),
        ("ranking[1]", {"ranking": [1, 2**64]}),
        ("max_turns", {"rules": {"max_turns": 2**64}}),
        ("first_player", {"rules": {"first_player": 2**63}}),
    ],
)
def test_an_integer_beyond_64_bits_is_refused(field: str, changes: dict[str, Any]) -> None:
    """PF-NOTE-2: numbers are signed 64-bit integers: a larger one is refused with
    ``position.integer_too_large`` (no value: the native engine never holds it), not
    clamped (``max_turns`` 2**64 was once kept by one engine and cut to 2**63-1 by the
    other) nor crashed."""
    assert _refused_alike(_with(**changes)) == (
        "PositionError",
        "position.integer_too_large",
        {"field": field},
    )


def test_the_largest_64_bit_max_turns_is_kept_alike() -> None:
    """PF-NOTE-2: 2**63-1 is the largest ``max_turns``; both engines keep it as it is."""
    data = _with(rules={"actions": True, "max_turns": 2**63 - 1})
    python, native = (load(data).to_json() for load in LOADERS.values())
    assert python == native
    assert python["rules"]["max_turns"] == 2**63 - 1


# --- a seat must be one the game has -------------------------------------------------------


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_seat_in_an_action_must_be_one_the_game_has(engine: str) -> None:
    """PF-NOTE-1: ``take:PIECE@SEAT`` names a seat of this game; any larger number (however
    long) is refused with the seat as a fact."""
    state = GAMES[engine](2).new_initial_state(0)
    big = 10**30
    with pytest.raises(ActionParseError) as refused:
        state.parse_action(f"take:O1@{big}")
    assert (refused.value.code, refused.value.data) == (
        "flags.action_no_seat",
        {"action": f"take:O1@{big}", "seat": big, "players": 2},
    )


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_position_seat_must_be_one_the_game_has(engine: str) -> None:
    """PF-NOTE-2: ``to_move`` is a seat of this game (``position.out_of_range`` with the
    bounds as facts)."""
    with pytest.raises(PositionError) as refused:
        LOADERS[engine](_with(to_move=2))
    assert (refused.value.code, refused.value.data) == (
        "position.out_of_range",
        {"field": "to_move", "value": 2, "low": 0, "high": 1},
    )


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("seat", [2, -1])
def test_a_view_is_of_a_seat_the_game_has(engine: str, seat: int) -> None:
    """PF-VIEW-1: a view is a seat's (or the spectator's); another number is refused with
    ``flags.no_seat`` on both engines."""
    state = GAMES[engine](2).new_initial_state(0)
    with pytest.raises(PositionError) as refused:
        state.view(seat)
    assert (refused.value.code, refused.value.data) == (
        "flags.no_seat",
        {"seat": seat, "players": 2},
    )
