"""Matches of several hands (FP-OPT-4, R "Playing in Rounds").

Each hand is a full game; a hand scores the tiles each player has left (the winner 0);
the lowest total after the last hand wins; the first player moves one seat to the
left each hand. Each hand's shuffle seed is derived from the match seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pyramids.core.errors import IllegalActionError, PositionError
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.state import FlamingState


def hand_score(state: FlamingState) -> list[int]:
    """Tiles left per seat (hand and pile) at the end of a hand; the winner has 0."""
    return [len(state.hand(s)) + len(state.pile(s)) for s in range(state.num_players)]


@dataclass
class Match:
    """A match of ``hands`` hands for ``players`` seats."""

    players: int
    hands: int
    options: FlamingOptions = field(default_factory=FlamingOptions)
    seed: int = 0
    scores: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.hands < 1:
            raise PositionError("flaming.match_without_hands", value=self.hands)

    def game_for_hand(self, index: int) -> FlamingGame:
        """The game of hand ``index`` (0-based): the first player moves left each hand."""
        first = (self.options.first_player + index) % self.players
        return FlamingGame(self.players, replace(self.options, first_player=first))

    def seed_for_hand(self, index: int) -> int:
        """The shuffle seed of hand ``index``."""
        return self.seed * 1000 + index

    def record_hand(self, final: FlamingState) -> list[int]:
        """Score a finished hand and return its scores."""
        if not final.is_terminal():
            raise IllegalActionError("flaming.hand_not_over")
        scores = hand_score(final)
        self.scores.append(scores)
        return scores

    @property
    def is_over(self) -> bool:
        """Whether every hand has been played."""
        return len(self.scores) >= self.hands

    @property
    def totals(self) -> list[int]:
        """Total tiles left per seat so far."""
        return [sum(h[s] for h in self.scores) for s in range(self.players)]

    def winners(self) -> list[int]:
        """The seats with the lowest total (ties share the win)."""
        totals = self.totals
        best = min(totals)
        return [s for s, t in enumerate(totals) if t == best]
