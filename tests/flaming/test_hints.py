"""Per-spot fit hints for the seat that must place (FP-FIT-1, FP-PLACE-4), from the engine.

``placement_hints(view)`` answers, for each hand tile and each legal spot, whether the
tile fits there and, if not, why, with the weights involved: the browser and bots read
it instead of keeping their own copy of the fit rule.
"""

from __future__ import annotations

import itertools
import json

from pyramids.flaming.tiles import NUM_TILES, fit_parts, fits
from pyramids.flaming.view import placement_hints
from tests.flaming.helpers import play, position


def test_hints_say_which_tile_fits_on_which_spot_and_why_not() -> None:
    """FP-FIT-1: "its weight is at most the sum of their weights AND it shares a colour or a
    number with at least one of them."

    ``R100@0,0 B120@0,2 Y30@0,4``: F = {1,1 1,3} (FP-EX-D). R40 fits on 1,1 (red,
    40 <= 220) but matches neither B120 nor Y30 on 1,3; W200 fits on 1,1 (200 <= 220,
    FP-FIT-2) but is too heavy on 1,3 (200 > 150).
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2", "Y30@0,4"],
        hands=[["R40", "G6", "W200"], ["B4"]],
        rules={"preset": "standard"},
    )
    hints = placement_hints(state.view(0))
    assert hints is not None
    json.dumps(hints)  # JSON-ready
    spots = hints["spots"]
    assert set(spots) == {"R40", "G6", "W200"}
    assert set(spots["R40"]) == {"1,1", "1,3"}
    assert spots["R40"]["1,1"] == {
        "fits": True,
        "too_heavy": False,
        "mismatch": False,
        "weight": 40,
        "supports": [100, 120],
    }
    assert spots["R40"]["1,3"] == {
        "fits": False,
        "too_heavy": False,
        "mismatch": True,
        "weight": 40,
        "supports": [120, 30],
    }
    assert spots["W200"]["1,3"]["fits"] is False
    assert spots["W200"]["1,3"]["too_heavy"] is True
    assert spots["W200"]["1,3"]["mismatch"] is False
    assert spots["W200"]["1,1"]["fits"] is True


def test_hints_on_the_base_always_fit() -> None:
    """FP-FIT-4: "A base tile always fits, whatever its colour and weight."."""
    state = position(pyramid=["R100@0,0"], hands=[["W200", "G2"], ["B4"]])
    hints = placement_hints(state.view(0))
    assert hints is not None
    assert set(hints["spots"]["W200"]) == {"0,-2", "0,2"}
    assert all(h["fits"] and h["supports"] == [] for h in hints["spots"]["G2"].values())


def test_no_hints_without_a_placement_to_make() -> None:
    """Hints only for the seat to move at rest: not another seat, a spectator or mid-turn."""
    state = position(
        pyramid=["G20@0,0", "R6@0,2", "Y30@0,4"],
        hands=[["B100", "Y2"], ["G2"]],
        piles=[[], ["G4"]],
        rules={"preset": "basic"},
    )
    assert placement_hints(state.view(1)) is None
    assert placement_hints(state.view(None)) is None
    play(state, "B100@1,1")  # too heavy: it collapses and a fall is pending
    assert placement_hints(state.view(0)) is None


def test_fit_parts_split_exactly_the_misfits_of_fits() -> None:
    """FP-FIT-1: ``fits`` is the rule; ``fit_parts`` gives its two reasons, never disagreeing."""
    tiles = range(NUM_TILES)
    for tile, left, right in itertools.product(tiles, tiles, tiles):
        heavy, mismatch = fit_parts(tile, [left, right])
        assert fits(tile, left, right) == (not heavy and not mismatch)
    for tile, support in itertools.product(tiles, tiles):
        heavy, mismatch = fit_parts(tile, [support])
        assert (
            fits(tile, support, None) == fits(tile, None, support) == (not heavy and not mismatch)
        )
