"""Flaming Pyramids drawn as SVG (``pyramids.flaming.svg``): what is drawn, and what never is.

FP-VIEW-1: "a player sees the pyramid, the tiles out, their own hand and the sizes of
every hand and pile" — a view's drawing holds no tile of another seat's hand.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pyramids.core import State
from pyramids.flaming.svg import position_svg, view_svg
from pyramids.flaming.tiles import NAMES
from pyramids.games import descriptor, load_position, make_game
from pyramids.games.engine import native_available
from tests.playout import random_steps

SVG = "{http://www.w3.org/2000/svg}"
ENGINES = [
    "python",
    pytest.param(
        "native", marks=pytest.mark.skipif(not native_available(), reason="native core not built")
    ),
]

COLLAPSE = {
    "rules": {"preset": "basic", "curse": False, "fire_die": False, "max_turns": 1000},
    "players": 2,
    "to_move": 0,
    "turn": 9,
    "pyramid": ["R20@0,0", "Y120@0,2", "G120@0,4", "R40@0,6", "G20@1,1", "G6@1,3"],
    "hands": [["B100", "Y2", "R4"], ["B10", "B20", "Y40"]],
    "piles": [["Y4"], ["G10", "G30"]],
    "out": [],
}
"""docs/examples/collapse.json."""


def codes_in(svg: str) -> set[str]:
    """Every tile code written anywhere in the drawing (text and attributes)."""
    return set(re.findall(r"(?<![A-Za-z0-9])([YRGBW]\d+)(?![0-9])", svg))


def played(seed: int, steps: int, engine: str = "python", **options: object) -> State:
    """A three-player game after ``steps`` random actions from ``seed``."""
    game = make_game("flaming", 3, {"preset": "standard", **options}, engine=engine)
    return random_steps(game.new_initial_state(seed), seed, steps)


def test_drawing_is_standalone_svg_with_size_and_viewbox():
    state = played(1, 10)
    root = ET.fromstring(position_svg(state.position))
    assert root.tag == f"{SVG}svg"
    assert root.get("width") and root.get("height")
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


def test_position_shows_every_tile_of_the_pyramid_and_every_hand():
    state = load_position_state(COLLAPSE)
    svg = position_svg(state.position)
    spots = {
        g.get("data-spot"): g.get("data-tile")
        for g in ET.fromstring(svg).iter(f"{SVG}g")
        if g.get("data-spot")
    }
    assert spots == {p.split("@")[1]: p.split("@")[0] for p in COLLAPSE["pyramid"]}
    for hand in COLLAPSE["hands"]:
        assert set(hand) <= codes_in(svg)


def load_position_state(data, engine: str = "python"):
    return load_position(descriptor("flaming"), data, engine=engine)


@pytest.mark.parametrize("seat", [0, 1, 2, None])
@pytest.mark.parametrize("seed", [3, 8])
def test_view_never_draws_another_seats_hidden_tiles(seed, seat):
    """FP-VIEW-1, FP-VIEW-2: only the viewer's hand and the publicly known tiles."""
    state = played(seed, 30)
    view = state.view(seat)
    svg = view_svg(view)
    seen = codes_in(svg)
    for other in range(3):
        known = {NAMES[t] for t in view.hand_known[other]}
        hidden = {NAMES[t] for t in state.hand(other)} - known
        if other == seat:
            assert hidden <= seen
        else:
            assert not hidden & seen, f"seat {seat}'s view draws {hidden & seen} of seat {other}"
    for tile in view.board.values():
        assert NAMES[tile] in seen


def test_drawing_is_deterministic():
    a, b = played(5, 20), played(5, 20)
    assert position_svg(a.position) == position_svg(b.position)
    assert view_svg(a.view(1)) == view_svg(b.view(1))


def test_pending_fall_draws_the_tile_falling_and_its_two_landing_places():
    """FP-FALL-1: the tile with nothing under it, and left/right for seat P to choose."""
    state = load_position_state(COLLAPSE)
    state.apply(state.parse_action("B100@2,2"))
    if state.pending[0] != 1:  # the collapse leaves B100 in free air
        pytest.skip("no fall pending")
    svg = view_svg(state.view(0))
    assert "↓B100↓" in svg
    assert svg.count('class="fall-target"') == 2


def test_names_are_escaped():
    state = load_position_state(COLLAPSE)
    svg = position_svg(state.position, names=["<Ann & Bob>", 'Eve "E"'])
    ET.fromstring(svg)
    assert "&lt;Ann &amp; Bob&gt;" in svg


@pytest.mark.parametrize("engine", ENGINES)
def test_repr_svg_of_state_position_and_view(engine):
    state = played(2, 15, engine=engine)
    assert state._repr_svg_() == position_svg(state.position) == state.position._repr_svg_()
    assert state.view(0)._repr_svg_() == view_svg(state.view(0))


@pytest.mark.skipif(not native_available(), reason="native core not built")
@pytest.mark.parametrize("seed", [4, 9])
def test_both_engines_draw_identically(seed):
    python, native = (
        played(seed, 40, "python", fire_die=True),
        played(seed, 40, "native", fire_die=True),
    )
    assert type(python) is not type(native)
    assert python._repr_svg_() == native._repr_svg_()
    for seat in (0, 1, 2, None):
        assert python.view(seat)._repr_svg_() == native.view(seat)._repr_svg_()
