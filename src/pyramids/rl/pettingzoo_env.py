"""PettingZoo AEC environments of every registered game: every seat an agent, chance inside.

One environment class per game of the registry (``pyramids.games``) that provides an RL
encoding, made from its descriptor: ``env_class(name)``, or by attribute, the class
named after the game's title (``<Title>Env``, the title in CamelCase), PettingZoo
metadata name ``<title>_v0`` (the title in snake case).

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Each observation is a dict:
``observation`` (float32 vector of the seat's view, ``spaces.Encoding.observe``) and
``action_mask`` (int8, 1 = legal index; all zeros when the agent is not the one to
decide). The environment only stops at decisions: fire-die rolls, pirate steals and
new-start deals are drawn at once with the environment's generator (seeded by
``reset(seed=...)``), and a decision in the middle of a turn (a fall direction, a
capture) is simply the next agent's turn. Rewards are 0 until the game ends, then each
seat's ``returns()`` (1 for the winner; a shared 1 after a max_turns ending), and every
agent terminates. An illegal index raises ValueError naming the legal ones.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from pyramids.core.descriptor import GameDescriptor
from pyramids.core.game import CHANCE, Game, State
from pyramids.games import descriptors, make_game
from pyramids.rl.spaces import OBS_HIGH, OBS_LOW, Encoding, Mask, Obs, encoding_for, has_encoding

RENDER_MODES = ["ansi"]


def agent_name(seat: int) -> str:
    """The PettingZoo agent id of ``seat``."""
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    """The seat of agent id ``player_N``."""
    return int(agent.rsplit("_", 1)[1])


def resolve_chance(state: State, rng: random.Random) -> None:
    """Apply chance outcomes drawn with ``rng`` until someone must decide (or the end)."""
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))


def render_text(encoding: Encoding, state: State) -> str:
    """The public position as plain text (the spectator's view, nothing hidden)."""
    text = encoding.render(state.view(None))
    if state.is_terminal():
        text += f"\nover: returns {state.returns()}"
    return text


def title_words(desc: GameDescriptor) -> list[str]:
    """The words of a game's English title (its ``GameInfo.name``)."""
    return [w for w in re.split(r"[^A-Za-z0-9]+", desc.info.name) if w]


def class_name(desc: GameDescriptor) -> str:
    """The environment class name of a game: its title in CamelCase, then ``Env``."""
    return "".join(w[:1].upper() + w[1:] for w in title_words(desc)) + "Env"


def env_name(desc: GameDescriptor) -> str:
    """The PettingZoo metadata name of a game: its title in snake case, then ``_v0``."""
    return "_".join(w.lower() for w in title_words(desc)) + "_v0"


class PyramidsAECEnv(AECEnv):  # type: ignore[misc]
    """The shared AEC environment; each game's subclass (``env_class``) sets ``game_name``."""

    game_name: ClassVar[str] = ""
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "pyramids",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}")
        self.render_mode = render_mode
        # engine: auto, native or python (None: auto; docs/NATIVE.md)
        self.game: Game = make_game(self.game_name, players, options, engine=engine)
        self.encoding: Encoding = encoding_for(self.game_name, self.game)
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: self._make_obs_space() for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.encoding.num_actions) for a in self.possible_agents
        }
        self._rng: random.Random | None = None
        self._state: State | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    # --- spaces ---------------------------------------------------------------------

    def _make_obs_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(
                    OBS_LOW, OBS_HIGH, (self.encoding.obs_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), dtype=np.int8),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The Discrete space of ``agent``'s action indices."""
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------

    @property
    def state_now(self) -> State:
        """The engine state (all hidden facts: for drivers and tests, not for agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same seed gives the same deal and the same chance draws."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self._state = self.game.new_initial_state(self._rng.getrandbits(63))
        resolve_chance(self._state, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self._state.current_player())

    def _chance_rng(self) -> random.Random:
        if self._rng is None:
            raise RuntimeError("call reset() first")
        return self._rng

    def observe(self, agent: str) -> dict[str, Obs | Mask]:
        """``agent``'s observation vector (from its view only) and action mask."""
        state = self.state_now
        seat = seat_of(agent)
        obs = self.encoding.observe(state.view(seat))
        if agent == self.agent_selection and state.current_player() == seat:
            mask = self.encoding.mask(state.legal_actions(), seat)
        else:
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def legal_indices(self, agent: str) -> list[int]:
        """The legal action indices of ``agent`` now (empty when it is not its turn)."""
        state = self.state_now
        if state.current_player() != seat_of(agent):
            return []
        return self.encoding.legal_indices(state)

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action index, then any chance, then pass the turn."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        state = self.state_now
        seat = seat_of(agent)
        if action is None:
            raise ValueError(f"{agent} must choose an action index, not None")
        legal = state.legal_actions()
        table = self.encoding.index_table(legal, seat)
        engine = table.get(int(action))
        if engine is None:
            raise ValueError(
                f"action index {action} is not legal for {agent}; legal: {sorted(table)}"
            )
        self._cumulative_rewards[agent] = 0.0
        state.apply(engine)
        resolve_chance(state, self._chance_rng())
        self._clear_rewards()
        if state.is_terminal():
            for a, r in zip(self.agents, state.returns(), strict=True):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"returns": list(state.returns())}
        else:
            self.agent_selection = agent_name(state.current_player())
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public position as text when render_mode is "ansi"; None otherwise."""
        if self.render_mode is None or self._state is None:
            return None
        return render_text(self.encoding, self._state)

    def close(self) -> None:
        """Nothing to release."""


_CLASSES: dict[str, type[PyramidsAECEnv]] = {}


def _registered(game: str) -> GameDescriptor:
    """The registered game ``game`` with an RL encoding; ValueError naming them otherwise."""
    for desc in descriptors():
        if desc.name == game and has_encoding(desc.name):
            return desc
    raise ValueError(f"unknown game {game!r} (known: {', '.join(env_games())})")


def env_games() -> list[str]:
    """The short names of the registered games that have an environment (an RL encoding)."""
    return [d.name for d in descriptors() if has_encoding(d.name)]


def env_class(game: str) -> type[PyramidsAECEnv]:
    """The environment class of the registered game ``game`` (made once, from its descriptor)."""
    cls = _CLASSES.get(game)
    if cls is None:
        desc = _registered(game)
        info = desc.info
        name = class_name(desc)
        cls = type(
            name,
            (PyramidsAECEnv,),
            {
                "__module__": __name__,
                "__qualname__": name,
                "__doc__": (
                    f"{desc.title()} for ``players`` ({info.min_players}..{info.max_players}) "
                    f"seats; options as in ``make_game({desc.name!r}, ...)``."
                ),
                "game_name": desc.name,
                "metadata": {
                    "render_modes": RENDER_MODES,
                    "name": env_name(desc),
                    "is_parallelizable": False,
                },
            },
        )
        _CLASSES[game] = cls
    return cls


def __getattr__(name: str) -> Any:
    """A game's environment class by its class name (``class_name``), from the registry."""
    for desc in descriptors():
        if class_name(desc) == name and has_encoding(desc.name):
            return env_class(desc.name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def env(game: str | None = None, **kwargs: Any) -> PyramidsAECEnv:
    """An environment by game name (default: the first registered game), PettingZoo style."""
    if game is None:
        games = env_games()
        if not games:
            raise ValueError("no registered game has an RL encoding")
        game = games[0]
    return env_class(game)(**kwargs)


__all__ = [
    "PyramidsAECEnv",
    "agent_name",
    "class_name",
    "env",
    "env_class",
    "env_games",
    "env_name",
    "render_text",
    "resolve_chance",
    "seat_of",
]
