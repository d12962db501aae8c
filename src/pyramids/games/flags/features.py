"""Pyramids and Flags' features for the learned evaluation (docs/BOTS.md, "The learned evaluation").

A few numbers per seat of a full state (a search's determinization, or the true state),
on either engine, towards the three win conditions (PF-WIN: five flags, three flags of one
group, eight points): flags scored, best group, points, the hand-made evaluation's
``progress``, the *reach* of the seat's hand (the greedy bot's ``REACH`` of each hand
card's ``flag_distance``, ``pyramids.games.flags.policy``), the hand cards whose flag
stands now (``ready``: scored on the next move), the hand's size, whether it is to move,
the differences in progress, flags, points and reach against the best opponent in each,
and the number of players.

``native/flags/src/features.rs`` computes the same numbers in the same order
(tests/bots/test_learned_evaluation.py).
"""

from __future__ import annotations

from pyramids.flags.pieces import NUM_FLAG_PIECES
from pyramids.flags.scoring import group_counts
from pyramids.flags.state import FlagsState
from pyramids.games.flags.evaluation import progress
from pyramids.games.flags.policy import REACH, flag_distance

FEATURES: tuple[str, ...] = (
    "flags",
    "best_group",
    "points",
    "progress",
    "reach",
    "ready",
    "hand",
    "to_move",
    "progress_vs_best",
    "flags_vs_best",
    "points_vs_best",
    "reach_vs_best",
    "players",
)
"""The features' names, in order (``value.json``'s ``features``)."""


def _own(state: FlagsState, seat: int, below: list[int], above: list[int]) -> list[float]:
    """(flags, best group, points, progress, reach, ready) of ``seat``."""
    scored = state.scored(seat)
    reach = 0.0
    ready = 0
    for c in state.hand(seat):
        d = flag_distance(c, below, above)
        reach += REACH[d]
        ready += d == 0
    return [
        float(len(scored)),
        float(max(group_counts(scored), default=0)),
        float(state.points(seat)),
        progress(state, seat),
        reach,
        float(ready),
    ]


def features(state: FlagsState) -> list[list[float]]:
    """Every seat's features, seat by seat (see ``FEATURES`` and the module docstring)."""
    n = state.num_players
    below = [state.below(p) for p in range(NUM_FLAG_PIECES)]
    above = [state.above(p) for p in range(NUM_FLAG_PIECES)]
    mine = [_own(state, s, below, above) for s in range(n)]
    rows = []
    for s in range(n):
        m = mine[s]
        others = [mine[q] for q in range(n) if q != s]
        best = [max(o[i] for o in others) for i in range(len(m))] if others else m
        rows.append(
            [
                *m,
                float(len(state.hand(s))),
                1.0 if state.to_move == s else 0.0,
                m[3] - best[3],
                m[0] - best[0],
                m[2] - best[2],
                m[4] - best[4],
                float(n),
            ]
        )
    return rows
