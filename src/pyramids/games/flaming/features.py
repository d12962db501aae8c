"""Flaming Pyramids' features for the learned evaluation (docs/BOTS.md, "The learned evaluation").

A few numbers per seat of a full state (a search's determinization, or the true state),
on either engine: the seat's tiles left (hand and pile, FP-END: the first to place every
tile wins) alone and against the best and the mean opponent, its hand's size and mix
(stones are the hard tiles to place, embers start fires), its pile, whether it is to move,
and the number of players. Tile counts are in tens so every feature stays near 1.

``native/flaming/src/features.rs`` computes the same numbers (tests/bots/test_learned_evaluation.py).
"""

from __future__ import annotations

from pyramids.flaming.state import FlamingState
from pyramids.flaming.tiles import IS_EMBER, MATERIAL, Material

FEATURES: tuple[str, ...] = (
    "left",
    "left_vs_best",
    "left_vs_mean",
    "hand",
    "pile",
    "stones",
    "embers",
    "to_move",
    "players",
)
"""The features' names, in order (``value.json``'s ``features``)."""

SCALE = 10.0
"""Tiles are counted in tens."""


def seat_features(state: FlamingState, seat: int) -> list[float]:
    """Seat ``seat``'s features (see ``FEATURES`` and the module docstring)."""
    n = state.num_players
    left = [len(state.hand(q)) + len(state.pile(q)) for q in range(n)]
    own = left[seat]
    others = [left[q] for q in range(n) if q != seat]
    best = min(others) if others else own
    opponents = max(n - 1, 1)
    hand = state.hand(seat)
    stones = sum(1 for t in hand if MATERIAL[t] is Material.STONE)
    embers = sum(1 for t in hand if IS_EMBER[t])
    return [
        own / SCALE,
        (own - best) / SCALE,
        (own * opponents - sum(others)) / (SCALE * opponents),
        len(hand) / SCALE,
        len(state.pile(seat)) / SCALE,
        float(stones),
        float(embers),
        1.0 if state.to_move == seat else 0.0,
        float(n),
    ]


def features(state: FlamingState) -> list[list[float]]:
    """Every seat's features, seat by seat."""
    return [seat_features(state, s) for s in range(state.num_players)]
