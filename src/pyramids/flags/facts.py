"""The rating rule of the goal cards' four facts (PF-CARD-3, contract section 8).

Each fact is rated small (1), medium (2) or large (3) by two thresholds: below the
first is small, from the first up to below the second is medium, from the second on
is large. The build script rates the deck with this table; tests check it against the
contract's table.
"""

from __future__ import annotations

FACT_COLOURS = "OPCX"
"""Scoring colour of each fact, in card order."""

FACT_KEYS = {
    "O": "highest_point_m",
    "P": "population_millions",
    "C": "avg_temp_c",
    "X": "gdp_per_capita_ppp_usd",
}
"""Scoring colour -> the CSV column (and cards.json fact key) it rates."""

THRESHOLDS: dict[str, tuple[float, float]] = {
    "O": (1500.0, 3000.0),  # metres: < 1500 small, 1500..2999 medium, >= 3000 large
    "P": (10.0, 40.0),  # millions: < 10 small, 10..39.9 medium, >= 40 large
    "C": (12.0, 25.0),  # degrees C: < 12 small, 12..24.9 medium, >= 25 large
    "X": (18000.0, 47500.0),  # USD: < 18000 small, 18000..47499 medium, >= 47500 large
}


def rate(colour: str, value: float) -> int:
    """The size (1, 2 or 3) that the contract's table gives ``value`` of fact ``colour``."""
    low, high = THRESHOLDS[colour]
    if value < low:
        return 1
    if value < high:
        return 2
    return 3
