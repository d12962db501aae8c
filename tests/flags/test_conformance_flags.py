"""The core conformance suite (``pyramids.core.conformance``) run against Pyramids and Flags.

Seeded random playouts check the protocol after every action: sorted unique legal
actions, chance probabilities, notation and JSON round trips, clones, refused illegal
actions, views consistent with determinize, returns, game end, replay determinism.
"""

from __future__ import annotations

import pytest

from pyramids.core.conformance import check_game, check_player_and_actions
from pyramids.flags import FlagsGame, FlagsOptions
from tests.flags import play, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_flags_conform_to_the_core_protocol(players: int) -> None:
    """PF-WIN-5 / core protocol: random seeded playouts break no protocol rule and all end."""
    game = FlagsGame(players)
    report = check_game(game, (0, 1, 2), view_every=3, returns_total=1.0)
    assert report.games == 3
    assert set(report.decisions_per_seat) == set(range(players))
    assert report.hidden_states > 0


@pytest.mark.parametrize("players", [2, 4])
def test_flags_without_tree_actions_conform(players: int) -> None:
    """PF-TREE-1: with option actions off there is no chance point after setup."""
    report = check_game(
        FlagsGame(players, FlagsOptions(actions=False)), (2,), view_every=4, returns_total=1.0
    )
    assert report.chance_actions == 0


def test_max_turns_games_conform_and_rank() -> None:
    """PF-WIN-5: "max_turns ... ends a game no one has won: players are ranked"."""
    report = check_game(FlagsGame(3, FlagsOptions(max_turns=40)), range(3), returns_total=1.0)
    assert report.longest_game < 400


def test_deals_and_steals_are_listed_chance_points() -> None:
    """PF-TREE-7, PF-TREE-8: chance points with their outcomes pass the protocol checks."""
    s = play(state(towers=[["Y3", "Y2"]], hands=[["ITA"], ["FRA", "JPN"]]), "Y1>Y2", "newstart")
    assert len(check_player_and_actions(s, "deal")) == 3
    s = play(state(towers=[["K3", "K2"]], hands=[["ITA"], ["FRA", "JPN"]]), "K1>K2", "pirate:1")
    assert len(check_player_and_actions(s, "steal")) == 2


def test_a_big_deal_is_a_run_of_small_chance_points() -> None:
    """PF-TREE-7: seed 3 with three players reaches a new start of 12 cards (34650 deals) at
    step 1026; card by card, every chance point lists its outcomes (at most 36)."""
    report = check_game(FlagsGame(3), (3,), view_every=50, returns_total=1.0)
    assert report.chance_actions > 0
