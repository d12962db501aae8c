"""Many seeded bot games, in parallel processes, summed up as one JSON-ready dict.

Game ``i`` of a run is played by ``core.play_game`` with seed ``seed + i`` and the bot
list rotated by ``i`` (seat ``j`` gets bot ``(j + i) mod players``), so every bot sits
in every seat equally often and the summary depends only on the arguments, never on
how many processes played the games. Mayhem is counted from each state's raw events
after every apply (FP-MAYHEM).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from pyramids.bots import make_bot
from pyramids.core.game import State
from pyramids.core.record import play_game
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.state import FlamingState

MAYHEM_KINDS = ("free_air", "collapse", "explosion", "fire", "die_explosion", "quench", "curse")
"""Raw event kinds counted as mayhem, in the contract's check order, then the die's."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: the rules, the seats' bots, the seeds and the parallelism."""

    players: int = 2
    preset: str = "standard"
    bots: tuple[str, ...] = ("greedy", "random")
    seed: int = 0
    games: int = 100
    curse: bool | None = None
    fire_die: bool = False
    max_turns: int = 1000
    jobs: int = 1

    def options(self) -> FlamingOptions:
        """The rules options (FlamingOptions raises PositionError on bad values)."""
        return FlamingOptions(
            preset=self.preset, curse=self.curse, fire_die=self.fire_die, max_turns=self.max_turns
        )


@dataclass
class GameResult:
    """One finished game: who sat where, who won, how long it took, what mayhem happened."""

    index: int
    seats: list[str]
    winner: int | None
    turns: int
    mayhem: dict[str, int] = field(default_factory=dict)


def seat_bots(bots: Sequence[str], players: int, index: int) -> list[str]:
    """The bot names of game ``index``: ``bots`` repeated to fill the seats, rotated by index."""
    if not bots:
        raise ValueError("give at least one bot")
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} seats: give at most one bot per seat")
    full = [bots[j % len(bots)] for j in range(players)]
    return [full[(j + index) % players] for j in range(players)]


def check_config(config: SimConfig) -> FlamingGame:
    """The game of ``config`` after checking every argument; ValueError says what is wrong."""
    if config.games < 1:
        raise ValueError("--games must be at least 1")
    if config.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    game = FlamingGame(config.players, config.options())
    seat_bots(config.bots, config.players, 0)
    for name in set(config.bots):
        make_bot(name)
    return game


def play_one(config: SimConfig, index: int, game: FlamingGame | None = None) -> GameResult:
    """Play game ``index`` of ``config`` (seed ``config.seed + index``) and count its mayhem."""
    game = game or FlamingGame(config.players, config.options())
    names = seat_bots(config.bots, config.players, index)
    made = {name: make_bot(name) for name in set(names)}
    counts = dict.fromkeys(MAYHEM_KINDS, 0)
    turns = 0

    def on_step(state: State, _text: str) -> None:
        nonlocal turns
        if not isinstance(state, FlamingState):
            raise TypeError("simulate plays Flaming Pyramids states")
        for event in state.raw_events():
            kind = event[0]
            if kind in counts:
                counts[kind] += 1
            elif kind == "place":
                turns += 1

    final, _record = play_game(game, [made[n] for n in names], config.seed + index, on_step=on_step)
    if not isinstance(final, FlamingState):
        raise TypeError("simulate plays Flaming Pyramids states")
    return GameResult(index=index, seats=names, winner=final.winner, turns=turns, mayhem=counts)


def _play_chunk(config: SimConfig, indices: Sequence[int]) -> list[GameResult]:
    """Play the games ``indices`` in this process (the unit of work of a worker)."""
    game = FlamingGame(config.players, config.options())
    return [play_one(config, i, game) for i in indices]


def _chunks(games: int, jobs: int) -> list[range]:
    """Split game indices into about four chunks per process, at most 50 games each."""
    size = max(1, min(50, math.ceil(games / (jobs * 4))))
    return [range(lo, min(games, lo + size)) for lo in range(0, games, size)]


def play_games(
    config: SimConfig, on_progress: Callable[[int], None] | None = None
) -> list[GameResult]:
    """Play every game of ``config``, in ``config.jobs`` processes; results in game order."""
    check_config(config)
    results: list[GameResult] = []
    if config.jobs == 1 or config.games == 1:
        game = FlamingGame(config.players, config.options())
        for i in range(config.games):
            results.append(play_one(config, i, game))
            if on_progress is not None:
                on_progress(1)
        return results
    # spawn, not fork: the caller may run threads (a progress bar), and fork copies their locks.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=config.jobs, mp_context=context) as pool:
        futures = [
            pool.submit(_play_chunk, config, chunk) for chunk in _chunks(config.games, config.jobs)
        ]
        for future in as_completed(futures):
            chunk_results = future.result()
            results.extend(chunk_results)
            if on_progress is not None:
                on_progress(len(chunk_results))
    results.sort(key=lambda r: r.index)
    return results


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(config: SimConfig, results: Sequence[GameResult], seconds: float) -> dict[str, Any]:
    """The JSON-ready summary of a run (see docs/BOTS.md for the fields)."""
    game = FlamingGame(config.players, config.options())
    n = len(results)
    wins_by_seat = [0] * config.players
    names = sorted(set(config.bots))
    wins_by_bot = dict.fromkeys(names, 0)
    seat_games = dict.fromkeys(names, 0)
    mayhem = dict.fromkeys(MAYHEM_KINDS, 0)
    ended_by_max_turns = 0
    for r in results:
        for name in r.seats:
            seat_games[name] += 1
        if r.winner is None:
            ended_by_max_turns += 1
        else:
            wins_by_seat[r.winner] += 1
            wins_by_bot[r.seats[r.winner]] += 1
        for kind, count in r.mayhem.items():
            mayhem[kind] += count
    turns = [r.turns for r in results]
    return {
        "game": game.info.short_name,
        "rules_version": game.info.rules_version,
        "options": dict(game.options),
        "players": config.players,
        "bots": list(config.bots),
        "seed": config.seed,
        "games": n,
        "jobs": config.jobs,
        "seconds": round(seconds, 3),
        "games_per_s": round(n / seconds, 1) if seconds > 0 else None,
        "turns_per_game": {
            "mean": round(statistics.fmean(turns), 2) if turns else 0.0,
            "median": statistics.median(turns) if turns else 0,
            "max": max(turns, default=0),
        },
        "wins_by_seat": wins_by_seat,
        "wins_by_bot": wins_by_bot,
        "seat_games_by_bot": seat_games,
        "win_rate_by_bot": {
            name: round(wins_by_bot[name] / seat_games[name], 4) if seat_games[name] else 0.0
            for name in names
        },
        "win_rate_ci95_by_bot": {
            name: [round(x, 4) for x in wilson_interval(wins_by_bot[name], seat_games[name])]
            for name in names
        },
        "mayhem": mayhem,
        "mayhem_per_game": {
            kind: round(count / n, 4) if n else 0.0 for kind, count in mayhem.items()
        },
        "games_ended_by_max_turns": ended_by_max_turns,
    }


def simulate(config: SimConfig, on_progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play the games of ``config`` and return the summary dict."""
    start = time.perf_counter()
    results = play_games(config, on_progress)
    return summarize(config, results, time.perf_counter() - start)


def default_jobs() -> int:
    """One process per CPU."""
    return os.cpu_count() or 1
