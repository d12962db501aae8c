"""The Pyramids and Flags notation (PF-NOTE, contract section 9): actions and positions.

The text itself (``action_to_text``, ``parse_action``, ``position_to_json``,
``read_position`` over a ``FlagsPosition``) is ``text``; ``position_from_json`` makes a
game state of a position.
"""

from __future__ import annotations

from pyramids.flags.game import position_from_json
from pyramids.flags.text import (
    action_to_text,
    masked_action_text,
    parse_action,
    position_to_json,
    read_position,
)

__all__ = [
    "action_to_text",
    "masked_action_text",
    "parse_action",
    "position_from_json",
    "position_to_json",
    "read_position",
]
