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

**Both engines in one run** (docs/NATIVE.md). The figures above are always the Python
engine's (the reference). When the game has a native engine and it is built (``engine``
``auto`` or ``native``), the same run adds the native core's, keys starting ``native_``:

- **Self-play**: the same bots, configurations and seeds, each game played entirely in
  Rust by ``_native.<game>_self_play`` (the same draws as ``play_timed``: the same game
  for the same seed), timed around the call; ``NATIVE_SHARE`` of the budget per bot. The
  check ``native_same_games``: every seed both engines played gave the same game (the
  same turns, every action and chance outcome, the same returns). ``native_ratio_*``: native turns/s over Python's.
- **Clone and view**: the same mid-game states on the native engine: the Python wrapper's
  ``clone()`` and ``view()`` (µs per call, as for Python), and the Rust ``clone()`` alone
  (``_native.<game>_clone_ns`` on the state's position, event recording off, as in playouts
  and search): ``native_clone_rust_us``.
- **ISMCTS**: iterations per second of the ``normal`` level's settings on up to
  ``SEARCH_STATES`` mid-game decisions, the Python search on the Python engine against
  the native search (``SearchSettings.search``), ``ISMCTS_SHARE`` of the budget each (a
  search stops at its 1000 iterations or its share of the time, whichever comes first).

Next to them, the issue's targets (``NativeTargets``; a game's setup may name its own).
"""

from __future__ import annotations

import dataclasses
import functools
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pyramids import native
from pyramids.bots import BOT_LEVELS, make_bot
from pyramids.bots.ismcts import ISMCTSBot
from pyramids.core.descriptor import GameDescriptor
from pyramids.core.game import CHANCE, Bot, Game, State
from pyramids.games import descriptor, engine_for, make, names
from pyramids.games.engine import NATIVE, PYTHON, EngineError, check_engine

DEFAULT_SECONDS = 10.0
"""Default time budget per game measured (two games: about twice this)."""
SELF_PLAY_SHARE = 0.45
"""Share of the time budget for each bot's self-play (the rest: views and clones)."""
ALL_TURNS = (0, sys.maxsize)
"""The ``turn_actions`` of a game whose every decision is a turn."""
NATIVE_SHARE = 0.1
"""Share of the time budget for each bot's native self-play (when the native core is built)."""
CHANCE_SEED_OFFSET = 2**32
"""Game ``seed`` draws its chance outcomes from ``Random(seed + CHANCE_SEED_OFFSET)`` (and its
bot from ``Random(seed)``): int seeds, so the native self-play seeds both itself."""
NATIVE_BATCH = 64
"""Games per ``_native.<game>_self_play_batch`` call (timed in Rust, no per-game call cost)."""
ISMCTS_SHARE = 0.1
"""Share of the time budget for each engine's ISMCTS searches (when the native core is built)."""
SEARCH_LEVEL = "normal"
"""The search bot level whose iterations per second are compared."""
SEARCH_STATES = 6
"""Mid-game decisions searched (the first of the sample states where a seat decides)."""
NATIVE_EXTRA = 2 * NATIVE_SHARE + 2 * ISMCTS_SHARE + (1 - 2 * SELF_PLAY_SHARE)
"""The native figures' time, as a share of the budget (self-play, searches, clone and view)."""
CLONES_PER_CALL = 20_000
"""Rust clones timed per ``_native.<game>_clone_ns`` call."""


@dataclass(frozen=True)
class NativeTargets:
    """The native core's targets (issue 11): native/Python ratios, and the Rust clone's cost."""

    random: float = 50.0
    """Random self-play turns/s, native over Python, at least."""
    greedy: float = 50.0
    """Greedy self-play turns/s, native over Python, at least."""
    clone_us: float = 0.2
    """A Rust ``clone()``, at most (µs)."""
    ismcts: float = 30.0
    """ISMCTS iterations/s at the ``normal`` settings, native over Python, at least."""

    def to_json(self) -> dict[str, float]:
        """The targets as JSON."""
        return dataclasses.asdict(self)


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
    native_targets: NativeTargets = field(default_factory=NativeTargets)


def bench_games() -> tuple[str, ...]:
    """The games ``bench`` measures, by short name (every registered game)."""
    return names()


@functools.cache
def setup_of(game: str) -> BenchSetup:
    """The ``BenchSetup`` of the game called ``game``."""
    desc = descriptor(game)
    part = desc.analysis  # None: no analysis part, the defaults
    setup: BenchSetup | None = None if part is None else getattr(part.get(), "bench", None)
    if setup is not None:
        return setup
    first = names()[:1] == (game,)
    return DefaultSetup(key_suffix="" if first else f"_{game}")


def targets_of(game: str) -> NativeTargets:
    """The native targets of ``game`` (its setup's ``native_targets``, else the issue's)."""
    targets = getattr(setup_of(game), "native_targets", None)
    return targets if isinstance(targets, NativeTargets) else NativeTargets()


def configurations(desc: GameDescriptor, engine: str = PYTHON) -> list[tuple[str, int, Game]]:
    """(label, players, game) of every configuration measured: presets x player counts, on
    ``engine`` (the Python reference unless told)."""
    setup = setup_of(desc.name)
    presets = {p.name: p for p in desc.presets}
    players = range(desc.info.min_players, desc.info.max_players + 1)
    if not setup.presets:
        return [(desc.name, n, make(desc, n, engine=engine)) for n in players]
    return [
        (name, n, make(desc, n, dict(presets[name].options), engine=engine))
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
    played: list[tuple[int, tuple[int, ...], tuple[float, ...]]] = field(default_factory=list)
    """Per game, seed order: (turns, actions, returns), for the engines' comparison."""


def play_timed(
    game: Game,
    bot: Bot,
    seed: int,
    *,
    views: bool,
    turn_actions: tuple[int, int] = ALL_TURNS,
) -> tuple[int, float]:
    """Play one self-play game of ``bot``; (turns, seconds). See the module doc for what is timed."""
    turns, _actions, _returns, seconds = play_counted(
        game, bot, seed, views=views, turn_actions=turn_actions
    )
    return turns, seconds


def play_counted(
    game: Game,
    bot: Bot,
    seed: int,
    *,
    views: bool,
    turn_actions: tuple[int, int] = ALL_TURNS,
) -> tuple[int, tuple[int, ...], tuple[float, ...], float]:
    """``play_timed``'s game; (turns, its actions (chance outcomes included), returns, seconds)."""
    rng = random.Random(seed)
    chance_rng = random.Random(seed + CHANCE_SEED_OFFSET)
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
    spent = perf() - start
    return turns, tuple(state.history()), tuple(state.returns()), spent


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
            turns, actions, returns, spent = play_counted(
                game, bot, seed, views=views, turn_actions=turn_actions
            )
            result.games += 1
            result.turns += turns
            result.seconds += spent
            result.played.append((turns, actions, returns))
            seed += 1
        results.append(result)
    return results


def self_play(game: str, bot: Bot, seconds: float, *, views: bool) -> list[SelfPlay]:
    """Self-play of ``bot`` over the configurations of ``game``, ``seconds`` in all."""
    configs = configurations(descriptor(game))
    turns = setup_of(game).turn_actions
    return _self_play(configs, bot, seconds, views=views, turn_actions=turns)


def native_self_play(
    configs: Sequence[tuple[str, int, Game]],
    play: Callable[..., tuple[int, Sequence[int], Sequence[float]]],
    policy: str,
    seconds: float,
    turn_actions: tuple[int, int] = ALL_TURNS,
    *,
    batch: Callable[..., tuple[int, int, int, float]] | None = None,
    compare: Sequence[int] = (),
) -> list[SelfPlay]:
    """Self-play of ``policy`` on the native core in each configuration, ``seconds`` split
    evenly; the same seeds and draws as ``_self_play``.

    With ``batch`` (``_native.<game>_self_play_batch``) the games are played and timed in
    Rust, ``NATIVE_BATCH`` seeds a call, so a call's cost is not counted; the games of the
    first ``compare[i]`` seeds of configuration i are then replayed one by one by ``play``
    (``_native.<game>_self_play``, untimed) for the engines' comparison. Without it every
    game is a timed ``play`` call."""
    budget = seconds / len(configs)
    low, high = turn_actions
    results = []
    for index, (label, n, game) in enumerate(configs):
        result = SelfPlay(label, n)
        options = dict(game.options)
        seed = 0
        while result.games == 0 or result.seconds < budget:
            if batch is not None:
                seeds = list(range(seed, seed + NATIVE_BATCH))
                games, turns, _, spent = batch(n, options, seeds, policy, low, high)
                result.games += games
                result.turns += turns
                result.seconds += spent
                seed += NATIVE_BATCH
                continue
            played, spent = _native_game(play, n, options, seed, policy, low, high)
            result.seconds += spent
            result.games += 1
            result.turns += played[0]
            result.played.append(played)
            seed += 1
        if batch is not None:
            wanted = compare[index] if index < len(compare) else 0
            for s in range(wanted):
                result.played.append(_native_game(play, n, options, s, policy, low, high)[0])
        results.append(result)
    return results


def _native_game(
    play: Callable[..., tuple[int, Sequence[int], Sequence[float]]],
    players: int,
    options: dict[str, Any],
    seed: int,
    *turn: Any,
) -> tuple[tuple[int, tuple[int, ...], tuple[float, ...]], float]:
    """One native self-play game of ``seed`` (the generators of ``play_timed``) and its time;
    ``turn`` is (policy, first turn action, end of the turn actions)."""
    rng = list(random.Random(seed).getstate()[1])
    chance = list(random.Random(seed + CHANCE_SEED_OFFSET).getstate()[1])
    start = time.perf_counter()
    policy, low, high = turn
    turns, actions, returns = play(players, options, seed, policy, rng, chance, low, high)
    spent = time.perf_counter() - start
    return (turns, tuple(actions), tuple(returns)), spent


def same_games(python: Sequence[SelfPlay], other: Sequence[SelfPlay]) -> tuple[bool, int]:
    """Whether every seed both runs played gave the same game (turns, every action, returns);
    and how many games were compared."""
    same = True
    compared = 0
    for a, b in zip(python, other, strict=True):
        for left, right in zip(a.played, b.played, strict=False):
            compared += 1
            if left[:2] != right[:2] or any(
                abs(x - y) > 1e-9 for x, y in zip(left[2], right[2], strict=True)
            ):
                same = False
    return same, compared


def mid_game_states(game: str, count: int | None = None, engine: str = PYTHON) -> list[State]:
    """Seeded random games of ``game`` stopped half way (by turns), across its configurations,
    on ``engine`` (the same positions on either)."""
    setup = setup_of(game)
    configs = configurations(descriptor(game), engine)
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


def bench(
    seconds: float = DEFAULT_SECONDS,
    games: Sequence[str] | None = None,
    engine: str | None = None,
) -> dict[str, Any]:
    """Run the benchmark of ``games`` (default: all), about ``seconds`` each; the figures.

    ``engine`` (None: auto): ``python`` measures the Python
    engines only; ``auto`` adds the native core's figures where it is built; ``native``
    insists (EngineError when it is not built)."""
    known = bench_games()
    games = known if games is None else tuple(games)
    unknown = sorted(set(games) - set(known))
    if unknown:
        raise ValueError(f"unknown game(s) {', '.join(unknown)} (known: {', '.join(known)})")
    choice = check_engine(engine)
    figures: dict[str, Any] = {"bench_games": [g for g in known if g in games]}
    for game in figures["bench_games"]:
        figures.update(bench_game(game, seconds, engine=choice))
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


def bench_game(
    game: str, seconds: float = DEFAULT_SECONDS, *, engine: str | None = None
) -> dict[str, Any]:
    """The figures of ``game`` (keys ending in its setup's ``key_suffix``), in about ``seconds``
    (and ``NATIVE_EXTRA`` times that for the native core's, when ``engine`` lets it play; see
    the module doc)."""
    setup = setup_of(game)
    share = seconds * SELF_PLAY_SHARE
    random_runs = self_play(game, make_bot("random", engine=engine), share, views=False)
    greedy_runs = self_play(game, make_bot("greedy", engine=engine), share, views=True)
    suffix = setup.key_suffix
    states = mid_game_states(game)
    figures = _figures(
        random_runs,
        greedy_runs,
        states,
        seconds,
        suffix,
        with_preset=bool(setup.presets),
    )
    figures[f"rules_version{suffix}"] = descriptor(game).info.rules_version
    played = native_engine(game, engine)
    figures[f"engine_native{suffix}"] = played == NATIVE
    if played == NATIVE:
        native_figures = _native_figures(game, seconds, random_runs, greedy_runs, states)
        figures.update({f"{key}{suffix}": value for key, value in native_figures.items()})
    return figures


def native_engine(game: str, engine: str | None) -> str:
    """The engine ``bench`` adds for ``game``: ``native`` when ``engine`` lets it (auto:
    the native core is built and the game has one, with its self-play), else ``python``;
    EngineError for ``native`` when it cannot be."""
    desc = descriptor(game)
    if check_engine(engine) == PYTHON:
        return PYTHON
    played = engine_for(desc, engine)
    if played == NATIVE and native.binding(f"{game}_self_play") is None:
        if check_engine(engine) == NATIVE:
            raise EngineError(f"the native core has no {game}_self_play: rebuild it (./run)")
        return PYTHON
    return played


def _native_figures(
    game: str,
    seconds: float,
    random_runs: list[SelfPlay],
    greedy_runs: list[SelfPlay],
    python_states: Sequence[State],
) -> dict[str, Any]:
    """The native core's figures of ``game`` next to the Python runs (keys without suffix)."""
    desc = descriptor(game)
    setup = setup_of(game)
    play = native.binding(f"{game}_self_play")
    assert play is not None  # checked by native_engine
    configs = configurations(desc, PYTHON)
    share = seconds * NATIVE_SHARE
    batch = native.binding(f"{game}_self_play_batch")
    native_random = native_self_play(
        configs,
        play,
        "random",
        share,
        setup.turn_actions,
        batch=batch,
        compare=[r.games for r in random_runs],
    )
    native_greedy = native_self_play(
        configs,
        play,
        "greedy",
        share,
        setup.turn_actions,
        batch=batch,
        compare=[r.games for r in greedy_runs],
    )
    same_random, compared_random = same_games(random_runs, native_random)
    same_greedy, compared_greedy = same_games(greedy_runs, native_greedy)
    states = mid_game_states(game, engine=NATIVE)
    rest = seconds * (1 - 2 * SELF_PLAY_SHARE) / 2
    clone_us = median_us(states, lambda s: s.clone(), rest)
    view_us = median_us([(s, _seat(s)) for s in states], lambda p: p[0].view(p[1]), rest)
    clone_rust_us = _rust_clone_us(game, python_states)
    python_its, native_its, searches = _search_rates(python_states, seconds * ISMCTS_SHARE)
    _, rt, rs = _totals(random_runs)
    _, gt, gs = _totals(greedy_runs)
    nrg, nrt, nrs = _totals(native_random)
    ngg, ngt, ngs = _totals(native_greedy)
    python_random, python_greedy = _rate(rt, rs), _rate(gt, gs)
    turns_random, turns_greedy = _rate(nrt, nrs), _rate(ngt, ngs)
    return {
        "native_turns_per_s_random": turns_random,
        "native_turns_per_s_greedy": turns_greedy,
        "native_games_per_s_random": _rate(nrg, nrs),
        "native_games_per_s_greedy": _rate(ngg, ngs),
        "native_games_random": nrg,
        "native_games_greedy": ngg,
        "native_ratio_random": _ratio(turns_random, python_random),
        "native_ratio_greedy": _ratio(turns_greedy, python_greedy),
        "native_same_games": same_random and same_greedy,
        "native_compared_games": compared_random + compared_greedy,
        "native_clone_us": round(clone_us, 3),
        "native_view_us": round(view_us, 3),
        "native_clone_rust_us": None if clone_rust_us is None else round(clone_rust_us, 4),
        "ismcts_iterations_per_s": python_its,
        "native_ismcts_iterations_per_s": native_its,
        "native_ratio_ismcts": _ratio(native_its, python_its),
        "ismcts_searches": searches,
        "native_targets": targets_of(game).to_json(),
    }


def _ratio(native_rate: float | None, python_rate: float | None) -> float | None:
    if not native_rate or not python_rate:
        return None
    return round(native_rate / python_rate, 1)


def _rust_clone_us(game: str, states: Sequence[State]) -> float | None:
    """Median µs of one Rust ``clone()`` over ``states`` (by their position JSON), or None
    when the native core has no ``<game>_clone_ns``."""
    clone_ns = native.binding(f"{game}_clone_ns")
    if clone_ns is None:
        return None
    samples = [float(clone_ns(state.to_json(), CLONES_PER_CALL)) / 1000 for state in states]
    return statistics.median(samples)


def search_positions(states: Sequence[State], count: int = SEARCH_STATES) -> list[State]:
    """The first ``count`` of ``states`` where a seat decides between two actions or more."""
    found = [
        s
        for s in states
        if not s.is_terminal() and s.current_player() >= 0 and len(s.legal_actions()) > 1
    ]
    return found[:count]


def _search_rates(
    states: Sequence[State], seconds: float
) -> tuple[float | None, float | None, int]:
    """ISMCTS iterations per second at the ``SEARCH_LEVEL`` settings: the Python search on the
    Python engine, then the native search (``SearchSettings.search``), ``seconds`` each
    (each search stops at the level's iterations or its share of it); and the number of
    positions searched."""
    positions = search_positions(states)
    if not positions:
        return None, None, 0
    level = BOT_LEVELS[SEARCH_LEVEL].settings
    each = seconds / len(positions)
    budget = each if level.seconds is None else min(each, level.seconds)
    settings = dataclasses.replace(level, seconds=budget)
    # the search choice alone: ``python`` searches on the Python engine, ``native`` runs the
    # native search (a bot given its own ``game_of_view`` would run the Python search)
    python_bot = ISMCTSBot(dataclasses.replace(settings, search=PYTHON))
    native_bot = ISMCTSBot(dataclasses.replace(settings, search=NATIVE))

    def searcher(bot: ISMCTSBot) -> Callable[[State, random.Random], int]:
        def search(state: State, rng: random.Random) -> int:
            view = state.view(state.current_player())
            return bot.search(view, state.legal_actions(), rng).iterations

        return search

    return (
        _iterations_per_s(searcher(python_bot), positions, seconds),
        _iterations_per_s(searcher(native_bot), positions, seconds),
        len(positions),
    )


def _iterations_per_s(
    search: Callable[[State, random.Random], int], positions: Sequence[State], seconds: float
) -> float:
    """Iterations per second of ``search`` over ``positions``, repeated until ``seconds``."""
    perf = time.perf_counter
    iterations = 0
    spent = 0.0
    rounds = 0
    while rounds == 0 or spent < seconds:
        for i, state in enumerate(positions):
            rng = random.Random(rounds * len(positions) + i)
            start = perf()
            iterations += search(state, rng)
            spent += perf() - start
        rounds += 1
    return _rate(iterations, spent)
