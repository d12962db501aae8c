"""The oracle yardstick: the ISMCTS search run on the true state. Never offered to players.

``OracleMCTSBot`` implements ``pyramids.core.OracleBot`` (``reads_true_state = True``): the
driver (``core.choose``) hands it a clone of the true state, hidden hands, piles and
deck order included. Every iteration of ``ismcts.run_search`` starts from a copy of
that state instead of a determinization, so this is a plain MCTS with the real hidden
facts (chance points, like the fire die, are still drawn at random). It cheats, on
purpose: playing the honest ``ismcts`` bot against it with the same budget measures
what hidden information costs. It is registered as ``oracle`` for simulations but is
not in ``PLAYER_BOTS``; given only a view, it refuses (TypeError).

The search follows the state's engine (``pyramids.bots.native_search.runs_natively``, the
one switch): a native state (``pyramids.core.native.NativeState``) is searched natively,
its Rust object handed over as it is, identical to the Python search for an iteration
budget; a Python state by the Python search. ``+python`` runs the Python search on the
Python engine's copy of a native state (loaded by its position); ``+native`` runs the
native one even from a Python engine's state, built from its fields (hidden facts and
what each seat knows included, ``ENGINE.native_of``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pyramids.bots import native_search
from pyramids.bots.ismcts import (
    PYTHON_SEARCH,
    ActionStats,
    SearchResult,
    SearchSettings,
    pick,
    reflex_answer,
    root_stats,
    run_search,
)
from pyramids.core.game import Action, State, View
from pyramids.core.native import is_native_state
from pyramids.games import descriptor_of, load_position
from pyramids.games.engine import Engine


class OracleMCTSBot:
    """MCTS on the true state (a yardstick that sees hidden facts; see module docstring)."""

    reads_true_state = True

    def __init__(
        self,
        settings: SearchSettings | None = None,
        *,
        name: str = "oracle",
        settings_for: Callable[[str, int], SearchSettings] | None = None,
    ) -> None:
        self.settings = settings or SearchSettings()
        self.name = name
        self._settings_for = settings_for
        """A level's settings per (game, players), as the honest level bot picks them."""

    def _settings_of(self, state: State) -> None:
        if self._settings_for is not None:
            self.settings = self._settings_for(descriptor_of(state).name, state.num_players)

    def search_state(
        self, state: State, legal: Sequence[Action], rng: random.Random
    ) -> SearchResult:
        """Run the search from ``state`` (never changed) for the seat deciding there."""
        seat = state.current_player()
        if seat < 0:
            raise ValueError("the oracle decides for a seat, not at a chance point or the end")
        if not legal:
            raise ValueError("no legal action to choose from")
        self._settings_of(state)
        desc = descriptor_of(state)
        search = self.settings.search
        if native_search.runs_natively(desc, search, rng, state=state):
            raw, iterations, seconds = native_search.search_state(
                desc, state=state, player=seat, legal=legal, settings=self.settings, rng=rng
            )
            return SearchResult(root_stats(raw), iterations, seconds)
        if search == PYTHON_SEARCH and is_native_state(state):
            root = load_position(desc, state.to_json(), engine=Engine.PYTHON)
        else:
            root = state.clone()

        def sample(_rng: random.Random) -> State:
            return root.clone()

        return run_search(sample, seat, legal, self.settings, rng)

    def analyse_state(
        self, state: State, legal: Sequence[Action], rng: random.Random
    ) -> list[ActionStats]:
        """Every legal action with its visits, visit share and estimated win chance."""
        return self.search_state(state, legal, rng).stats

    def act_on_state(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        """The most visited legal action (the only one, without searching, if alone)."""
        if len(legal) == 1:
            return legal[0]
        self._settings_of(state)
        seat = state.current_player()
        if seat >= 0:
            view = state.view(seat)
            answer = reflex_answer(view.game, view, legal, self.settings.overlook, rng)
            if answer is not None:
                return answer
        return pick(self.analyse_state(state, legal, rng), rng)

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Refuse: the oracle needs the true state (drive it with ``pyramids.core.choose``)."""
        raise TypeError("the oracle reads the true state: drive it with pyramids.core.choose")
