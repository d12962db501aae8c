"""How ``simulate`` counts Pyramids and Flags and how ``bench`` measures it.

Named by the descriptor's ``analysis`` field: ``simulate`` counts flags, captures,
exchanges, trees and tree actions (PF-SCORE, PF-CAPTURE, PF-SWAP, PF-TREE) and how a game
ended (PF-WIN); a turn is a move or an exchange (PF-WIN-5), as ``bench`` counts it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pyramids.analysis.bench import DefaultSetup, NativeTargets
from pyramids.core import Event
from pyramids.flags.actions import MOVE_BASE, TAKE_BASE

FLAGS_EVENT_KINDS = (
    "flag",
    "take_bank",
    "take_opponent",
    "swap",
    "tree_R",
    "tree_B",
    "tree_G",
    "tree_Y",
    "tree_K",
    "tree_W",
    "split",
    "trade",
    "grow",
    "newstart",
    "pirate",
    "wild",
    "decline",
    "lapse",
)
"""What ``simulate`` counts: flags scored, pieces taken from the bank or from an opponent,
exchanges, trees made by colour (PF-TREE-1), then the tree actions used (``split`` once
per tower destroyed), declined or lapsed."""
WIN_CONDITIONS = ("flags", "group", "points")
"""The win conditions (PF-WIN), as the engine's win events name them."""


class FlagsTally:
    """``simulate``'s counts (``FLAGS_EVENT_KINDS``); a turn is a move or an exchange."""

    section = "events"
    kinds = FLAGS_EVENT_KINDS
    conditions = WIN_CONDITIONS
    endings: Mapping[str, str] = {
        "max_turns": "games_ended_by_max_turns",
        "deck_out": "games_ended_by_empty_deck",
    }
    _own = frozenset(FLAGS_EVENT_KINDS) - {"take_bank", "take_opponent"}
    """Kinds counted under their own name (takes by source, trees by colour)."""

    def key(self, event: Event) -> str | None:
        """The count an event adds to, if any."""
        kind = event.kind
        if kind in self._own:
            return kind
        if kind == "take":
            return "take_bank" if event.data["from"] is None else "take_opponent"
        if kind == "tree":
            return f"tree_{event.data['colour']}"
        return None

    def turns(self, events: Sequence[Event]) -> int:
        """A turn per move or exchange (PF-WIN-5)."""
        return sum(1 for e in events if e.kind in ("move", "swap"))

    def condition(self, event: Event) -> str | None:
        """The win condition of a win event."""
        return str(event.data["condition"]) if event.kind == "win" else None


class Analysis:
    """The Pyramids and Flags entry for ``simulate`` and ``bench``."""

    simulation = FlagsTally()
    bench = DefaultSetup(
        turn_actions=(MOVE_BASE, TAKE_BASE),
        sample_states=30,
        key_suffix="_flags",
        native_targets=NativeTargets(greedy=100.0),  # issue 11: Flags greedy >= 100x
    )
