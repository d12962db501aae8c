"""The Gymnasium single-agent environment: one learning seat against the project's bots."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from pyramids.bots import RandomBot
from pyramids.rl.gym_env import ENV_IDS, PyramidsGymEnv, env_id


def test_every_registered_game_is_a_gymnasium_id() -> None:
    """Hosts name no game: the ids come from the registry, one per game with an encoding."""
    assert env_id("flaming") == "pyramids/FlamingPyramids-v0"
    assert env_id("flags") == "pyramids/PyramidsAndFlags-v0"
    assert {"flaming", "flags"} <= set(ENV_IDS)
    assert all(i in gymnasium.registry for i in ENV_IDS.values())


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_the_penalizing_environment_passes_gymnasium_check_env(game: str) -> None:
    """Gymnasium's checker, render modes included, with warnings as errors.

    check_env steps with unmasked random indices, so it runs on illegal_action="penalize";
    the default "raise" refuses such indices (the next test), which the checker cannot know.
    """
    env = gymnasium.make(env_id(game), opponents=["greedy", "random"], illegal_action="penalize")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_an_illegal_index_raises_and_the_info_mask_marks_the_legal_ones() -> None:
    """Errors say what is wrong (STYLE): ValueError, nothing changes, info['action_mask'] is the way."""
    env = PyramidsGymEnv("flaming", opponents=["greedy"])
    _, info = env.reset(seed=3)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    assert np.array_equal(mask, env.action_masks())
    before = env.state_now.to_json()
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state_now.to_json() == before
    legal = int(np.flatnonzero(mask)[0])
    obs2, _, _, truncated, _ = env.step(legal)
    assert obs2 in env.observation_space and not truncated


def test_penalize_mode_returns_the_penalty_and_keeps_the_game() -> None:
    """illegal_action="penalize": reward illegal_penalty, same observation, game unchanged."""
    env = PyramidsGymEnv(
        "flags", opponents=["random"], illegal_action="penalize", illegal_penalty=-0.5
    )
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(bad)
    assert reward == -0.5 and not terminated and not truncated and info2["illegal_action"]
    assert np.array_equal(obs, obs2)


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_a_full_episode_ends_with_the_learners_return(game: str) -> None:
    """FP-END-5, PF-WIN-5: the reward at the end is the learner's return (1 won, 0 lost, a share)."""
    env = PyramidsGymEnv(
        game,
        opponents=["greedy", RandomBot()],
        seat=None,
        options={"max_turns": 80},
    )
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=7)
    total = 0.0
    terminated = False
    steps = 0
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    assert steps >= 1
    assert total == info["returns"][env.seat]
    assert sum(info["returns"]) == pytest.approx(1.0)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_reset_with_a_seed_is_deterministic() -> None:
    """Chance is explicit (STYLE): the same seed deals the same game and bots play the same."""
    env = PyramidsGymEnv("flaming", opponents=["greedy", "random"], options={"fire_die": True})

    def run() -> list[float]:
        obs, info = env.reset(seed=21)
        sums = [float(obs.sum())]
        for _ in range(5):
            a = int(np.flatnonzero(info["action_mask"])[-1])
            obs, _, done, _, info = env.step(a)
            sums.append(float(obs.sum()))
            if done:
                break
        return sums

    assert run() == run()
