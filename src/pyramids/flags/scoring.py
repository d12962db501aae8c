"""Points and win conditions (PF-WIN): best-trio scoring as in Volcano.

A player's scoring pyramids are arranged into the best set of trios (one small, one
medium, one large): a one-colour trio scores 7, a mixed trio 5, every other pyramid 1.
The best arrangement makes as many trios as the rarest size allows and as many
one-colour trios as there are one-colour sets, both at once, so

    points = pieces + 2 * min(smalls, mediums, larges) + 2 * one-colour sets.

(Take the one-colour trios first: what is left still has min(...) minus their number
trios of mixed colour; no arrangement has more trios or more one-colour trios.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pyramids.flags.cards import GROUP_MASK, GROUPS
from pyramids.flags.pieces import COLOUR_OF, FIRST_SCORING, NUM_PIECES, SIZE

WIN_FLAGS = 5
WIN_GROUP_FLAGS = 3
WIN_POINTS = 8


def best_trio_points(pieces: Iterable[int]) -> int:
    """Points of a multiset of pieces under best-trio scoring (the formula above)."""
    sizes = [0, 0, 0]
    per_colour: dict[int, list[int]] = {}
    total = 0
    for p in pieces:
        total += 1
        sizes[SIZE[p] - 1] += 1
        per_colour.setdefault(COLOUR_OF[p], [0, 0, 0])[SIZE[p] - 1] += 1
    mono = sum(min(c) for c in per_colour.values())
    return total + 2 * min(sizes) + 2 * mono


def _table() -> tuple[int, ...]:
    n = NUM_PIECES - FIRST_SCORING
    return tuple(
        best_trio_points(FIRST_SCORING + i for i in range(n) if (m >> i) & 1) for m in range(1 << n)
    )


_POINTS = _table()


def points(mask: int) -> int:
    """Points of the scoring pieces in bit mask ``mask`` (bit p for piece p)."""
    return _POINTS[mask >> FIRST_SCORING]


def group_counts(scored: Sequence[int]) -> list[int]:
    """Scored flags per group, in GROUPS order (a card in two groups counts for both)."""
    counts = [0] * len(GROUPS)
    for card in scored:
        g = GROUP_MASK[card]
        for i in range(len(GROUPS)):
            if (g >> i) & 1:
                counts[i] += 1
    return counts


def win_reason(scored: Sequence[int], scoring_mask: int) -> tuple[str, str | int] | None:
    """Which win condition a player meets, or None: ("flags", 5), ("group", "EU"), ("points", 9).

    Conditions are tried in the contract's order: five flags (PF-WIN-1), three of one group
    (PF-WIN-2), 8 points (PF-WIN-3).
    """
    if len(scored) >= WIN_FLAGS:
        return ("flags", len(scored))
    if len(scored) >= WIN_GROUP_FLAGS:
        for name, count in zip(GROUPS, group_counts(scored), strict=True):
            if count >= WIN_GROUP_FLAGS:
                return ("group", name)
    pts = points(scoring_mask)
    if pts >= WIN_POINTS:
        return ("points", pts)
    return None
