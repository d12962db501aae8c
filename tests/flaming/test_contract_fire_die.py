"""Contract section 9 (the fire die option): every roll, and the quench rules.

Rules FP-DIE-1..6 of docs/RULES.md. The straw-fire position of the rulebook is used
with ``fire_die`` on: ``R6@0,0 B100@0,2 Y30@0,4 Y1@1,3`` and seat 0 plays ``B2@1,1``,
so the coal Y1 touches B2, whose fire would spread to R6.
"""

from __future__ import annotations

import pytest

from pyramids.core import CHANCE
from pyramids.flaming import FlamingState
from pyramids.flaming.state import DIE
from pyramids.flaming.tiles import BY_NAME, key_of
from tests.flaming.helpers import kinds, legal, out, piles, play, position, pyramid

_DIE_RULES = {"preset": "standard", "fire_die": True}
_STRAW = ["R6@0,0", "B100@0,2", "Y30@0,4", "Y1@1,3"]


def _straw_fire() -> FlamingState:
    """The straw-fire example with the fire die, rolled for after ``B2@1,1``."""
    state = position(
        pyramid=_STRAW,
        hands=[["B2", "Y2", "G2", "G4", "R4"], ["B6", "G6"]],
        piles=[["Y4"], ["R2"]],
        rules=_DIE_RULES,
    )
    events = play(state, "B2@1,1")
    assert kinds(events) == ["place", "fire_found"]
    return state


def test_a_fire_found_waits_for_a_die_roll_owned_by_p() -> None:
    """FP-DIE-1: "a fire found by check 4 does not burn at once: a six-sided die roll is
    pending for P, a chance event with outcomes die:1 ... die:6, each 1/6."
    """
    state = _straw_fire()
    assert state.current_player() == CHANCE
    assert state.pending[0] == DIE
    assert state.to_json()["pending"] == {"player": 0, "kind": "die"}
    assert legal(state) == [f"die:{n}" for n in range(1, 7)]
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == legal(state)
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    # Nothing has burnt yet and the turn is not over.
    assert pyramid(state) == ["R6@0,0", "B100@0,2", "Y30@0,4", "B2@1,1", "Y1@1,3"]
    assert state.to_move == 0


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_die_1_2_3_the_fire_burns_and_the_ember_stays(roll: int) -> None:
    """FP-DIE-2: "Roll 1, 2 or 3: the fire burns as in FP-FIRE-2 and FP-FIRE-3, but the
    ember stays in place."
    """
    state = _straw_fire()
    events = play(state, f"die:{roll}")
    assert kinds(events) == ["fire", "draw"]
    assert events[0].data["roll"] == roll
    assert events[0].data["ember_removed"] is False
    assert pyramid(state) == ["B100@0,2", "Y30@0,4", "Y1@1,3"]
    assert piles(state)[0] == ["B2", "R6"]
    assert out(state) == []
    assert state.to_move == 1


def test_die_4_the_fire_burns_and_the_ember_leaves() -> None:
    """FP-DIE-3: "Roll 4: the fire burns as in FP-FIRE-2 and FP-FIRE-3 and the ember leaves
    the game."
    """
    state = _straw_fire()
    events = play(state, "die:4")
    assert kinds(events) == ["fire", "draw"]
    assert events[0].data["ember_removed"] is True
    assert pyramid(state) == ["B100@0,2", "Y30@0,4"]
    assert piles(state)[0] == ["B2", "R6"]
    assert out(state) == ["Y1"]


def test_die_5_the_ember_explodes_alone() -> None:
    """FP-DIE-4: "Roll 5: the ember explodes alone. It leaves the game and every tile
    touching it goes under P's pile in scan order; nothing burns."

    Y1 touches B2 (row 1), B100 and Y30 (row 0); R6, which the fire would have reached,
    stays.
    """
    state = _straw_fire()
    events = play(state, "die:5")
    assert kinds(events) == ["die_explosion", "draw"]
    assert [v["tile"] for v in events[0].data["victims"]] == ["B2", "B100", "Y30"]
    assert pyramid(state) == ["R6@0,0"]
    assert piles(state)[0] == ["B2", "B100", "Y30"]
    assert out(state) == ["Y1"]


def test_die_6_the_fire_goes_out_and_the_ember_is_quenched() -> None:
    """FP-DIE-5, FP-DIE-6: "Roll 6: the fire goes out; nothing burns, the ember stays and is
    quenched."

    The same contact is not found again: the turn ends at once. ``quenched`` lists the
    tiles Y1 touched at the roll.
    """
    state = _straw_fire()
    events = play(state, "die:6")
    assert kinds(events) == ["quench", "draw"]
    assert pyramid(state) == ["R6@0,0", "B100@0,2", "Y30@0,4", "B2@1,1", "Y1@1,3"]
    assert piles(state)[0] == []
    quenched = state.to_json()["quenched"]
    assert list(quenched) == ["Y1"]
    assert sorted(quenched["Y1"]) == ["B100", "B2", "Y30"]
    assert state.to_move == 1
    assert "pending" not in state.to_json()


# --- the quench rules (FP-DIE-6), from a quenched position ---------------------------------

_QUENCHED = ["R6@0,0", "B100@0,2", "Y30@0,4", "G60@0,6", "B2@1,1", "Y1@1,3"]
"""After a 6 was rolled for Y1 touching B2; G60 adds the spot (1,5) beside Y1."""


def _quenched(hand: list[str]) -> FlamingState:
    return position(
        pyramid=_QUENCHED,
        hands=[hand, ["B6", "G6"]],
        piles=[["Y4"], ["R2"]],
        rules=_DIE_RULES,
        quenched={"Y1": ["Y30", "B2", "B100"]},
    )


def test_a_quenched_ember_stays_quiet_while_only_old_tiles_touch_it() -> None:
    """FP-DIE-6: "A quenched ember lights no fire until it moves, or until a tile it ignites
    that did not touch it at the roll comes to touch it."

    ``G10@1,5`` (wood, which a coal does not ignite) comes to touch Y1; Y1 still touches
    B2 from before the roll: no fire, Y1 stays quenched.
    """
    state = _quenched(["G10", "Y2", "G2", "G4", "R4"])
    events = play(state, "G10@1,5")
    assert kinds(events) == ["place", "draw"]
    assert state.to_json()["quenched"] == {"Y1": ["Y30", "B2", "B100"]}
    assert state.to_move == 1


def test_a_quenched_ember_reignites_when_a_new_tile_it_ignites_touches_it() -> None:
    """FP-DIE-6: "until a tile it ignites that did not touch it at the roll comes to touch
    it."

    ``Y2@2,2`` (straw, fits on B2 and Y1) touches Y1: a fire is found again. On a 1 it
    burns the whole straw chain, old B2 included, in scan order: Y2, B2, R6; Y1 stays and
    is no longer quenched.
    """
    state = _quenched(["Y2", "G2", "G4", "R4", "B4"])
    events = play(state, "Y2@2,2")
    assert kinds(events) == ["place", "fire_found"]
    events = play(state, "die:1")
    assert kinds(events) == ["fire", "draw"]
    assert [b["tile"] for b in events[0].data["burnt"]] == ["Y2", "B2", "R6"]
    assert pyramid(state) == ["B100@0,2", "Y30@0,4", "G60@0,6", "Y1@1,3"]
    assert piles(state)[0] == ["Y2", "B2", "R6"]
    assert "quenched" not in state.to_json()


def test_a_quenched_ember_reignites_after_it_moves() -> None:
    """FP-DIE-6: "A quenched ember lights no fire until it moves".

    Hand-made mid-turn position: the quenched coal ``Y1@1,1`` has lost both supports and
    must fall; it touched ``R6@1,-1`` (resting on R60 alone) at the roll. Falling left to
    (0,0) it still touches R6, but it has moved, so the fire is found again; a 4 burns R6
    and removes Y1.
    """
    state = position(
        pyramid=["R60@0,-2", "R6@1,-1", "Y1@1,1"],
        hands=[["Y2", "G2", "G4", "R4"], ["B6", "G6"]],
        piles=[["Y4"], ["R2"]],
        rules=_DIE_RULES,
        quenched={"Y1": ["R6"]},
        pending={"player": 0, "kind": "fall", "tile": "Y1@1,1"},
    )
    events = play(state, "left")
    assert kinds(events) == ["fall", "fire_found"]
    assert "quenched" not in state.to_json()
    events = play(state, "die:4")
    assert kinds(events) == ["fire", "draw"]
    assert pyramid(state) == ["R60@0,-2"]
    assert piles(state)[0] == ["R6"]
    assert out(state) == ["Y1"]


def test_a_quenched_ember_still_explodes() -> None:
    """FP-DIE-6: "A quenched ember still explodes."

    ``G1@2,2`` (fits on B2 and Y1: number 1) touches the quenched Y1: they explode (no die
    roll for explosions); B2, B100 and Y30 go under the pile.
    """
    state = _quenched(["G1", "Y2", "G2", "G4", "R4"])
    events = play(state, "G1@2,2")
    assert kinds(events) == ["place", "explosion", "draw"]
    assert pyramid(state) == ["R6@0,0", "G60@0,6"]
    assert piles(state)[0] == ["B2", "B100", "Y30"]
    assert sorted(out(state)) == ["G1", "Y1"]
    assert "quenched" not in state.to_json()


def test_after_a_curse_the_die_is_rolled_for_the_new_p_and_the_fire_burns_for_them() -> None:
    """FP-DIE-1, FP-CURSE-3: "The roll is pending for P"; after a curse P is the player to
    the right, who receives "any tiles from follow-up collapses or fires".

        row 2:          (R10 played)  Y1@2,4
        row 1:     G10@1,1      Y10@1,3      B30@1,5
        row 0: G40@0,0   Y20@0,2      B40@0,4      Y6@0,6

    Seat 0 of 3 plays ``R10@2,2``: R10, G10, Y10 are cursed to seat 2. Y1, left on B30
    alone, does not match it: B30 goes to seat 2, who lets Y1 fall right onto B40 and Y6
    (yellow: it fits) next to the straw Y6. The die is rolled for seat 2; on a 4 Y6 burns
    under seat 2's pile and Y1 leaves the game. Seat 0 draws; seat 1 plays next.
    """
    state = position(
        pyramid=[
            "G40@0,0",
            "Y20@0,2",
            "B40@0,4",
            "Y6@0,6",
            "G10@1,1",
            "Y10@1,3",
            "B30@1,5",
            "Y1@2,4",
        ],
        hands=[["R10", "Y2", "G2", "G4", "R4"], ["G6"], ["B2"]],
        piles=[["Y4"], ["R2"], ["B4"]],
        rules=_DIE_RULES,
    )
    events = play(state, "R10@2,2")
    assert kinds(events) == ["place", "curse", "collapse"]
    assert state.to_json()["pending"] == {"player": 2, "kind": "fall", "tile": "Y1@2,4"}
    events = play(state, "right")
    assert kinds(events) == ["fall", "fire_found"]
    assert state.current_player() == CHANCE
    assert state.to_json()["pending"] == {"player": 2, "kind": "die"}
    events = play(state, "die:4")
    assert kinds(events) == ["fire", "draw"]
    assert events[0].data["seat"] == 2
    assert pyramid(state) == ["G40@0,0", "Y20@0,2", "B40@0,4"]
    assert piles(state) == [[], ["R2"], ["B4", "R10", "G10", "Y10", "B30", "Y6"]]
    assert out(state) == ["Y1"]
    assert state.to_move == 1


# --- the quench ends at the contact, even when the contact falls away (contract section 9) ---

_BROKEN_QUENCH_RULES = {"preset": "family", "curse": False, "fire_die": True}


def test_a_quench_ends_when_a_new_tile_touches_the_ember_even_if_it_then_falls_away() -> None:
    """FP-DIE-6: "A quenched ember lights no fire until it moves, or until a tile it ignites
    that did not touch it at the roll comes to touch it."

    ``Y2@0,0 B100@0,2 G120@0,4 Y1@1,1``, Y1 quenched while touching Y2 and B100. Seat 0
    plays ``R4@1,3``: straw beside Y1, which ends the quench; R4 matches neither B100 nor
    G120, so they collapse and R4 falls ``right`` to 0,4, away from Y1. Y1 is no longer
    quenched and still touches the straw Y2: a fire, so a die roll is pending for seat 0.
    """
    state = position(
        pyramid=["Y2@0,0", "B100@0,2", "G120@0,4", "Y1@1,1"],
        hands=[["R4", "G10"], ["B10"]],
        rules=_BROKEN_QUENCH_RULES,
        quenched={"Y1": ["Y2", "B100"]},
    )
    events = play(state, "R4@1,3", "right")
    assert kinds(events) == ["place", "collapse", "fall", "fire_found"]
    assert state.current_player() == CHANCE
    assert state.to_json()["pending"] == {"player": 0, "kind": "die"}
    assert state.pending == (DIE, key_of(1, 1))
    assert state.board[key_of(1, 1)] == BY_NAME["Y1"]
    assert "quenched" not in state.to_json()


def test_a_loaded_quench_already_ended_by_a_new_contact_is_not_quenched() -> None:
    """FP-DIE-6, FP-NOTE-4: ``quenched`` lists an ember that is still quenched.

    ``R100@0,0 B6@0,2 R7@1,1`` with ``"quenched": {"R7": []}``: B6 touches R7 but did
    not at the roll, and R7 ignites straw, so the quench has ended; the position prints
    no ``quenched`` and the next placement's scan finds the fire (FP-NOTE-8).
    """
    state = position(
        pyramid=["R100@0,0", "B6@0,2", "R7@1,1"],
        hands=[["G20"], ["B10"]],
        piles=[["G30"], []],
        rules=_BROKEN_QUENCH_RULES,
        quenched={"R7": []},
    )
    assert "quenched" not in state.to_json()
    events = play(state, "G20@0,4")
    assert kinds(events)[:2] == ["place", "fire_found"]


def test_a_tile_that_touched_the_ember_at_the_roll_and_comes_back_keeps_the_quench() -> None:
    """FP-DIE-6: only a tile that did not touch the ember at the roll ends the quench.

    ``Y2@0,0 G100@0,2 G120@0,4 Y1@1,1``, Y1 quenched with Y2, G100 and R4 (R4 has left
    since). R4 is placed back beside Y1 at 1,3 (red: no match on G100 and G120, so it
    collapses and falls right to 0,4): R4 touched Y1 at the roll, so Y1 stays quenched.
    """
    state = position(
        pyramid=["Y2@0,0", "G100@0,2", "G120@0,4", "Y1@1,1"],
        hands=[["R4", "G10"], ["B10"]],
        rules=_BROKEN_QUENCH_RULES,
        quenched={"Y1": ["Y2", "G100", "R4"]},
    )
    events = play(state, "R4@1,3", "right")
    assert kinds(events) == ["place", "collapse", "fall", "draw"]
    assert state.to_json()["quenched"] == {"Y1": ["Y2", "R4", "G100"]}
