"""Contract section 6 (mayhem): free air, collapse, explosion, fire, their order.

Rules FP-MAYHEM-*, FP-AIR-*, FP-COLLAPSE-*, FP-EXPLODE-*, FP-FIRE-* of docs/RULES.md.
The curse (check 5) is tested with the turn rules in ``test_contract_turns``; the fire
die in ``test_contract_fire_die``. In every test the active player holds a full hand of
5 and one tile (B4 or Y4) on their pile, so after the turn their pile holds exactly the
tiles mayhem sent under it, in order.
"""

from __future__ import annotations

from pyramids.texts import describe
from tests.flaming.helpers import hands, kinds, of_kind, out, piles, play, position, pyramid

# --- free air (check 1) ---------------------------------------------------------------


def test_a_tile_in_free_air_falls_twice_after_a_wood_fire() -> None:
    """FP-AIR-1, FP-AIR-2, FP-FIRE-4: "a tile in row >= 1 with no support at all. P chooses
    left or right"; a dropped tile is judged again like any other.

        row 2:           G60@2,2
        row 1:     G30@1,1     B30@1,3
        row 0: R40@0,0   G40@0,2     B40@0,4   (R7 played at 0,6)

    The blowtorch burns all five wood tiles (scan order: row 1, then row 0); stone G60 is
    left with nothing under it. Left: it drops to (1,1), still in free air. Right: it
    drops to the base at (0,2).
    """
    state = position(
        pyramid=["R40@0,0", "G40@0,2", "B40@0,4", "G30@1,1", "B30@1,3", "G60@2,2"],
        hands=[["R7", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["B4"], []],
    )
    events = play(state, "R7@0,6")
    assert kinds(events) == ["place", "fire", "free_air"]
    assert [b["tile"] for b in events[1].data["burnt"]] == ["G30", "B30", "R40", "G40", "B40"]
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "G60@2,2"}

    events = play(state, "left")
    assert kinds(events) == ["fall", "free_air"]
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "G60@1,1"}

    events = play(state, "right")
    assert kinds(events) == ["fall", "draw"]
    assert pyramid(state) == ["G60@0,2"]
    assert piles(state)[0] == ["G30", "B30", "R40", "G40", "B40"]
    assert out(state) == ["R7"]
    assert state.to_move == 1


# --- collapse (check 2) ------------------------------------------------------------------

_OVERHANG_BASE = [
    "Y60@0,0",
    "R60@0,2",
    "B40@0,4",
    "B20@0,6",
    "R10@1,1",
    "B30@1,3",
    "B10@1,5",
]


def test_an_overhanging_tile_that_fits_stays() -> None:
    """FP-FIT-3, FP-FIT-5: "A tile with one support is checked against that one alone"; an
    overhanging tile results from mayhem.

        row 2:         (Y100 played)  B4@2,4
        row 1:     R10@1,1      B30@1,3      B10@1,5
        row 0: Y60@0,0   R60@0,2      B40@0,4      B20@0,6

    Y100 is too heavy on R10 and B30, which go; it falls left onto Y60 and R60 and fits.
    B4 is left on B10 alone: blue and 4 <= 10, so it stays, overhanging.
    """
    state = position(
        pyramid=[*_OVERHANG_BASE, "B4@2,4"],
        hands=[["Y100", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "Y100@2,2")
    assert kinds(events) == ["place", "collapse"]
    assert "is too heavy (100 > 10 + 30)" in describe(events[1], "en")
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert pyramid(state) == [
        "Y60@0,0",
        "R60@0,2",
        "B40@0,4",
        "B20@0,6",
        "Y100@1,1",
        "B10@1,5",
        "B4@2,4",
    ]
    assert piles(state)[0] == ["R10", "B30"]


def test_an_overhanging_tile_that_does_not_fit_collapses_its_single_support() -> None:
    """FP-COLLAPSE-2, FP-FIT-3: "An overhanging misfit sends its single support under P's
    pile, then drops the same way."

    Same position with ``R30@2,4`` (fits on B30 + B10 by number 30). After Y100 falls left,
    R30 rests on B10 alone: 30 > 10 and no match, so B10 goes under the pile and R30
    falls; left, onto R60 and B40, where it fits (red, 30 <= 100).
    """
    state = position(
        pyramid=[*_OVERHANG_BASE, "R30@2,4"],
        hands=[["Y100", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    play(state, "Y100@2,2")
    events = play(state, "left")
    assert kinds(events) == ["fall", "collapse"]
    collapse = events[1]
    assert collapse.data["tile"] == "R30"
    assert collapse.data["collapsed"] == [{"tile": "B10", "at": "1,5"}]
    why = "is too heavy (30 > 10) and does not match B10 in colour or number"
    assert why in describe(collapse, "en")
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "R30@2,4"}
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert pyramid(state) == [
        "Y60@0,0",
        "R60@0,2",
        "B40@0,4",
        "B20@0,6",
        "Y100@1,1",
        "R30@1,3",
    ]
    assert piles(state)[0] == ["R10", "B30", "B10"]


def test_an_ember_among_collapsing_supports_goes_under_the_pile_not_out() -> None:
    """FP-FIRE-5: "In case of collapse, they go under the active player's draw pile like
    normal tiles."

    ``R100@1,1`` on ``Y1@0,0 B60@0,2``: 100 > 61; Y1 and B60 go under the pile.
    """
    state = position(
        pyramid=["Y1@0,0", "B60@0,2"],
        hands=[["R100", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["B4"], []],
    )
    events = play(state, "R100@1,1", "left")
    assert kinds(events) == ["place", "collapse", "fall", "draw"]
    assert pyramid(state) == ["R100@0,0"]
    assert piles(state)[0] == ["Y1", "B60"]
    assert out(state) == []


def test_standing_mayhem_in_a_hand_made_position_falls_on_the_active_player() -> None:
    """FP-NOTE-8 (D2): "mayhem standing at rest, resolved by the full scan after the next
    placement with the active player responsible".

    ``R100@1,1`` stands too heavy on ``R2@0,0 B2@0,2``; seat 1 plays ``G4@1,3`` (fits on
    B2 and G60): the scan finds the old misfit first and seat 1 takes R2 and B2.
    """
    state = position(
        pyramid=["R2@0,0", "B2@0,2", "G60@0,4", "R100@1,1"],
        hands=[["Y2"], ["G4", "Y6", "G2", "G6", "R4"]],
        piles=[[], ["B4"]],
        to_move=1,
    )
    events = play(state, "G4@1,3")
    assert kinds(events) == ["place", "collapse"]
    assert events[1].data["tile"] == "R100"
    assert state.current_player() == 1
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert pyramid(state) == ["R100@0,0", "G60@0,4", "G4@1,3"]
    assert piles(state) == [[], ["R2", "B2"]]


# --- explosion (check 3) ---------------------------------------------------------------


def test_a_group_of_three_connected_embers_explodes_together() -> None:
    """FP-EXPLODE-1: "The exploding group is that ember and every ember connected to it
    through touching embers."

        row 1:          G1@1,3 (played)  B7@1,5   R60@1,7
        row 0: Y60@0,0  R7@0,2   G60@0,4   B100@0,6   R100@0,8

    R7 and B7 do not touch each other; G1 touches both. All three leave the game; every
    tile touching one of them (R60, Y60, G60, B100) goes under the pile in scan order;
    R100 touches none and stays.
    """
    state = position(
        pyramid=["Y60@0,0", "R7@0,2", "G60@0,4", "B100@0,6", "R100@0,8", "B7@1,5", "R60@1,7"],
        hands=[["G1", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["B4"], []],
    )
    events = play(state, "G1@1,3")
    assert kinds(events) == ["place", "explosion", "draw"]
    assert sorted(e["tile"] for e in events[1].data["embers"]) == ["B7", "G1", "R7"]
    assert pyramid(state) == ["R100@0,8"]
    assert piles(state)[0] == ["R60", "Y60", "G60", "B100"]
    assert sorted(out(state)) == ["B7", "G1", "R7"]


# --- fire (check 4) ----------------------------------------------------------------------


def test_a_coal_fire_does_not_spread_through_wood() -> None:
    """FP-FIRE-2, FP-TILE-6: "a coal's fire runs through straw only".

    ``B4@0,0 R10@0,2 R4@0,4 G60@0,6``; play ``G1@1,5`` (green, fits): R4 burns, but the
    fire does not cross the wood R10, so B4 survives. G1 leaves the game.
    """
    state = position(
        pyramid=["B4@0,0", "R10@0,2", "R4@0,4", "G60@0,6"],
        hands=[["G1", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "G1@1,5")
    assert kinds(events) == ["place", "fire", "draw"]
    assert events[1].data["burnt"] == [{"tile": "R4", "at": "0,4"}]
    assert pyramid(state) == ["B4@0,0", "R10@0,2", "G60@0,6"]
    assert piles(state)[0] == ["R4"]
    assert out(state) == ["G1"]


def test_a_blowtorch_fire_spreads_through_wood_and_straw() -> None:
    """FP-FIRE-2: "a blowtorch's through straw and wood."

    Same row, play ``R7@1,5`` (red like R4): R4, then R10, then B4 burn; in scan order
    B4, R10, R4 go under the pile.
    """
    state = position(
        pyramid=["B4@0,0", "R10@0,2", "R4@0,4", "G60@0,6"],
        hands=[["R7", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "R7@1,5")
    assert kinds(events) == ["place", "fire", "draw"]
    assert pyramid(state) == ["G60@0,6"]
    assert piles(state)[0] == ["B4", "R10", "R4"]
    assert out(state) == ["R7"]


def test_a_wood_fire_is_stopped_by_stone_and_by_an_ember() -> None:
    """FP-FIRE-2: "Stone, the millstone and embers carry no fire, so they stop it."

    ``Y10@0,0 G1@0,2 Y20@0,4 B60@0,6 Y30@0,8``; play ``B7@1,5`` (blue like B60): Y20
    burns; Y10 is shielded by the coal G1 and Y30 by the stone B60.
    """
    state = position(
        pyramid=["Y10@0,0", "G1@0,2", "Y20@0,4", "B60@0,6", "Y30@0,8"],
        hands=[["B7", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "B7@1,5")
    assert kinds(events) == ["place", "fire", "draw"]
    assert events[1].data["burnt"] == [{"tile": "Y20", "at": "0,4"}]
    assert pyramid(state) == ["Y10@0,0", "G1@0,2", "B60@0,6", "Y30@0,8"]
    assert piles(state)[0] == ["Y20"]
    assert out(state) == ["B7"]


def test_a_fire_started_by_a_fall() -> None:
    """FP-FIRE-4: "Fires start whenever an ember touches what it ignites after a check,
    however the contact arose (placement, fall or collapse)."

    ``R40@0,0 Y30@0,2 G10@0,4``; ``B7@1,1`` does not fit and collapses R40 and Y30; it
    falls right to (0,2), next to the wood G10, which then burns.
    """
    state = position(
        pyramid=["R40@0,0", "Y30@0,2", "G10@0,4"],
        hands=[["B7", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "B7@1,1", "right")
    assert kinds(events) == ["place", "collapse", "fall", "fire", "draw"]
    assert of_kind(events, "fire")[0].data["at"] == "0,2"
    assert pyramid(state) == []
    assert piles(state)[0] == ["R40", "Y30", "G10"]
    assert out(state) == ["B7"]


# --- the order of the checks (FP-MAYHEM-1, FP-MAYHEM-2) --------------------------------


def test_a_collapse_is_resolved_before_a_fire_next_to_it() -> None:
    """FP-MAYHEM-2: "So a tile that does not fit collapses before a fire next to it is even
    looked at."

    ``B7@1,1`` on the wood ``R40@0,0 Y30@0,2`` does not fit: they go under the pile
    unburnt (F 001 "l'incendie se déclare s'il n'y a pas d'effondrement"). Falling left,
    B7 touches nothing it ignites and stays.
    """
    state = position(
        pyramid=["R40@0,0", "Y30@0,2", "G10@0,4"],
        hands=[["B7", "Y2", "Y6", "G2", "G4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "B7@1,1")
    assert kinds(events) == ["place", "collapse"]
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert pyramid(state) == ["B7@0,0", "G10@0,4"]
    assert piles(state)[0] == ["R40", "Y30"]
    assert out(state) == []


def test_an_explosion_is_resolved_before_a_fire() -> None:
    """FP-MAYHEM-1: "3 explosion (FP-EXPLODE), 4 fire (FP-FIRE)".

    ``G4@0,0 B60@0,2 R100@0,4 R7@1,3``; ``G1@1,1`` touches the straw G4 and the ember
    R7: they explode; G4 is blown under the pile (not burnt) with B60 and R100.
    """
    state = position(
        pyramid=["G4@0,0", "B60@0,2", "R100@0,4", "R7@1,3"],
        hands=[["G1", "Y2", "Y6", "G2", "R4"], ["R2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "G1@1,1")
    assert kinds(events) == ["place", "explosion", "draw"]
    assert pyramid(state) == []
    assert piles(state)[0] == ["G4", "B60", "R100"]
    assert sorted(out(state)) == ["G1", "R7"]


def test_a_fire_is_resolved_before_the_curse() -> None:
    """FP-MAYHEM-1, R "The Curse": "Only check for the curse after checking for collapses,
    explosions, and fires."

        row 2:        G1@2,2 (resting on G60 alone)
        row 1:   (Y6 played)   G60@1,3
        row 0: R6@0,0   B6@0,2    G100@0,4

    ``Y6@1,1`` makes a mini-pyramid of 6s, but it also touches the coal G1: the fire
    burns Y6, R6 and B6 first, so they go under the active seat 0's pile, not under
    seat 1's as a curse would send them.
    """
    state = position(
        pyramid=["R6@0,0", "B6@0,2", "G100@0,4", "G60@1,3", "G1@2,2"],
        hands=[["Y6", "Y2", "G2", "G4", "R4"], ["R2"]],
        piles=[["Y4"], ["B2"]],
    )
    events = play(state, "Y6@1,1")
    assert kinds(events) == ["place", "fire", "draw"]
    assert [b["tile"] for b in events[1].data["burnt"]] == ["Y6", "R6", "B6"]
    assert pyramid(state) == ["G100@0,4", "G60@1,3"]
    assert piles(state) == [["Y6", "R6", "B6"], ["B2"]]
    assert out(state) == ["G1"]


# --- scan order (FP-GEOM-4) ----------------------------------------------------------------


def test_scan_order_left_first_decides_which_ember_burns() -> None:
    """FP-GEOM-4, FP-FIRE-1: "within a row from the smallest column to the largest".

    ``R2@1,1`` touches the coals ``Y1@1,-1`` and ``G1@1,3``, both in row 1: the left one,
    Y1, lights the fire and leaves the game; G1 has nothing left to burn and stays.
    """
    state = position(
        pyramid=["Y60@0,-2", "R100@0,0", "G100@0,2", "G60@0,4", "Y1@1,-1", "G1@1,3"],
        hands=[["R2", "Y2", "G2", "G4", "R4"], ["B2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "R2@1,1")
    assert kinds(events) == ["place", "fire", "draw"]
    assert events[1].data["ember"] == "Y1"
    assert out(state) == ["Y1"]
    assert pyramid(state) == ["Y60@0,-2", "R100@0,0", "G100@0,2", "G60@0,4", "G1@1,3"]
    assert piles(state)[0] == ["R2"]


def test_scan_order_top_row_first_decides_which_ember_burns() -> None:
    """FP-GEOM-4, FP-FIRE-1: "rows from the highest down to row 0".

    ``R2@1,1`` touches the coal ``Y1@1,-1`` on its left and the coal ``G1@2,2`` above
    it (resting on G60): G1, in the higher row, lights the fire first; Y1 stays.
    """
    state = position(
        pyramid=[
            "Y60@0,-2",
            "R100@0,0",
            "G100@0,2",
            "B60@0,4",
            "Y1@1,-1",
            "G60@1,3",
            "G1@2,2",
        ],
        hands=[["R2", "Y2", "G2", "G4", "R4"], ["B2"]],
        piles=[["Y4"], []],
    )
    events = play(state, "R2@1,1")
    assert kinds(events) == ["place", "fire", "draw"]
    assert events[1].data["ember"] == "G1"
    assert out(state) == ["G1"]
    assert pyramid(state) == [
        "Y60@0,-2",
        "R100@0,0",
        "G100@0,2",
        "B60@0,4",
        "Y1@1,-1",
        "G60@1,3",
    ]
    assert hands(state)[0] == ["Y2", "G2", "G4", "R4", "Y4"]
