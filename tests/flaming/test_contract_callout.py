"""Contract section 12 (call-out mode): the players check for mayhem themselves.

Rules FP-CALL-* of docs/RULES.md, one test per bullet of the contract's section 12 and
of the rulebook's "Competitive Game or Family Game? You Decide!". Positions are
hand-made in the notation; the active player A holds a full hand and one tile on their
pile, so after the turn their pile holds exactly what mayhem sent under it.
"""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.core.errors import IllegalActionError, PositionError
from pyramids.flaming import FlamingState, position_from_json
from pyramids.texts import describe
from tests.flaming.helpers import (
    hands,
    kinds,
    legal,
    of_kind,
    out,
    piles,
    play,
    position,
    position_json,
    pyramid,
    spots,
)

FAMILY = {"preset": "standard", "callout": "family"}
COMPETITIVE = {"preset": "standard", "callout": "competitive"}

MISFIT_BASE = ["R100@0,0", "B120@0,2", "Y30@0,4"]
"""``G60@1,1`` on R100 and B120 does not fit: no green, no 100 or 120 (FP-FIT-1)."""


def misfit_table(rules: dict[str, Any], players: int = 2, tile: str = "G60") -> FlamingState:
    """A (seat 0) holds ``tile`` and plays it at 1,1 next; seat 1 checks."""
    table_hands = [[tile, "Y2", "Y4", "Y6", "G2"], ["B20", "R2", "R4", "B2", "G4"]]
    table_piles = [["B4"], ["Y10"]]
    for _ in range(players - 2):
        table_hands.append(["G6"])
        table_piles.append([])
    return position(pyramid=MISFIT_BASE, hands=table_hands, piles=table_piles, rules=rules)


# --- the check --------------------------------------------------------------------------


def test_after_every_placement_the_seat_on_the_left_checks_and_nothing_is_resolved() -> None:
    """FP-CALL-2: "After every placement, whether or not there is mayhem, a check decision
    is pending for the checker C: the next seat to the active player A's left"."""
    state = position(
        pyramid=MISFIT_BASE,
        hands=[["Y2"], ["R2"], ["G60", "G2"]],
        piles=[[], [], ["B4"]],
        to_move=2,
        rules=FAMILY,
    )
    events = play(state, "G60@1,1")
    assert kinds(events) == ["place"]
    assert state.to_json()["pending"] == {"player": 0, "kind": "check"}
    assert state.current_player() == 0
    assert state.checker == 0
    assert "G60@1,1" in pyramid(state)  # the misfit stands: nothing collapsed yet


def test_a_clean_placement_is_checked_too_and_ok_ends_the_turn() -> None:
    """FP-CALL-2, FP-CALL-8: a check follows a tile that fits; ``ok`` ends A's turn, A draws."""
    state = misfit_table(FAMILY)
    events = play(state, "Y2@1,3")  # Y2 on B120 and Y30: yellow, 2 <= 150
    assert kinds(events) == ["place"]
    events = play(state, "ok")
    assert kinds(events) == ["check_ok", "draw"]
    assert describe(events[0], "en") == "seat 1 checks the pyramid: everything looks fine"
    assert state.to_move == 1
    assert not state.overlooked
    assert "overlooked" not in state.to_json()


def test_the_legal_actions_of_a_check_are_ok_and_every_tile_whether_or_not_mayhem_stands() -> None:
    """FP-CALL-3: "Every occupied position is a legal call, right or wrong, so the legal
    actions reveal nothing"."""
    misfit = misfit_table(FAMILY)
    play(misfit, "G60@1,1")
    clean = misfit_table(FAMILY, tile="R40")
    play(clean, "R40@1,1")  # R40 on R100 and B120 fits (FP-EX-J)
    expected = ["ok", "call:1,1", "call:0,0", "call:0,2", "call:0,4"]
    assert legal(misfit) == expected
    assert legal(clean) == expected


# --- right calls of every kind of mayhem ------------------------------------------------


def test_a_right_call_of_a_support_resolves_the_collapse_at_once() -> None:
    """FP-CALL-3, FP-CALL-4: a call of "a tile that does not fit or one of its present
    supports" is right; "the mayhem is resolved at once as in section 6 ... then A's turn
    ends"."""
    state = misfit_table(FAMILY)
    play(state, "G60@1,1")
    events = play(state, "call:0,2")
    assert kinds(events) == ["call", "collapse"]
    assert events[0].data == {
        "seat": 1,
        "tile": "B120",
        "at": "0,2",
        "found": "collapse",
        "overlooked": False,
    }
    assert describe(events[0], "en") == "seat 1 calls B120 at 0,2: right, a tile that does not fit"
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "G60@1,1"}
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert piles(state)[0] == ["R100", "B120"]  # A drew B4; the supports went under A's pile
    assert pyramid(state) == ["G60@0,0", "Y30@0,4"]
    assert state.to_move == 1


def test_a_right_call_of_a_tile_in_free_air() -> None:
    """FP-CALL-3, FP-AIR-1: a tile in row 1 with nothing under it, called; A chooses its fall."""
    state = position(
        pyramid=["R100@0,0", "B120@0,2", "G60@1,7"],
        hands=[["R40", "Y2"], ["R2"]],
        piles=[["B4"], []],
        rules=FAMILY,
    )
    play(state, "R40@1,1")
    events = play(state, "call:1,7")
    assert kinds(events) == ["call", "free_air"]
    assert events[0].data["found"] == "free_air"
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert "G60@0,6" in pyramid(state)


def test_a_right_call_of_an_explosion_victim() -> None:
    """FP-CALL-3, FP-EXPLODE-1: "an ember of an exploding group or a tile the explosion
    would send away"; the explosion goes under A's pile as usual."""
    state = position(
        pyramid=["G20@0,0", "R100@0,2", "B100@0,4", "B7@1,3"],
        hands=[["G1", "Y2", "Y4", "Y6", "G2"], ["R2"]],
        piles=[["B4"], []],
        rules=COMPETITIVE,
    )
    play(state, "G1@1,1")  # green on G20: fits; touches the blowtorch B7
    events = play(state, "call:0,4")
    assert kinds(events) == ["call", "explosion", "draw"]
    assert events[0].data["found"] == "explosion"
    assert piles(state)[0] == ["G20", "R100", "B100"]
    assert sorted(out(state)) == ["B7", "G1"]


def test_a_right_call_of_a_tile_the_fire_would_burn() -> None:
    """FP-CALL-3, FP-EX-STRAW: "an ember that would ignite, or a tile the fire would burn":
    the R6 the fire reaches through B2 is a right call."""
    state = position(
        pyramid=["R6@0,0", "B100@0,2", "Y30@0,4", "Y1@1,3"],
        hands=[["B2", "Y2", "Y4", "Y6", "G2"], ["R2"]],
        piles=[["B4"], []],
        rules=FAMILY,
    )
    play(state, "B2@1,1")
    events = play(state, "call:0,0")
    assert kinds(events) == ["call", "fire", "draw"]
    assert events[0].data["found"] == "fire"
    assert [b["tile"] for b in events[1].data["burnt"]] == ["B2", "R6"]
    assert events[1].data["out"] is False
    assert piles(state)[0] == ["B2", "R6"]
    assert pyramid(state) == ["B100@0,2", "Y30@0,4"]


def test_a_curse_found_by_a_call_passes_to_the_player_on_the_right() -> None:
    """FP-CALL-3, FP-EX-CURSE: "a tile of a cursed trio (curse on)"; the trio goes under the
    pile of the player to P's right as in section 6."""
    state = position(
        pyramid=["R6@0,0", "B6@0,2"],
        hands=[["Y6", "Y2", "Y4", "G2", "G4"], ["R2"], ["R4"]],
        piles=[["B4"], [], []],
        rules=FAMILY,
    )
    play(state, "Y6@1,1")
    events = play(state, "call:0,0")
    assert kinds(events) == ["call", "curse", "draw"]
    assert events[0].data["found"] == "curse"
    assert events[1].data["target"] == 2
    assert piles(state)[2] == ["Y6", "R6", "B6"]


def test_a_call_names_the_first_check_its_tile_takes_part_in() -> None:
    """FP-CALL-10: the ``call`` event says what the call found; a misfit ember touching
    another ember is found by check 2 (collapse) before check 3 (explosion)."""
    state = position(
        pyramid=["G20@0,0", "R100@0,2", "B100@0,4", "B7@1,3"],
        hands=[["Y1", "Y2"], ["R2"]],
        piles=[["B4"], []],
        rules=FAMILY,
    )
    play(state, "Y1@1,1")  # no yellow, no 1 below: a misfit, and it touches B7
    assert play(state, "call:1,1")[0].data["found"] == "collapse"


# --- false alarms and overlooked mayhem -------------------------------------------------


def test_a_false_alarm_moves_nothing_and_says_only_that_it_was_one() -> None:
    """FP-CALL-4: "A wrong call (a false alarm): nothing moves and the check ends as if C
    had said ok"; the event says only that it was one."""
    state = misfit_table(FAMILY)
    play(state, "Y2@1,3")
    before = pyramid(state)
    events = play(state, "call:0,0")
    assert kinds(events) == ["false_alarm", "draw"]
    assert events[0].data == {"seat": 1, "at": "0,0"}
    assert describe(events[0], "en") == "seat 1 calls the tile at 0,0: false alarm"
    assert describe(events[0], "fr") == "le joueur 1 signale la tuile en 0,0 : fausse alerte"
    assert pyramid(state) == before
    assert not state.overlooked


def test_a_false_alarm_over_standing_mayhem_leaves_it_overlooked() -> None:
    """FP-CALL-5: "ok, or a false alarm, while section 6 would find an event: the mayhem is
    overlooked"; Y30 at 0,4 has no part in G60's collapse."""
    state = misfit_table(FAMILY)
    play(state, "G60@1,1")
    events = play(state, "call:0,4")
    assert kinds(events) == ["false_alarm", "draw"]
    assert events[0].data == {"seat": 1, "at": "0,4"}
    assert state.overlooked
    assert state.to_json()["overlooked"] is True


def test_ok_over_standing_mayhem_leaves_it_on_the_pyramid() -> None:
    """FP-CALL-5: "it stays on the pyramid and the position records "overlooked": true.
    A's turn ends"."""
    state = misfit_table(FAMILY)
    play(state, "G60@1,1")
    events = play(state, "ok")
    assert kinds(events) == ["check_ok", "draw"]
    assert pyramid(state) == ["R100@0,0", "B120@0,2", "Y30@0,4", "G60@1,1"]
    assert state.to_json()["overlooked"] is True
    assert piles(state)[0] == []
    assert state.to_move == 1


def test_placement_with_a_misfit_standing_follows_the_pyramid_as_it_stands() -> None:
    """FP-CALL-9: "a misfit tile or a tile in free air occupies its spot": the spot above the
    standing misfit G60 is forced once its other support is there."""
    state = misfit_table(FAMILY)
    play(state, "G60@1,1", "ok")
    assert spots(state) == ["1,3"]
    play(state, "B20@1,3", "ok")  # blue on B120: fits; the misfit is still overlooked
    assert state.overlooked
    assert spots(state) == ["2,2"]  # on the misfit G60 and on B20


def _overlooked_then_found(rules: dict[str, Any]) -> tuple[FlamingState, list[Any]]:
    """Seat 0's misfit G60 is overlooked; seat 1 plays B20 at 1,3; seat 0 calls G60."""
    state = misfit_table(rules)
    play(state, "G60@1,1", "ok", "B20@1,3")
    events = play(state, "call:1,1")
    assert kinds(events) == ["call", "collapse"]
    assert events[0].data["overlooked"] is True
    assert state.to_json()["pending"] == {"player": 1, "kind": "fall", "tile": "G60@1,1"}
    # G60 falls to the base; B20 is left on Y30 alone, does not fit, and collapses too.
    events += play(state, "left", "left")
    assert kinds(events) == ["call", "collapse", "fall", "collapse", "fall", "draw"]
    assert not state.overlooked
    return state, events


def test_overlooked_mayhem_found_later_goes_out_of_the_game_in_the_family_game() -> None:
    """FP-CALL-6: "in family, every tile that would go under a draw pile goes out of the game
    instead (R: "go out of the game instead")"; the falls are A's (seat 1)."""
    state, events = _overlooked_then_found(FAMILY)
    assert out(state) == ["R100", "B120", "Y30"]
    assert piles(state) == [[], []]
    assert all(e.data["out"] is True for e in of_kind(events, "collapse"))
    assert [e.data["seat"] for e in of_kind(events, "fall")] == [1, 1]
    assert describe(events[1], "en").endswith("collapse and go out of the game (overlooked mayhem)")
    assert pyramid(state) == ["G60@0,0", "B20@0,2"]


def test_overlooked_mayhem_found_later_goes_to_the_active_players_pile_in_the_competitive_game() -> (
    None
):
    """FP-CALL-6: "in competitive, the tiles go under the active player A's pile (R: "the
    currently active player suffering the consequences")": seat 1, not seat 0 who placed
    the misfit."""
    state, events = _overlooked_then_found(COMPETITIVE)
    assert out(state) == []
    assert piles(state) == [[], ["R100", "B120", "Y30"]]  # seat 1 drew Y10 first
    assert all(e.data["out"] is False for e in of_kind(events, "collapse"))


def test_a_clean_check_after_overlooked_mayhem_keeps_it_overlooked() -> None:
    """FP-CALL-5: overlooked mayhem stays until a right call; another ok keeps the mark."""
    state = misfit_table(COMPETITIVE)
    play(state, "G60@1,1", "ok", "B20@1,3", "ok")
    assert state.overlooked
    assert state.to_move == 0


def test_a_die_roll_while_overlooked_mayhem_is_resolved_is_the_active_players() -> None:
    """FP-CALL-6, FP-DIE-1: "Fall choices and die rolls are A's in both"; in the family game
    the burnt straw goes out of the game and the ember stays (roll 2)."""
    rules = {"preset": "standard", "callout": "family", "fire_die": True}
    state = position(
        pyramid=["R6@0,0", "B100@0,2", "Y30@0,4", "Y1@1,3"],
        hands=[["B2", "G2", "G6", "R4", "B6"], ["Y2", "R2"]],
        piles=[["B4"], ["R10"]],
        rules=rules,
    )
    play(state, "B2@1,1", "ok")  # the fire of FP-EX-STRAW, overlooked
    play(state, "Y2@2,2")  # on B2 and Y1: yellow, 2 <= 3
    events = play(state, "call:1,3")
    assert kinds(events) == ["call", "fire_found"]
    assert events[0].data["overlooked"] is True
    assert state.to_json()["pending"] == {"player": 1, "kind": "die"}
    events = play(state, "die:2")
    assert kinds(events) == ["fire", "draw"]
    assert events[0].data["out"] is True
    assert out(state) == ["Y2", "B2", "R6"]
    assert "Y1@1,3" in pyramid(state)
    assert piles(state) == [[], []]
    assert not state.overlooked


def test_a_win_with_overlooked_mayhem_stands() -> None:
    """FP-CALL-8: "A wins if A then holds no tiles, even when the checker overlooked A's
    mayhem"."""
    state = position(
        pyramid=MISFIT_BASE,
        hands=[["G60"], ["R2"]],
        piles=[[], ["R4"]],
        rules=FAMILY,
    )
    play(state, "G60@1,1")
    assert not state.is_terminal()  # the check comes first
    events = play(state, "ok")
    assert kinds(events) == ["check_ok", "win"]
    assert state.winner == 0
    assert state.to_json()["overlooked"] is True


def test_a_right_call_of_the_last_tile_stops_the_win() -> None:
    """FP-CALL-4, FP-CALL-8: the collapse sends the supports under A's pile before A draws."""
    state = position(pyramid=MISFIT_BASE, hands=[["G60"], ["R2"]], piles=[[], ["R4"]], rules=FAMILY)
    play(state, "G60@1,1", "call:1,1", "right")
    assert state.winner is None
    assert hands(state)[0] == ["R100", "B120"]


# --- notation and refusals --------------------------------------------------------------


def test_a_pending_check_and_overlooked_mayhem_read_back_from_the_notation() -> None:
    """FP-CALL-10: "Rules option "callout": "family"; pending {"player": C, "kind": "check"}"."""
    state = misfit_table(FAMILY)
    play(state, "G60@1,1")
    data = state.to_json()
    assert data["rules"]["callout"] == "family"
    assert position_from_json(data).to_json() == data
    play(state, "ok")
    data = state.to_json()
    assert data["overlooked"] is True
    assert position_from_json(data).to_json() == data


def test_the_option_is_left_out_of_the_notation_when_off() -> None:
    """FP-CALL-10: an ordinary game's rules are written as before (``callout`` off)."""
    state = misfit_table({"preset": "standard"})
    assert "callout" not in state.to_json()["rules"]
    assert kinds(play(state, "G60@1,1")) == ["place", "collapse"]


@pytest.mark.parametrize(
    ("changes", "code", "facts"),
    [
        (
            {"overlooked": True, "rules": {"preset": "standard"}},
            "flaming.overlooked_needs_callout",
            {},
        ),
        ({"overlooked": True, "pyramid": ["R100@0,0"]}, "flaming.overlooked_without_mayhem", {}),
        (
            {"pending": {"player": 0, "kind": "check"}},
            "flaming.wrong_checker",
            {"checker": 1, "to_move": 0, "value": 0},
        ),
        (
            {"pending": {"player": 1, "kind": "check"}, "rules": {}},
            "flaming.check_needs_callout",
            {},
        ),
        (
            {"rules": {"callout": "sometimes"}},
            "flaming.unknown_callout",
            {"value": "sometimes", "modes": ["off", "family", "competitive"]},
        ),
        (
            {"overlooked": "yes"},
            "position.not_a_boolean",
            {"field": "overlooked", "value": "yes"},
        ),
    ],
)
def test_a_position_that_breaks_call_out_notation_is_refused(
    changes: dict[str, Any], code: str, facts: dict[str, Any]
) -> None:
    """FP-NOTE-7, FP-CALL-10: a position the rules cannot reach says what is wrong."""
    data = position_json(pyramid=[*MISFIT_BASE, "G60@1,1"], hands=[["Y2"], ["R2"]], rules=FAMILY)
    data.update(changes)
    with pytest.raises(PositionError) as caught:
        position_from_json(data)
    assert (caught.value.code, caught.value.data) == (code, facts)


def test_check_actions_are_refused_outside_a_check_and_placements_during_one() -> None:
    """FP-CALL-3: only the checker answers, only with ok or a call of an occupied position."""
    state = misfit_table(FAMILY)
    with pytest.raises(IllegalActionError) as caught:
        state.parse_action("ok")
    assert caught.value.code == "flaming.no_check_pending"
    play(state, "G60@1,1")
    with pytest.raises(IllegalActionError) as caught:
        state.parse_action("Y2@1,3")
    assert (caught.value.code, caught.value.data) == ("flaming.check_pending", {"seat": 1})
    with pytest.raises(IllegalActionError) as caught:
        state.parse_action("call:2,2")
    assert (caught.value.code, caught.value.data) == (
        "flaming.no_tile_to_call",
        {"spot": "2,2", "seat": 1},
    )
    assert str(caught.value) == (
        "there is no tile at 2,2 to call: seat 1 says ok or calls a tile on the pyramid"
    )
    assert state.to_json()["pending"] == {"player": 1, "kind": "check"}
