"""The greedy bot: each game's default policy, found through the game registry.

``GreedyBot`` is the player-facing ``greedy`` bot. It knows no game: for a view it asks
the registry for the view's game (``pyramids.games.descriptor(view.game)``) and plays
what that game's default policy (``desc.load("policy")()``, one instance kept per game)
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
    try:
        factory = descriptor(game).load("policy")
    except LookupError:
        return None
    bot: Bot = factory()
    return bot


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
