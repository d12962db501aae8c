"""Pyramids and Flags drawn as SVG (``pyramids.flags.svg``): what is drawn, and what never is.

PF-VIEW-2: "the other players' hands are hidden" — a view's drawing names no card of
another seat's hand that the viewer does not know, only ``?``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pyramids.core import State
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import NAMES
from pyramids.flags.svg import position_svg, view_svg
from pyramids.games import make_game
from pyramids.games.engine import native_available
from tests.playout import random_steps

SVG = "{http://www.w3.org/2000/svg}"
NATIVE = pytest.mark.skipif(not native_available(), reason="native core not built")


def played(seed: int, steps: int, engine: str = "python", players: int = 3) -> State:
    """A game of ``players`` after ``steps`` random actions from ``seed``."""
    state = make_game("flags", players, {}, engine=engine).new_initial_state(seed)
    return random_steps(state, seed, steps)


def cards_in(svg: str) -> set[str]:
    """Every card code written in the drawing."""
    return set(re.findall(r"\b([A-Z]{3})\b", svg)) & set(CODES)


def test_drawing_is_standalone_svg_with_size_and_viewbox():
    root = ET.fromstring(position_svg(played(1, 5).position))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


def test_towers_are_drawn_bottom_to_top_with_every_piece():
    """PF-PIECE-1: all 18 flag pieces stand on the table, in towers."""
    state = played(2, 40)
    root = ET.fromstring(position_svg(state.position))
    towers = [g.get("data-tower") for g in root.iter(f"{SVG}g") if g.get("class") == "tower"]
    assert towers == [" ".join(NAMES[p] for p in t) for t in state.towers()]
    drawn = {g.get("data-piece") for g in root.iter(f"{SVG}g") if g.get("class") == "piece"}
    assert set(NAMES[:18]) <= drawn


def test_position_shows_every_hand():
    state = played(3, 10)
    seen = cards_in(position_svg(state.position))
    for seat in range(3):
        assert {CODES[c] for c in state.hand(seat)} <= seen


@pytest.mark.parametrize("seat", [0, 1, 2, None])
@pytest.mark.parametrize("seed", [4, 11])
def test_view_never_draws_another_seats_hidden_cards(seed, seat):
    """PF-VIEW-2, PF-VIEW-3: own hand face up; others' cards as ``?`` unless known."""
    state = played(seed, 150)
    view = state.view(seat)
    svg = view_svg(view)
    seen = cards_in(svg)
    for other in range(3):
        hand = {CODES[c] for c in state.hand(other)}
        if other == seat:
            assert hand <= seen
        else:
            hidden = hand - {CODES[c] for c in view.known_hands[other]}
            assert not hidden & seen
    for scored in view.scored:
        assert {CODES[c] for c in scored} <= seen
    assert svg.count('data-card="?"') == sum(h.count("?") for h in view.masked_hands())


def test_drawing_is_deterministic():
    assert position_svg(played(5, 60).position) == position_svg(played(5, 60).position)
    assert view_svg(played(5, 60).view(0)) == view_svg(played(5, 60).view(0))


def test_names_are_escaped():
    svg = view_svg(played(6, 3, players=2).view(0), names=["<b>", "A & B"])
    ET.fromstring(svg)
    assert "&lt;b&gt;" in svg and "A &amp; B" in svg


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=NATIVE)])
def test_repr_svg_of_state_position_and_view(engine):
    state = played(7, 30, engine)
    assert state._repr_svg_() == position_svg(state.position) == state.position._repr_svg_()
    assert state.view(1)._repr_svg_() == view_svg(state.view(1))


@NATIVE
@pytest.mark.parametrize("seed", [8, 13])
def test_both_engines_draw_identically(seed):
    python, native = played(seed, 200, "python"), played(seed, 200, "native")
    assert type(python) is not type(native)
    assert python._repr_svg_() == native._repr_svg_()
    for seat in (0, 1, 2, None):
        assert python.view(seat)._repr_svg_() == native.view(seat)._repr_svg_()
