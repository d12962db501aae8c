"""A Gymnasium single-agent environment: one learning seat against the project's bots.

``PyramidsGymEnv(game, opponents=["greedy", "random"], seat=0)`` seats the learner and
one bot per opponent (``pyramids.bots.make_bot`` names, or Bot objects). ``step`` takes
an action index of ``spaces.Encoding``; the bots' turns and every chance point between
two of the learner's decisions are played inside the step. The observation is the
learner's view vector; ``info["action_mask"]`` (and ``action_masks()``, the
sb3-contrib convention) holds the legal indices. The reward is 0 until the game ends,
then the learner's ``returns()`` value (1 = won, 0 = lost, a share after max_turns).

Illegal indices: with ``illegal_action="raise"`` (the default) ``step`` raises
ValueError and changes nothing; with ``"penalize"`` it returns ``illegal_penalty`` as
the reward, the same observation, ``info["illegal_action"] = True``, and the game goes
on unchanged. Gymnasium's ``check_env`` steps with unmasked random indices, so it is
run on the "penalize" variant (docs/RL.md).

Every registered game with an RL encoding is registered with Gymnasium as
``pyramids/<Title>-v0`` (its title in CamelCase, ``env_id(name)``; ``ENV_IDS`` maps the
short names to the ids): ``gymnasium.make(env_id(name), opponents=[...])``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pyramids.bots import make_bot
from pyramids.core.game import CHANCE, Bot, Game, OracleBot, State, choose, observe_all
from pyramids.games import descriptor, make_game
from pyramids.rl.pettingzoo_env import class_name, env_games, render_text
from pyramids.rl.spaces import OBS_HIGH, OBS_LOW, Encoding, Mask, Obs, encoding_for

ILLEGAL_MODES = ("raise", "penalize")


class PyramidsGymEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of ``game`` (a registered game's short name) played by the agent, the others by bots."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # gymnasium's own annotation

    def __init__(
        self,
        game: str | None = None,
        *,
        opponents: Sequence[str | Bot | OracleBot] = ("greedy",),
        seat: int | None = 0,
        options: Mapping[str, Any] | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        engine: str | None = None,
    ) -> None:
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None or 'ansi'")
        if not opponents:
            raise ValueError("give at least one opponent bot")
        if game is None:
            games = env_games()
            if not games:
                raise ValueError("no registered game has an RL encoding")
            game = games[0]
        self.game_name = game
        players = len(opponents) + 1
        # engine: auto, native or python (None: auto; docs/NATIVE.md)
        self.game: Game = make_game(game, players, options, engine=engine)
        self.encoding: Encoding = encoding_for(game, self.game)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.opponents: list[Bot | OracleBot] = [
            make_bot(b, engine=engine) if isinstance(b, str) else b for b in opponents
        ]
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            OBS_LOW, OBS_HIGH, (self.encoding.obs_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self._state: State | None = None
        self._rng = random.Random(0)
        self._bots: dict[int, Bot | OracleBot] = {}

    @property
    def state_now(self) -> State:
        """The engine state (all hidden facts: for drivers and tests, not for the agent)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game and play up to the learner's first decision."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._rng = random.Random(int(self.np_random.integers(0, 2**63 - 1)))
        n = self.game.num_players
        self.seat = (
            self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
        )
        others = [s for s in range(n) if s != self.seat]
        self._bots = dict(zip(others, self.opponents, strict=True))
        self._state = self.game.new_initial_state(game_seed)
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play the learner's action index, then the bots and chance up to its next decision."""
        state = self.state_now
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        legal = state.legal_actions()
        engine = self.encoding.index_table(legal, self.seat).get(int(action))
        if engine is None:
            if self.illegal_action == "raise":
                raise ValueError(
                    f"action index {action} is not legal; legal indices: "
                    f"{sorted(self.encoding.index_table(legal, self.seat))} "
                    "(info['action_mask'] marks them)"
                )
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_penalty, False, False, info
        state.apply(engine)
        self._play_others()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        return self._observation(), reward, done, False, self._info()

    def action_masks(self) -> Mask:
        """The legal indices now as a boolean-like int8 mask (sb3-contrib's MaskablePPO hook)."""
        return self._mask()

    def render(self) -> str | None:
        """The public position as text when render_mode is "ansi"."""
        if self.render_mode is None or self._state is None:
            return None
        return render_text(self.encoding, self._state)

    # --- helpers --------------------------------------------------------------------

    def _play_others(self) -> None:
        state = self.state_now
        observe_all(self._bots, state)  # the learner's action (or the deal) just applied
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                state.apply(state.sample_chance(self._rng))
            elif p == self.seat:
                return
            else:
                state.apply(choose(self._bots[p], state, p, self._rng))
            observe_all(self._bots, state)

    def _observation(self) -> Obs:
        return self.encoding.observe(self.state_now.view(self.seat))

    def _mask(self) -> Mask:
        state = self.state_now
        if state.is_terminal() or state.current_player() != self.seat:
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.encoding.mask(state.legal_actions(), self.seat)

    def _info(self) -> dict[str, Any]:
        state = self.state_now
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        if state.is_terminal():
            info["returns"] = list(state.returns())
        return info


def env_id(game: str) -> str:
    """The Gymnasium id of the registered game ``game``: ``pyramids/<Title>-v0``."""
    return f"pyramids/{class_name(descriptor(game)).removesuffix('Env')}-v0"


ENV_IDS: dict[str, str] = {}
"""Short name -> Gymnasium id of every game registered with Gymnasium (at import)."""


def register_envs() -> dict[str, str]:
    """Register every registered game that has an RL encoding with Gymnasium (idempotent)."""
    for game in env_games():
        name = env_id(game)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="pyramids.rl.gym_env:PyramidsGymEnv",
                kwargs={"game": game},
                disable_env_checker=True,
            )
        ENV_IDS[game] = name
    return dict(ENV_IDS)


register_envs()

__all__ = ["ENV_IDS", "PyramidsGymEnv", "env_id", "register_envs"]
