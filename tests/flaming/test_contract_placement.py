"""Contract section 4 (placement) and section 5 (fit): where a tile may go and when it fits.

Rules FP-PLACE-*, FP-GEOM-5/6, FP-FIT-* of docs/RULES.md. Positions are written in the
project's notation; every test plays the placement and checks the resulting pyramid.
"""

from __future__ import annotations

from pyramids.texts import describe
from tests.flaming.helpers import kinds, legal, of_kind, play, position, pyramid, spots

# --- where a tile may go (FP-PLACE) ------------------------------------------------------


def test_forced_spot_must_be_used_even_by_a_tile_that_does_not_fit() -> None:
    """FP-PLACE-4: "If F is not empty the player chooses one spot of F, whether or not the
    tile fits there."

    ``R100@0,0 B120@0,2``: G2 (no colour or number in common) may only go to (1,1); the
    base ends are not offered while F is not empty.
    """
    state = position(pyramid=["R100@0,0", "B120@0,2"], hands=[["Y30", "G2"], ["B2"]])
    assert legal(state) == ["Y30@1,1", "G2@1,1"]
    events = play(state, "G2@1,1")
    assert kinds(events) == ["place", "collapse"]


def test_legal_placements_are_every_hand_tile_on_every_forced_spot() -> None:
    """FP-PLACE-4: "the legal placements are all (hand tile, spot of F) pairs."

    ``R100@0,0 B120@0,2 Y30@0,4``, hand ``G2 B4 Y60``: 3 tiles x F = {(1,1), (1,3)}.
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2", "Y30@0,4"], hands=[["G2", "B4", "Y60"], ["R2"]]
    )
    assert legal(state) == [
        "Y60@1,1",
        "G2@1,1",
        "B4@1,1",
        "Y60@1,3",
        "G2@1,3",
        "B4@1,3",
    ]


def test_base_gaps_strictly_between_the_base_ends_are_forced() -> None:
    """FP-PLACE-3: "every empty base position strictly between the leftmost and rightmost
    base tile."

    ``R100@0,0 B6@0,6``: the gaps (0,2) and (0,4) are F; the ends (0,-2), (0,8) are not.
    """
    state = position(pyramid=["R100@0,0", "B6@0,6"], hands=[["Y30"], ["R2"]])
    assert spots(state) == ["0,2", "0,4"]


def test_a_spot_with_one_support_is_not_offered() -> None:
    """FP-PLACE-3, FP-FIT-5: "every empty position in row >= 1 whose two supports are both
    occupied"; players never place an overhanging tile.

    ``R100@0,0 B120@0,2 Y30@0,4 R40@1,1``: (2,2) has only R40 under it, so (1,3) alone.
    """
    state = position(pyramid=["R100@0,0", "B120@0,2", "Y30@0,4", "R40@1,1"], hands=[["Y2"], ["R2"]])
    assert spots(state) == ["1,3"]


def test_base_extension_to_the_left_uses_negative_columns() -> None:
    """FP-GEOM-5, FP-GEOM-6: "Extending the base left of column 0 gives columns -2, -4, ...,
    e.g. R2@0,-2"; columns are never renumbered.

    ``R100@0,0 B120@0,2 R40@1,1`` is complete; play ``Y30@0,-2``: the tiles keep their
    columns and the new forced spot is (1,-1).
    """
    state = position(pyramid=["R100@0,0", "B120@0,2", "R40@1,1"], hands=[["Y30", "R2"], ["B2"]])
    assert spots(state) == ["0,-2", "0,4"]
    events = play(state, "Y30@0,-2")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["Y30@0,-2", "R100@0,0", "B120@0,2", "R40@1,1"]
    assert spots(state) == ["1,-1"]


def test_base_ends_sit_beside_the_leftmost_and_rightmost_base_tiles() -> None:
    """FP-GEOM-6: "The base ends are (0, a-2) and (0, b+2), where a and b are the columns of
    the leftmost and rightmost base tiles."

    ``R2@0,-4`` alone: the ends are (0,-6) and (0,-2).
    """
    state = position(pyramid=["R2@0,-4"], hands=[["Y30"], ["B2"]])
    assert spots(state) == ["0,-6", "0,-2"]


def test_a_base_end_tile_always_fits() -> None:
    """FP-FIT-4: "A base tile always fits, whatever its colour and weight."

    The millstone ``W200`` played beside ``Y2@0,0`` causes no mayhem.
    """
    state = position(pyramid=["Y2@0,0"], hands=[["W200", "R2"], ["B2"]])
    events = play(state, "W200@0,2")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["Y2@0,0", "W200@0,2"]


# --- when a tile fits (FP-FIT) -----------------------------------------------------------


def test_weight_equal_to_the_sum_of_the_supports_fits() -> None:
    """FP-FIT-1: "its weight is at most the sum of their weights".

    ``R40@1,1`` on ``R20@0,0 B20@0,2``: 40 <= 20 + 20 and red matches: no mayhem.
    """
    state = position(pyramid=["R20@0,0", "B20@0,2"], hands=[["R40", "G2"], ["B2"]])
    assert kinds(play(state, "R40@1,1")) == ["place"]
    assert pyramid(state) == ["R20@0,0", "B20@0,2", "R40@1,1"]


def test_weight_over_the_sum_of_the_supports_collapses() -> None:
    """FP-FIT-1, FP-COLLAPSE-1: "is overweight (its number is greater than the sum of the
    two tiles below it)".

    ``R40@1,1`` on ``R20@0,0 B10@0,2``: red matches but 40 > 30: both supports go under
    the pile, left first, and R40 must fall.
    """
    state = position(
        pyramid=["R20@0,0", "B10@0,2"], hands=[["R40", "G2", "G4", "G6", "Y2"], ["B2"]]
    )
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place", "collapse"]
    assert "is too heavy: 40 > 20 + 10" in describe(events[1], "en")
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "R40@1,1"}
    assert state.to_json()["piles"][0] == ["R20", "B10"]


def test_a_tile_matching_neither_colour_nor_number_collapses() -> None:
    """FP-FIT-1: "doesn't match the colour or number of either tile below it".

    ``G30@1,1`` on ``R100@0,0 B120@0,2``: light enough but no colour or number in common.
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2"], hands=[["G30", "G2", "G4", "G6", "Y2"], ["B2"]]
    )
    events = play(state, "G30@1,1")
    assert kinds(events) == ["place", "collapse"]
    assert "matches neither R100 nor B120 in colour or number" in describe(events[1], "en")
    assert "too heavy" not in describe(events[1], "en")


def test_millstone_on_top_fits_when_its_supports_weigh_200() -> None:
    """FP-FIT-2: "on top it fits exactly when its supports weigh 200 or more together".

    ``W200@1,1`` on ``R100@0,0 B100@0,2``: every colour matches, 200 <= 200.
    """
    state = position(pyramid=["R100@0,0", "B100@0,2"], hands=[["W200", "G2"], ["B2"]])
    assert kinds(play(state, "W200@1,1")) == ["place"]
    assert pyramid(state) == ["R100@0,0", "B100@0,2", "W200@1,1"]


def test_millstone_on_top_collapses_when_too_heavy() -> None:
    """FP-FIT-2, R "Wild Tile": "It can cause a collapse due to its weight but never because
    of a colour mismatch."

    ``W200@1,1`` on ``R100@0,0 B60@0,2``: 200 > 160.
    """
    state = position(
        pyramid=["R100@0,0", "B60@0,2"], hands=[["W200", "G2", "G4", "G6", "Y2"], ["B2"]]
    )
    events = play(state, "W200@1,1")
    assert kinds(events) == ["place", "collapse"]
    assert "is too heavy: 200 > 100 + 60" in describe(events[1], "en")


def test_any_tile_on_a_millstone_matches_its_colour() -> None:
    """FP-FIT-2: "The millstone matches every colour, as the tile on top and as a support".

    ``Y120@1,1`` on ``W200@0,0 G2@0,2``: yellow matches the millstone, 120 <= 202.
    """
    state = position(pyramid=["W200@0,0", "G2@0,2"], hands=[["Y120", "R2"], ["B2"]])
    assert kinds(play(state, "Y120@1,1")) == ["place"]
    assert pyramid(state) == ["W200@0,0", "G2@0,2", "Y120@1,1"]


def test_millstone_is_not_wild_in_number_for_the_curse() -> None:
    """FP-FIT-2, FP-CURSE-2: the millstone's "number matches only 200".

    ``R6@1,1`` on ``W200@0,0 B6@0,2`` fits, but the three numbers are 6, 200, 6: no curse.
    """
    state = position(pyramid=["W200@0,0", "B6@0,2"], hands=[["R6", "G2"], ["B2"]])
    events = play(state, "R6@1,1")
    assert kinds(events) == ["place"]
    assert of_kind(events, "curse") == []
    assert pyramid(state) == ["W200@0,0", "B6@0,2", "R6@1,1"]
