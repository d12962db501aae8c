"""Pyramids and Flags: the rules engine (standard library and ``pyramids.core`` only).

Rules follow ``shared/pyramids-and-flags-contract.md``; ``docs/RULES.md`` gives each
rule an ID (PF-...) that the code and tests cite. The deck is the generated
module ``deck.py``, built by ``scripts/build_flags_deck.py``; no file is read.
"""

from pyramids.flags.game import INFO, FlagsGame, position_from_json
from pyramids.flags.options import RULES_VERSION, FlagsOptions
from pyramids.flags.position import FlagsPosition
from pyramids.flags.state import FlagsState
from pyramids.flags.text import action_to_text, parse_action
from pyramids.flags.view import FlagsView

__all__ = [
    "INFO",
    "RULES_VERSION",
    "FlagsGame",
    "FlagsOptions",
    "FlagsPosition",
    "FlagsState",
    "FlagsView",
    "action_to_text",
    "parse_action",
    "position_from_json",
]
