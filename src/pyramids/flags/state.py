"""``FlagsState`` and the pending kinds, where other modules have always imported them.

The state is defined with its game in ``game`` (a thin wrapper over ``position``'s
``FlagsPosition``); the rules are the functions of ``rules``.
"""

from __future__ import annotations

from pyramids.flags.game import FlagsState
from pyramids.flags.position import (
    ACTION,
    CAPTURE,
    DEAL,
    HAND_SIZE,
    NONE,
    PENDING_NAMES,
    STEAL,
    FlagsPosition,
)

__all__ = [
    "ACTION",
    "CAPTURE",
    "DEAL",
    "HAND_SIZE",
    "NONE",
    "PENDING_NAMES",
    "STEAL",
    "FlagsPosition",
    "FlagsState",
]
