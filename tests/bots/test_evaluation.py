"""Each game's static evaluation (its descriptor's ``evaluation``): a value in [0, 1] per seat.

Hand-made positions where one seat is clearly ahead must score higher for that seat;
a finished game scores its ``returns()``. The evaluations are reached through the
registry, as the search reaches them (``SearchSettings(evaluation="handmade")``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pyramids.bots import ISMCTSBot, SearchSettings
from pyramids.core import CHANCE
from pyramids.core.descriptor import Evaluation
from pyramids.core.game import State
from pyramids.flaming import position_from_json
from pyramids.games import descriptor, make_game
from tests.flags import state as flags_state


def evaluation(game: str) -> Evaluation:
    """The game's evaluation, loaded from its registry entry."""
    evaluate: Evaluation = descriptor(game).evaluation.get()
    return evaluate


def flaming(hands: list[list[str]], piles: list[list[str]]) -> State:
    """A Flaming Pyramids position on a small base (contract section 11); seat 0 to move."""
    data: dict[str, Any] = {
        "rules": {"preset": "basic"},
        "players": len(hands),
        "to_move": 0,
        "turn": 3,
        "pyramid": ["R60@0,0", "Y10@0,2", "G10@0,4"],
        "hands": hands,
        "piles": piles,
        "out": [],
    }
    return position_from_json(data)


def check_values(values: list[float], players: int) -> None:
    """One value per seat, each in [0, 1]."""
    assert len(values) == players
    assert all(0.0 <= v <= 1.0 for v in values)


def test_flaming_fewer_tiles_left_scores_higher() -> None:
    """FP-END: the first to place every tile wins, so fewer tiles in hand and pile is better."""
    evaluate = evaluation("flaming")
    ahead = flaming([["B2"], ["B4", "Y4", "G6", "R40", "Y2"]], [[], ["G2", "R2"]])
    behind = flaming([["B2", "G2", "R2", "Y2", "Y4"], ["B4"]], [["G6", "R40"], []])
    even = flaming([["B2", "G2"], ["B4", "Y4"]], [[], []])
    for s in (ahead, behind, even):
        check_values(evaluate(s), 2)
    assert evaluate(ahead)[0] > evaluate(ahead)[1]
    assert evaluate(behind)[0] < evaluate(behind)[1]
    assert evaluate(ahead)[0] > evaluate(even)[0] > evaluate(behind)[0]
    assert evaluate(even) == pytest.approx([0.5, 0.5])


def test_flags_points_and_flags_score_higher() -> None:
    """PF-WIN: five flags, three of a group or eight points win; more of them is better."""
    evaluate = evaluation("flags")
    ahead = flags_state(scoring=[["O1", "P3"], []], scored=[["ARG", "ITA"], []])
    behind = flags_state(scoring=[[], ["O1", "P3"]], scored=[[], ["ARG"]])
    even = flags_state()
    for s in (ahead, behind, even):
        check_values(evaluate(s), 2)
    assert evaluate(ahead)[0] > evaluate(ahead)[1]
    assert evaluate(behind)[0] < evaluate(behind)[1]
    assert evaluate(ahead)[0] > evaluate(even)[0] > evaluate(behind)[0]
    assert evaluate(even) == pytest.approx([0.5, 0.5])


@pytest.mark.parametrize(("game", "players"), [("flaming", 3), ("flags", 3)])
def test_a_finished_game_scores_its_returns(game: str, players: int) -> None:
    """At the end the evaluation is the game's result (returns()), not an estimate."""
    evaluate = evaluation(game)
    g = make_game(game, players, {"max_turns": 40})
    s = g.new_initial_state(1)
    rng = random.Random(1)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))
        else:
            check_values(evaluate(s), players)
            s.apply(rng.choice(s.legal_actions()))
    assert evaluate(s) == s.returns()


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_the_search_can_score_cut_rollouts_with_the_evaluation(game: str) -> None:
    """SearchSettings(evaluation="handmade"): a rollout cut by rollout_cap is scored by the game."""
    g = make_game(game, 2)
    s = g.new_initial_state(2)
    rng = random.Random(2)
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance(rng))
    seat = s.current_player()
    settings = SearchSettings(iterations=30, rollout_cap=0, evaluation="handmade")
    result = ISMCTSBot(settings).search(s.view(seat), s.legal_actions(), random.Random(0))
    assert result.iterations == 30
    assert sum(st.visits for st in result.stats) == 30
    assert all(0.0 <= st.win <= 1.0 for st in result.stats)
