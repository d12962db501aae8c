"""Tournament statistics: Wilson intervals, placements from final states, OpenSkill updates.

Placements follow the engine's endings: a winner gets 1 and the others 0 (FP-END-5,
PF-WIN-4), so the winner is placed 1 and the others share place 2; a safeguard ending
carries a competition ranking (FP-END-4, PF-WIN-5), used as it is.
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from pyramids.analysis.ratings import (
    Rating,
    SkillRatings,
    placements,
    placements_from_returns,
    wilson_interval,
)
from pyramids.flags import position_from_json as flags_position
from tests.flags import position as flags_json
from tests.flaming.helpers import position as flaming_position

# --- Wilson -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "n", "expected"),
    [
        # p = 0.7, z^2 = 3.8416: centre (0.7 + 0.19208) / 1.38416 = 0.64449,
        # half 1.96 * sqrt(0.021 + 0.009604) / 1.38416 = 0.24772
        (7, 10, (0.3968, 0.8922)),
        # p = 0: centre = half = 0.19208 / 1.38416 = 0.13877
        (0, 10, (0.0, 0.2775)),
        # p = 1: the mirror image of 0/10
        (10, 10, (0.7225, 1.0)),
    ],
)
def test_wilson_interval_matches_hand_computed_values(
    wins: int, n: int, expected: tuple[float, float]
) -> None:
    """The 95% Wilson score interval (z = 1.96), to 4 decimals."""
    lo, hi = wilson_interval(wins, n, z=1.96)
    assert (round(lo, 4), round(hi, 4)) == expected


def test_wilson_interval_of_no_games_is_everything() -> None:
    """With no game nothing is known: [0, 1]."""
    assert wilson_interval(0, 0) == (0.0, 1.0)


# --- placements -------------------------------------------------------------------------


def test_placements_of_a_flaming_win_put_the_others_second() -> None:
    """FP-END-5: "the winner gets 1 and every other seat 0": winner placed 1, the others 2."""
    state = flaming_position(hands=[["R40"], [], ["B60", "W200"]], winner=1)
    assert state.returns() == [0.0, 1.0, 0.0]
    assert placements(state) == [2, 1, 2]


def test_placements_after_max_turns_are_the_ranking() -> None:
    """FP-END-4: "tied seats share a rank and the next rank skips (1, 2, 2, 4)"."""
    state = flaming_position(hands=[["R40"], ["R60"], ["B60", "W200"]], ranking=[1, 1, 3])
    assert state.returns() == [0.5, 0.5, 0.0]
    assert placements(state) == [1, 1, 3]


def test_placements_of_a_flags_safeguard_ending_are_its_ranking() -> None:
    """PF-WIN-5: "seats are ranked by points, then flags, ties sharing"."""
    data = flags_json(scoring=[[], ["O1"]], hands=[["CZE"], ["ITA"]])
    data["ranking"] = [2, 1]
    assert placements(flags_position(data)) == [2, 1]
    data = flags_json(scoring=[[], []], hands=[["CZE"], ["ITA"]])
    data["ranking"] = [1, 1]
    assert placements(flags_position(data)) == [1, 1]


def test_placements_from_returns_rank_by_strictly_better_seats() -> None:
    """A seat's place is 1 plus the number of seats with a strictly higher return."""
    assert placements_from_returns([0.0, 0.0, 1.0, 0.0]) == [2, 2, 1, 2]
    assert placements_from_returns([0.5, 0.0, 0.5]) == [1, 3, 1]


def test_placements_refuse_a_game_in_progress() -> None:
    """Only a finished game has placements."""
    state = flaming_position(hands=[["R40"], ["R60"]])
    with pytest.raises(ValueError, match="finished"):
        placements(state)


# --- OpenSkill ----------------------------------------------------------------------------


def test_one_game_update_is_openskill_plackett_luce() -> None:
    """Each seat a team of one ranked by placement: exactly openskill's own update."""
    ratings = SkillRatings(3)
    ratings.update([0, 1, 2], [2, 1, 2])
    model = PlackettLuce()
    a, b, c = (model.rating() for _ in range(3))
    expected = model.rate([[a], [b], [c]], ranks=[2, 1, 2])
    for got, (want,) in zip(ratings.ratings, expected, strict=True):
        assert got.mu == pytest.approx(want.mu)
        assert got.sigma == pytest.approx(want.sigma)
        assert got.ordinal == pytest.approx(want.ordinal())
    winner, loser, _ = ratings.ratings[1], ratings.ratings[0], ratings.ratings[2]
    assert winner.mu > 25.0 > loser.mu
    assert ratings.ratings[0] == ratings.ratings[2]


def test_two_games_are_rated_in_order_from_the_updated_ratings() -> None:
    """The second game starts from the ratings the first left (processing is sequential)."""
    ratings = SkillRatings(2)
    ratings.update([0, 1], [1, 2])
    ratings.update([1, 0], [2, 1])
    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    [[b], [a]] = model.rate([[b], [a]], ranks=[2, 1])
    assert ratings.ratings[0].mu == pytest.approx(a.mu)
    assert ratings.ratings[1].sigma == pytest.approx(b.sigma)
    assert ratings.ratings[0].mu > ratings.ratings[1].mu


def test_a_contestant_in_several_seats_gets_the_mean_of_their_updates() -> None:
    """Seat-instances of one contestant are rated from its rating; its new mu and sigma are
    the means of theirs."""
    ratings = SkillRatings(2)
    ratings.update([0, 1, 0, 1], [1, 2, 2, 2])
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(4)]
    new = model.rate(teams, ranks=[1, 2, 2, 2])
    mine = [new[0][0], new[2][0]]
    assert ratings.ratings[0].mu == pytest.approx((mine[0].mu + mine[1].mu) / 2)
    assert ratings.ratings[0].sigma == pytest.approx((mine[0].sigma + mine[1].sigma) / 2)
    assert ratings.ratings[0].mu > ratings.ratings[1].mu


def test_rating_ordinal_is_mu_minus_three_sigma() -> None:
    """The reported ordinal is openskill's default, mu - 3 sigma."""
    assert Rating(30.0, 5.0).ordinal == 15.0
    assert Rating(30.0, 5.0).to_json() == {"mu": 30.0, "sigma": 5.0, "ordinal": 15.0}


def test_an_update_must_rank_every_seat() -> None:
    """One placement per seat, and at least two seats."""
    ratings = SkillRatings(2)
    with pytest.raises(ValueError, match="placements"):
        ratings.update([0, 1], [1])
    with pytest.raises(ValueError, match="two seats"):
        ratings.update([0], [1])
