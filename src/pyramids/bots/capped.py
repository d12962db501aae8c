"""A search level's bot: its iteration budget on the native search, a time cap on Python.

The offered search levels (``pyramids.bots.BOT_LEVELS``: ``normal``, ``hard``) are
iteration budgets, so a seeded game repeats on any machine where the native search runs
them (tens of milliseconds a move). Where the Python search has to run instead (the
machine has no native core, or the spec says ``+python``), the same budget could take
seconds a move, so the level runs the Python search under its ``python_seconds`` cap
(whichever of the budget and the cap runs out first) and says so
(``pyramids.bots.ladder.level_sentence``). Only then is a move machine-dependent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from pyramids.bots import native_search
from pyramids.bots.ismcts import ISMCTSBot, SearchResult, SearchSettings
from pyramids.core.game import Action, View
from pyramids.games import descriptor, names
from pyramids.games.engine import EngineError


def runs_native(view: View, search: str, rng: random.Random) -> bool:
    """Whether a search from ``view`` with the choice ``search`` runs on the native core."""
    game = getattr(view, "game", None)
    if not isinstance(game, str) or game not in names():
        return False
    try:
        return native_search.uses_native_search(descriptor(game), search, rng)
    except (EngineError, TypeError):
        return False


class CappedSearchBot(ISMCTSBot):
    """``ISMCTSBot`` whose Python search (only) stops after ``python_seconds`` a move."""

    def __init__(self, settings: SearchSettings, *, name: str, python_seconds: float) -> None:
        if not python_seconds > 0:
            raise ValueError(f"the Python search's cap must be positive, not {python_seconds}")
        super().__init__(settings, name=name)
        self.python_seconds = python_seconds
        self._capped = ISMCTSBot(replace(settings, seconds=python_seconds), name=name)

    def search(self, view: View, legal: Sequence[Action], rng: random.Random) -> SearchResult:
        """The level's search: its budget natively, else capped at ``python_seconds``."""
        if runs_native(view, self.settings.search, rng):
            return super().search(view, legal, rng)
        return self._capped.search(view, legal, rng)
