"""How ``simulate`` counts Flaming Pyramids and how ``bench`` measures it.

Named by the descriptor's ``analysis`` field: ``simulate`` counts the mayhem events
(FP-MAYHEM) and a turn per placement; ``bench`` measures every preset with every player
count, a turn being a placement.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from pyramids.analysis.bench import DefaultSetup
from pyramids.core import Event
from pyramids.flaming.options import PRESETS
from pyramids.flaming.state import PLACE_BASE

MAYHEM_KINDS = ("free_air", "collapse", "explosion", "fire", "die_explosion", "quench", "curse")
"""Event kinds ``simulate`` counts as mayhem, in the contract's check order, then the die's."""


class MayhemTally:
    """``simulate``'s counts: the mayhem events (FP-MAYHEM); a turn is one placement."""

    section = "mayhem"
    kinds = MAYHEM_KINDS
    conditions: tuple[str, ...] = ()
    endings: Mapping[str, str] = {"max_turns": "games_ended_by_max_turns"}
    _counted = frozenset(MAYHEM_KINDS)

    def key(self, event: Event) -> str | None:
        """The event's kind when it is mayhem."""
        return event.kind if event.kind in self._counted else None

    def turns(self, events: Sequence[Event]) -> int:
        """One turn per placement."""
        return sum(1 for e in events if e.kind == "place")

    def condition(self, event: Event) -> str | None:
        """Flaming Pyramids has one way to win (FP-END-2)."""
        return None


class Analysis:
    """The Flaming Pyramids entry for ``simulate`` and ``bench``."""

    simulation = MayhemTally()
    bench = DefaultSetup(presets=PRESETS, turn_actions=(PLACE_BASE, sys.maxsize), sample_states=60)
