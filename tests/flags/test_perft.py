"""Perft-style counts: legal action sequences from fixed positions (PF-MOVE, PF-SWAP, PF-SCORE).

Depth d counts every sequence of d actions (chance outcomes included); a terminal state
counts once. Depth-1 counts are explained piece by piece in the comments.
"""

from __future__ import annotations

import pytest

from pyramids.core import CHANCE
from pyramids.flags import FlagsGame, FlagsState
from tests.flags import state


def perft(s: FlagsState, depth: int) -> int:
    """Number of action sequences of length ``depth`` from ``s``."""
    if depth == 0 or s.is_terminal():
        return 1
    if s.current_player() == CHANCE:
        actions = [a for a, _ in s.chance_outcomes()]
    else:
        actions = s.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = s.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def initial() -> FlagsState:
    """Setup, 2 players, seed 1: 18 single pyramids, seat 0 holds TTO BEL HTI JPN."""
    return FlagsGame(2).new_initial_state(1)


# Depth 1 = 202: no table moves (every tower is whole); each small goes on any of the other 17
# pieces (6 × 17 = 102), each medium on the 5 other mediums and 6 larges (6 × 11 = 66), each
# large on the 5 other larges (6 × 5 = 30): 198 moves, plus 4 exchanges.


def middle() -> FlagsState:
    """3 players, seat 1 to move, K1 just moved onto K3; no flag stands."""
    return state(
        players=3,
        towers=[["B3", "R2"], ["G3", "K2", "W1"], ["K3", "K1"], ["Y3", "B2"]],
        hands=[
            ["CZE", "ITA", "DNK", "JPN"],
            ["FRA", "AUT", "KEN", "GRC"],
            ["ESP", "CHN", "EGY", "SAU"],
        ],
        last_moved=["K1"],
        to_move=1,
    )


# Depth 1 = 115. 13 towers; tops by size: small W1 K1 Y1 B1 G1 R1, medium R2 B2 W2 Y2 G2,
# large W3 R3. Single pyramids: Y1 B1 G1 R1 onto any of 12 other tops (48), W2 Y2 G2 onto the 6
# other medium or large tops (18), W3 R3 onto the other large (2): 68. [B3 R2]: B3 onto W3 or
# R3 (2), R2 onto 6 tops or the table (7): 9. [G3 K2 W1]: G3 (2), K2+W1 onto 7 tops or the table
# (8), W1 onto 12 tops or the table (13): 23. [K3 K1]: K3 (2), K1 barred (it moved last): 2.
# [Y3 B2]: Y3 (2), B2 onto 6 tops or the table (7): 9. Moves 68 + 9 + 23 + 2 + 9 = 111,
# plus 4 exchanges.


def flags_near() -> FlagsState:
    """2 players, seat 0 holds CZE (B3 R2 W1) and DNK (R3 W2); W2 moved last; seat 1 holds O2."""
    return state(
        towers=[["B3", "R2"], ["R3"], ["W3", "W2"]],
        hands=[["CZE", "DNK"], ["NOR", "AUT"]],
        scoring=[[], ["O2"]],
        last_moved=["W2"],
    )


# Depth 1 = 158. 16 towers; tops: small K1 W1 Y1 B1 G1 R1, medium R2 W2 K2 Y2 B2 G2, large
# K3 Y3 G3 R3. Single smalls onto 15 tops (6 × 15 = 90), single mediums K2 Y2 B2 G2 onto 9
# (36), single larges K3 Y3 G3 R3 onto 3 (12): 138. [B3 R2]: B3 onto 4 larges, R2 onto 9 tops
# or the table (10): 14. [W3 W2]: W3 onto 4 larges; W2 barred: 4. 156 moves + 2 exchanges.
# Deeper levels include W1>R2 (CZE scores: capture choices) and seat 1's replies.


@pytest.mark.parametrize(
    ("make", "counts"),
    [
        (initial, [202, 35352, 5787239]),
        (middle, [115, 12582, 1337417]),
        (flags_near, [158, 22765, 3074084]),
    ],
    ids=["initial", "middle", "flags_near"],
)
def test_perft(make: object, counts: list[int]) -> None:
    """PF-MOVE-2..6, PF-SWAP-1..2, PF-SCORE, PF-CAPTURE: legal sequence counts stay put."""
    for depth, expected in enumerate(counts, start=1):
        assert perft(make(), depth) == expected, depth  # type: ignore[operator]


def test_flags_near_depth_two_includes_the_capture_choices() -> None:
    """PF-CAPTURE-1: after W1>R2 seat 0 decides the capture: done, O2@1, P2, C1, X3 (5)."""
    s = flags_near()
    s.apply(s.parse_action("W1>R2"))
    assert s.current_player() == 0
    assert perft(s, 1) == 5
