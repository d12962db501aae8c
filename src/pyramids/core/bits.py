"""Sets of small ints kept as bit masks (tiles, pieces, cards): the one way to list them."""

from __future__ import annotations


def bits_of(mask: int) -> list[int]:
    """The set bits of ``mask`` in ascending order (visits only the set bits)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
