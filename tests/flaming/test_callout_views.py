"""Views in call-out mode (FP-CALL-11, FP-VIEW): a check reveals nothing hidden.

Seeded games in both variants, checked with a lax checker so overlooked mayhem stands
often. At every step every seat's view and the spectator's must leave out whether
mayhem stands, and a determinization of any seat's view must agree with the true state
on everything public: the pending check, the overlooked mark, the legal actions.
"""

from __future__ import annotations

import random

import pytest

from pyramids.core import CHANCE
from pyramids.flaming import FlamingGame, FlamingOptions
from pyramids.flaming.actions import CHECK_OK, is_check


@pytest.mark.parametrize("callout", ["family", "competitive"])
@pytest.mark.parametrize("players", [2, 4])
def test_views_hold_what_is_public_and_never_say_whether_mayhem_stands(
    callout: str, players: int
) -> None:
    """FP-CALL-11: the view's JSON leaves ``overlooked`` out; a determinization keeps it."""
    game = FlamingGame(players, FlamingOptions(callout=callout, fire_die=players == 4))
    seen_overlooked = seen_checks = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            elif is_check(legal[0]):
                seen_checks += 1
                action = CHECK_OK if rng.random() < 0.7 else rng.choice(legal)
            else:
                action = rng.choice(legal)
            state.apply(action)
            seen_overlooked += state.overlooked
            for seat in (*range(players), None):
                view = state.view(seat)
                data = view.to_json()
                assert "overlooked" not in data
                assert view.overlooked == state.overlooked
                if seat is not None:
                    sample = game.determinize(view, rng)
                    assert sample.overlooked == state.overlooked
                    assert sample.to_json().get("pending") == state.to_json().get("pending")
                    now = state.legal_actions()
                    if seat == state.current_player() or (now and is_check(now[0])):
                        assert sample.legal_actions() == state.legal_actions()
    assert seen_checks > 50 and seen_overlooked > 0
