"""A search level's bot: per game its iteration budget on the native search, a time cap on
Python.

The offered search levels (``pyramids.bots.BOT_LEVELS``: ``normal``, ``hard``) are
iteration budgets, so a seeded game repeats on any machine where the native search runs
them (tens of milliseconds a move). A level may search each game (and player count) its own
way (``BotLevel.settings_for``): the bot picks the settings from the view it is asked about.
Where the Python search has to run instead (the machine has no native core, or the spec
says ``+python``), the same budget could take seconds a move, so the level runs the Python
search under its ``python_seconds`` cap (whichever of the budget and the cap runs out
first) and says so (``pyramids.bots.ladder.level_sentence``). Only then is a move
machine-dependent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from pyramids.bots import native_search
from pyramids.bots.ismcts import ISMCTSBot, SearchResult, SearchSettings
from pyramids.core.game import Action, View
from pyramids.games import descriptor, names
from pyramids.games.engine import Engine, EngineError

SettingsFor = Callable[[str, int], SearchSettings]
"""The settings a level searches with for (game name, players)."""


def runs_native(
    view: View, search: str, rng: random.Random, engine: Engine | str | None = None
) -> bool:
    """Whether a search from ``view`` with the choice ``search`` runs on the native core
    for a bot playing on ``engine``."""
    game = getattr(view, "game", None)
    if not isinstance(game, str) or game not in names():
        return False
    try:
        return native_search.runs_natively(descriptor(game), search, rng, engine=engine)
    except (EngineError, TypeError):
        return False


class CappedSearchBot(ISMCTSBot):
    """``ISMCTSBot`` searching each game with ``settings_for(game, players)`` (``settings``
    for every game without it), whose Python search (only) stops after ``python_seconds``
    a move. One bot, one memory (inference reads it on either search)."""

    def __init__(
        self,
        settings: SearchSettings,
        *,
        name: str,
        python_seconds: float,
        settings_for: SettingsFor | None = None,
        engine: Engine | str | None = None,
    ) -> None:
        if not python_seconds > 0:
            raise ValueError(f"the Python search's cap must be positive, not {python_seconds}")
        super().__init__(settings, name=name, engine=engine)
        self.python_seconds = python_seconds
        self._base = settings
        self._settings_for = settings_for

    def settings_of(self, view: View, rng: random.Random) -> SearchSettings:
        """The settings a decision from ``view`` searches with (capped on Python)."""
        game, players = getattr(view, "game", None), getattr(view, "players", None)
        settings = self._base
        if self._settings_for is not None and isinstance(game, str) and isinstance(players, int):
            settings = self._settings_for(game, players)
        if runs_native(view, settings.search, rng, self.engine):
            return settings
        return replace(settings, seconds=self.python_seconds)

    def search(self, view: View, legal: Sequence[Action], rng: random.Random) -> SearchResult:
        """The level's search: its budget natively, else capped at ``python_seconds``."""
        self.settings = self.settings_of(view, rng)
        return super().search(view, legal, rng)

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The level's move (``ISMCTSBot.act`` with this view's settings)."""
        self.settings = self.settings_of(view, rng)
        return super().act(view, legal, rng)
