"""The beginner bot: the game's default policy with a person's mistakes.

``BeginnerBot`` is the lowest level of the ladder (``pyramids.bots.LADDER``). It knows no
game: like ``greedy`` it asks the view's game's default policy (its registry descriptor's
``policy``), but it does not always play that policy's first choice:

- with chance ``BLUNDER`` it plays a uniformly random legal move (a move made without
  looking);
- else with chance ``SLIP`` it plays the policy's second or third choice (a plausible move
  that is not the best): the policy is asked again with its earlier picks removed, the
  way guided search asks it for the next child to expand, so the order is the policy's own;
- else the policy's choice;
- at a call-out check (FP-CALL) it overlooks standing mayhem with chance
  ``EASY_OVERLOOK``, as ``careless`` does (the game's reflex, ``reflex_answer``).

Every draw comes from the generator it is given, so a seeded game repeats exactly. A game
that provides no policy is played with a uniformly random legal move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyramids.bots.greedy import GreedyBot
from pyramids.core.game import Action, View

BLUNDER = 0.1
"""The chance that a decision is a uniformly random legal move."""

SLIP = 0.25
"""The chance (when it does not blunder) that a decision is the policy's second or third
choice instead of its first."""

SLIP_DEPTH = 3
"""A slip plays one of the policy's first ``SLIP_DEPTH`` choices other than the first."""


class BeginnerBot(GreedyBot):
    """Plays each game's default policy with human mistakes; see the module docstring."""

    name = "beginner"

    def __init__(self, overlook: float, blunder: float = BLUNDER, slip: float = SLIP) -> None:
        super().__init__()
        for what, chance in (("overlook", overlook), ("blunder", blunder), ("slip", slip)):
            if not 0.0 <= chance <= 1.0:
                raise ValueError(f"{what} must be a chance from 0 to 1, not {chance}")
        self.overlook = overlook
        self.blunder = blunder
        self.slip = slip

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The policy's move, a worse plausible one, a random one, or the reflex's answer."""
        if len(legal) == 1:
            return legal[0]
        from pyramids.bots.ismcts import reflex_answer  # deferred: pyramids.bots loads greedy first

        game = getattr(view, "game", None)
        if isinstance(game, str):
            answer = reflex_answer(game, view, legal, self.overlook, rng)
            if answer is not None:
                return answer
        roll = rng.random()
        if roll < self.blunder:
            return legal[rng.randrange(len(legal))]
        if roll < self.blunder + (1.0 - self.blunder) * self.slip:
            return self.slip_move(view, legal, rng)
        return super().act(view, legal, rng)

    def slip_move(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of the policy's second to ``SLIP_DEPTH``-th choices, drawn uniformly."""
        depth = rng.randrange(1, SLIP_DEPTH)
        left = list(legal)
        choice = left[0]
        for _ in range(depth + 1):
            if len(left) == 1:
                return left[0]
            choice = super().act(view, left, rng)
            left.remove(choice)
        return choice
