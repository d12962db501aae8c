"""Write docs/STRENGTH.md: speed and strength of the search bots, from one command.

Three measurements, every one seeded (time-budgeted search still depends on the machine):

1. **Speed.** Fixed mid-game positions (seeded greedy self-play played through the
   OpenSpiel adapter, stopped after 20 and after 30 actions at the next real decision)
   for Flaming Pyramids and Pyramids and Flags, 2 and 4 players. On each, our ISMCTS
   (``make_bot("ismcts:Ts")``) searches for T seconds on one core: iterations per
   second = iterations / seconds summed over the positions. OpenSpiel's
   ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random-rollout evaluator, same UCB
   constant) takes a simulation *count*, so on the same positions, through
   ``pyramids.rl.openspiel_game``, it runs a fixed count and is timed: simulations per
   second = count / seconds.
2. **Head-to-head** (Flaming Pyramids, 2 players): our ISMCTS against OpenSpiel's with
   the same time budget per decision, seats alternating, game i dealt by seed S+i. The
   game is played in pyspiel; our bot gets the view of the adapter's engine state
   (``PyramidsSpielState.engine_state``). OpenSpiel's bot is given a deadline instead of
   a count by ``DeadlineISMCTSBot``, which is OpenSpiel's ``run_search`` with the loop
   ``for _ in range(max_simulations)`` replaced by "until the deadline".
3. **Ladder**: random, greedy, ismcts at each budget and the oracle at the largest, each
   against greedy (2 players: one greedy opponent; 4 players: three), seats rotated,
   seeds S..S+N-1, played by ``pyramids.analysis.tournament`` in J processes.

Run from the repository root (the full-size figures)::

    .venv/bin/python scripts/strength.py --jobs 2

``--quick`` is a reduced run (smaller budgets and game counts); the page is marked
PRELIMINARY whenever the parameters are below the full-size ones.

**Native search** (issue 11; ``scripts/strength_native.py``): when the native core is built,
every ladder budget has a line per search (``ismcts:B+python``, ``ismcts:B+native``: the
same time per decision) and the page adds "Native search against the Python search": the
iterations/s of both at the ``normal`` settings (and whether their statistics were
identical), ``normal`` native against Python at the same time per decision in 2-player
Flaming (``--nvp-games``, ``--nvp-budget``), and the gain per level. The issue's figures,
sized for 2 cores and 45 minutes (Flaming only, budgets 0.01 s and 0.03 s, 200 games per
line, no OpenSpiel part)::

    .venv/bin/python scripts/strength.py --native-run --jobs 2
"""

from __future__ import annotations

import argparse
import datetime
import math
import multiprocessing
import os
import platform
import random
import shlex
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import strength_native as nvp
from open_spiel.python.algorithms import ismcts as os_ismcts  # type: ignore[import-untyped]
from open_spiel.python.algorithms import mcts as os_mcts

from pyramids.analysis.ratings import wilson_interval
from pyramids.analysis.tournament import TournamentConfig, run_tournament
from pyramids.bots import make_bot
from pyramids.bots.ismcts import EXPLORATION, ISMCTSBot
from pyramids.rl.openspiel_game import (
    PyramidsSpielGame,
    PyramidsSpielState,
    make_resampler,
    seed_digits,
    spiel_games,
    spiel_short_name,
)

ROOT = Path(__file__).resolve().parent.parent
FULL_BUDGETS = ("0.1s", "1s")
FULL_GAMES = 400
FULL_H2H = 100
FULL_SPEED_BUDGET = 1.0
FULL_POSITIONS = 10
FULL_OS_SIMS = 100
TITLES = {"flaming": "Flaming Pyramids", "flags": "Pyramids and Flags"}
POSITION_PLIES = (20, 30)
TARGET_2P = 0.65
TARGET_4P = 0.40
TARGET_BUDGET = "1s"
NATIVE_RUN: dict[str, Any] = {
    "games": "flaming",
    "budgets": "0.01s,0.03s",
    "games_2p": nvp.NVP_FULL_GAMES,
    "games_4p": nvp.NVP_FULL_GAMES,
    "h2h_games": 0,
    "positions": 0,
    "searches": "python,native",
    "nvp_games": nvp.NVP_FULL_GAMES,
    "nvp_budget": nvp.NVP_BUDGET,
    "nvp_positions": nvp.NVP_FULL_POSITIONS,
}
"""``--native-run``: the issue 11 figures (both searches), sized for 2 cores and 45 minutes;
explicit options still win."""


# --- positions and OpenSpiel plumbing ------------------------------------------------------


def load_spiel(game: str, players: int) -> PyramidsSpielGame:
    """The adapter's pyspiel game of the registered game ``game``."""
    spiel = pyspiel.load_game(spiel_short_name(game), {"players": players})
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


def mid_game(spiel: PyramidsSpielGame, seed: int, plies: int) -> PyramidsSpielState | None:
    """Greedy self-play from seed ``seed`` for ``plies`` actions, then on to a real decision.

    None if the game ends first. Chance is drawn with a generator seeded by ``seed``.
    """
    state = dealt(spiel, seed)
    rng = random.Random(seed)
    nrng = np.random.RandomState(seed)
    greedy = make_bot("greedy")
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            apply_chance(state, nrng)
            done += 1
            continue
        engine = engine_state(state)
        legal = engine.legal_actions()
        if done >= plies and len(legal) > 1:
            return state
        seat = engine.current_player()
        action = greedy.act(engine.view(seat), legal, rng)
        state.apply_action(to_index(spiel, state, action))
        done += 1
    return None


def positions(game: str, players: int, seed: int, count: int) -> list[tuple[int, int]]:
    """(seed, plies) of ``count`` mid-game positions: seeds from ``seed``, 20 then 30 plies."""
    spiel = load_spiel(game, players)
    found: list[tuple[int, int]] = []
    s = seed
    while len(found) < count:
        for plies in POSITION_PLIES:
            if len(found) < count and mid_game(spiel, s, plies) is not None:
                found.append((s, plies))
        s += 1
    return found


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


# --- 1. speed ----------------------------------------------------------------------------


@dataclass
class SpeedRow:
    """Iterations per second of both searches on one game and player count."""

    game: str
    players: int
    positions: int
    ours_iterations: int
    ours_seconds: float
    os_simulations: int
    os_seconds: float
    error: str = ""

    @property
    def ours_rate(self) -> float:
        """Our iterations per second."""
        return self.ours_iterations / self.ours_seconds if self.ours_seconds else 0.0

    @property
    def os_rate(self) -> float:
        """OpenSpiel's simulations per second."""
        return self.os_simulations / self.os_seconds if self.os_seconds else 0.0


def measure_speed(
    game: str, players: int, seed: int, *, count: int, budget: float, simulations: int
) -> SpeedRow:
    """Both searches on ``count`` mid-game positions of ``game`` (one process, one core)."""
    found = positions(game, players, seed, count)
    spiel = load_spiel(game, players)
    ours = make_bot(f"ismcts:{budget:g}s")
    if not isinstance(ours, ISMCTSBot):
        raise TypeError("ismcts spec did not make an ISMCTSBot")
    row = SpeedRow(game, players, len(found), 0, 0.0, 0, 0.0)
    for k, (s, plies) in enumerate(found):
        state = mid_game(spiel, s, plies)
        assert state is not None
        engine = engine_state(state)
        seat = engine.current_player()
        result = ours.search(engine.view(seat), engine.legal_actions(), random.Random(seed + k))
        row.ours_iterations += result.iterations
        row.ours_seconds += result.seconds
        try:
            bot = openspiel_bot(spiel, seed + 10 * k, simulations=simulations)
            start = time.perf_counter()
            bot.run_search(state.clone())
            row.os_seconds += time.perf_counter() - start
            row.os_simulations += simulations
        except Exception as exc:  # reported in the page, not hidden
            row.error = f"{type(exc).__name__}: {exc}"[:200]
    return row


# --- 2. head-to-head ----------------------------------------------------------------------


@dataclass
class H2HGame:
    """One head-to-head game: our seat, our return, and OpenSpiel's search counts."""

    index: int
    ours_seat: int
    ours_return: float
    os_decisions: int
    os_simulations: int
    os_seconds: float
    seconds: float


def play_h2h(seed: int, index: int, budget: float, players: int) -> H2HGame:
    """Game ``index``: our ISMCTS in seat ``index % players``, OpenSpiel's in the others."""
    start = time.perf_counter()
    game_seed = seed + index
    spiel = load_spiel("flaming", players)
    state = dealt(spiel, game_seed)
    ours_seat = index % players
    ours = make_bot(f"ismcts:{budget:g}s")
    theirs = openspiel_bot(spiel, 1000 + game_seed, seconds=budget)
    rng = random.Random(game_seed)
    nrng = np.random.RandomState(game_seed)
    decisions = sims = 0
    os_seconds = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            apply_chance(state, nrng)
            continue
        seat = state.current_player()
        if seat == ours_seat:
            engine = engine_state(state)
            legal = engine.legal_actions()
            action = ours.act(engine.view(seat), legal, rng)
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
        decisions,
        sims,
        os_seconds,
        time.perf_counter() - start,
    )


def run_h2h(seed: int, games: int, budget: float, jobs: int, players: int = 2) -> list[H2HGame]:
    """Every head-to-head game, in ``jobs`` processes (spawned), in game order."""
    if jobs == 1:
        return [play_h2h(seed, i, budget, players) for i in range(games)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(play_h2h, seed, i, budget, players) for i in range(games)]
        return [f.result() for f in futures]


# --- 3. ladder ----------------------------------------------------------------------------


@dataclass
class LadderRow:
    """One ladder line: a bot against greedy opponents."""

    game: str
    players: int
    spec: str
    games: int
    wins: float
    rate: float
    ci: tuple[float, float]
    ms_per_decision: float | None
    seconds: float
    jobs: int
    turns: float
    """Mean turns per game (a turn is one placement or move, with what it triggers)."""

    @property
    def core_seconds_per_game(self) -> float:
        """Wall seconds times processes, per game: what a game costs on one core."""
        return self.seconds * self.jobs / self.games


def ladder_row(
    game: str, players: int, spec: str, *, games: int, seed: int, jobs: int
) -> LadderRow:
    """``spec`` against ``players - 1`` greedy bots, seats rotated (tournament runner)."""
    config = TournamentConfig(
        bots=(spec,) + ("greedy",) * (players - 1),
        game=game,
        players=players,
        games=games,
        seed=seed,
        jobs=jobs,
        schedule="rotations",
    )
    report = run_tournament(config)
    first = next(c for c in report["contestants"] if c["name"] == spec)
    timing = report["timing"]
    return LadderRow(
        game,
        players,
        spec,
        first["seat_games"],
        float(first["wins"]),
        float(first["win_rate"]),
        (float(first["ci95"][0]), float(first["ci95"][1])),
        timing["ms_per_decision"].get(spec),
        float(timing["seconds"]),
        jobs,
        float(report["turns_per_game"]["mean"]),
    )


def ladder_specs(
    budgets: Sequence[str], searches: Sequence[str] = ("python",), *, oracle: bool = True
) -> list[str]:
    """random, greedy, ismcts at each budget with each search (``+python``, ``+native``),
    the oracle at the largest with the last search (unless ``oracle`` is false)."""
    largest = max(budgets, key=budget_seconds)
    specs = ["random", "greedy", *(f"ismcts:{b}+{s}" for b in budgets for s in searches)]
    return specs + ([f"oracle:{largest}+{searches[-1]}"] if oracle else [])


def _spec_seconds(spec: str) -> float:
    """Seconds of the budget of a spec written ``ismcts:0.1s+native``."""
    return budget_seconds(spec.partition(":")[2].partition("+")[0])


def budget_seconds(budget: str) -> float:
    """Seconds of a budget written ``0.1s``."""
    if not budget.endswith("s"):
        raise ValueError(f"budgets are seconds, like 0.1s: {budget!r}")
    return float(budget[:-1])


# --- the page -----------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: Sequence[float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def full_estimate(
    ladder: Sequence[LadderRow],
    speed: Sequence[SpeedRow],
    h2h: Sequence[H2HGame],
    h2h_budget: float,
    jobs: int,
) -> tuple[float, list[str]]:
    """Estimated wall seconds of the full-size run (``--jobs`` as in this run).

    A search line at full budget B costs per game about (measured cost per game) * B / b,
    with b the measured budget nearest to B: search time dominates a game's cost.
    """
    lines: list[str] = []
    total = 0.0
    for game, players in sorted({(r.game, r.players) for r in ladder}):
        rows = {r.spec: r for r in ladder if (r.game, r.players) == (game, players)}
        cost = 0.0
        searches = sorted({r.spec.rpartition("+")[2] for r in rows.values() if "+" in r.spec})
        for spec in ladder_specs(FULL_BUDGETS, searches or ["python"]):
            name, _, budget = spec.partition(":")
            budget, _, search = budget.partition("+")
            if not budget:
                if spec in rows:
                    cost += rows[spec].core_seconds_per_game * FULL_GAMES
                continue
            full = budget_seconds(budget)
            same = [
                r
                for r in rows.values()
                if r.spec.startswith(name + ":") and r.spec.endswith("+" + search)
            ]
            if not same:
                continue
            near = min(same, key=lambda r: abs(math.log(_spec_seconds(r.spec) / full)))
            b = _spec_seconds(near.spec)
            cost += near.core_seconds_per_game * full / b * FULL_GAMES
        total += cost / jobs
        lines.append(f"{TITLES[game]} {players}p ladder: about {_duration(cost / jobs)}")
    if speed:
        secs = 0.0
        for r in speed:
            per_pos = FULL_SPEED_BUDGET
            if r.os_rate:
                per_pos += FULL_OS_SIMS / r.os_rate
            secs += FULL_POSITIONS * per_pos
        total += secs
        lines.append(f"speed section (one core): about {_duration(secs)}")
    if h2h:
        per_game = sum(g.seconds for g in h2h) / len(h2h)
        cost = per_game * 1.0 / h2h_budget * FULL_H2H
        total += cost / jobs
        lines.append(f"head-to-head ({FULL_H2H} games at 1 s): about {_duration(cost / jobs)}")
    return total, lines


def nvp_estimate(run: Run) -> tuple[float, list[str]]:
    """Estimated wall seconds of the native-figures run (``NATIVE_RUN``), from this run.

    A line's fixed cost (starting its processes) is its ``random`` line's; the rest scales
    with the games and with the nearest ``NATIVE_RUN`` budget / the measured budget."""
    a = run.args
    lines: list[str] = []
    total = 0.0
    budgets = NATIVE_RUN["budgets"].split(",")
    for game, players in sorted({(r.game, r.players) for r in run.ladder}):
        if game != "flaming":
            continue
        rows = [r for r in run.ladder if (r.game, r.players) == (game, players)]
        fixed = min((r.seconds * r.jobs for r in rows if r.spec == "random"), default=0.0)
        cost = 0.0
        for r in rows:
            if r.spec.startswith("oracle"):
                continue
            scale = 1.0
            if ":" in r.spec:
                near = min(
                    budgets, key=lambda b: abs(math.log(budget_seconds(b) / _spec_seconds(r.spec)))
                )
                scale = budget_seconds(near) / _spec_seconds(r.spec)
            per_game = max(0.0, r.seconds * r.jobs - fixed) / r.games
            cost += fixed + per_game * scale * NATIVE_RUN["games_2p"]
        total += cost / a.jobs
        lines.append(f"{TITLES[game]} {players}p ladder: about {_duration(cost / a.jobs)}")
    if run.nvp_h2h is not None and run.nvp_h2h.games:
        per_game = run.nvp_h2h.seconds * run.nvp_h2h.jobs / run.nvp_h2h.games
        cost = per_game * NATIVE_RUN["nvp_budget"] / run.nvp_h2h.budget * NATIVE_RUN["nvp_games"]
        total += cost / a.jobs
        lines.append(f"native against Python: about {_duration(cost / a.jobs)}")
    if run.nvp_speed:
        secs = sum(r.python_seconds + r.native_seconds for r in run.nvp_speed)
        secs *= NATIVE_RUN["nvp_positions"] / max(1, run.nvp_speed[0].positions)
        total += secs
        lines.append(f"iterations/s table (one core): about {_duration(secs)}")
    return total, lines


@dataclass
class Run:
    """Everything one run measured, with its arguments."""

    args: argparse.Namespace
    command: str
    started: str
    load_before: tuple[float, float, float]
    speed: list[SpeedRow]
    h2h: list[H2HGame]
    ladder: list[LadderRow]
    seconds: float
    nvp_speed: list[nvp.SpeedRow] = field(default_factory=list)
    nvp_h2h: nvp.H2H | None = None


def preliminary(args: argparse.Namespace) -> bool:
    """Whether the run is below the full-size parameters (of ``--native-run`` for one)."""
    if args.native_run:
        return bool(
            min(args.games_2p, args.games_4p) < nvp.NVP_FULL_GAMES
            or args.nvp_games < nvp.NVP_FULL_GAMES
            or args.nvp_positions < nvp.NVP_FULL_POSITIONS
        )
    return (
        tuple(args.budgets) != FULL_BUDGETS
        or args.games_2p < FULL_GAMES
        or args.games_4p < FULL_GAMES
        or args.h2h_games < FULL_H2H
    )


def render(run: Run) -> str:
    """docs/STRENGTH.md from a run."""
    a = run.args
    prelim = preliminary(a)
    largest = max(a.budgets, key=budget_seconds)
    out: list[str] = ["# Strength and speed of the search bots", ""]
    if prelim and a.native_run:
        out += [
            f"> **PRELIMINARY: reduced parameters.** {a.games_2p} two-player and {a.games_4p} "
            f"four-player games per ladder line, {a.nvp_games} native-against-Python games, "
            f"{a.nvp_positions} speed positions per line (full `--native-run`: "
            f"{nvp.NVP_FULL_GAMES}, {nvp.NVP_FULL_GAMES}, {nvp.NVP_FULL_POSITIONS}). The "
            'targets cannot be judged from this page; see "Full run" at the end.',
            "",
        ]
    elif prelim:
        out += [
            "> **PRELIMINARY: reduced parameters.** Budgets "
            + ", ".join(a.budgets)
            + f" (full: {', '.join(FULL_BUDGETS)}), {a.games_2p} two-player and {a.games_4p} "
            f"four-player games per ladder line (full: {FULL_GAMES}), {a.h2h_games} head-to-head "
            f"games (full: {FULL_H2H}). The targets cannot be judged from this page; see "
            '"Full run" at the end.',
            "",
        ]
    out += [
        "## How this was generated",
        "",
        "```",
        run.command,
        "```",
        "",
        f"- date: {run.started} (UTC); whole run {_duration(run.seconds)}",
        f"- machine: {a.machine}; Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        f"- load average before the run: {', '.join(f'{x:.2f}' for x in run.load_before)}"
        + (f"; {a.note}" if a.note else ""),
        f"- seeds: {a.seed}..{a.seed} + N - 1 for every ladder line and the head-to-head; "
        f"speed positions from seeds {a.seed} on",
        "- time budgets are wall-clock (`time.perf_counter`): with other work on the machine a "
        "search does fewer iterations, so these figures are machine- and load-dependent",
        "- regenerate: `scripts/strength.py` (this page is written by it; do not edit by hand)",
        "",
        "## Speed: iterations per second",
        "",
        f"Positions: seeded greedy self-play stopped after {POSITION_PLIES[0]} and "
        f"{POSITION_PLIES[1]} actions (then on to the next decision with two or more legal "
        f"actions), {a.positions} per line, played through the OpenSpiel adapter so that both "
        "searches start from the very same state. One process (one core); nothing else of this "
        "script runs meanwhile.",
        "",
        f"- **ours**: `make_bot('ismcts:{a.speed_budget:g}s')`, `ISMCTSBot.search` on the seat's "
        f"view for {a.speed_budget:g} s per position; rate = iterations / seconds, summed.",
        "- **OpenSpiel**: `open_spiel.python.algorithms.ismcts.ISMCTSBot` on the pyspiel state "
        "(`pyramids.rl.openspiel_game`), `RandomRolloutEvaluator(n_rollouts=1)`, `uct_c` = our "
        f"UCB constant ({EXPLORATION}), resampling with `make_resampler`. It takes a simulation "
        f"count, not a time: each position runs `run_search` with {a.os_sims} simulations and "
        "is timed; rate = simulations / seconds. One OpenSpiel simulation does what one of our "
        "iterations does: a determinization, a descent, one expansion, one random rollout.",
        "",
        "| game | players | positions | ours: iterations | s | iterations/s "
        "| OpenSpiel: simulations | s | simulations/s | ours / OpenSpiel |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in run.speed:
        ratio = f"{r.ours_rate / r.os_rate:.1f}×" if r.os_rate else "-"
        os_cells = (
            f"{r.os_simulations} | {r.os_seconds:.2f} | {r.os_rate:.1f}"
            if not r.error
            else f"failed: {r.error} | - | -"
        )
        out.append(
            f"| {TITLES[r.game]} | {r.players} | {r.positions} | {r.ours_iterations} "
            f"| {r.ours_seconds:.2f} | {r.ours_rate:.0f} | {os_cells} | {ratio} |"
        )
    out += [
        "",
        "What the OpenSpiel figures include: OpenSpiel's *Python* ISMCTS (the C++ one is not "
        "used) on a Python game, so every simulation also pays for the adapter: a state clone "
        "is a deep copy with an engine clone, every action goes through the index table, and "
        "every tree node is looked up by the deciding seat's information-state string (the "
        "view's JSON plus the seat's action record). OpenSpiel's tree is keyed by that string, "
        "so an opponent's node is shared only by determinizations that deal the opponent the "
        "same hidden tiles or cards; ours keys nodes by the action sequence (SO-ISMCTS) and "
        "shares them. Its random rollouts have no length cap (ours stop after 200 actions). "
        "Late positions finish quickly: Pyramids and Flags 2-player games last about 10 "
        "turns, so positions after 20 and 30 actions are near the end and rollouts are short.",
    ]
    out += ["", "## Head-to-head: our ISMCTS against OpenSpiel's ISMCTS", ""]
    if run.h2h:
        n = len(run.h2h)
        score = sum(g.ours_return for g in run.h2h)
        lo, hi = wilson_interval(score, n)
        dec = sum(g.os_decisions for g in run.h2h)
        sims = sum(g.os_simulations for g in run.h2h)
        os_s = sum(g.os_seconds for g in run.h2h)
        by_seat = [
            (
                sum(g.ours_return for g in run.h2h if g.ours_seat == s),
                sum(1 for g in run.h2h if g.ours_seat == s),
            )
            for s in range(2)
        ]
        out += [
            f"Flaming Pyramids, 2 players, {n} games, {a.h2h_budget:g} s per decision for both "
            f"bots, game i dealt by seed {a.seed} + i, our bot in seat i mod 2. The game is "
            "played in pyspiel through the adapter; our bot sees the view of the adapter's "
            "engine state (`PyramidsSpielState.engine_state.view(seat)`) and its action is "
            "mapped to the adapter's index. OpenSpiel's bot searches until a deadline "
            "(`DeadlineISMCTSBot` in the script: OpenSpiel's own `run_search` with its "
            "simulation-count loop replaced by a time check), with the settings above; it "
            f"plays its most visited action. Run in {a.jobs} processes.",
            "",
            "| games | ours won | score | 95% CI | ours seat 0 | ours seat 1 "
            "| OpenSpiel simulations/decision | OpenSpiel simulations/s |",
            "| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
            f"| {n} | {score:g} | {_pct(score / n)} | {_ci((lo, hi))} "
            f"| {by_seat[0][0]:g}/{by_seat[0][1]} | {by_seat[1][0]:g}/{by_seat[1][1]} "
            f"| {sims / dec if dec else 0:.1f} | {sims / os_s if os_s else 0:.1f} |",
            "",
        ]
    else:
        out += ["Not run (`--h2h-games 0`).", ""]
    out += [
        "## Strength ladder",
        "",
        "Each line: the bot in one seat, greedy in every other seat, seats rotated (game i puts "
        f"the bot in seat i mod P), seeds {a.seed}..{a.seed}+N-1, default rules "
        "(Flaming: standard preset; Flags: tree actions on), played by "
        "`pyramids.analysis.tournament` (schedule `rotations`) in "
        f"{a.jobs} processes. 2 players: the bot's win rate; 4 players: its first-place rate "
        "(fair share 25%). Wilson 95% intervals. `oracle` is the same search on the true state: "
        "the cheating yardstick. Turns/game: mean turns (placements, or Flags moves) per game; "
        "a weak search that sets off mayhem gets tiles back, so its games last longer and "
        "cost more. Cost = wall seconds × processes / games.",
        "",
    ]
    groups = sorted({(r.game, r.players) for r in run.ladder}, key=lambda g: (g[0] != "flaming", g))
    for game, players in groups:
        n = a.games_2p if players == 2 else a.games_4p
        what = "win rate" if players == 2 else "first place"
        out += [
            f"### {TITLES[game]}, {players} players ({n} game{'s' if n != 1 else ''} per line)",
            "",
            f"| bot | games | wins | {what} | 95% CI | turns/game | ms/decision "
            "| s/game (one core) |",
            "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
        ]
        for lr in run.ladder:
            if (lr.game, lr.players) != (game, players):
                continue
            ms = "-" if lr.ms_per_decision is None else f"{lr.ms_per_decision:.1f}"
            out.append(
                f"| {lr.spec} | {lr.games} | {lr.wins:g} | {_pct(lr.rate)} | {_ci(lr.ci)} "
                f"| {lr.turns:.0f} | {ms} "
                f"| {lr.core_seconds_per_game:.2f} |"
            )
        out.append("")
    if a.native_run or run.nvp_speed or run.nvp_h2h is not None or len(a.searches) > 1:
        out += nvp.render(run.nvp_speed, run.nvp_h2h, run.ladder, a.seed)
    out += ["## Targets", ""]
    out += targets(run, largest)
    est, est_lines = full_estimate(run.ladder, run.speed, run.h2h, a.h2h_budget, a.jobs)
    nest, nest_lines = nvp_estimate(run)
    out += [
        "## Full run",
        "",
        "The full-size figures (budgets 0.1 s and 1 s, 400 games per ladder line, 100 "
        "head-to-head games at 1 s, speed at 1 s per position) come from:",
        "",
        "```",
        ".venv/bin/python scripts/strength.py --jobs 2 --machine '2-core dev box' "
        "--note 'nothing else running'",
        "```",
        "",
        f"Estimated wall time with {a.jobs} processes, from this run's measured cost per game "
        "(a search line scaled by full budget / measured budget): about "
        f"**{_duration(est)}**:",
        "",
        *(f"- {line}" for line in est_lines),
        "",
        "The native-search figures (issue 11: both searches in the ladder at the same time "
        f"budgets {NATIVE_RUN['budgets']}, {nvp.NVP_FULL_GAMES} games per line, Flaming 2 and "
        f"4 players; {nvp.NVP_FULL_GAMES} games native against Python at "
        f"{NATIVE_RUN['nvp_budget']:g} s a decision; the iterations/s table on "
        f"{nvp.NVP_FULL_POSITIONS} positions per line), sized for 2 cores and 45 minutes:",
        "",
        "```",
        ".venv/bin/python scripts/strength.py --native-run --jobs 2 --machine '2-core dev box' "
        "--note 'nothing else running'",
        "```",
        "",
        f"Estimated from this run: about **{_duration(nest)}**:",
        "",
        *(f"- {line}" for line in nest_lines),
        "",
    ]
    return "\n".join(out)


def targets(run: Run, largest: str) -> list[str]:
    """The targets section: met, not met, or not measured at the required size."""
    a = run.args
    lines: list[str] = []
    if a.native_run:  # the search issue's targets need 1 s budgets: not this run's
        lines += nvp.targets(run.nvp_speed, run.nvp_h2h, run.ladder, nvp.NVP_FULL_GAMES)
        return [*lines, ""]
    big = [
        r
        for r in run.ladder
        if r.game == "flaming" and r.spec == f"ismcts:{largest}+{a.searches[0]}"
    ]
    for players, goal, n_req in ((2, TARGET_2P, FULL_GAMES), (4, TARGET_4P, 0)):
        what = (
            "ISMCTS at 1 s wins at least 65% of 2-player Flaming games against greedy "
            "(at least 400 games)"
            if players == 2
            else "ISMCTS at 1 s takes first place in at least 40% of 4-player Flaming games "
            "against three greedy bots (fair share 25%)"
        )
        row = next((r for r in big if r.players == players), None)
        if row is None:
            lines.append(f"- {what}: **not measured** (no Flaming {players}-player ladder).")
            continue
        fig = f"{row.spec}: {row.wins:g}/{row.games} = {_pct(row.rate)} (95% CI {_ci(row.ci)})"
        if largest != TARGET_BUDGET or row.games < n_req:
            verdict = "**not measured at the required budget and game count**"
            hint = "above the target" if row.rate >= goal else "below the target"
            lines.append(
                f"- {what}: {verdict}; this run measured {fig}, {hint} at the smaller budget."
            )
        else:
            met = row.rate >= goal
            sure = (row.ci[0] >= goal) if met else (row.ci[1] < goal)
            lines.append(
                f"- {what}: **{'met' if met else 'not met'}** ({fig}"
                + ("" if sure else "; the interval straddles the target")
                + ")."
            )
    if run.speed:
        ok = [r for r in run.speed if not r.error and r.os_rate]
        faster = all(r.ours_rate > r.os_rate for r in ok)
        figs = "; ".join(
            f"{TITLES[r.game]} {r.players}p {r.ours_rate:.0f} vs {r.os_rate:.1f}/s" for r in ok
        )
        lines.append(
            f"- Ours faster than OpenSpiel's ISMCTS: **{'met' if faster and ok else 'not met'}** "
            f"({figs})"
            + (
                " (some lines failed for OpenSpiel, see Speed)."
                if len(ok) < len(run.speed)
                else "."
            )
        )
    if run.h2h:
        n = len(run.h2h)
        score = sum(g.ours_return for g in run.h2h)
        lo, hi = wilson_interval(score, n)
        status = "met" if score / n >= 0.5 else "not met"
        if n < FULL_H2H or a.h2h_budget != 1.0:
            status = f"{status} in this reduced run ({n} games at {a.h2h_budget:g} s)"
        lines.append(
            f"- Ours at least as strong as OpenSpiel's (score ≥ 50% head-to-head): **{status}** "
            f"({score:g}/{n} = {_pct(score / n)}, 95% CI {_ci((lo, hi))})."
        )
    if a.native_run or run.nvp_speed or run.nvp_h2h is not None or len(a.searches) > 1:
        lines += nvp.targets(run.nvp_speed, run.nvp_h2h, run.ladder, nvp.NVP_FULL_GAMES)
    lines.append(
        "- Pyramids and Flags: the issue sets no numeric target; its ladder is above."
        if any(r.game == "flags" for r in run.ladder)
        else "- Pyramids and Flags: ladder not run."
    )
    lines.append("")
    return lines


# --- main ---------------------------------------------------------------------------------


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="reduced run: 0.05s,0.2s, 30/32 games")
    p.add_argument(
        "--native-run",
        action="store_true",
        help="the native-search figures (issue 11), sized for 2 cores and 45 minutes",
    )
    p.add_argument(
        "--searches",
        default=None,
        help="ladder searches: python,native (default: both when the native core is built)",
    )
    p.add_argument("--nvp-games", type=int, default=None, help="native against Python games")
    p.add_argument("--nvp-budget", type=float, default=None, help="their seconds per decision")
    p.add_argument("--nvp-positions", type=int, default=None, help="iterations/s positions")
    p.add_argument("--games-2p", type=int, default=None)
    p.add_argument("--games-4p", type=int, default=None)
    p.add_argument("--h2h-games", type=int, default=None)
    p.add_argument("--h2h-budget", type=float, default=None, help="seconds per decision")
    p.add_argument("--speed-budget", type=float, default=None, help="seconds per position")
    p.add_argument("--positions", type=int, default=None, help="speed positions per line")
    p.add_argument("--os-sims", type=int, default=None, help="OpenSpiel simulations timed")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--budgets", default=None, help="ladder budgets, e.g. 0.1s,1s")
    p.add_argument("--games", default=None, help="which games: flaming,flags")
    p.add_argument("--out", default=str(ROOT / "docs" / "STRENGTH.md"))
    p.add_argument("--machine", default="2-core dev box")
    p.add_argument("--note", default="", help="what else was running")
    a = p.parse_args(argv)
    quick = a.quick
    built = nvp.native_built()
    defaults: dict[str, Any] = {
        "games_2p": 30 if quick else FULL_GAMES,
        "games_4p": 32 if quick else FULL_GAMES,
        "h2h_games": 10 if quick else FULL_H2H,
        "h2h_budget": 0.2 if quick else 1.0,
        "speed_budget": 0.2 if quick else FULL_SPEED_BUDGET,
        "positions": 4 if quick else FULL_POSITIONS,
        "os_sims": 20 if quick else FULL_OS_SIMS,
        "budgets": "0.05s,0.2s" if quick else ",".join(FULL_BUDGETS),
        "games": "flaming,flags",
        "searches": "python,native" if built else "python",
        "nvp_games": (10 if quick else nvp.NVP_FULL_GAMES) if built else 0,
        "nvp_budget": nvp.NVP_BUDGET,
        "nvp_positions": (2 if quick else nvp.NVP_FULL_POSITIONS) if built else 0,
    }
    if a.native_run:
        defaults |= NATIVE_RUN
        if quick:
            defaults |= {"games_2p": 20, "games_4p": 20, "nvp_games": 20, "nvp_positions": 2}
    for key, value in defaults.items():
        if getattr(a, key) is None:
            setattr(a, key, value)
    a.searches = [x.strip() for x in a.searches.split(",") if x.strip()]
    for x in a.searches:
        if x not in nvp.SEARCHES:
            p.error(f"unknown search {x!r} (choose python, native)")
    if "native" in a.searches and not built:
        p.error("the native search needs the native core (./run builds it)")
    if not built:  # the native-against-Python parts need the native core: not run
        a.nvp_games = a.nvp_positions = 0
    a.budgets = [b.strip() for b in a.budgets.split(",") if b.strip()]
    for b in a.budgets:
        budget_seconds(b)
    a.games = [g.strip() for g in a.games.split(",") if g.strip()]
    for g in a.games:
        if g not in spiel_games():
            p.error(f"unknown game {g!r}")
    return a


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement and write the page."""
    args = parse(sys.argv[1:] if argv is None else argv)
    shown = sys.argv[1:] if argv is None else list(argv)
    command = ".venv/bin/python scripts/strength.py " + shlex.join(shown)
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()
    t0 = time.perf_counter()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - t0:7.1f}s] {text}", file=sys.stderr, flush=True)

    speed: list[SpeedRow] = []
    if args.positions > 0:
        for game in args.games:
            for players in (2, 4):
                row = measure_speed(
                    game,
                    players,
                    args.seed,
                    count=args.positions,
                    budget=args.speed_budget,
                    simulations=args.os_sims,
                )
                log(
                    f"speed {game} {players}p: ours {row.ours_rate:.0f}/s, "
                    f"OpenSpiel {row.os_rate:.1f}/s {row.error}"
                )
                speed.append(row)
    h2h: list[H2HGame] = []
    if args.h2h_games > 0:
        h2h = run_h2h(args.seed, args.h2h_games, args.h2h_budget, args.jobs)
        log(f"head-to-head: ours {sum(g.ours_return for g in h2h):g}/{len(h2h)}")
    ladder: list[LadderRow] = []
    for game in args.games:
        for players in (2, 4):
            n = args.games_2p if players == 2 else args.games_4p
            if n < 1:
                continue
            for spec in ladder_specs(args.budgets, args.searches, oracle=not args.native_run):
                lrow = ladder_row(game, players, spec, games=n, seed=args.seed, jobs=args.jobs)
                log(
                    f"ladder {game} {players}p {spec}: {lrow.wins:g}/{lrow.games} "
                    f"({lrow.seconds:.1f}s)"
                )
                ladder.append(lrow)
    nvp_speed: list[nvp.SpeedRow] = []
    if args.nvp_positions > 0:
        for game in nvp.TITLES:
            for players in (2, 4):
                srow = nvp.measure_speed(game, players, args.seed, count=args.nvp_positions)
                log(
                    f"native/python {game} {players}p: {srow.native_rate:.0f} vs "
                    f"{srow.python_rate:.0f} it/s ({srow.speedup:.1f}x), identical "
                    f"{srow.identical}/{srow.positions}"
                )
                nvp_speed.append(srow)
    nvp_h2h = None
    if args.nvp_games > 0:
        nvp_h2h = nvp.run_h2h(args.seed, args.nvp_games, args.nvp_budget, args.jobs)
        log(f"native against python: {nvp_h2h.native_wins:g}/{nvp_h2h.games}")
    run = Run(
        args,
        command,
        started,
        load,
        speed,
        h2h,
        ladder,
        time.perf_counter() - t0,
        nvp_speed,
        nvp_h2h,
    )
    Path(args.out).write_text(render(run), encoding="utf-8")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
