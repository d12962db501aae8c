"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyramids.core.game import Action, View


class RandomBot:
    """Picks uniformly among the legal actions with the generator it is given."""

    name = "random"

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return legal[rng.randrange(len(legal))]
