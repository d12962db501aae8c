"""The greedy bot: each game's default policy, found through the game registry.

``GreedyBot`` is the player-facing ``greedy`` bot. It knows no game: for a view it asks
the registry for the view's game (``pyramids.games.descriptor(view.game)``) and plays
what that game's default policy (``desc.policy.get()()``, one instance kept per game)
plays, so its decisions are exactly the policy's for the same view, legal actions and
generator. The built-in games' policies are one-ply static estimates (see docs/BOTS.md
and each game's ``pyramids.games.<game>.policy``). A game that provides no policy is
played with a uniformly random legal action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyramids.core.game import Action, Bot, View
from pyramids.games import descriptor


def game_policy(game: str) -> Bot | None:
    """A new instance of game ``game``'s default policy, None when it provides none."""
    policy = descriptor(game).policy
    return None if policy is None else policy.get()()


class GreedyBot:
    """Plays each game's default (greedy) policy; see the module docstring."""

    name = "greedy"

    def __init__(self) -> None:
        self._policies: dict[str, Bot | None] = {}

    def policy(self, game: str) -> Bot | None:
        """The policy this bot plays in ``game`` (made on first use), None if it has none."""
        try:
            return self._policies[game]
        except KeyError:
            bot = self._policies[game] = game_policy(game)
            return bot

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The game policy's choice among ``legal`` for the seat of ``view``."""
        try:
            policy = self._policies[view.game]
        except (KeyError, AttributeError):
            game = getattr(view, "game", None)
            if not isinstance(game, str):
                name = type(view).__name__
                raise TypeError(f"the greedy bot cannot tell which game a {name} is") from None
            policy = self.policy(game)
        if policy is None:
            return legal[rng.randrange(len(legal))]
        return policy.act(view, legal, rng)


class CarelessBot(GreedyBot):
    """``careless``: the greedy bot, but at a call-out check (FP-CALL) it overlooks standing
    mayhem with chance ``overlook`` (the easy level's one check in four).

    Everywhere else it plays exactly as ``greedy`` (the generator is drawn only at a check
    where the careful and careless answers differ), so a game without call-out is the same
    game with either bot: the workbench measures call-out with fallible checkers against
    a greedy baseline (docs/WORKBENCH.md).
    """

    name = "careless"

    def __init__(self, overlook: float) -> None:
        super().__init__()
        self.overlook = overlook

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The reflex's answer at a check (careless with chance ``overlook``), else greedy's."""
        from pyramids.bots.ismcts import reflex_answer  # deferred: pyramids.bots loads greedy first

        game = getattr(view, "game", None)
        if isinstance(game, str):
            answer = reflex_answer(game, view, legal, self.overlook, rng)
            if answer is not None:
                return answer
        return super().act(view, legal, rng)
