"""Positions and actions as text (FP-NOTE-1, FP-NOTE-2, FP-NOTE-3, FP-NOTE-4, FP-NOTE-5), the one place hosts import them from.

Actions: ``TILE@row,col`` places a tile, ``left``/``right`` choose a fall, ``die:N``
is a fire-die face (``actions``). Positions are JSON objects (``codec``);
``position_from_json`` refuses any position that breaks the notation's rules, saying
what is wrong (FP-NOTE-7). FP-NOTE-6: ``pyramids flaming apply`` parses each action with
``parse_action``, applies it and prints ``position_to_json`` with the events.
"""

from __future__ import annotations

from typing import Any

from pyramids.flaming.actions import action_to_text, parse_action, parse_tile_at, tile_at
from pyramids.flaming.codec import parse_position
from pyramids.flaming.game import position_from_json
from pyramids.flaming.state import FlamingState

__all__ = [
    "action_to_text",
    "parse_action",
    "parse_position",
    "parse_tile_at",
    "position_from_json",
    "position_to_json",
    "tile_at",
]


def position_to_json(state: FlamingState) -> dict[str, Any]:
    """The position of ``state`` as the contract's JSON object (FP-NOTE-3)."""
    return state.to_json()
