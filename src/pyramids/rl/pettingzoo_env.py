"""PettingZoo AEC environments of both games: every seat an agent, chance resolved inside.

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
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from pyramids.core.game import CHANCE, Game, State
from pyramids.games import make_game
from pyramids.rl.spaces import OBS_HIGH, OBS_LOW, Encoding, Mask, Obs, encoding_for

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


def render_text(game_name: str, state: State) -> str:
    """The public position as plain text (the spectator's view, nothing hidden)."""
    view: Any = state.view(None)
    if game_name == "flaming":
        from pyramids.flaming.tiles import NAMES as TILE_NAMES
        from pyramids.flaming.tiles import col_of, row_of

        rows: dict[int, list[str]] = {}
        for key, tile in view.pyramid:
            rows.setdefault(row_of(key), []).append(f"{TILE_NAMES[tile]}@{col_of(key)}")
        lines = [f"row {r}: {' '.join(rows[r])}" for r in sorted(rows, reverse=True)]
        lines = lines or ["(empty pyramid)"]
        lines.append(
            f"turn {view.turn}  to move: player_{view.to_move}  "
            f"hands {list(view.hand_sizes)}  piles {list(view.pile_sizes)}"
        )
    else:
        from pyramids.flags.pieces import NAMES as PIECE_NAMES

        towers = " | ".join(" ".join(PIECE_NAMES[p] for p in t) for t in view.towers)
        lines = [f"towers (bottom first): {towers}"]
        lines.append(
            f"turn {view.turn}  to move: player_{view.to_move}  "
            f"points {[view.points(s) for s in range(view.players)]}  "
            f"flags {[len(s) for s in view.scored]}  deck {view.deck_size}"
        )
    if state.is_terminal():
        lines.append(f"over: returns {state.returns()}")
    return "\n".join(lines)


class PyramidsAECEnv(AECEnv):  # type: ignore[misc]
    """The shared AEC environment; use FlamingPyramidsEnv or PyramidsAndFlagsEnv."""

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
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}")
        self.render_mode = render_mode
        self.game: Game = make_game(self.game_name, players, options)
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
        return render_text(self.game_name, self._state)

    def close(self) -> None:
        """Nothing to release."""


class FlamingPyramidsEnv(PyramidsAECEnv):
    """Flaming Pyramids for ``players`` (2..6) seats; options as in ``make_game("flaming", ...)``."""

    game_name = "flaming"
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "flaming_pyramids_v0",
        "is_parallelizable": False,
    }


class PyramidsAndFlagsEnv(PyramidsAECEnv):
    """Pyramids and Flags for ``players`` (2..4) seats; options as in ``make_game("flags", ...)``."""

    game_name = "flags"
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "pyramids_and_flags_v0",
        "is_parallelizable": False,
    }


def env(game: str = "flaming", **kwargs: Any) -> PyramidsAECEnv:
    """An environment by game name ("flaming" or "flags"), PettingZoo style."""
    classes: dict[str, type[PyramidsAECEnv]] = {
        "flaming": FlamingPyramidsEnv,
        "flags": PyramidsAndFlagsEnv,
    }
    if game not in classes:
        raise ValueError(f"unknown game {game!r} (known: flaming, flags)")
    return classes[game](**kwargs)


__all__ = [
    "FlamingPyramidsEnv",
    "PyramidsAECEnv",
    "PyramidsAndFlagsEnv",
    "agent_name",
    "env",
    "render_text",
    "resolve_chance",
    "seat_of",
]
