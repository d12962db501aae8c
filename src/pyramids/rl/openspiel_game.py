"""Both games as OpenSpiel Python games: ``pyspiel.load_game("python_flaming_pyramids")``.

Importing this module registers ``python_flaming_pyramids`` and
``python_pyramids_and_flags``. Player actions are the indices of ``spaces`` (the same as
the PettingZoo and Gymnasium environments). Chance nodes:

- the root is a chance node choosing one of ``setups`` shuffles (outcome i deals the
  engine's ``new_initial_state(i)``), so OpenSpiel sees the deal as explicit chance;
- a fire-die roll, a pirate's steal, or a new-start deal with at most
  MAX_ENUMERATED_DEALS outcomes lists the engine's outcomes (outcome id = position in
  the engine's sorted ``chance_outcomes()``);
- a new-start deal with more outcomes (the engine lists none) is **collapsed**: one
  outcome, id 0, probability 1, realised as ``sample_chance`` with a generator seeded by
  the state's history. Every deal is still uniform over histories, but OpenSpiel sees
  it as deterministic given the history (docs/RL.md says what that means for search).

Observations come from the seat's view only: ``observation_tensor`` is the encoding's
vector; ``observation_string`` the view's JSON; ``information_state_string`` adds the
seat's own record of every action as it saw it (hidden cards masked), which gives
perfect recall. There is no information-state tensor. ``resample_from_infostate``
(used by ISMCTS) deals the unseen tiles or cards with the engine's ``determinize``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from pyramids.core.game import CHANCE, Action, Game
from pyramids.core.game import State as EngineState
from pyramids.flags.cards import NUM_CARDS
from pyramids.flags.rules import MAX_ENUMERATED_DEALS
from pyramids.games import make_game
from pyramids.rl.spaces import Encoding, encoding_for

FLAMING_SHORT_NAME = "python_flaming_pyramids"
FLAGS_SHORT_NAME = "python_pyramids_and_flags"
DEFAULT_SETUPS = 1000
FLAMING_MAX_FALLS_PER_TURN = 45 * 44 + 44
"""A bound on fall decisions in one turn: each fall takes a tile one row down, no tile
stands above row 44 (each row needs a tile below it), and 45 tiles start at most 44 high."""
FLAGS_MAX_DECISIONS_PER_TURN = 1 + 3 * NUM_CARDS + 2 + 18
"""A bound on decisions in one turn: the move, at most three capture choices per scored
card (36 cards), a white tree's colour, the action itself and up to 18 splits."""


def _flaming_options(params: dict[str, Any]) -> dict[str, Any]:
    curse = str(params["curse"]).lower()
    if curse not in ("preset", "on", "off"):
        raise ValueError("curse must be 'preset', 'on' or 'off'")
    options: dict[str, Any] = {
        "preset": str(params["preset"]),
        "fire_die": bool(params["fire_die"]),
        "max_turns": int(params["max_turns"]),
    }
    if curse != "preset":
        options["curse"] = curse == "on"
    return options


def _flags_options(params: dict[str, Any]) -> dict[str, Any]:
    return {"actions": bool(params["actions"]), "max_turns": int(params["max_turns"])}


class _Core:
    """Everything a state holds, copied cheaply by OpenSpiel's deepcopy-based Clone."""

    __slots__ = ("actions", "game", "name", "salt", "setup", "state", "texts")

    def __init__(
        self,
        name: str,
        game: Game,
        *,
        setup: int | None = None,
        state: EngineState | None = None,
        actions: list[Action] | None = None,
        texts: list[tuple[str, ...]] | None = None,
        salt: str = "",
    ) -> None:
        self.name = name
        self.game = game
        self.setup = setup
        self.state = state
        self.actions = actions
        """Engine actions since setup; None for a state with no known past (resampled, or
        made from a position), which cannot be serialized."""
        self.texts: list[tuple[str, ...]] = [] if texts is None else texts
        """Per applied action, its text for each seat, then for a spectator."""
        self.salt = salt

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(
            self.name,
            self.game,
            setup=self.setup,
            state=None if self.state is None else self.state.clone(),
            actions=None if self.actions is None else list(self.actions),
            texts=list(self.texts),
            salt=self.salt,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        if self.actions is None:
            raise TypeError("a resampled state has no history to serialize")
        return (
            _core_from_record,
            (
                self.name,
                self.game.num_players,
                dict(self.game.options),
                (self.setup, list(self.actions), self.salt),
            ),
        )

    def record(self, action: Action) -> None:
        """Remember ``action`` (about to be applied) and how each seat saw it."""
        state = self.state
        if state is None:
            raise RuntimeError("no game yet")
        n = state.num_players
        masked = getattr(state, "action_text_for", None)
        if masked is not None:
            texts = tuple(masked(action, v) for v in [*range(n), None])
        else:
            text = state.action_to_string(action)
            texts = (text,) * (n + 1)
        self.texts.append(texts)
        if self.actions is not None:
            self.actions.append(action)


def _core_from_record(
    name: str,
    players: int,
    options: dict[str, Any],
    history: tuple[int | None, list[Action], str],
) -> _Core:
    """Rebuild a core by replaying its engine actions (used by unpickling)."""
    setup, actions, salt = history
    game = make_game(name, players, options)
    core = _Core(name, game, actions=[], salt=salt)
    if setup is not None:
        _deal(core, setup)
        for a in actions:
            core.record(a)
            assert core.state is not None
            core.state.apply(a)
    return core


def _deal(core: _Core, setup: int) -> None:
    core.setup = setup
    core.state = core.game.new_initial_state(setup)
    n = core.game.num_players
    core.texts.append(("setup",) * (n + 1))


class PyramidsSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine state (see the module docstring)."""

    def __init__(self, game: PyramidsSpielGame) -> None:
        super().__init__(game)
        self._core = _Core(game.engine_name, game.engine, actions=[])

    # --- helpers --------------------------------------------------------------------

    @property
    def engine_state(self) -> EngineState | None:
        """The engine state (None before the setup chance node is resolved)."""
        return self._core.state

    def _spiel_game(self) -> PyramidsSpielGame:
        game = self.get_game()
        if not isinstance(game, PyramidsSpielGame):
            raise TypeError("state of an unexpected game")
        return game

    def _encoding(self) -> Encoding:
        return self._spiel_game().encoding

    def _chance_table(self) -> list[tuple[int, Action, float]]:
        """(outcome id, engine action, probability) at a chance node."""
        core = self._core
        state = core.state
        if state is None:
            setups = self._spiel_game().setups
            return [(i, i, 1.0 / setups) for i in range(setups)]
        outcomes = sorted(state.chance_outcomes())
        if outcomes:
            return [(i, a, p) for i, (a, p) in enumerate(outcomes)]
        seed = f"{core.salt}|{core.setup}|{core.actions if core.actions is not None else len(core.texts)}"
        return [(0, state.sample_chance(random.Random(seed)), 1.0)]

    # --- the OpenSpiel API ----------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, CHANCE, or TERMINAL (OpenSpiel's ids)."""
        state = self._core.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        p = state.current_player()
        return int(pyspiel.PlayerId.CHANCE) if p == CHANCE else p

    def _legal_actions(self, player: int) -> list[int]:
        """The sorted legal action indices of ``player`` (the deciding seat)."""
        state = self._core.state
        if state is None or player != state.current_player():
            return []
        return sorted(self._encoding().index_table(state.legal_actions(), player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes with their probabilities (sorted by id)."""
        if not self.is_chance_node():
            return []
        return [(i, p) for i, _, p in self._chance_table()]

    def _apply_action(self, action: int) -> None:
        """Apply a player's action index or a chance outcome id."""
        core = self._core
        if self.is_chance_node():
            engine = {i: a for i, a, _ in self._chance_table()}.get(int(action))
            if engine is None:
                raise pyspiel.SpielError(f"no chance outcome {action} here")
            if core.state is None:
                _deal(core, engine)
                return
        else:
            state = core.state
            if state is None:
                raise pyspiel.SpielError("the setup has not been dealt")
            seat = state.current_player()
            table = self._encoding().index_table(state.legal_actions(), seat)
            engine = table.get(int(action))
            if engine is None:
                raise pyspiel.SpielError(f"action {action} is not legal for seat {seat}")
        core.record(engine)
        assert core.state is not None
        core.state.apply(engine)

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the game's notation (``setup:i`` for the root's shuffle)."""
        state = self._core.state
        if state is None:
            return f"setup:{action}"
        if player == int(pyspiel.PlayerId.CHANCE):
            table = {i: a for i, a, _ in self._chance_table()} if self.is_chance_node() else {}
            engine = table.get(int(action))
        else:
            legal = state.legal_actions() if state.current_player() == player else []
            engine = self._encoding().index_table(legal, player).get(int(action))
        if engine is None:
            return f"index:{action}"
        return state.action_to_string(engine)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        state = self._core.state
        return state is not None and state.is_terminal()

    def returns(self) -> list[float]:
        """Each seat's result: 1 for the winner, a shared 1 after max_turns, 0 meanwhile."""
        state = self._core.state
        if state is None:
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in state.returns()]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> PyramidsSpielState:
        """A state ``player_id`` cannot tell from this one, hidden facts dealt at random.

        The sampler argument of OpenSpiel's signature is ignored: the draw uses the
        game's own generator (``PyramidsSpielGame.resample_rng``).
        """
        return resample(self, player_id, self._spiel_game().resample_rng)

    def __str__(self) -> str:
        state = self._core.state
        if state is None:
            return "setup (chance)"
        return json.dumps(state.to_json(), sort_keys=True)


def resample(state: PyramidsSpielState, player: int, rng: random.Random) -> PyramidsSpielState:
    """A state consistent with ``player``'s information in ``state`` (engine determinize)."""
    core = state._core
    game = state._spiel_game()
    new = game.new_initial_state()
    if core.state is None:
        return new
    engine = core.game.determinize(core.state.view(player), rng)
    new._core = _Core(
        core.name,
        core.game,
        setup=core.setup,
        state=engine,
        actions=None,
        texts=list(core.texts),
        salt=f"{rng.getrandbits(64):x}",
    )
    return new


def make_resampler(seed: int) -> Callable[[PyramidsSpielState, int], PyramidsSpielState]:
    """A resampling callback for ``ISMCTSBot.set_resampler``, drawing with its own seed."""
    rng = random.Random(seed)

    def resampler(state: PyramidsSpielState, player: int) -> PyramidsSpielState:
        return resample(state, player, rng)

    return resampler


class PyramidsObserver:
    """OpenSpiel's PyObserver interface: the view vector, the view's JSON, a seat's record."""

    def __init__(self, game: PyramidsSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.encoding = game.encoding
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations never show every seat's hidden facts")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if self.perfect_recall:
            self.tensor = None
        else:
            self.tensor = np.zeros(self.encoding.obs_size, dtype=np.float32)
            for (name, shape), sl in zip(
                self.encoding.layout, self.encoding.slices().values(), strict=True
            ):
                self.dict[name] = self.tensor[sl].reshape(shape)

    def set_from(self, state: PyramidsSpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        if self.tensor is None:
            return
        engine = state.engine_state
        if engine is None:
            self.tensor.fill(0.0)
            return
        view = engine.view(player if self.private else None)
        self.encoding.observe(view, seat=player, out=self.tensor)

    def string_from(self, state: PyramidsSpielState, player: int) -> str:
        """The view's JSON; with perfect recall, followed by the actions as ``player`` saw them."""
        engine = state.engine_state
        if engine is None:
            return "setup (chance)"
        view = engine.view(player if self.private else None)
        text = json.dumps(view.to_json(), sort_keys=True)
        if self.perfect_recall:
            k = player if self.private else -1
            seen = "; ".join(t[k] for t in state._core.texts)
            text = f"{text}\nhistory: {seen}"
        return text


class PyramidsSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one engine game; parameters fixed at load time."""

    engine_name = ""
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = dict(self.game_type.parameter_specification)
        merged: dict[str, Any] = {k: params.get(k, v) for k, v in spec.items()}
        players = int(merged["players"])
        self.setups = int(merged["setups"])
        if self.setups < 1:
            raise ValueError("setups must be at least 1")
        self.engine = make_game(self.engine_name, players, self.engine_options(merged))
        self.encoding = encoding_for(self.engine_name, self.engine)
        self.resample_rng = random.Random(int(merged.get("resample_seed", 0)))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=max(self.setups, self.max_engine_outcomes()),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_length(merged),
        )
        super().__init__(self.game_type, info, merged)

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        """The engine's options from the OpenSpiel parameters."""
        raise NotImplementedError

    def max_engine_outcomes(self) -> int:
        """The most outcomes an engine chance node lists."""
        raise NotImplementedError

    def max_length(self, params: dict[str, Any]) -> int:
        """A bound on the number of player decisions in a game."""
        raise NotImplementedError

    def new_initial_state(self) -> PyramidsSpielState:
        """The root: the setup chance node."""
        return PyramidsSpielState(self)

    def state_from_engine(self, engine: EngineState) -> PyramidsSpielState:
        """An OpenSpiel state at an engine position (e.g. parsed from position JSON).

        Such a state has no past: its OpenSpiel history and information-state record
        start here, and it cannot be serialized.
        """
        if getattr(engine, "game", None) != self.engine:
            raise ValueError(f"the position is not one of {self.engine!r}")
        state = self.new_initial_state()
        state._core = _Core(self.engine_name, self.engine, state=engine.clone(), actions=None)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PyramidsObserver:
        """An observer for ``iig_obs_type`` (default: the seat's own observation)."""
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            params = iig_obs_type if params is None else params
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return PyramidsObserver(self, iig_obs_type, params)


def _game_type(short_name: str, long_name: str, max_players: int, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class FlamingPyramidsSpielGame(PyramidsSpielGame):
    """Flaming Pyramids: parameters players, setups, preset, curse, fire_die, max_turns."""

    engine_name = "flaming"
    game_type = _game_type(
        FLAMING_SHORT_NAME,
        "Python Flaming Pyramids",
        6,
        {
            "players": 2,
            "setups": DEFAULT_SETUPS,
            "preset": "standard",
            "curse": "preset",
            "fire_die": False,
            "max_turns": 1000,
            "resample_seed": 0,
        },
    )

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        """preset, curse ("preset": the preset's default, "on", "off"), fire_die, max_turns.

        (Not "true"/"false": OpenSpiel would read those strings as booleans.)
        """
        return _flaming_options(params)

    def max_engine_outcomes(self) -> int:
        """Six die faces."""
        return 6

    def max_length(self, params: dict[str, Any]) -> int:
        """max_turns placements, each followed by at most FLAMING_MAX_FALLS_PER_TURN falls."""
        return int(params["max_turns"]) * (1 + FLAMING_MAX_FALLS_PER_TURN)


class PyramidsAndFlagsSpielGame(PyramidsSpielGame):
    """Pyramids and Flags: parameters players, setups, actions, max_turns."""

    engine_name = "flags"
    game_type = _game_type(
        FLAGS_SHORT_NAME,
        "Python Pyramids and Flags",
        4,
        {
            "players": 2,
            "setups": DEFAULT_SETUPS,
            "actions": True,
            "max_turns": 3000,
            "resample_seed": 0,
        },
    )

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        """actions (tree actions on or off), max_turns."""
        return _flags_options(params)

    def max_engine_outcomes(self) -> int:
        """A steal (one of at most 36 cards) or a listed deal (at most 720)."""
        return max(NUM_CARDS, MAX_ENUMERATED_DEALS)

    def max_length(self, params: dict[str, Any]) -> int:
        """max_turns turns of at most FLAGS_MAX_DECISIONS_PER_TURN decisions."""
        return int(params["max_turns"]) * FLAGS_MAX_DECISIONS_PER_TURN


pyspiel.register_game(FlamingPyramidsSpielGame.game_type, FlamingPyramidsSpielGame)
pyspiel.register_game(PyramidsAndFlagsSpielGame.game_type, PyramidsAndFlagsSpielGame)

__all__ = [
    "FLAGS_SHORT_NAME",
    "FLAMING_SHORT_NAME",
    "FlamingPyramidsSpielGame",
    "PyramidsAndFlagsSpielGame",
    "PyramidsObserver",
    "PyramidsSpielGame",
    "PyramidsSpielState",
    "make_resampler",
    "resample",
]
