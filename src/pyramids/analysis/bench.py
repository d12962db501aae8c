"""The engine benchmark: self-play speed of the random and greedy bots, view and clone cost.

Both games are measured, each with its own budget (``--game`` picks one). Everything
runs in this one process (one core).

**Flaming Pyramids.** The mix is fixed: presets basic,
family and standard, each with 2 to 6 players (15 configurations), games seeded
0, 1, 2, ... in every configuration, each configuration given an equal share of the
time budget (a game in progress is always finished, and each plays at least one).

What is timed, per game: ``new_initial_state(seed)``, then until the game ends
``legal_actions()``, the bot's ``act`` and ``apply`` (which runs the mayhem and the end
of turn), with fire-die rolls (none in the default rules) drawn by
``state.sample_chance``. The greedy bot gets ``state.view(player)`` at every decision,
built inside the timing. The random bot ignores its view, so it gets one view built
once per game, outside the per-decision work. A turn is one placement action (actions
>= PLACE_BASE); falls chosen by the bot within that turn are timed but not counted.

**Pyramids and Flags.** The same, over 2, 3 and 4 players with the default rules (tree
actions on, max_turns 3000): 3 configurations. A turn is one move or exchange (actions
from MOVE_BASE to below TAKE_BASE) with everything it triggers: the captures, tree
actions and chance outcomes (steals, deals drawn by ``state.sample_chance``) that follow
are timed but not counted. Clone and view costs are measured on 30 states taken half way
through seeded random games (2, 3 and 4 players in turn). Its JSON keys end in ``_flags``.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pyramids.bots.greedy import GreedyBot
from pyramids.bots.random_bot import RandomBot
from pyramids.core.game import CHANCE, Bot, Game, State
from pyramids.flags.actions import MOVE_BASE, TAKE_BASE
from pyramids.flags.game import FlagsGame
from pyramids.flags.options import RULES_VERSION as FLAGS_RULES_VERSION
from pyramids.flags.state import FlagsState
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import PRESETS, RULES_VERSION, FlamingOptions
from pyramids.flaming.state import PLACE_BASE, FlamingState

BENCH_GAMES = ("flaming", "flags")
"""The games measured, by short name (``bench(games=...)`` picks some)."""
BENCH_PRESETS = PRESETS
BENCH_PLAYERS = (2, 3, 4, 5, 6)
FLAGS_PLAYERS = (2, 3, 4)
DEFAULT_SECONDS = 10.0
"""Default time budget per game measured (both games: about twice this)."""
SELF_PLAY_SHARE = 0.45
"""Share of the time budget for each bot's self-play (the rest: views and clones)."""
SAMPLE_STATES = 60
"""Mid-game states sampled for the view and clone timings."""
FLAGS_SAMPLE_STATES = 30
"""The same for Pyramids and Flags."""


FLAMING_TURNS = (PLACE_BASE, sys.maxsize)
"""Flaming Pyramids decisions that start a turn: placements (action >= PLACE_BASE)."""
FLAGS_TURNS = (MOVE_BASE, TAKE_BASE)
"""Pyramids and Flags decisions that are a turn: moves and exchanges."""


@dataclass
class SelfPlay:
    """Totals of one bot's self-play in one configuration."""

    preset: str
    players: int
    games: int = 0
    turns: int = 0
    seconds: float = 0.0


def play_timed(
    game: Game,
    bot: Bot,
    seed: int,
    *,
    views: bool,
    turn_actions: tuple[int, int] = FLAMING_TURNS,
) -> tuple[int, float]:
    """Play one self-play game of ``bot``; (turns, seconds). See the module doc for what is timed."""
    rng = random.Random(seed)
    chance_rng = random.Random(f"{seed}/chance")
    perf = time.perf_counter
    start = perf()
    state = game.new_initial_state(seed)
    stale = state.view(0) if not views else None
    turns = 0
    act = bot.act
    low, high = turn_actions
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            legal = state.legal_actions()
            view = state.view(player) if stale is None else stale
            action = act(view, legal, rng)
            if low <= action < high:
                turns += 1
        state.apply(action)
    return turns, perf() - start


def _self_play(
    configs: Sequence[tuple[str, int, Game]],
    bot: Bot,
    seconds: float,
    *,
    views: bool,
    turn_actions: tuple[int, int] = FLAMING_TURNS,
) -> list[SelfPlay]:
    """Self-play of ``bot`` in each (label, players, game), ``seconds`` split evenly."""
    budget = seconds / len(configs)
    results = []
    for label, n, game in configs:
        result = SelfPlay(label, n)
        seed = 0
        while result.games == 0 or result.seconds < budget:
            turns, spent = play_timed(game, bot, seed, views=views, turn_actions=turn_actions)
            result.games += 1
            result.turns += turns
            result.seconds += spent
            seed += 1
        results.append(result)
    return results


def self_play(bot: Bot, seconds: float, *, views: bool) -> list[SelfPlay]:
    """Self-play of ``bot`` over the fixed mix, ``seconds`` in all (split evenly)."""
    configs = [
        (preset, n, FlamingGame(n, FlamingOptions(preset=preset)))
        for preset in BENCH_PRESETS
        for n in BENCH_PLAYERS
    ]
    return _self_play(configs, bot, seconds, views=views)


def self_play_flags(bot: Bot, seconds: float, *, views: bool) -> list[SelfPlay]:
    """Pyramids and Flags self-play of ``bot`` over 2 to 4 players, ``seconds`` in all."""
    configs = [("flags", n, FlagsGame(n)) for n in FLAGS_PLAYERS]
    return _self_play(configs, bot, seconds, views=views, turn_actions=FLAGS_TURNS)


def mid_game_states_flags(count: int = FLAGS_SAMPLE_STATES) -> list[FlagsState]:
    """Seeded random Pyramids and Flags games (2, 3, 4 players in turn) stopped half way."""
    states = []
    for i in range(count):
        game = FlagsGame(FLAGS_PLAYERS[i % len(FLAGS_PLAYERS)])
        state = game.new_initial_state(i)
        rng = random.Random(i)
        seen = [state.clone()]
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state.apply(action)
            if MOVE_BASE <= action < TAKE_BASE and not state.is_terminal():
                seen.append(state.clone())
        states.append(seen[len(seen) // 2])
    return states


def mid_game_states(count: int = SAMPLE_STATES) -> list[FlamingState]:
    """Seeded random games stopped half way, across the mix (for view and clone timings)."""
    bot = RandomBot()
    configs = [(preset, n) for preset in BENCH_PRESETS for n in BENCH_PLAYERS]
    states = []
    for i in range(count):
        preset, n = configs[i % len(configs)]
        game = FlamingGame(n, FlamingOptions(preset=preset))
        length, _ = play_timed(game, bot, i, views=False)
        state = game.new_initial_state(i)
        rng = random.Random(i)
        turns = 0
        while not state.is_terminal() and turns < length // 2:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            turns += action >= PLACE_BASE
            state.apply(action)
        states.append(state)
    return states


def median_us(states: Sequence[State], op: Callable[[Any], object], seconds: float) -> float:
    """Median over batches of 100 calls of ``op`` on each state, in microseconds per call."""
    perf = time.perf_counter
    samples: list[float] = []
    deadline = perf() + seconds
    while not samples or perf() < deadline:
        for state in states:
            start = perf()
            for _ in range(100):
                op(state)
            samples.append((perf() - start) * 1e4)  # seconds per 100 calls -> us per call
    return statistics.median(samples)


def _rate(count: float, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else 0.0


def _totals(runs: list[SelfPlay]) -> tuple[int, int, float]:
    return (
        sum(r.games for r in runs),
        sum(r.turns for r in runs),
        sum(r.seconds for r in runs),
    )


def bench(seconds: float = DEFAULT_SECONDS, games: Sequence[str] = BENCH_GAMES) -> dict[str, Any]:
    """Run the benchmark of ``games``, about ``seconds`` each; the figures as a dict."""
    unknown = sorted(set(games) - set(BENCH_GAMES))
    if unknown:
        raise ValueError(f"unknown game(s) {', '.join(unknown)} (known: {', '.join(BENCH_GAMES)})")
    figures: dict[str, Any] = {"bench_games": [g for g in BENCH_GAMES if g in games]}
    if "flaming" in games:
        figures.update(bench_flaming(seconds))
    if "flags" in games:
        figures.update(bench_flags(seconds))
    figures.update(
        {
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "platform": platform.platform(),
        }
    )
    return figures


def _figures(
    random_runs: list[SelfPlay],
    greedy_runs: list[SelfPlay],
    states: Sequence[State],
    seconds: float,
    suffix: str,
    *,
    with_preset: bool,
) -> dict[str, Any]:
    """One game's figures from its self-play runs and sample states; keys end in ``suffix``."""
    rest = seconds * (1 - 2 * SELF_PLAY_SHARE) / 2
    clone_us = median_us(states, lambda s: s.clone(), rest)
    view_us = median_us(states, lambda s: s.view(s.to_move), rest)
    rg, rt, rs = _totals(random_runs)
    gg, gt, gs = _totals(greedy_runs)
    by_config = []
    for r, g in zip(random_runs, greedy_runs, strict=True):
        config: dict[str, Any] = {"preset": r.preset} if with_preset else {}
        config.update(
            {
                "players": r.players,
                "turns_per_s_random": _rate(r.turns, r.seconds),
                "turns_per_s_greedy": _rate(g.turns, g.seconds),
                "games_per_s_random": _rate(r.games, r.seconds),
                "games_per_s_greedy": _rate(g.games, g.seconds),
                "turns_per_game_random": round(r.turns / r.games, 1),
                "turns_per_game_greedy": round(g.turns / g.games, 1),
            }
        )
        by_config.append(config)
    return {
        f"turns_per_s_random{suffix}": _rate(rt, rs),
        f"turns_per_s_greedy{suffix}": _rate(gt, gs),
        f"games_per_s_random{suffix}": _rate(rg, rs),
        f"games_per_s_greedy{suffix}": _rate(gg, gs),
        f"clone_us{suffix}": round(clone_us, 3),
        f"view_us{suffix}": round(view_us, 3),
        f"games_random{suffix}": rg,
        f"games_greedy{suffix}": gg,
        f"seconds{suffix}": round(rs + gs, 3),
        f"by_config{suffix}": by_config,
    }


def bench_flags(seconds: float = DEFAULT_SECONDS) -> dict[str, Any]:
    """The Pyramids and Flags figures (keys ending in ``_flags``), in about ``seconds``."""
    random_runs = self_play_flags(RandomBot(), seconds * SELF_PLAY_SHARE, views=False)
    greedy_runs = self_play_flags(GreedyBot(), seconds * SELF_PLAY_SHARE, views=True)
    figures = _figures(
        random_runs, greedy_runs, mid_game_states_flags(), seconds, "_flags", with_preset=False
    )
    figures["rules_version_flags"] = FLAGS_RULES_VERSION
    return figures


def bench_flaming(seconds: float = DEFAULT_SECONDS) -> dict[str, Any]:
    """The Flaming Pyramids figures (the keys without a suffix), in about ``seconds``."""
    random_runs = self_play(RandomBot(), seconds * SELF_PLAY_SHARE, views=False)
    greedy_runs = self_play(GreedyBot(), seconds * SELF_PLAY_SHARE, views=True)
    figures = _figures(random_runs, greedy_runs, mid_game_states(), seconds, "", with_preset=True)
    figures["rules_version"] = RULES_VERSION
    return figures
