"""Every refusal: actions that do not parse or are not legal, and positions that break
the notation's rules (contract section 11; FP-NOTE-7, D3 in docs/RULES.md).

Unparseable text raises ActionParseError, a legal-looking but illegal action raises
IllegalActionError, and a refused ``apply`` changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.core import ActionParseError, IllegalActionError, PositionError, PyramidsError
from pyramids.flaming import FlamingState, position_from_json
from pyramids.flaming.actions import parse_action
from pyramids.flaming.state import LEFT, place_action
from pyramids.flaming.tiles import BY_NAME, key_of
from tests.flaming.helpers import play, position, position_json

# --- actions ---------------------------------------------------------------------------------


def _at_rest() -> FlamingState:
    """``R100@0,0 B120@0,2``: seat 0 (hand R40, Y2) must play on (1,1); seat 1 holds G4."""
    return position(
        pyramid=["R100@0,0", "B120@0,2"], hands=[["R40", "Y2"], ["G4"]], piles=[["Y4"], ["R2"]]
    )


def _falling() -> FlamingState:
    """``G30@1,1`` collapsed R100 and B120 and must fall."""
    state = position(
        pyramid=["R100@0,0", "B120@0,2"], hands=[["G30", "Y2"], ["G4"]], piles=[["Y4"], ["R2"]]
    )
    play(state, "G30@1,1")
    return state


def _rolling() -> FlamingState:
    """The straw fire with the fire die: a roll is pending."""
    state = position(
        pyramid=["R6@0,0", "B100@0,2", "Y30@0,4", "Y1@1,3"],
        hands=[["B2", "G4"], ["G2"]],
        rules={"preset": "standard", "fire_die": True},
    )
    play(state, "B2@1,1")
    return state


def _refused(state: FlamingState, text: str, reason: str) -> None:
    """``text`` parses but is illegal: parse_action and apply refuse and change nothing."""
    before = state.to_json()
    copy = state.clone()
    with pytest.raises(IllegalActionError, match=reason):
        state.parse_action(text)
    action = parse_action(text)
    assert state.illegal_reason(action) is not None
    with pytest.raises(IllegalActionError, match=reason):
        state.apply(action)
    assert state.to_json() == before
    assert state == copy


def test_refuses_any_action_when_the_game_is_over() -> None:
    """FP-NOTE-7: "an action that is not legal" (nothing is legal after the end)."""
    state = position(pyramid=["R100@0,0", "B120@0,2"], hands=[["R40"], ["G4"]])
    play(state, "R40@1,1")
    assert state.winner == 0
    for text in ("G4@0,-2", "left", "die:1"):
        _refused(state, text, "the game is over")


def test_refuses_a_tile_held_by_another_seat() -> None:
    """FP-PLACE-1: "The active player plays exactly one tile from their hand": an action
    names no seat, so a tile of seat 1's hand is refused while seat 0 is to move.
    """
    state = _at_rest()
    _refused(state, "G4@1,1", "G4 is not in seat 0's hand")
    # The refusal must not tell seat 0 where the tile is (contract section 10).
    assert "seat 1" not in (state.illegal_reason(parse_action("G4@1,1")) or "")


def test_refuses_a_tile_that_is_in_no_hand() -> None:
    """FP-PLACE-1: "from their hand"."""
    _refused(_at_rest(), "B40@1,1", "not in seat 0's hand")


def test_refuses_a_tile_already_on_the_pyramid() -> None:
    """FP-PLACE-1: "from their hand"."""
    _refused(_at_rest(), "R100@1,1", "on the pyramid at 0,0")


def test_refuses_a_spot_that_is_not_allowed() -> None:
    """FP-PLACE-4: "If F is not empty the player chooses one spot of F": the base end
    (0,4) is refused while (1,1) is forced.
    """
    _refused(_at_rest(), "R40@0,4", r"R40 cannot go at 0,4: seat 0 must play on .*1,1")


def test_refuses_a_spot_that_is_taken() -> None:
    """FP-PLACE-3: spots are empty positions."""
    _refused(_at_rest(), "R40@0,2", "0,2 is taken by B120")


def test_refuses_a_fall_when_no_tile_is_falling() -> None:
    """FP-NOTE-2: "A fall choice is left or right", only during mayhem."""
    _refused(_at_rest(), "left", "no tile is falling")
    _refused(_at_rest(), "right", "no tile is falling")


def test_refuses_a_placement_while_a_fall_is_pending() -> None:
    """FP-COLLAPSE-1: "P chooses left or right" before anything else happens."""
    state = _falling()
    _refused(state, "Y2@0,4", "must first choose left or right")
    _refused(state, "die:3", "must first choose left or right")


def test_refuses_a_die_face_when_no_roll_is_pending() -> None:
    """FP-DIE-1: a die face is an outcome only while a roll is pending."""
    _refused(_at_rest(), "die:3", "no fire-die roll is pending")


def test_refuses_a_placement_or_a_fall_while_a_roll_is_pending() -> None:
    """FP-DIE-1: "a six-sided die roll is pending for P"."""
    state = _rolling()
    _refused(state, "G4@2,2", "fire-die roll is pending")
    _refused(state, "left", "fire-die roll is pending")


@pytest.mark.parametrize(
    "text", ["die:7", "die:0", "garbage", "R40", "R40@1", "X40@1,1", "R40@1,2", ""]
)
def test_unparseable_text_is_a_parse_error_not_an_illegal_action(text: str) -> None:
    """FP-NOTE-7: "text that does not parse" (die faces are 1 to 6; a spot has the parity
    of its row, FP-GEOM-1).
    """
    state = _at_rest()
    before = state.to_json()
    with pytest.raises(ActionParseError) as caught:
        state.parse_action(text)
    assert not isinstance(caught.value, IllegalActionError)
    assert isinstance(caught.value, PyramidsError)
    with pytest.raises(ActionParseError):
        parse_action(text)
    assert state.to_json() == before


def test_parse_errors_and_illegal_actions_are_distinct_errors() -> None:
    """FP-NOTE-7: unparseable text and illegal actions are refused differently."""
    assert not issubclass(ActionParseError, IllegalActionError)
    assert not issubclass(IllegalActionError, ActionParseError)
    state = _at_rest()
    with pytest.raises(IllegalActionError):
        state.parse_action("R40@0,4")
    with pytest.raises(ActionParseError):
        state.parse_action("R40@0,5")


def test_apply_refuses_raw_ints_that_are_not_legal_and_changes_nothing() -> None:
    """FP-NOTE-7: apply checks every action, even one never produced by legal_actions."""
    state = _at_rest()
    before = state.to_json()
    for action in (
        LEFT,
        place_action(BY_NAME["G4"], key_of(1, 1)),
        place_action(BY_NAME["R40"], key_of(2, 2)),
    ):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before


def test_a_refused_action_keeps_the_last_events() -> None:
    """FP-NOTE-6: events say what the last action did; a refused one did nothing."""
    state = _at_rest()
    play(state, "R40@1,1")
    events = state.events()
    with pytest.raises(IllegalActionError):
        state.apply(LEFT)
    assert state.events() == events


# --- positions ----------------------------------------------------------------------------------


def _base(**changes: Any) -> dict[str, Any]:
    data = position_json(
        pyramid=["R100@0,0", "B120@0,2"], hands=[["R40", "Y2"], ["G4"]], piles=[["Y4"], ["R2"]]
    )
    data.update(changes)
    return data


def test_the_base_position_is_accepted() -> None:
    """FP-NOTE-8: a partial tile set and short hands are accepted."""
    assert position_from_json(_base()).to_json()["pyramid"] == ["R100@0,0", "B120@0,2"]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"hands": [["R40", "R100"], ["G4"]]}, "R100 is listed twice"),
        ({"piles": [["Y4"], ["Y4"]]}, "Y4 is listed twice"),
        ({"out": ["R40"]}, "R40 is listed twice"),
        ({"pyramid": ["R100@0,0", "B120@0,0"]}, "two tiles on one spot 0,0"),
        ({"pyramid": ["R100@0,0", "B120@0,1"]}, "wrong parity"),
        ({"pyramid": ["R100@0,0", "B120@1,2"]}, "wrong parity"),
        ({"hands": [["R40", "Y50"], ["G4"]]}, "unknown tile"),
        ({"pyramid": ["R100@0,0", "Q1@0,2"]}, "unknown tile"),
        ({"out": ["B8"]}, "unknown tile"),
        ({"hands": [["R40", "Y2", "G2", "G6", "B2", "B6"], ["G4"]]}, "at most 5"),
        ({"rules": {"preset": "basic"}, "pyramid": ["R100@0,0", "R7@0,2"]}, "not part of a basic"),
        ({"rules": {"preset": "basic"}, "hands": [["W200"], ["G4"]]}, "not part of a basic"),
        ({"colour": "red"}, "unknown position field"),
        ({"rules": {"preset": "standard", "dice": 2}}, "unknown rules option"),
        ({"rules": {"preset": "chaos"}}, "unknown preset"),
        ({"players": 7}, "2 to 6"),
        ({"to_move": 2}, "to_move"),
        ({"hands": [["R40"]]}, "one per seat"),
        ({"hands": [[], ["G4"]]}, "seat 0 is to move with no tile in hand"),
        ({"hands": [["R40"], []], "piles": [["Y4"], []]}, "seat 1 has no tiles left"),
        ({"winner": 0}, "seat 0 is the winner but still has tiles"),
        ({"winner": 1, "ranking": [1, 2], "hands": [["R40"], []], "piles": [[], []]}, "not both"),
        ({"ranking": [1, 3]}, "ranking"),
        ({"pending": {"player": 0, "kind": "fall", "tile": "R40@1,1"}}, "not on the pyramid"),
        ({"pending": {"player": 0, "kind": "fall", "tile": "R100@0,0"}}, "base tile cannot fall"),
        ({"pending": {"player": 0, "kind": "roll"}}, "pending.kind"),
        ({"pending": {"player": 5, "kind": "fall", "tile": "R100@0,0"}}, "pending.player"),
        ({"pending": {"player": 0, "kind": "die"}}, "fire_die"),
        (
            {
                "rules": {"preset": "standard", "fire_die": True},
                "pending": {"player": 0, "kind": "die"},
            },
            "no fire is waiting",
        ),
        ({"quenched": {"R100": ["B120"]}}, "not an ember"),
        ({"quenched": {"Y1": ["B120"]}}, "not on the pyramid"),
    ],
)
def test_a_position_that_breaks_the_rules_is_refused(changes: dict[str, Any], reason: str) -> None:
    """FP-NOTE-7: "a position with a tile twice, two tiles on one spot, a tile on the wrong
    parity, an unknown tile or a hand over 5; and (D3) ..." is refused with a reason.
    """
    with pytest.raises(PositionError, match=reason):
        position_from_json(_base(**changes))


def test_a_pending_fall_of_a_tile_that_still_has_a_support_is_refused() -> None:
    """FP-NOTE-7 (D3): "a pending fall names ... one that still has a support"."""
    data = _base(
        pyramid=["R100@0,0", "B120@0,2", "R40@1,1"],
        hands=[["Y2"], ["G4"]],
        pending={"player": 0, "kind": "fall", "tile": "R40@1,1"},
    )
    with pytest.raises(PositionError, match="still rests on a tile"):
        position_from_json(data)


def test_a_pending_die_with_a_fire_waiting_is_accepted() -> None:
    """FP-NOTE-4: mid-turn, ``pending`` may be ``{"player": 1, "kind": "die"}``."""
    data = position_json(
        pyramid=["R6@0,0", "B100@0,2", "Y30@0,4", "B2@1,1", "Y1@1,3"],
        hands=[["G4"], ["G2"]],
        rules={"preset": "standard", "fire_die": True},
        pending={"player": 0, "kind": "die"},
    )
    state = position_from_json(data)
    assert state.to_json()["pending"] == {"player": 0, "kind": "die"}
    play(state, "die:4")
    assert state.to_json()["out"] == ["Y1"]


def test_the_active_player_may_have_no_tile_in_the_middle_of_a_turn() -> None:
    """FP-NOTE-7 (D3): "a seat other than the active one has no tile in hand or pile but
    there is no winner" is refused; the active seat may be empty while a fall is pending.
    """
    data = position_json(
        pyramid=["R6@0,0", "Y100@2,2"],
        hands=[[], ["G2"]],
        pending={"player": 0, "kind": "fall", "tile": "Y100@2,2"},
    )
    state = position_from_json(data)
    assert state.current_player() == 0
