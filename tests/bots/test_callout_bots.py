"""Bots at a call-out table (FP-CALL): every bot checks; normal and hard never overlook.

The greedy bot and the search levels answer a check with the game's reflex
(``pyramids.games.flaming.policy.CheckReflex``): the right call when the pyramid breaks
a rule, ``ok`` when it does not. The easy level says ``ok`` over standing mayhem at the
documented rate ``EASY_OVERLOOK``, drawn from its own generator.
"""

from __future__ import annotations

import math
import random

import pytest

from pyramids.bots import BOT_LEVELS, EASY_OVERLOOK, make_bot
from pyramids.bots.greedy import GreedyBot
from pyramids.bots.random_bot import RandomBot
from pyramids.core import play_game
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from pyramids.flaming.actions import CHECK_OK, call_action
from pyramids.flaming.mayhem import called_keys
from pyramids.flaming.view import FlamingView
from pyramids.games.flaming.policy import CheckReflex, perfect_check
from tests.flaming.helpers import play, position

FAMILY = {"preset": "standard", "callout": "family"}


def checking(tile: str) -> FlamingState:
    """Seat 0 has played ``tile`` at 1,1 on R100 and B120; seat 1 must check."""
    state = position(
        pyramid=["R100@0,0", "B120@0,2", "Y30@0,4"],
        hands=[[tile, "Y2"], ["R2", "R4"]],
        piles=[["B4"], ["Y10"]],
        rules=FAMILY,
    )
    play(state, f"{tile}@1,1")
    return state


def checker_view(state: FlamingState) -> FlamingView:
    view = state.view(1)
    assert isinstance(view, FlamingView)
    return view


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_the_perfect_check_calls_the_first_event_and_says_ok_over_a_clean_pyramid() -> None:
    """FP-CALL-3: G60 does not fit (a call of it is right); R40 fits (ok)."""
    misfit = checking("G60")
    answer = perfect_check(checker_view(misfit))
    assert misfit.action_to_string(answer) == "call:1,1"
    assert answer in misfit.legal_actions()
    clean = checking("R40")
    assert perfect_check(checker_view(clean)) == CHECK_OK


@pytest.mark.parametrize("spec", ["greedy", "ismcts:normal", "ismcts:hard", "oracle:normal"])
def test_greedy_normal_and_hard_check_perfectly(spec: str) -> None:
    """FP-CALL: "normal and hard check perfectly", and so does greedy, with any generator."""
    misfit = checking("G60")
    clean = checking("R40")
    for seed in range(30):
        for state, want in ((misfit, "call:1,1"), (clean, "ok")):
            bot = make_bot(spec)
            rng = random.Random(seed)
            if getattr(bot, "reads_true_state", False):
                action = bot.act_on_state(state, state.legal_actions(), rng)  # type: ignore[attr-defined]
            else:
                action = bot.act(checker_view(state), state.legal_actions(), rng)
            assert state.action_to_string(action) == want, (spec, seed)


def test_the_easy_level_overlooks_mayhem_at_its_documented_seeded_rate() -> None:
    """Easy says ok over standing mayhem with chance EASY_OVERLOOK, the same for the same
    seed; over a clean pyramid it always says ok (it never raises a false alarm)."""
    assert BOT_LEVELS["easy"].settings.overlook == EASY_OVERLOOK
    assert BOT_LEVELS["normal"].settings.overlook == BOT_LEVELS["hard"].settings.overlook == 0
    misfit = checking("G60")
    view = checker_view(misfit)
    legal = misfit.legal_actions()
    easy = make_bot("ismcts:easy")
    answers = [easy.act(view, legal, random.Random(seed)) for seed in range(400)]
    assert answers == [easy.act(view, legal, random.Random(seed)) for seed in range(400)]
    assert set(answers) == {CHECK_OK, perfect_check(view)}
    low, high = wilson(answers.count(CHECK_OK), len(answers))
    assert low <= EASY_OVERLOOK <= high
    clean = checking("R40")
    assert {
        easy.act(checker_view(clean), clean.legal_actions(), random.Random(s)) for s in range(50)
    } == {CHECK_OK}


def test_a_search_bot_plays_a_whole_call_out_game_and_its_checks_are_right() -> None:
    """Every check a normal-level bot (small budget) answers in a game is right."""
    game = FlamingGame(2, FlamingOptions(callout="competitive"))
    bot = make_bot("ismcts:30")
    checks = wrong = 0

    def step(state: object, _text: str) -> None:
        nonlocal checks, wrong
        assert isinstance(state, FlamingState)
        for event in state.events():
            if event.kind in ("check_ok", "false_alarm", "call"):
                checks += 1
                wrong += event.kind == "false_alarm"

    final, _record = play_game(game, [bot, GreedyBot()], 3, on_step=step)
    assert final.is_terminal()
    assert checks > 10
    assert wrong == 0
    assert not final.overlooked  # both seats check perfectly


def test_the_random_bot_checks_at_random_among_every_legal_call() -> None:
    """A random bot may overlook, call right or raise a false alarm."""
    misfit = checking("G60")
    legal = misfit.legal_actions()
    picks = {RandomBot().act(checker_view(misfit), legal, random.Random(s)) for s in range(200)}
    right = {a for a in picks if a != CHECK_OK and a in _calls(misfit)}
    assert CHECK_OK in picks and right and picks - right - {CHECK_OK}


def _calls(state: FlamingState) -> set[int]:
    keys = called_keys(state.position, state.options.curse_on)
    return {call_action(k) for k in keys}


def test_the_search_rates_every_answer_of_a_check_but_the_bot_checks_perfectly() -> None:
    """The reflex is played below the root; at the root ``analyse`` rates every answer.

    Here the search prefers ``ok``: in the family game, mayhem overlooked now is resolved
    at seat 1's next check with its tiles going out of the game, which shelters seat 1's
    own next misfit. Normal and hard still check perfectly, as the levels promise.
    """
    misfit = checking("G60")
    view = checker_view(misfit)
    legal = misfit.legal_actions()
    bot = make_bot("ismcts:300")
    stats = bot.analyse(view, legal, random.Random(1))  # type: ignore[attr-defined]
    assert {s.action for s in stats} == set(legal)
    assert sum(s.visits for s in stats) == 300
    assert bot.act(view, legal, random.Random(1)) in _calls(misfit)


def test_the_reflex_reads_the_same_answer_off_a_state_as_off_its_views() -> None:
    """``CheckReflex.careful(state)`` (the search's fast path) equals ``perfect_check`` of
    every seat's view at every check of lax seeded games, mayhem standing or not."""
    reflex = CheckReflex()
    game = FlamingGame(3, FlamingOptions(callout="family", fire_die=True))
    compared = standing = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() < 0:
                state.apply(state.sample_chance(rng))
                continue
            if reflex.applies(legal):
                want = reflex.careful(state, legal)
                for seat in range(3):
                    view = state.view(seat)
                    assert isinstance(view, FlamingView)
                    assert perfect_check(view) == want
                compared += 1
                standing += want != CHECK_OK
                action = CHECK_OK if rng.random() < 0.6 else want
            else:
                action = rng.choice(legal)
            state.apply(action)
    assert compared > 100 and standing > 10
