"""The batch self-play the benchmark times plays exactly the games of the one-by-one calls.

``_native.<game>_self_play_batch`` seeds the bot's generator with ``Random(seed)`` and the
chance generator with ``Random(seed + 2**32)`` itself (``bench.CHANCE_SEED_OFFSET``); the
totals it returns must be those of ``<game>_self_play`` given the same generators, game by
game, and those of ``bench.play_timed`` on the Python engine.
"""

from __future__ import annotations

import random

import pytest

from pyramids.analysis.bench import CHANCE_SEED_OFFSET, play_timed, setup_of
from pyramids.bots import make_bot
from pyramids.games import make_game

native = pytest.importorskip("pyramids._native")

CASES = [
    ("flaming", 2, {}),
    ("flaming", 5, {"preset": "family", "fire_die": True}),
    ("flaming", 3, {"callout": "family"}),
    ("flags", 2, {}),
    ("flags", 4, {"actions": False}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_the_batch_plays_the_games_of_the_single_calls_and_of_python(
    name: str, players: int, options: dict[str, object], policy: str
) -> None:
    """Same games, same turn and action totals, for seeds 0..5."""
    game = make_game(name, players, options, engine="python")
    low, high = setup_of(name).turn_actions
    record = dict(game.options)
    seeds = list(range(6))
    games, turns, actions, seconds = getattr(native, f"{name}_self_play_batch")(
        players, record, seeds, policy, low, high
    )
    single = getattr(native, f"{name}_self_play")
    want_turns = want_actions = 0
    python_turns = 0
    bot = make_bot(policy)
    for seed in seeds:
        got = single(
            players,
            record,
            seed,
            policy,
            list(random.Random(seed).getstate()[1]),
            list(random.Random(seed + CHANCE_SEED_OFFSET).getstate()[1]),
            low,
            high,
        )
        want_turns += got[0]
        want_actions += len(got[1])
        python_turns += play_timed(
            game, bot, seed, views=policy != "random", turn_actions=(low, high)
        )[0]
    assert (games, turns, actions) == (len(seeds), want_turns, want_actions)
    assert turns == python_turns
    assert seconds >= 0
