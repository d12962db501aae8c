"""Best-trio scoring (PF-WIN-3): the formula against a brute force over all partitions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from pyramids.flags.pieces import BY_NAME, COLOUR_OF, FIRST_SCORING, SIZE, mask_of
from pyramids.flags.scoring import best_trio_points, points

SCORING = list(range(FIRST_SCORING, 30))


def brute_force(pieces: Sequence[int]) -> int:
    """Best score over every way to split the pieces into trios (one of each size) and singles.

    A one-colour trio scores 7, a mixed trio 5, every piece in no trio 1.
    """

    @cache
    def best(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        result = 1 + best(others)  # ``first`` stays single
        need = {1, 2, 3} - {SIZE[first]}
        a_size, b_size = sorted(need)
        for i, a in enumerate(others):
            if SIZE[a] != a_size:
                continue
            for j, b in enumerate(others):
                if SIZE[b] != b_size:
                    continue
                left = tuple(x for k, x in enumerate(others) if k not in (i, j))
                mono = COLOUR_OF[first] == COLOUR_OF[a] == COLOUR_OF[b]
                result = max(result, (7 if mono else 5) + best(left))
        return result

    return best(tuple(sorted(pieces)))


def _p(*names: str) -> list[int]:
    return [BY_NAME[n] for n in names]


def test_volcano_values_one_colour_trio_7_mixed_trio_5_single_1() -> None:
    """PF-WIN-3: "7 for a one-colour trio, 5 for a mixed trio, 1 for every other pyramid"."""
    assert best_trio_points(_p("O1", "O2", "O3")) == 7
    assert best_trio_points(_p("O1", "P2", "C3")) == 5
    assert best_trio_points(_p("O1", "P1", "C1")) == 3
    assert best_trio_points(_p("O1", "O2", "O3", "P1")) == 8
    assert best_trio_points([]) == 0


def test_best_arrangement_prefers_one_colour_trios() -> None:
    """PF-WIN-3: the best set of trios: two one-colour trios beat a mixed arrangement."""
    pieces = _p("O1", "O2", "O3", "P1", "P2", "P3")
    assert best_trio_points(pieces) == 14 == brute_force(pieces)
    pieces = _p("O1", "O2", "O3", "P1", "P2", "C3")
    assert best_trio_points(pieces) == 12 == brute_force(pieces)  # 7 + 5


def test_points_of_a_mask_match_the_formula_for_every_hold() -> None:
    """PF-WIN-3: ``points(mask)`` equals "pieces + 2 × trios + 2 × complete colours" for all 4096 holds."""
    for m in range(1 << 12):
        pieces = [FIRST_SCORING + i for i in range(12) if (m >> i) & 1]
        sizes = [sum(1 for p in pieces if SIZE[p] == s) for s in (1, 2, 3)]
        complete = sum(1 for c in range(6, 10) if all(c * 3 + k in pieces for k in range(3)))
        assert points(mask_of(pieces)) == len(pieces) + 2 * min(sizes) + 2 * complete


@given(st.lists(st.sampled_from(SCORING), max_size=10))
def test_best_trio_formula_equals_brute_force_on_multisets(pieces: list[int]) -> None:
    """PF-WIN-3: the formula is the best arrangement, even for multisets (pieces repeated)."""
    assert best_trio_points(pieces) == brute_force(pieces)


@given(st.sets(st.sampled_from(SCORING)))
def test_points_equal_brute_force_on_real_holds(pieces: set[int]) -> None:
    """PF-WIN-3: every hold of distinct scoring pieces scores its best arrangement."""
    assert points(mask_of(sorted(pieces))) == brute_force(sorted(pieces))
