"""Perft counts (python-chess style) through the engine and through the naive reference."""

from __future__ import annotations

import copy

from pyramids.flaming import FlamingState
from tests.flaming.reference import Reference


def perft(state: FlamingState, depth: int) -> int:
    """perft(0) = 1; perft(d) = sum over legal actions of perft(d-1) of the child."""
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def reference_perft(ref: Reference, depth: int) -> int:
    """The same count through the naive contract transcription, actions as text.

    The reference lists its own legal actions: placements, fall sides, die faces, and in
    call-out mode ``ok`` and a call of every occupied position.
    """
    if depth == 0:
        return 1
    total = 0
    for text in ref.legal():
        child = copy.deepcopy(ref)
        child.apply(text)
        total += reference_perft(child, depth - 1)
    return total
