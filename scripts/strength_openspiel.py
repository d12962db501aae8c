"""Our search against OpenSpiel's ISMCTS at equal time, for scripts/strength.py.

The game is played in pyspiel through ``pyramids.rl.openspiel_game`` (the adapter registers
every game of the registry); our bot decides on the view of the adapter's engine state
(``PyramidsSpielState.engine_state``, on the engine chosen: ``engine`` of ``run_h2h``,
``auto`` by default, the native engine when built, so the native search runs). OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random-rollout
evaluator, our UCB constant) takes a simulation *count*; ``DeadlineISMCTSBot`` gives it a
deadline instead: OpenSpiel's own ``run_search`` with the loop ``for _ in
range(max_simulations)`` replaced by "until the deadline". Game i is dealt by seed S+i, our
bot in seat i mod P.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts  # type: ignore[import-untyped]
from open_spiel.python.algorithms import mcts as os_mcts

from pyramids.bots import make_bot
from pyramids.bots.ismcts import EXPLORATION
from pyramids.games.engine import Engine
from pyramids.rl.openspiel_game import (
    PyramidsSpielGame,
    PyramidsSpielState,
    make_resampler,
    seed_digits,
    spiel_short_name,
)


def load_spiel(game: str, players: int, engine: Engine = Engine.AUTO) -> PyramidsSpielGame:
    """The adapter's pyspiel game of the registered game ``game``, on ``engine``."""
    spiel = pyspiel.load_game(spiel_short_name(game), {"players": players, "engine": str(engine)})
    assert isinstance(spiel, PyramidsSpielGame)
    return spiel


def engine_state(state: PyramidsSpielState) -> Any:
    """The engine state under a pyspiel state (after the setup)."""
    engine = state.engine_state
    if engine is None:
        raise RuntimeError("the setup has not been dealt")
    return engine


def to_index(spiel: PyramidsSpielGame, state: PyramidsSpielState, action: int) -> int:
    """The pyspiel action index of the engine action ``action`` for the seat deciding."""
    engine = engine_state(state)
    seat = engine.current_player()
    table = spiel.encoding.index_table(engine.legal_actions(), seat)
    for index, a in table.items():
        if a == action:
            return index
    raise ValueError(f"engine action {action} has no index")


def apply_chance(state: PyramidsSpielState, rng: np.random.RandomState) -> None:
    """Draw and apply a chance outcome of the pyspiel state."""
    ids, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(ids, p=probs)))


def dealt(spiel: PyramidsSpielGame, seed: int) -> PyramidsSpielState:
    """A pyspiel state dealt as the engine's ``new_initial_state(seed)`` (its setup digits)."""
    state = spiel.new_initial_state()
    for digit in seed_digits(seed):
        state.apply_action(digit)
    return state


class DeadlineISMCTSBot(os_ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot searching until a deadline instead of for a count.

    ``run_search`` is OpenSpiel's own, line for line, except that the simulation loop runs
    until ``seconds`` have passed, with at least two simulations (OpenSpiel's first one only
    expands the root, which then has no visited child to pick from). ``last_simulations`` and
    ``last_seconds`` tell what the last search did.
    """

    def __init__(self, game: Any, evaluator: Any, seconds: float, seed: int) -> None:
        super().__init__(
            game,
            evaluator,
            uct_c=EXPLORATION,
            max_simulations=1,
            random_state=np.random.RandomState(seed),
        )
        self.seconds = seconds
        self.last_simulations = 0
        self.last_seconds = 0.0

    def run_search(self, state: Any) -> Any:
        """OpenSpiel's run_search with a time budget."""
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_infostate_key = self.get_state_key(state)
        start = time.perf_counter()
        deadline = start + self.seconds
        n = 0
        while n < 2 or time.perf_counter() < deadline:
            sampled_root_state = self.sample_root_state(state)
            assert root_infostate_key == self.get_state_key(sampled_root_state)
            self.run_simulation(sampled_root_state)
            n += 1
        self.last_simulations = n
        self.last_seconds = time.perf_counter() - start
        return self.get_final_policy(state, self._root_node)


def openspiel_bot(
    spiel: PyramidsSpielGame, seed: int, *, simulations: int = 1, seconds: float | None = None
) -> Any:
    """OpenSpiel's ISMCTS with a random-rollout evaluator, resampling with its own seed."""
    evaluator = os_mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed)
    )
    bot: Any
    if seconds is None:
        bot = os_ismcts.ISMCTSBot(
            spiel,
            evaluator,
            uct_c=EXPLORATION,
            max_simulations=simulations,
            random_state=np.random.RandomState(seed + 1),
        )
    else:
        bot = DeadlineISMCTSBot(spiel, evaluator, seconds, seed + 1)
    bot.set_resampler(make_resampler(seed + 2))
    return bot


@dataclass
class H2HGame:
    """One head-to-head game: our seat, our return, and both searches' decision counts."""

    index: int
    ours_seat: int
    ours_return: float
    ours_decisions: int
    ours_seconds: float
    os_decisions: int
    os_simulations: int
    os_seconds: float
    seconds: float


def play_h2h(
    game: str, spec: str, seconds: float, seed: int, index: int, *, engine: Engine = Engine.AUTO
) -> H2HGame:
    """Game ``index`` of 2 players on ``engine``: our bot ``spec`` in seat ``index % 2``,
    OpenSpiel's ISMCTS (``seconds`` a decision) in the other."""
    start = time.perf_counter()
    game_seed = seed + index
    spiel = load_spiel(game, 2, engine)
    state = dealt(spiel, game_seed)
    ours_seat = index % 2
    ours = make_bot(spec, engine=engine)
    theirs = openspiel_bot(spiel, 1000 + game_seed, seconds=seconds)
    rng = random.Random(game_seed)
    nrng = np.random.RandomState(game_seed)
    decisions = sims = ours_decisions = 0
    os_seconds = ours_seconds = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            apply_chance(state, nrng)
            continue
        seat = state.current_player()
        if seat == ours_seat:
            inner = engine_state(state)
            legal = inner.legal_actions()
            t = time.perf_counter()
            action = ours.act(inner.view(seat), legal, rng)
            ours_seconds += time.perf_counter() - t
            ours_decisions += 1
            state.apply_action(to_index(spiel, state, action))
        else:
            theirs.last_simulations = 0
            index_action = int(theirs.step(state))
            if theirs.last_simulations:
                decisions += 1
                sims += theirs.last_simulations
                os_seconds += theirs.last_seconds
            state.apply_action(index_action)
    return H2HGame(
        index,
        ours_seat,
        float(state.returns()[ours_seat]),
        ours_decisions,
        ours_seconds,
        decisions,
        sims,
        os_seconds,
        time.perf_counter() - start,
    )


def run_h2h(
    game: str,
    spec: str,
    seconds: float,
    seed: int,
    *,
    games: int,
    jobs: int,
    engine: Engine = Engine.AUTO,
) -> list[H2HGame]:
    """Every head-to-head game on ``engine``, in ``jobs`` processes (spawned), in game order."""
    if jobs == 1:
        return [play_h2h(game, spec, seconds, seed, i, engine=engine) for i in range(games)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [
            pool.submit(partial(play_h2h, engine=engine), game, spec, seconds, seed, i)
            for i in range(games)
        ]
        return [f.result() for f in futures]
