"""Many seeded bot games, in parallel processes, summed up as one JSON-ready dict.

Game ``i`` of a run is played by ``core.play_game`` with seed ``seed + i`` and the bot
list rotated by ``i`` (seat ``j`` gets bot ``(j + i) mod players``), so every bot sits
in every seat equally often and the summary depends only on the arguments, never on
how many processes played the games. What happened is counted from each state's raw
events after every apply: Flaming Pyramids' mayhem (FP-MAYHEM), or Pyramids and Flags'
flags, captures, exchanges, trees and tree actions (PF-SCORE, PF-CAPTURE, PF-SWAP,
PF-TREE) and how each game ended (PF-WIN).
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyramids.analysis.parallel import play_chunks
from pyramids.bots import make_bot
from pyramids.core.game import Game, State
from pyramids.core.record import play_game
from pyramids.flags.game import FlagsGame
from pyramids.flags.options import DEFAULT_MAX_TURNS as FLAGS_MAX_TURNS
from pyramids.flags.options import FlagsOptions
from pyramids.flags.state import FlagsState
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import DEFAULT_MAX_TURNS as FLAMING_MAX_TURNS
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.state import FlamingState

SIM_GAMES = ("flaming", "flags")
"""Games ``simulate`` plays, by short name."""
MAYHEM_KINDS = ("free_air", "collapse", "explosion", "fire", "die_explosion", "quench", "curse")
"""Raw event kinds counted as mayhem, in the contract's check order, then the die's."""
FLAGS_EVENT_KINDS = (
    "flag",
    "take_bank",
    "take_opponent",
    "swap",
    "tree_R",
    "tree_B",
    "tree_G",
    "tree_Y",
    "tree_K",
    "tree_W",
    "split",
    "trade",
    "grow",
    "newstart",
    "pirate",
    "wild",
    "decline",
    "lapse",
)
"""What is counted in a Pyramids and Flags game: flags scored, pieces taken from the bank or
from an opponent, exchanges, trees made by colour (PF-TREE-1), then the tree actions used
(``split`` once per tower destroyed), declined or lapsed."""
_FLAGS_COUNTED = frozenset(FLAGS_EVENT_KINDS) - {"take_bank", "take_opponent"}
"""Flags event kinds counted under their own name (trees are counted by colour)."""
WIN_CONDITIONS = ("flags", "group", "points")
"""Pyramids and Flags win conditions (PF-WIN), as the engine's win events name them."""
ENDINGS = ("win", "max_turns", "deck_out")
"""How a game ends: a winner, the max_turns safeguard, or (flags) no card left anywhere."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: the game and its rules, the seats' bots, the seeds, the parallelism.

    ``None`` means the game's default. ``preset``, ``curse`` and ``fire_die`` are Flaming
    Pyramids options, ``actions`` a Pyramids and Flags one; ``max_turns`` defaults to the
    game's own (1000 for flaming, 3000 for flags).
    """

    players: int = 2
    preset: str | None = None
    bots: tuple[str, ...] = ("greedy", "random")
    seed: int = 0
    games: int = 100
    curse: bool | None = None
    fire_die: bool = False
    max_turns: int | None = None
    jobs: int = 1
    game: str = "flaming"
    actions: bool | None = None

    def options(self) -> FlamingOptions | FlagsOptions:
        """The rules options (the options classes raise PositionError on bad values)."""
        if self.game == "flags":
            return FlagsOptions(
                actions=True if self.actions is None else self.actions,
                max_turns=FLAGS_MAX_TURNS if self.max_turns is None else self.max_turns,
            )
        return FlamingOptions(
            preset=self.preset or "standard",
            curse=self.curse,
            fire_die=self.fire_die,
            max_turns=FLAMING_MAX_TURNS if self.max_turns is None else self.max_turns,
        )

    def make_game(self) -> Game:
        """The game of this configuration (no check of flaming-only or flags-only options)."""
        options = self.options()
        if isinstance(options, FlagsOptions):
            return FlagsGame(self.players, options)
        return FlamingGame(self.players, options)


@dataclass
class GameResult:
    """One finished game: who sat where, who won, how long it took, what happened.

    ``counts`` holds the mayhem counts (flaming, MAYHEM_KINDS) or the flags event counts
    (FLAGS_EVENT_KINDS); ``ending`` is one of ENDINGS; ``condition`` the win condition of
    a Pyramids and Flags winner (one of WIN_CONDITIONS), else None.
    """

    index: int
    seats: list[str]
    winner: int | None
    turns: int
    counts: dict[str, int] = field(default_factory=dict)
    ending: str = "win"
    condition: str | None = None


def seat_bots(bots: Sequence[str], players: int, index: int) -> list[str]:
    """The bot names of game ``index``: ``bots`` repeated to fill the seats, rotated by index."""
    if not bots:
        raise ValueError("give at least one bot")
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} seats: give at most one bot per seat")
    full = [bots[j % len(bots)] for j in range(players)]
    return [full[(j + index) % players] for j in range(players)]


def check_config(config: SimConfig) -> Game:
    """The game of ``config`` after checking every argument; ValueError says what is wrong."""
    if config.game not in SIM_GAMES:
        raise ValueError(f"unknown game {config.game!r} (known: {', '.join(SIM_GAMES)})")
    if config.games < 1:
        raise ValueError("--games must be at least 1")
    if config.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    if config.game == "flags":
        given = [
            name
            for name, value in (
                ("--preset", config.preset),
                ("--curse/--no-curse", config.curse),
                ("--fire-die", config.fire_die or None),
            )
            if value is not None
        ]
        if given:
            raise ValueError(f"{', '.join(given)}: Flaming Pyramids options, not for --game flags")
    elif config.actions is not None:
        raise ValueError("--actions/--no-actions: a Pyramids and Flags option, not for flaming")
    game = config.make_game()
    seat_bots(config.bots, config.players, 0)
    for name in set(config.bots):
        make_bot(name)
    return game


def play_one(config: SimConfig, index: int, game: Game | None = None) -> GameResult:
    """Play game ``index`` of ``config`` (seed ``config.seed + index``) and count its events."""
    game = game or config.make_game()
    if isinstance(game, FlagsGame):
        return _play_flags(config, index, game)
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
    winner = final.winner
    return GameResult(
        index=index,
        seats=names,
        winner=winner,
        turns=turns,
        counts=counts,
        ending="win" if winner is not None else "max_turns",
    )


def _play_flags(config: SimConfig, index: int, game: FlagsGame) -> GameResult:
    """``play_one`` for Pyramids and Flags: a turn is a move or an exchange (PF-WIN-5)."""
    names = seat_bots(config.bots, config.players, index)
    made = {name: make_bot(name) for name in set(names)}
    counts = dict.fromkeys(FLAGS_EVENT_KINDS, 0)
    turns = 0
    ending = "win"
    condition: str | None = None

    def on_step(state: State, _text: str) -> None:
        nonlocal turns, ending, condition
        if not isinstance(state, FlagsState):
            raise TypeError("simulate --game flags plays Pyramids and Flags states")
        for event in state.raw_events():
            kind = event[0]
            if kind == "move":
                turns += 1
            elif kind in _FLAGS_COUNTED:
                counts[kind] += 1
                turns += kind == "swap"
            elif kind == "take":
                counts["take_bank" if event[3] < 0 else "take_opponent"] += 1
            elif kind == "tree":
                counts["tree_" + event[2]] += 1
            elif kind == "win":
                condition = str(event[2])
            elif kind in ("max_turns", "deck_out"):
                ending = kind

    final, _record = play_game(game, [made[n] for n in names], config.seed + index, on_step=on_step)
    if not isinstance(final, FlagsState):
        raise TypeError("simulate --game flags plays Pyramids and Flags states")
    return GameResult(
        index=index,
        seats=names,
        winner=final.winner,
        turns=turns,
        counts=counts,
        ending=ending,
        condition=condition,
    )


def _play_chunk(config: SimConfig, indices: Sequence[int]) -> list[GameResult]:
    """Play the games ``indices`` in this process (the unit of work of a worker)."""
    game = config.make_game()
    return [play_one(config, i, game) for i in indices]


def play_games(
    config: SimConfig, on_progress: Callable[[int], None] | None = None
) -> list[GameResult]:
    """Play every game of ``config``, in ``config.jobs`` processes; results in game order."""
    check_config(config)
    return play_chunks(
        _play_chunk,
        config,
        config.games,
        config.jobs,
        per_job=4,
        at_most=50,
        on_progress=on_progress,
    )


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
    game = config.make_game()
    flags = isinstance(game, FlagsGame)
    n = len(results)
    wins_by_seat = [0] * config.players
    names = sorted(set(config.bots))
    wins_by_bot = dict.fromkeys(names, 0)
    seat_games = dict.fromkeys(names, 0)
    counts = dict.fromkeys(FLAGS_EVENT_KINDS if flags else MAYHEM_KINDS, 0)
    endings = dict.fromkeys(ENDINGS, 0)
    conditions = dict.fromkeys(WIN_CONDITIONS, 0)
    for r in results:
        for name in r.seats:
            seat_games[name] += 1
        endings[r.ending] += 1
        if r.winner is not None:
            wins_by_seat[r.winner] += 1
            wins_by_bot[r.seats[r.winner]] += 1
            if r.condition is not None:
                conditions[r.condition] += 1
        for kind, count in r.counts.items():
            counts[kind] += count
    turns = [r.turns for r in results]
    per_game = {kind: round(count / n, 4) if n else 0.0 for kind, count in counts.items()}
    summary: dict[str, Any] = {
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
    }
    if flags:
        summary["events"] = counts
        summary["events_per_game"] = per_game
        summary["wins_by_condition"] = conditions
        summary["games_ended_by_max_turns"] = endings["max_turns"]
        summary["games_ended_by_empty_deck"] = endings["deck_out"]
    else:
        summary["mayhem"] = counts
        summary["mayhem_per_game"] = per_game
        summary["games_ended_by_max_turns"] = endings["max_turns"]
    return summary


def simulate(config: SimConfig, on_progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play the games of ``config`` and return the summary dict."""
    start = time.perf_counter()
    results = play_games(config, on_progress)
    return summarize(config, results, time.perf_counter() - start)


def default_jobs() -> int:
    """One process per CPU."""
    return os.cpu_count() or 1
