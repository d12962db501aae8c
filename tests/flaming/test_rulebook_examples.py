"""Every worked example of the rulebook R, as a test (docs/RULES.md, FP-EX-*).

Placement diagrams A-L, the collapse step by step, the straw fire, the wood fire, the
explosion and the curse. Each position is reconstructed in the project's notation
(``TILE@row,col``) with its coordinates chosen explicitly; where a diagram contradicts
its own text or the contract, the docstring says so and the contract's reading is tested.
"""

from __future__ import annotations

from pyramids.flaming.state import FALL, NONE
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
    pyramid,
    spots,
)

# --- Building Regulations (Placement Rules): diagrams A to I -------------------------


def test_rulebook_diagram_a_empty_table_has_the_single_spot_0_0() -> None:
    """FP-EX-A, FP-PLACE-2: "If there are no tiles (A) ... you can play any tile you'd like."

    Contract section 4: on an empty pyramid the only spot is (0, 0).
    """
    state = position(pyramid=[], hands=[["R100", "B120"], ["Y30"]])
    assert spots(state) == ["0,0"]
    assert legal(state) == ["R100@0,0", "B120@0,0"]


def test_rulebook_diagram_b_one_tile_gives_two_spots_beside_it() -> None:
    """FP-EX-B, FP-PLACE-5: "B has two possible places."

    ``R100@0,0`` alone: the spots are the base ends (0,-2) and (0,2).
    """
    state = position(pyramid=["R100@0,0"], hands=[["B120"], ["Y30"]])
    assert spots(state) == ["0,-2", "0,2"]
    assert legal(state) == ["B120@0,-2", "B120@0,2"]


def test_rulebook_diagram_c_two_tiles_force_the_spot_above_them() -> None:
    """FP-EX-C, FP-PLACE-3: "two tiles next to each other with no tile on top of them,
    that is the place where you must put your tile."

    ``R100@0,0 B120@0,2``: (1,1) is the only spot.
    """
    state = position(pyramid=["R100@0,0", "B120@0,2"], hands=[["Y30", "R40"], ["Y2"]])
    assert spots(state) == ["1,1"]
    assert sorted(legal(state)) == ["R40@1,1", "Y30@1,1"]


def test_rulebook_diagram_d_three_tiles_force_the_spot_over_the_first_gap() -> None:
    """FP-EX-D, FP-PLACE-3, FP-PLACE-4: "that is the place where you must put your tile" (D).

    ``R100@0,0 B120@0,2 Y30@0,4``: diagrams D and E draw one forced spot each; under the
    contract both are forced, F = {(1,1), (1,3)}, and the player picks one. Playing (1,1)
    (D's spot) leaves (1,3) as the only spot.
    """
    state = position(pyramid=["R100@0,0", "B120@0,2", "Y30@0,4"], hands=[["R40", "Y2"], ["G4"]])
    assert spots(state) == ["1,1", "1,3"]
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["R100@0,0", "B120@0,2", "Y30@0,4", "R40@1,1"]
    assert spots(state) == ["1,3"]


def test_rulebook_diagram_e_three_tiles_force_the_spot_over_the_second_gap() -> None:
    """FP-EX-E, FP-PLACE-3, FP-PLACE-4: "that is the place where you must put your tile" (E).

    Same base as D; playing (1,3) (E's spot) leaves (1,1) as the only spot.
    """
    state = position(pyramid=["R100@0,0", "B120@0,2", "Y30@0,4"], hands=[["R40", "Y2"], ["G4"]])
    assert "Y2@1,3" in legal(state)
    events = play(state, "Y2@1,3")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["R100@0,0", "B120@0,2", "Y30@0,4", "Y2@1,3"]
    assert spots(state) == ["1,1"]


def test_rulebook_diagram_f_complete_triangle_extends_the_base_at_either_end() -> None:
    """FP-EX-F, FP-PLACE-5: "If a pyramid shape is complete, extend the pyramid's base on
    either side (F and G)".

    ``R100@0,0 B120@0,2 R40@1,1``: the spots are (0,-2) and (0,4).
    """
    state = position(pyramid=["R100@0,0", "B120@0,2", "R40@1,1"], hands=[["Y30"], ["Y2"]])
    assert spots(state) == ["0,-2", "0,4"]
    assert legal(state) == ["Y30@0,-2", "Y30@0,4"]


def test_rulebook_diagram_g_complete_pyramid_extends_the_base_at_either_end() -> None:
    """FP-EX-G, FP-PLACE-5: "If a pyramid shape is complete, extend the pyramid's base".

    Inconsistent diagram: it lists ``R100 B120 Y30`` with only ``R40`` and ``Y2`` above,
    which leaves (2,2) forced under FP-PLACE-3 (checked first below). Read as a complete
    pyramid, with ``R4@2,2`` on top (fits: red like R40, 4 <= 42): the base ends
    (0,-2) and (0,6) are the spots.
    """
    as_drawn = position(
        pyramid=["R100@0,0", "B120@0,2", "Y30@0,4", "R40@1,1", "Y2@1,3"],
        hands=[["G30"], ["G2"]],
    )
    assert spots(as_drawn) == ["2,2"]
    complete = position(
        pyramid=["R100@0,0", "B120@0,2", "Y30@0,4", "R40@1,1", "Y2@1,3", "R4@2,2"],
        hands=[["G30"], ["G2"]],
    )
    assert spots(complete) == ["0,-2", "0,6"]


def test_rulebook_diagram_h_gap_in_the_base_and_spot_above_are_both_offered() -> None:
    """FP-EX-H, FP-PLACE-3: "multiple free spaces on top of two tiles or between tiles in
    the bottom row, in which case you can choose which space to use (H and I)."

    ``R100@0,0 B120@0,2 R6@0,6``: F = {(1,1), (0,4)} (scan order: row 1 first).
    """
    state = position(pyramid=["R100@0,0", "B120@0,2", "R6@0,6"], hands=[["Y30"], ["Y2"]])
    assert spots(state) == ["1,1", "0,4"]
    assert legal(state) == ["Y30@1,1", "Y30@0,4"]


def test_rulebook_diagram_i_offers_every_spot_over_a_full_base() -> None:
    """FP-EX-I, FP-PLACE-3: "you can choose which space to use (H and I)."

    Inconsistent diagram: ``R40@0,0 Y2@0,2 Y30@0,4 R6@0,6`` is drawn with two spots,
    (1,1) and (1,5), but nothing stands on (1,3), so the contract forces it too:
    F = {(1,1), (1,3), (1,5)}.
    """
    state = position(pyramid=["R40@0,0", "Y2@0,2", "Y30@0,4", "R6@0,6"], hands=[["G4"], ["B4"]])
    assert spots(state) == ["1,1", "1,3", "1,5"]


def test_rulebook_diagram_i_with_the_middle_filled_has_exactly_the_two_drawn_spots() -> None:
    """FP-EX-I, FP-PLACE-3: "one above the gap between the first two tiles, one above the
    gap between the last two."

    The diagram's two spots are exactly F once (1,3) is taken: ``Y4@1,3`` (fits: yellow,
    4 <= 32) on ``Y2@0,2 Y30@0,4``.
    """
    state = position(
        pyramid=["R40@0,0", "Y2@0,2", "Y30@0,4", "R6@0,6", "Y4@1,3"], hands=[["G4"], ["B4"]]
    )
    assert spots(state) == ["1,1", "1,5"]


# --- Mayhem?: diagrams J, K, L ----------------------------------------------------------


def test_rulebook_diagram_j_red_40_fits_because_colours_match() -> None:
    """FP-EX-J, FP-FIT-1: "it must match one of them in either colour (J) or number (K)".

    ``R40@1,1`` on ``B120@0,0 R100@0,2``: red matches R100, 40 <= 220: no mayhem.
    """
    state = position(pyramid=["B120@0,0", "R100@0,2"], hands=[["R40", "G2"], ["Y2"]])
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["B120@0,0", "R100@0,2", "R40@1,1"]
    assert piles(state) == [[], []]
    assert state.to_move == 1


def test_rulebook_diagram_k_red_100_fits_because_numbers_match() -> None:
    """FP-EX-K, FP-FIT-1: "it must match one of them in either colour (J) or number (K)".

    ``R100@1,1`` on ``B120@0,0 Y100@0,2``: 100 matches Y100, 100 <= 220: no mayhem.
    """
    state = position(pyramid=["B120@0,0", "Y100@0,2"], hands=[["R100", "G2"], ["Y2"]])
    events = play(state, "R100@1,1")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["B120@0,0", "Y100@0,2", "R100@1,1"]
    assert state.to_move == 1


def test_rulebook_diagram_l_legal_weight_40_within_106() -> None:
    """FP-EX-L, FP-FIT-1: "its weight (40) is equal to or less than the sum of the weights
    of the bottom tiles (106)."

    ``R40@1,1`` on ``R100@0,0 R6@0,2``: red matches, 40 <= 106: no mayhem.
    """
    state = position(pyramid=["R100@0,0", "R6@0,2"], hands=[["R40", "G2"], ["Y2"]])
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["R100@0,0", "R6@0,2", "R40@1,1"]


# --- A Collapse Step by Step -------------------------------------------------------------


def test_rulebook_collapse_step_by_step_takes_four_tiles_and_leaves_a_base_gap() -> None:
    """FP-EX-COLLAPSE, FP-COLLAPSE-1, FP-COLLAPSE-3, FP-FIT-3: "The 20 and 6 collapse: put
    them under the active player's draw pile."

    Inconsistent example: the text says "a 100 on top of a 20 and a 6", while the diagram's
    bottom row reads orange 20, red 20, yellow 120, red 40 (there is no 6, no orange tile,
    colours change between steps, and step 4 puts the 100 on two 20s, which would be too
    heavy, while the text says "it's not too heavy"); the final row (a red 100, a gap,
    red 20, blue 100, a red 60) matches no consistent sequence. The text is followed:

        row 2:            B100@2,2 (placed)   R30@2,4
        row 1:      B20@1,1          R6@1,3          R60@1,5
        row 0: R20@0,0      Y120@0,2       R40@0,4        G60@0,6

    1. ``B100@2,2`` on ``B20 R6`` is too heavy (100 > 26; blue matches, so weight is the
       only problem). 2. B20 then R6 go under the pile. 3. Left: B100 drops to (1,1).
    4. On ``R20 Y120`` it is not too heavy (100 <= 140) but matches neither colour nor
       number: R20 then Y120 go under the pile. 5. Left: B100 drops to the base at (0,0).
    ``R30@2,4`` now rests on ``R60@1,5`` alone and stays (note *: "still OK because it is
    the same colour and lighter than the one below"). Four tiles went under the pile and
    the next player must fill the base gap (0,2).
    """
    state = position(
        pyramid=[
            "R20@0,0",
            "Y120@0,2",
            "R40@0,4",
            "G60@0,6",
            "B20@1,1",
            "R6@1,3",
            "R60@1,5",
            "R30@2,4",
        ],
        hands=[["B100", "Y2", "Y4", "G2", "G4"], ["B2"]],
        piles=[["B4"], ["B6"]],
    )
    assert spots(state) == ["2,2"]

    # Steps 1-2: too heavy, the 20 and the 6 collapse; the 100 must fall.
    events = play(state, "B100@2,2")
    assert kinds(events) == ["place", "collapse"]
    assert "too heavy: 100 > 20 + 6" in describe(events[1], "en")
    assert "neither" not in describe(events[1], "en")
    assert events[1].data["collapsed"] == [
        {"tile": "B20", "at": "1,1"},
        {"tile": "R6", "at": "1,3"},
    ]
    assert piles(state)[0] == ["B4", "B20", "R6"]
    assert state.pending == (FALL, state.pending[1])
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "B100@2,2"}
    assert legal(state) == ["left", "right"]

    # Steps 3-4: left; the 100 does not match R20 and Y120, though not too heavy.
    events = play(state, "left")
    assert kinds(events) == ["fall", "collapse"]
    assert events[0].data["to"] == "1,1"
    assert "matches neither R20 nor Y120 in colour or number" in describe(events[1], "en")
    assert "too heavy" not in describe(events[1], "en")
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "B100@1,1"}

    # Step 5: left to the bottom row; the overhanging R30 fits on R60 alone.
    events = play(state, "left")
    assert kinds(events) == ["fall", "draw"]
    assert pyramid(state) == ["B100@0,0", "R40@0,4", "G60@0,6", "R60@1,5", "R30@2,4"]
    # Four tiles went under the pile, left support first each time; B4 was drawn.
    assert piles(state)[0] == ["B20", "R6", "R20", "Y120"]
    assert hands(state)[0] == ["Y2", "Y4", "G2", "G4", "B4"]
    assert state.pending[0] == NONE
    assert state.to_move == 1
    assert spots(state) == ["0,2"]


# --- More Mayhem: Straw Fires ----------------------------------------------------------


def test_rulebook_straw_fire_example_burns_the_2_and_the_6() -> None:
    """FP-EX-STRAW, FP-FIRE-1..3: "The fire spreads down immediately to the 6, an adjacent
    straw tile."

    ``R6@0,0 B100@0,2 Y30@0,4 Y1@1,3``; play ``B2@1,1`` (fits: blue like B100,
    2 <= 106). Inconsistent diagram: it puts the ember "on top of the first two" (it would
    already touch the 6) and draws a yellow 2, which would not fit on R6 and B100; the text
    ("on top of the 6 and 100", "same colour as the 100") is followed. Y1 touches B2, the
    fire spreads to R6; B2 then R6 (scan order) go under the pile, Y1 leaves the game,
    ``B100 Y30`` remain.
    """
    state = position(
        pyramid=["R6@0,0", "B100@0,2", "Y30@0,4", "Y1@1,3"],
        hands=[["B2", "G4", "G6", "Y4", "R4"], ["G2"]],
        piles=[["B4"], []],
    )
    events = play(state, "B2@1,1")
    assert kinds(events) == ["place", "fire", "draw"]
    assert events[1].data["burnt"] == [{"tile": "B2", "at": "1,1"}, {"tile": "R6", "at": "0,0"}]
    assert events[1].data["ember_removed"] is True
    assert pyramid(state) == ["B100@0,2", "Y30@0,4"]
    assert piles(state)[0] == ["B2", "R6"]
    assert hands(state)[0] == ["G4", "G6", "Y4", "R4", "B4"]
    assert out(state) == ["Y1"]


# --- Wood Fire Example --------------------------------------------------------------------


def test_rulebook_wood_fire_example_burns_four_and_the_30_is_shielded() -> None:
    """FP-EX-WOOD, FP-FIRE-2: "The yellow 30 is shielded by the 1 Ember and the 100: Ember
    and stone tiles do not spread wood fires."

    Inconsistent example: the row description repeats blue 100 three times and red 40
    twice (each tile exists once) and the text's yellow 30 is a red 30 in the final
    diagram. Reconstruction, keeping the order "yellow 1, red 40, ..., blue 100", the
    four survivors of the final diagram (a 1, a 30, a red 100, a blue 100) and four burnt
    tiles (R10 and B10 are chosen to make up the four):

        row 1:               R10@1,5  B7@1,7 (placed)  B10@1,9
        row 0: R100@0,0 Y30@0,2 Y1@0,4 R40@0,6   B20@0,8   B100@0,10

    ``B7@1,7`` on ``R40 B20`` fits (blue, 7 <= 60) and lights R10, B10, R40, B20; the fire
    stops at Y1 (an ember) and B100 (stone), so Y30 never burns. The four burnt tiles go
    under the pile in scan order, B7 leaves the game, four tiles remain.
    """
    state = position(
        pyramid=[
            "R100@0,0",
            "Y30@0,2",
            "Y1@0,4",
            "R40@0,6",
            "B20@0,8",
            "B100@0,10",
            "R10@1,5",
            "B10@1,9",
        ],
        hands=[["B7", "G4", "G6", "Y4", "R4"], ["G2"]],
        piles=[["B4"], []],
    )
    events = play(state, "B7@1,7")
    assert kinds(events) == ["place", "fire", "draw"]
    assert events[1].data["burnt"] == [
        {"tile": "R10", "at": "1,5"},
        {"tile": "B10", "at": "1,9"},
        {"tile": "R40", "at": "0,6"},
        {"tile": "B20", "at": "0,8"},
    ]
    assert pyramid(state) == ["R100@0,0", "Y30@0,2", "Y1@0,4", "B100@0,10"]
    assert piles(state)[0] == ["R10", "B10", "R40", "B20"]
    assert out(state) == ["B7"]


# --- Explosions ---------------------------------------------------------------------------


def test_rulebook_explosion_example_leaves_only_green_20() -> None:
    """FP-EX-EXPLODE, FP-EXPLODE-1, FP-EXPLODE-2: "Every tile, no matter its material, that
    directly touches these Ember cards goes under the active player's draw pile".

    ``G20@0,0 R100@0,2 B100@0,4 Y30@0,6 R60@1,1 B7@1,3 B60@2,2``; the diagram does not
    say where the top 60 stands, and (2,2) is the only spot where it fits (blue like B7,
    60 like R60, 60 <= 67). Play ``Y1@1,5``: B7 and Y1 touch; B60, R60, R100, B100, Y30
    go under the pile in scan order, both embers leave the game, G20 remains.
    """
    state = position(
        pyramid=[
            "G20@0,0",
            "R100@0,2",
            "B100@0,4",
            "Y30@0,6",
            "R60@1,1",
            "B7@1,3",
            "B60@2,2",
        ],
        hands=[["Y1", "G4", "G6", "Y4", "R4"], ["G2"]],
        piles=[["B4"], []],
    )
    assert spots(state) == ["1,5"]
    events = play(state, "Y1@1,5")
    assert kinds(events) == ["place", "explosion", "draw"]
    assert [v["tile"] for v in events[1].data["victims"]] == ["B60", "R60", "R100", "B100", "Y30"]
    assert pyramid(state) == ["G20@0,0"]
    assert piles(state)[0] == ["B60", "R60", "R100", "B100", "Y30"]
    assert sorted(out(state)) == ["B7", "Y1"]


# --- The Curse -------------------------------------------------------------------------------


def test_rulebook_curse_example_three_6s_go_to_the_player_on_the_right() -> None:
    """FP-EX-CURSE, FP-CURSE-2, FP-CURSE-3: "The three tiles go under the draw pile of the
    player to the right of the active player."

    ``R6@0,0 B6@0,2``; seat 0 of 3 plays ``Y6@1,1`` (fits: number 6, 6 <= 12). The
    mini-pyramid of 6s goes, top then left then right, under the pile of seat 2 (seat 0's
    right), who becomes P; the active seat 0 still draws and seat 1 plays next.
    """
    state = position(
        pyramid=["R6@0,0", "B6@0,2"],
        hands=[["Y6", "G4"], ["G2"], ["B2"]],
        piles=[["Y4"], ["R4"], ["B4"]],
    )
    events = play(state, "Y6@1,1")
    assert kinds(events) == ["place", "curse", "draw"]
    curse = of_kind(events, "curse")[0]
    assert curse.data["seat"] == 0
    assert curse.data["target"] == 2
    assert pyramid(state) == []
    assert piles(state) == [[], ["R4"], ["B4", "Y6", "R6", "B6"]]
    assert hands(state)[0] == ["G4", "Y4"]
    assert state.to_move == 1
