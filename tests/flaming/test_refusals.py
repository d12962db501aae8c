"""Every refusal: actions that do not parse or are not legal, and positions that break
the notation's rules (contract section 11; FP-NOTE-7, D3 in docs/RULES.md).

Unparseable text raises ActionParseError, a legal-looking but illegal action raises
IllegalActionError, and a refused ``apply`` changes nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pyramids.core import ActionParseError, IllegalActionError, PositionError, PyramidsError
from pyramids.flaming import FlamingState, position_from_json
from pyramids.flaming.actions import parse_action
from pyramids.flaming.state import LEFT, place_action
from pyramids.flaming.tiles import BY_NAME, key_of
from pyramids.texts import refusal
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


def _refused(state: FlamingState, text: str, code: str, **facts: Any) -> None:
    """``text`` parses but is illegal: parse_action and apply refuse with ``code`` (and these
    ``facts`` among the refusal's data) and change nothing; illegal_reason returns the same."""
    before = state.to_json()
    copy = state.clone()
    with pytest.raises(IllegalActionError) as parsed:
        state.parse_action(text)
    action = parse_action(text)
    reason = state.illegal_reason(action)
    assert reason is not None
    with pytest.raises(IllegalActionError) as applied:
        state.apply(action)
    for err in (parsed.value, reason, applied.value):
        assert err.code == code
        assert {k: err.data[k] for k in facts} == facts
    assert (reason.code, reason.data) == (applied.value.code, applied.value.data)
    assert state.to_json() == before
    assert state == copy


def test_refuses_any_action_when_the_game_is_over() -> None:
    """FP-NOTE-7: "an action that is not legal" (nothing is legal after the end)."""
    state = position(pyramid=["R100@0,0", "B120@0,2"], hands=[["R40"], ["G4"]])
    play(state, "R40@1,1")
    assert state.winner == 0
    for text in ("G4@0,-2", "left", "die:1"):
        _refused(state, text, "flaming.game_over")


def test_refuses_a_tile_held_by_another_seat() -> None:
    """FP-PLACE-1: "The active player plays exactly one tile from their hand": an action
    names no seat, so a tile of seat 1's hand is refused while seat 0 is to move.
    """
    state = _at_rest()
    _refused(state, "G4@1,1", "flaming.not_in_hand", tile="G4", seat=0)
    # The refusal must not tell seat 0 where the tile is (contract section 10).
    reason = state.illegal_reason(parse_action("G4@1,1"))
    assert reason is not None
    assert reason.data == {"tile": "G4", "seat": 0}
    assert "seat 1" not in refusal(reason, "en")


def test_refuses_a_tile_that_is_in_no_hand() -> None:
    """FP-PLACE-1: "from their hand"."""
    _refused(_at_rest(), "B40@1,1", "flaming.not_in_hand", tile="B40", seat=0)


def test_refuses_a_tile_already_on_the_pyramid() -> None:
    """FP-PLACE-1: "from their hand"."""
    _refused(_at_rest(), "R100@1,1", "flaming.on_pyramid_not_in_hand", tile="R100", spot="0,0")


def test_refuses_a_spot_that_is_not_allowed() -> None:
    """FP-PLACE-4: "If F is not empty the player chooses one spot of F": the base end
    (0,4) is refused while (1,1) is forced.
    """
    _refused(
        _at_rest(), "R40@0,4", "flaming.spot_not_allowed", tile="R40", spot="0,4", spots=["1,1"]
    )


def test_refuses_a_spot_that_is_taken() -> None:
    """FP-PLACE-3: spots are empty positions."""
    _refused(_at_rest(), "R40@0,2", "flaming.spot_taken", spot="0,2", tile="B120", seat=0)


def test_refuses_a_fall_when_no_tile_is_falling() -> None:
    """FP-NOTE-2: "A fall choice is left or right", only during mayhem."""
    _refused(_at_rest(), "left", "flaming.nothing_falling")
    _refused(_at_rest(), "right", "flaming.nothing_falling")


def test_refuses_a_placement_while_a_fall_is_pending() -> None:
    """FP-COLLAPSE-1: "P chooses left or right" before anything else happens."""
    state = _falling()
    for text in ("Y2@0,4", "die:3"):
        _refused(state, text, "flaming.tile_falling", tile="G30", spot="1,1", seat=0)


def test_refuses_a_die_face_when_no_roll_is_pending() -> None:
    """FP-DIE-1: a die face is an outcome only while a roll is pending."""
    _refused(_at_rest(), "die:3", "flaming.no_die_pending")


def test_refuses_a_placement_or_a_fall_while_a_roll_is_pending() -> None:
    """FP-DIE-1: "a six-sided die roll is pending for P"."""
    state = _rolling()
    _refused(state, "G4@2,2", "flaming.die_pending")
    _refused(state, "left", "flaming.die_pending")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("die:7", "flaming.bad_die_face"),
        ("die:0", "flaming.bad_die_face"),
        ("garbage", "flaming.unreadable_action"),
        ("R40", "flaming.unreadable_action"),
        ("R40@1", "flaming.unreadable_action"),
        ("X40@1,1", "flaming.unknown_tile"),
        ("R40@1,2", "flaming.wrong_parity"),
        ("R40@1001,1", "flaming.row_out_of_range"),
        ("call:1,2", "flaming.wrong_parity"),
        ("", "flaming.unreadable_action"),
    ],
)
def test_unparseable_text_is_a_parse_error_not_an_illegal_action(text: str, code: str) -> None:
    """FP-NOTE-7: "text that does not parse" (die faces are 1 to 6; a spot has the parity
    of its row, FP-GEOM-1).
    """
    state = _at_rest()
    before = state.to_json()
    with pytest.raises(ActionParseError) as caught:
        state.parse_action(text)
    assert not isinstance(caught.value, IllegalActionError)
    assert isinstance(caught.value, PyramidsError)
    assert caught.value.code == code
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
    ("changes", "code", "facts"),
    [
        (
            {"hands": [["R40", "R100"], ["G4"]]},
            "flaming.tile_twice",
            {"tile": "R100", "first": "pyramid", "second": "hand", "second_seat": 0},
        ),
        ({"piles": [["Y4"], ["Y4"]]}, "flaming.tile_twice", {"first_seat": 0, "second_seat": 1}),
        ({"out": ["R40"]}, "flaming.tile_twice", {"tile": "R40", "second": "out"}),
        (
            {"pyramid": ["R100@0,0", "B120@0,0"]},
            "flaming.spot_taken_twice",
            {"spot": "0,0", "tiles": ["R100", "B120"]},
        ),
        ({"pyramid": ["R100@0,0", "B120@0,1"]}, "flaming.wrong_parity", {"spot": "0,1"}),
        ({"pyramid": ["R100@0,0", "B120@1,2"]}, "flaming.wrong_parity", {"row": 1, "even": False}),
        (
            {"hands": [["R40", "Y50"], ["G4"]]},
            "flaming.unknown_tile",
            {"field": "hands[0]", "value": "Y50"},
        ),
        ({"pyramid": ["R100@0,0", "Q1@0,2"]}, "flaming.unknown_tile", {"field": "pyramid"}),
        ({"out": ["B8"]}, "flaming.unknown_tile", {"field": "out", "value": "B8"}),
        (
            {"hands": [["R40", "Y2", "G2", "G6", "B2", "B6"], ["G4"]]},
            "flaming.hand_too_big",
            {"seat": 0, "count": 6, "max": 5},
        ),
        (
            {"rules": {"preset": "basic"}, "pyramid": ["R100@0,0", "R7@0,2"]},
            "flaming.not_in_preset",
            {"tile": "R7", "preset": "basic"},
        ),
        (
            {"rules": {"preset": "basic"}, "hands": [["W200"], ["G4"]]},
            "flaming.not_in_preset",
            {"tile": "W200"},
        ),
        ({"colour": "red"}, "position.unknown_fields", {"field": None, "fields": ["colour"]}),
        (
            {"rules": {"preset": "standard", "dice": 2}},
            "position.unknown_fields",
            {"field": "rules", "fields": ["dice"]},
        ),
        ({"rules": {"preset": "chaos"}}, "flaming.unknown_preset", {"value": "chaos"}),
        ({"players": 7}, "position.out_of_range", {"field": "players", "value": 7}),
        ({"to_move": 2}, "position.out_of_range", {"field": "to_move", "high": 1}),
        ({"hands": [["R40"]]}, "flaming.not_seat_lists", {"field": "hands", "players": 2}),
        ({"hands": [[], ["G4"]]}, "flaming.to_move_without_tiles", {"seat": 0}),
        (
            {"hands": [["R40"], []], "piles": [["Y4"], []]},
            "flaming.no_tiles_no_winner",
            {"seat": 1},
        ),
        ({"winner": 0}, "flaming.winner_has_tiles", {"seat": 0}),
        (
            {"winner": 1, "ranking": [1, 2], "hands": [["R40"], []], "piles": [[], []]},
            "flaming.winner_and_ranking",
            {},
        ),
        ({"ranking": [1, 3]}, "position.out_of_range", {"field": "ranking", "value": 3}),
        (
            {"pending": {"player": 0, "kind": "fall", "tile": "R40@1,1"}},
            "flaming.fall_not_on_pyramid",
            {"value": "R40@1,1"},
        ),
        (
            {"pending": {"player": 0, "kind": "fall", "tile": "R100@0,0"}},
            "flaming.base_cannot_fall",
            {},
        ),
        ({"pending": {"player": 0, "kind": "roll"}}, "flaming.bad_pending_kind", {"value": "roll"}),
        (
            {"pending": {"player": 5, "kind": "fall", "tile": "R100@0,0"}},
            "position.out_of_range",
            {"field": "pending.player", "value": 5},
        ),
        ({"pending": {"player": 0, "kind": "die"}}, "flaming.die_needs_fire_die", {}),
        (
            {
                "rules": {"preset": "standard", "fire_die": True},
                "pending": {"player": 0, "kind": "die"},
            },
            "flaming.die_without_fire",
            {},
        ),
        ({"quenched": {"R100": ["B120"]}}, "flaming.quenched_not_ember", {"tile": "R100"}),
        ({"quenched": {"Y1": ["B120"]}}, "flaming.quenched_not_on_pyramid", {"tile": "Y1"}),
    ],
)
def test_a_position_that_breaks_the_rules_is_refused(
    changes: dict[str, Any], code: str, facts: dict[str, Any]
) -> None:
    """FP-NOTE-7: "a position with a tile twice, two tiles on one spot, a tile on the wrong
    parity, an unknown tile or a hand over 5; and (D3) ..." is refused with a code and facts.
    """
    with pytest.raises(PositionError) as caught:
        position_from_json(_base(**changes))
    assert caught.value.code == code
    assert {k: caught.value.data[k] for k in facts} == facts


def test_a_pending_fall_of_a_tile_that_still_has_a_support_is_refused() -> None:
    """FP-NOTE-7 (D3): "a pending fall names ... one that still has a support"."""
    data = _base(
        pyramid=["R100@0,0", "B120@0,2", "R40@1,1"],
        hands=[["Y2"], ["G4"]],
        pending={"player": 0, "kind": "fall", "tile": "R40@1,1"},
    )
    with pytest.raises(PositionError) as caught:
        position_from_json(data)
    assert (caught.value.code, caught.value.data) == (
        "flaming.fall_supported",
        {"value": "R40@1,1"},
    )


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


# --- the words ----------------------------------------------------------------------------------


def test_a_refused_placement_reads_in_english_and_in_french() -> None:
    """A refusal is a code with facts; the catalogue says it in each language."""
    reason = _at_rest().illegal_reason(parse_action("R40@0,4"))
    assert reason is not None
    assert refusal(reason, "en") == "R40 cannot go at 0,4: seat 0 must play on one of: 1,1"
    assert refusal(reason, "fr") == (
        "R40 ne peut pas aller en 0,4 : le joueur 0 doit jouer sur l'une de ces cases : 1,1"
    )
    assert str(reason) == refusal(reason, "en")


def test_a_refused_position_reads_in_english_and_in_french() -> None:
    """The facts fill both languages' sentences (a tile listed twice names both places)."""
    with pytest.raises(PositionError) as caught:
        position_from_json(_base(piles=[["Y4"], ["Y4"]]))
    assert refusal(caught.value, "en") == (
        "Y4 is listed twice: in seat 0's pile and in seat 1's pile"
    )
    assert refusal(caught.value, "fr") == (
        "Y4 figure deux fois : dans la pioche du joueur 0 et dans la pioche du joueur 1"
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_flaming_refusal_code_has_words(lang: str) -> None:
    """Every ``flaming.*`` code the engines raise (Python rules, native crate) has its
    ``refusal.<code>`` words in each language, and the catalogue holds no other."""
    root = Path(__file__).resolve().parents[2]
    sources = [*root.glob("src/pyramids/flaming/*.py"), *root.glob("native/flaming/src/*.rs")]
    codes = {
        code
        for path in sources
        for code in re.findall(r"\"(flaming\.[a-z_]+)\"", path.read_text(encoding="utf-8"))
    }
    words = json.loads(
        (root / f"src/pyramids/texts/messages/{lang}/refusals-flaming.json").read_text("utf-8")
    )
    assert len(codes) > 40
    assert {f"refusal.{code}" for code in codes} == set(words)
