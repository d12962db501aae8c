"""The engine benchmark: self-play speed of the random and greedy bots, view and clone cost.

Every registered game is measured, each with its own budget (``--game`` picks one).
Everything runs in this one process (one core). How a game is measured is its
``BenchSetup`` (its ``analysis`` part's ``bench``; defaults for a game without one):

- **Configurations.** Each preset it names (the descriptor's ``Preset`` options) with
  every player count the game allows, or the default rules with every player count;
  games seeded 0, 1, 2, ... in every configuration, each configuration given an equal
  share of the time budget (a game in progress is always finished, and each plays at
  least one).
- **What is timed, per game.** ``new_initial_state(seed)``, then until the game ends
  ``legal_actions()``, the bot's ``act`` and ``apply`` (which runs everything the
  action triggers), with chance outcomes drawn by ``state.sample_chance``. The greedy
  bot gets ``state.view(player)`` at every decision, built inside the timing. The
  random bot ignores its view, so it gets one view built once per game, outside the
  per-decision work.
- **A turn.** A decision whose action lies in the setup's ``turn_actions`` range (a
  placement; a move or an exchange); the decisions that follow within the turn are
  timed but not counted.
- **Clone and view.** Median cost over ``sample_states`` states taken half way (by
  turns) through seeded random games, cycling through the configurations.

The first game's JSON keys have no suffix; the others' end in the setup's
``key_suffix`` (``_<name>`` by default).
"""

from __future__ import annotations

import functools
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pyramids.bots import make_bot
from pyramids.core.descriptor import GameDescriptor
from pyramids.core.game import CHANCE, Bot, Game, State
from pyramids.games import descriptor, names

DEFAULT_SECONDS = 10.0
"""Default time budget per game measured (two games: about twice this)."""
SELF_PLAY_SHARE = 0.45
"""Share of the time budget for each bot's self-play (the rest: views and clones)."""
ALL_TURNS = (0, sys.maxsize)
"""The ``turn_actions`` of a game whose every decision is a turn."""


class BenchSetup(Protocol):
    """How ``bench`` measures a game (a game's ``analysis`` part's ``bench``)."""

    @property
    def presets(self) -> tuple[str, ...]:
        """Presets measured, each with every player count (empty: the default rules only)."""
        ...

    @property
    def turn_actions(self) -> tuple[int, int]:
        """Decisions that count as a turn: actions from the first number to below the second."""
        ...

    @property
    def sample_states(self) -> int:
        """Mid-game states sampled for the view and clone timings."""
        ...

    @property
    def key_suffix(self) -> str:
        """Suffix of the game's keys in the JSON figures (empty for the first game)."""
        ...


@dataclass(frozen=True)
class DefaultSetup:
    """The ``BenchSetup`` of a game that names none."""

    presets: tuple[str, ...] = ()
    turn_actions: tuple[int, int] = ALL_TURNS
    sample_states: int = 30
    key_suffix: str = ""


def bench_games() -> tuple[str, ...]:
    """The games ``bench`` measures, by short name (every registered game)."""
    return names()


@functools.cache
def setup_of(game: str) -> BenchSetup:
    """The ``BenchSetup`` of the game called ``game``."""
    desc = descriptor(game)
    try:
        setup: BenchSetup | None = getattr(desc.load("analysis"), "bench", None)
    except (LookupError, ModuleNotFoundError):  # no analysis part: the defaults
        setup = None
    if setup is not None:
        return setup
    first = names()[:1] == (game,)
    return DefaultSetup(key_suffix="" if first else f"_{game}")


def configurations(desc: GameDescriptor) -> list[tuple[str, int, Game]]:
    """(label, players, game) of every configuration measured: presets x player counts."""
    setup = setup_of(desc.name)
    presets = {p.name: p for p in desc.presets}
    players = range(desc.info.min_players, desc.info.max_players + 1)
    if not setup.presets:
        return [(desc.name, n, desc.make(n)) for n in players]
    return [
        (name, n, desc.make(n, dict(presets[name].options)))
        for name in setup.presets
        for n in players
    ]


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
    turn_actions: tuple[int, int] = ALL_TURNS,
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
    turn_actions: tuple[int, int] = ALL_TURNS,
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


def self_play(game: str, bot: Bot, seconds: float, *, views: bool) -> list[SelfPlay]:
    """Self-play of ``bot`` over the configurations of ``game``, ``seconds`` in all."""
    configs = configurations(descriptor(game))
    turns = setup_of(game).turn_actions
    return _self_play(configs, bot, seconds, views=views, turn_actions=turns)


def mid_game_states(game: str, count: int | None = None) -> list[State]:
    """Seeded random games of ``game`` stopped half way (by turns), across its configurations."""
    setup = setup_of(game)
    configs = configurations(descriptor(game))
    low, high = setup.turn_actions
    states = []
    for i in range(setup.sample_states if count is None else count):
        state = configs[i % len(configs)][2].new_initial_state(i)
        rng = random.Random(i)
        seen = [state.clone()]
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state.apply(action)
            if low <= action < high and not state.is_terminal():
                seen.append(state.clone())
        states.append(seen[len(seen) // 2])
    return states


def _seat(state: State) -> int:
    """The seat whose view is timed: the one to move (the first seat at a chance point)."""
    return max(state.current_player(), 0)


def median_us(states: Sequence[Any], op: Callable[[Any], object], seconds: float) -> float:
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


def bench(seconds: float = DEFAULT_SECONDS, games: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the benchmark of ``games`` (default: all), about ``seconds`` each; the figures."""
    known = bench_games()
    games = known if games is None else tuple(games)
    unknown = sorted(set(games) - set(known))
    if unknown:
        raise ValueError(f"unknown game(s) {', '.join(unknown)} (known: {', '.join(known)})")
    figures: dict[str, Any] = {"bench_games": [g for g in known if g in games]}
    for game in figures["bench_games"]:
        figures.update(bench_game(game, seconds))
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
    seated = [(s, _seat(s)) for s in states]
    view_us = median_us(seated, lambda p: p[0].view(p[1]), rest)
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


def bench_game(game: str, seconds: float = DEFAULT_SECONDS) -> dict[str, Any]:
    """The figures of ``game`` (keys ending in its setup's ``key_suffix``), in about ``seconds``."""
    setup = setup_of(game)
    share = seconds * SELF_PLAY_SHARE
    random_runs = self_play(game, make_bot("random"), share, views=False)
    greedy_runs = self_play(game, make_bot("greedy"), share, views=True)
    suffix = setup.key_suffix
    figures = _figures(
        random_runs,
        greedy_runs,
        mid_game_states(game),
        seconds,
        suffix,
        with_preset=bool(setup.presets),
    )
    figures[f"rules_version{suffix}"] = descriptor(game).info.rules_version
    return figures
