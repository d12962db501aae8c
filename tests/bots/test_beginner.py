"""The beginner bot (``pyramids.bots.beginner``): the default policy with a person's mistakes.

Issue 28: "a beginner level that makes human mistakes", generic over the registry and
reproducible from the generator it is given. Its strength against greedy and random is
measured, not tested (docs/BOTS.md, "The levels players choose from").
"""

from __future__ import annotations

import random

import pytest

from pyramids.bots import EASY_OVERLOOK, BeginnerBot, GreedyBot, make_bot
from pyramids.bots.greedy import game_policy
from pyramids.core import play_game
from pyramids.core.game import Action, View
from pyramids.flaming.actions import CHECK_OK
from pyramids.games import make_game
from pyramids.games.flaming.policy import perfect_check
from tests.bots.test_callout_bots import checker_view, checking
from tests.thirdgame import registered


def policy_order(view: View, legal: list[Action], rng: random.Random, depth: int) -> list[Action]:
    """The policy's first ``depth`` choices, asked as guided search asks it."""
    policy = game_policy(view.game)
    assert policy is not None
    left, order = list(legal), list[Action]()
    while left and len(order) < depth:
        order.append(policy.act(view, left, rng))
        left.remove(order[-1])
    return order


@pytest.mark.parametrize(("game", "players"), [("flaming", 2), ("flags", 2), ("flags", 3)])
def test_beginner_plays_whole_games_legally_and_repeats_them_from_the_seed(
    game: str, players: int
) -> None:
    """Every move is legal (play_game refuses others) and the same seed gives the same game."""
    the_game = make_game(game, players)
    bots = [make_bot("beginner"), *[make_bot("greedy")] * (players - 1)]
    final, record = play_game(the_game, bots, 7)
    assert final.is_terminal()
    again = [make_bot("beginner"), *[make_bot("greedy")] * (players - 1)]
    assert play_game(the_game, again, 7)[1].actions == record.actions


def test_beginner_is_generic_it_plays_a_game_no_bot_names() -> None:
    """A game from outside the repository (Pebble Pyramid) is played through its policy."""
    with registered() as name:
        final, _ = play_game(make_game(name, 2), [make_bot("beginner"), GreedyBot()], 3)
        assert final.is_terminal()


def test_without_mistakes_the_beginner_plays_the_policy_and_with_slips_never_its_first_choice() -> (
    None
):
    """slip=1: always the policy's second or third choice; no blunder, no slip: its first."""
    state = make_game("flags", 2).new_initial_state(5)
    view, legal = state.view(state.current_player()), state.legal_actions()
    assert len(legal) > 3
    careful = BeginnerBot(0.0, blunder=0.0, slip=0.0)
    slipping = BeginnerBot(0.0, blunder=0.0, slip=1.0)
    for seed in range(20):
        first = policy_order(view, legal, _after_one_draw(seed), 1)[0]
        assert careful.act(view, legal, random.Random(seed)) == first
        rng = _after_one_draw(seed)
        depth = rng.randrange(1, 3)  # the slip's depth: the second or the third choice
        wanted = policy_order(view, legal, rng, depth + 1)[depth]
        choice = slipping.act(view, legal, random.Random(seed))
        assert choice == wanted
        assert choice != first


def _after_one_draw(seed: int) -> random.Random:
    """The generator of ``seed`` after the beginner's first draw (whether it errs)."""
    rng = random.Random(seed)
    rng.random()
    return rng


def test_the_beginner_makes_mistakes_but_mostly_plays_like_greedy() -> None:
    """Over many seeded decisions it sometimes leaves greedy's move, mostly not."""
    state = make_game("flags", 2).new_initial_state(11)
    view, legal = state.view(state.current_player()), state.legal_actions()
    beginner, greedy = make_bot("beginner"), GreedyBot()
    same = sum(
        beginner.act(view, legal, random.Random(s)) == greedy.act(view, legal, _after_one_draw(s))
        for s in range(200)
    )
    assert 100 < same < 190


def test_the_beginner_overlooks_mayhem_at_a_call_out_check_like_careless() -> None:
    """FP-CALL: it says ok over standing mayhem with chance EASY_OVERLOOK, never a false alarm."""
    misfit = checking("G60")
    view, legal = checker_view(misfit), misfit.legal_actions()
    bot = make_bot("beginner")
    assert isinstance(bot, BeginnerBot) and bot.overlook == EASY_OVERLOOK
    answers = [bot.act(view, legal, random.Random(s)) for s in range(200)]
    assert set(answers) == {CHECK_OK, perfect_check(view)}
    clean = checking("R40")
    assert {
        bot.act(checker_view(clean), clean.legal_actions(), random.Random(s)) for s in range(30)
    } == {CHECK_OK}


def test_a_beginner_with_a_chance_outside_0_to_1_is_refused() -> None:
    """Bad input says what is wrong."""
    with pytest.raises(ValueError, match="slip must be a chance from 0 to 1"):
        BeginnerBot(0.0, slip=1.5)
