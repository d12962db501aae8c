"""Every registered game as an OpenSpiel Python game: ``pyspiel.load_game("python_<title>")``.

Importing this module registers one OpenSpiel game per game of the registry
(``pyramids.games``) that has an RL encoding: short name ``python_`` + the title in snake
case (a game titled "Pebble Pyramid" is ``python_pebble_pyramid``), class name the title in
CamelCase + ``SpielGame``. Parameters: ``players``, every rules option of the game's
descriptor (a nullable option is a string: ``default`` for null, else its value, ``on``
/``off`` for a boolean), ``resample_seed`` and ``engine`` (``auto``, ``native`` or
``python``: the rules engine the states play on, docs/NATIVE.md). Player actions are the indices of the
game's encoding (the same as the PettingZoo and Gymnasium environments). Chance nodes:

- the setup: SEED_DIGITS chance nodes of SEED_BASE equally likely outcomes each spell a
  seed (most significant digit first); the engine deals ``new_initial_state(seed)``, so
  OpenSpiel sees the whole setup as explicit chance, uniform over 2**64 seeds;
- after that, every chance point of the engine (a die roll, a steal, one card of a new
  start's deal) is a chance node with the engine's outcomes (outcome id = position in
  the engine's sorted ``chance_outcomes()``), each with its probability.

Observations come from the seat's view only: ``observation_tensor`` is the encoding's
vector; ``observation_string`` the engine's ``information_state_key`` (the view's
canonical JSON); ``information_state_string`` adds the
seat's own record of every action as it saw it (hidden cards masked), which gives
perfect recall. There is no information-state tensor. ``resample_from_infostate``
(used by ISMCTS) deals the unseen tiles or cards with the engine's ``determinize``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.core.game import CHANCE, Action, Game
from pyramids.core.game import State as EngineState
from pyramids.games import descriptors, make_game
from pyramids.games.engine import Engine, check_engine
from pyramids.rl.spaces import Encoding, encoding_for, has_encoding

SEED_BASE = 256
"""Outcomes of each setup chance node (one byte of the seed)."""
SEED_DIGITS = 8
"""Setup chance nodes: the seed has SEED_DIGITS * 8 bits."""
NULL_PARAM = "default"
"""The string parameter value of a nullable option's null."""
UNBOUNDED_LENGTH = 2**31 - 1
"""max_game_length when the game's encoding states no bound (``max_game_length``)."""


def seed_digits(seed: int) -> list[int]:
    """The setup chance outcomes that deal ``new_initial_state(seed)`` (0 <= seed < 2**64)."""
    if not 0 <= seed < SEED_BASE**SEED_DIGITS:
        raise ValueError(f"a setup seed is from 0 to {SEED_BASE**SEED_DIGITS - 1}, not {seed}")
    return [(seed // SEED_BASE**k) % SEED_BASE for k in reversed(range(SEED_DIGITS))]


def _title_words(desc: GameDescriptor) -> list[str]:
    return [w for w in re.split(r"[^A-Za-z0-9]+", desc.info.name) if w]


def spiel_name(desc: GameDescriptor) -> str:
    """The OpenSpiel short name of a game: ``python_`` and its title in snake case."""
    return "python_" + "_".join(w.lower() for w in _title_words(desc))


def spiel_class_name(desc: GameDescriptor) -> str:
    """The OpenSpiel game class name of a game: its title in CamelCase, then ``SpielGame``."""
    return "".join(w[:1].upper() + w[1:] for w in _title_words(desc)) + "SpielGame"


def _param_default(spec: OptionSpec) -> Any:
    """An option's OpenSpiel parameter default (a nullable option is a string)."""
    if not spec.nullable:
        return spec.default
    if spec.default is None:
        return NULL_PARAM
    if spec.kind == "bool":
        return "on" if spec.default else "off"
    return str(spec.default)


def _option_value(spec: OptionSpec, value: Any) -> Any:
    """The engine option value of an OpenSpiel parameter value; ValueError if unreadable."""
    if not spec.nullable:
        if spec.kind == "bool":
            return bool(value)
        if spec.kind == "int":
            return int(value)
        return str(value)
    text = str(value).strip().lower()
    if text == NULL_PARAM:
        return None
    if spec.kind == "bool":
        if text not in ("on", "off"):
            raise ValueError(f"{spec.name} must be '{NULL_PARAM}', 'on' or 'off'")
        return text == "on"
    if spec.kind == "int":
        return int(text)
    return str(value)


class _Core:
    """Everything a state holds, copied cheaply by OpenSpiel's deepcopy-based Clone."""

    __slots__ = (
        "actions",
        "digits",
        "engine",
        "game",
        "name",
        "salt",
        "setup",
        "state",
        "texts",
    )

    def __init__(
        self,
        name: str,
        game: Game,
        *,
        digits: list[int] | None = None,
        setup: int | None = None,
        state: EngineState | None = None,
        actions: list[Action] | None = None,
        texts: list[tuple[str, ...]] | None = None,
        salt: str = "",
        engine: Engine | None = None,
    ) -> None:
        self.name = name
        self.game = game
        self.engine = engine
        """The engine choice ``game`` was made on (None: auto), which unpickling remakes."""
        self.digits: list[int] = [] if digits is None else digits
        """The setup chance outcomes so far (the seed's digits, most significant first)."""
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
            digits=list(self.digits),
            setup=self.setup,
            state=None if self.state is None else self.state.clone(),
            actions=None if self.actions is None else list(self.actions),
            texts=list(self.texts),
            salt=self.salt,
            engine=self.engine,
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
                (list(self.digits), list(self.actions), self.salt),
                self.engine,
            ),
        )

    def add_digit(self, digit: int) -> None:
        """One setup chance outcome; the last one deals the engine's setup of the seed."""
        self.digits.append(digit)
        if len(self.digits) == SEED_DIGITS:
            seed = 0
            for d in self.digits:
                seed = seed * SEED_BASE + d
            self.setup = seed
            self.state = self.game.new_initial_state(seed)
            n = self.game.num_players
            self.texts.append(("setup",) * (n + 1))

    def record(self, action: Action) -> None:
        """Remember ``action`` (about to be applied) and how each seat saw it."""
        state = self.state
        if state is None:
            raise RuntimeError("no game yet")
        n = state.num_players
        self.texts.append(tuple(state.action_text_for(action, v) for v in [*range(n), None]))
        if self.actions is not None:
            self.actions.append(action)


def _core_from_record(
    name: str,
    players: int,
    options: dict[str, Any],
    history: tuple[list[int], list[Action], str],
    engine: Engine | None = None,
) -> _Core:
    """Rebuild a core by replaying its setup digits and engine actions on ``engine`` (used
    by unpickling)."""
    digits, actions, salt = history
    game = make_game(name, players, options, engine=engine)
    core = _Core(name, game, actions=[], salt=salt, engine=engine)
    for d in digits:
        core.add_digit(d)
    for a in actions:
        core.record(a)
        assert core.state is not None
        core.state.apply(a)
    return core


class PyramidsSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine state (see the module docstring)."""

    def __init__(self, game: PyramidsSpielGame) -> None:
        super().__init__(game)
        self._core = _Core(game.engine_name, game.engine, actions=[], engine=game.engine_choice)

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
        """(outcome id, engine action or seed digit, probability) at a chance node."""
        state = self._core.state
        if state is None:
            return [(i, i, 1.0 / SEED_BASE) for i in range(SEED_BASE)]
        outcomes = sorted(state.chance_outcomes())
        if not outcomes:
            raise pyspiel.SpielError("the engine lists no outcome at a chance point")
        if len(outcomes) > self.get_game().max_chance_outcomes():
            raise pyspiel.SpielError(f"{len(outcomes)} chance outcomes: above the game's maximum")
        return [(i, a, p) for i, (a, p) in enumerate(outcomes)]

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
                core.add_digit(engine)
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
        """The action in the game's notation (``setup:i`` for a digit of the setup's seed)."""
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
        digits=list(core.digits),
        setup=core.setup,
        state=engine,
        actions=None,
        texts=list(core.texts),
        salt=f"{rng.getrandbits(64):x}",
        engine=core.engine,
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
        """The engine's information-state key (the view's canonical JSON); with perfect
        recall, followed by the actions as ``player`` saw them."""
        engine = state.engine_state
        if engine is None:
            return "setup (chance)"
        text = engine.information_state_key(player if self.private else None)
        if self.perfect_recall:
            k = player if self.private else -1
            seen = "; ".join(t[k] for t in state._core.texts)
            text = f"{text}\nhistory: {seen}"
        return text


class PyramidsSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one engine game; parameters fixed at load time.

    Each registered game has its subclass (``spiel_game_class``), which sets
    ``engine_name`` (the registry name) and ``game_type``.
    """

    engine_name = ""
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = dict(self.game_type.parameter_specification)
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ValueError(f"unknown parameter(s): {', '.join(unknown)}")
        merged: dict[str, Any] = {k: params.get(k, v) for k, v in spec.items()}
        players = int(merged["players"])
        options = self.engine_options(merged)
        self.engine_choice = check_engine(str(merged["engine"]))
        """The engine choice the states play on (the ``engine`` parameter)."""
        self.engine = make_game(self.engine_name, players, options, engine=self.engine_choice)
        self.encoding = encoding_for(self.engine_name, self.engine)
        self.resample_rng = random.Random(int(merged.get("resample_seed", 0)))
        engine_outcomes = int(getattr(self.encoding, "max_chance_outcomes", 0))
        length = getattr(self.encoding, "max_game_length", None)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=max(SEED_BASE, engine_outcomes),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=UNBOUNDED_LENGTH if length is None else int(length(self.engine)),
        )
        super().__init__(self.game_type, info, merged)

    @classmethod
    def option_specs(cls) -> Sequence[OptionSpec]:
        """The rules options of the game (its descriptor's), each one parameter."""
        return next(d for d in descriptors() if d.name == cls.engine_name).options

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        """The engine's options from the OpenSpiel parameters (a nullable option's null left out)."""
        options = {}
        for spec in self.option_specs():
            value = _option_value(spec, params[spec.name])
            if value is not None:
                options[spec.name] = value
        return options

    def new_initial_state(self) -> PyramidsSpielState:
        """The root: the first setup chance node."""
        return PyramidsSpielState(self)

    def state_from_engine(self, engine: EngineState) -> PyramidsSpielState:
        """An OpenSpiel state at an engine position (e.g. parsed from position JSON).

        Such a state has no past: its OpenSpiel history and information-state record
        start here, and it cannot be serialized.
        """
        if getattr(engine, "game", None) != self.engine:
            raise ValueError(f"the position is not one of {self.engine!r}")
        state = self.new_initial_state()
        state._core = _Core(
            self.engine_name,
            self.engine,
            state=engine.clone(),
            actions=None,
            engine=self.engine_choice,
        )
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


_CLASSES: dict[str, type[PyramidsSpielGame]] = {}


def spiel_game_class(game: str) -> type[PyramidsSpielGame]:
    """The OpenSpiel game class of the registered game ``game`` (made and registered once)."""
    cls = _CLASSES.get(game)
    if cls is None:
        desc = next((d for d in descriptors() if d.name == game and has_encoding(d.name)), None)
        if desc is None:
            raise ValueError(f"unknown game {game!r} (known: {', '.join(spiel_games())})")
        info = desc.info
        params: dict[str, Any] = {"players": info.min_players}
        params.update({spec.name: _param_default(spec) for spec in desc.options})
        params["resample_seed"] = 0
        params["engine"] = str(Engine.AUTO)
        name = spiel_class_name(desc)
        cls = type(
            name,
            (PyramidsSpielGame,),
            {
                "__module__": __name__,
                "__qualname__": name,
                "__doc__": (
                    f"{desc.title()} for OpenSpiel: parameters players "
                    f"({info.min_players}..{info.max_players}), "
                    f"{', '.join(s.name for s in desc.options)}, resample_seed, engine."
                ),
                "engine_name": desc.name,
                "game_type": _game_type(
                    spiel_name(desc), f"Python {info.name}", info.max_players, params
                ),
            },
        )
        pyspiel.register_game(cls.game_type, cls)
        _CLASSES[game] = cls
    return cls


def spiel_games() -> list[str]:
    """The registered games that have an OpenSpiel game (those with an RL encoding)."""
    return [d.name for d in descriptors() if has_encoding(d.name)]


def spiel_short_name(game: str) -> str:
    """The OpenSpiel short name of the registered game ``game`` (for ``pyspiel.load_game``)."""
    return str(spiel_game_class(game).game_type.short_name)


for _game in spiel_games():
    spiel_game_class(_game)


def __getattr__(name: str) -> Any:
    """A game's OpenSpiel class by its class name (``spiel_class_name``), from the registry."""
    for desc in descriptors():
        if spiel_class_name(desc) == name and has_encoding(desc.name):
            return spiel_game_class(desc.name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SEED_BASE",
    "SEED_DIGITS",
    "PyramidsObserver",
    "PyramidsSpielGame",
    "PyramidsSpielState",
    "make_resampler",
    "resample",
    "seed_digits",
    "spiel_game_class",
    "spiel_games",
    "spiel_name",
    "spiel_short_name",
]
