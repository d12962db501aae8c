"""The oracle yardstick: the ISMCTS search run on the true state. Never offered to players.

``OracleMCTSBot`` implements ``pyramids.core.OracleBot`` (``reads_true_state = True``): the
driver (``core.choose``) hands it a clone of the true state, hidden hands, piles and
deck order included. Every iteration of ``ismcts.run_search`` starts from a copy of
that state instead of a determinization, so this is a plain MCTS with the real hidden
facts (chance points, like the fire die, are still drawn at random). It cheats, on
purpose: playing the honest ``ismcts`` bot against it with the same budget measures
what hidden information costs. It is registered as ``oracle`` for simulations but is
not in ``PLAYER_BOTS``; given only a view, it refuses (TypeError).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyramids.bots.ismcts import (
    ActionStats,
    SearchResult,
    SearchSettings,
    pick,
    reflex_answer,
    run_search,
)
from pyramids.core.game import Action, State, View


class OracleMCTSBot:
    """MCTS on the true state (a yardstick that sees hidden facts; see module docstring)."""

    reads_true_state = True

    def __init__(self, settings: SearchSettings | None = None, *, name: str = "oracle") -> None:
        self.settings = settings or SearchSettings()
        self.name = name

    def search_state(
        self, state: State, legal: Sequence[Action], rng: random.Random
    ) -> SearchResult:
        """Run the search from ``state`` (never changed) for the seat deciding there."""
        seat = state.current_player()
        if seat < 0:
            raise ValueError("the oracle decides for a seat, not at a chance point or the end")
        if not legal:
            raise ValueError("no legal action to choose from")
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
