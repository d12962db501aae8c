"""Flaming Pyramids: the rules engine (standard library and ``pyramids.core`` only).

Rules follow ``shared/flaming-pyramids-contract.md``; ``docs/RULES.md`` gives each rule
an ID (FP-...) that the code and tests cite.
"""

from pyramids.flaming.actions import action_to_text, parse_action
from pyramids.flaming.game import INFO, FlamingGame, position_from_json
from pyramids.flaming.options import PRESETS, RULES_VERSION, FlamingOptions
from pyramids.flaming.state import FlamingState
from pyramids.flaming.view import FlamingView

__all__ = [
    "INFO",
    "PRESETS",
    "RULES_VERSION",
    "FlamingGame",
    "FlamingOptions",
    "FlamingState",
    "FlamingView",
    "action_to_text",
    "parse_action",
    "position_from_json",
]
