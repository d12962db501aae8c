"""Many seeded bot games, in parallel processes, summed up as one JSON-ready dict.

Game ``i`` of a run is played by ``core.play_game`` with seed ``seed + i`` and the bot
list rotated by ``i`` (seat ``j`` gets bot ``(j + i) mod players``), so every bot sits
in every seat equally often and the summary depends only on the arguments, never on
how many processes played the games. What happened is counted from each state's
events (their ``kind`` and ``data``) after every apply, as the game's ``EventTally``
says (its ``analysis`` part's ``simulation``: which events count under which name,
what makes a turn, which win conditions there are); a game without one has every
event kind counted and a turn per action. Who won comes from ``outcome()``.
"""

from __future__ import annotations

import functools
import math
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pyramids.analysis.parallel import play_chunks
from pyramids.bots import make_bot
from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.core.game import Event, Game, State
from pyramids.core.record import play_game
from pyramids.games import GAMES, descriptor, descriptors, engine_for, make, names

ENDINGS = ("win", "max_turns", "deck_out")
"""Event kinds that end a game by a safeguard, after ``win`` (a winner): the max_turns
safeguard, or no card left anywhere. A game ranked without one of them ends ``ranked``."""


class EventTally(Protocol):
    """How ``simulate`` counts a game's events (a game's ``analysis`` part's ``simulation``)."""

    @property
    def section(self) -> str:
        """Summary key of the counts (``mayhem``, ``events``); ``<section>_per_game`` the means."""
        ...

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every count key, in the summary's order."""
        ...

    @property
    def conditions(self) -> tuple[str, ...]:
        """Win conditions reported as ``wins_by_condition`` (empty: not reported)."""
        ...

    @property
    def endings(self) -> Mapping[str, str]:
        """Summary key of each safeguard ending counted (``max_turns`` -> ``games_ended_by_max_turns``)."""
        ...

    def key(self, event: Event) -> str | None:
        """The count ``event`` adds one to, or None."""
        ...

    def turns(self, events: Sequence[Event]) -> int:
        """How many turns the events of one action make."""
        ...

    def condition(self, event: Event) -> str | None:
        """The win condition ``event`` names, if it is a win event."""
        ...


class KindTally:
    """The default ``EventTally``: every event kind of the game counted, a turn per action."""

    section = "events"
    conditions: tuple[str, ...] = ()
    endings: Mapping[str, str] = {"max_turns": "games_ended_by_max_turns"}

    def __init__(self, kinds: Sequence[str]) -> None:
        self.kinds = tuple(kinds)
        self._counted = frozenset(self.kinds)

    def key(self, event: Event) -> str | None:
        """The event's kind."""
        return event.kind if event.kind in self._counted else None

    def turns(self, events: Sequence[Event]) -> int:
        """Every action is a turn."""
        return 1

    def condition(self, event: Event) -> str | None:
        """No win conditions."""
        return None


class SeatCounter(Protocol):
    """One game's per-seat counts, fed each state after an apply with its events."""

    def step(self, state: State, events: Sequence[Event]) -> None:
        """Count what the last action did; ``state`` is the state after it."""
        ...

    def finish(self, state: State) -> list[dict[str, int]]:
        """The counts per seat of the finished game ``state``."""
        ...


class SeatTally(Protocol):
    """Counts per seat summed per bot (a game's analysis part's ``seats``).

    ``simulate`` reports them as ``<section>`` (per bot name, then ``total``) and
    ``tournament`` per contestant, only for games it ``applies`` to.
    """

    @property
    def section(self) -> str:
        """Summary key of the counts (``checks``)."""
        ...

    @property
    def fields(self) -> tuple[str, ...]:
        """Every count key, in the report's order."""
        ...

    @property
    def rates(self) -> tuple[str, ...]:
        """The keys ``rate_values`` adds."""
        ...

    def applies(self, game: Game) -> bool:
        """Whether this game (its options) has these counts."""
        ...

    def start(self, game: Game) -> SeatCounter:
        """The counter of one new game of ``game``."""
        ...

    def rate_values(self, counts: Mapping[str, int]) -> dict[str, float | None]:
        """Rates from summed counts."""
        ...


def seat_tally_for(game: Game) -> SeatTally | None:
    """The ``SeatTally`` of ``game``'s analysis part when it applies to ``game``, else None."""
    tally = _seat_tally(game.info.short_name)
    return tally if tally is not None and tally.applies(game) else None


@functools.cache
def _seat_tally(game: str) -> SeatTally | None:
    part = descriptor(game).analysis
    return None if part is None else getattr(part.get(), "seats", None)


def sum_seat_counts(
    tally: SeatTally, per_seat: Sequence[tuple[str, Mapping[str, int]]], names: Sequence[str]
) -> dict[str, Any]:
    """``{"by_bot": {name: counts and rates}, "total": counts and rates}``: the counts of
    ``per_seat`` (``(name, counts)`` pairs, one per seat of every game) summed by name
    (every one of ``names``, in that order), and over every seat."""
    sums = {name: dict.fromkeys(tally.fields, 0) for name in names}
    total = dict.fromkeys(tally.fields, 0)
    for name, counts in per_seat:
        for key in tally.fields:
            sums[name][key] += counts[key]
            total[key] += counts[key]
    return {
        "by_bot": {name: {**c, **tally.rate_values(c)} for name, c in sums.items()},
        "total": {**total, **tally.rate_values(total)},
    }


@functools.cache
def tally_of(game: str) -> EventTally:
    """The ``EventTally`` of the game called ``game`` (its analysis part's, else ``KindTally``)."""
    desc = descriptor(game)
    part = desc.analysis  # None: no analysis part, count by kind
    tally: EventTally | None = None if part is None else getattr(part.get(), "simulation", None)
    if tally is None:
        tally = KindTally([kind.kind for kind in desc.event_kinds])
    return tally


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: the game and its rules, the seats' bots, the seeds, the parallelism.

    ``options`` are the rules options given (by ``OptionSpec`` name); the others take the
    game's defaults. ``engine``: ``auto``, ``native`` or ``python`` (None:
    auto; ``pyramids.games.engine``), carried to the workers and their bots as a value.
    ``cluster``: ``ray://HOST:PORT`` or ``auto`` to play on a Ray cluster (docs/RAY.md), where
    ``jobs`` 0 means one per CPU of the cluster; None: local processes.
    """

    players: int = 2
    bots: tuple[str, ...] = ("greedy", "random")
    seed: int = 0
    games: int = 100
    jobs: int = 1
    game: str = field(default_factory=lambda: names()[0])
    options: Mapping[str, Any] = field(default_factory=dict)
    engine: str | None = None
    cluster: str | None = None

    def make_game(self) -> Game:
        """The game of this configuration (PositionError for bad options, EngineError for an
        engine that cannot be used)."""
        return make(descriptor(self.game), self.players, dict(self.options), engine=self.engine)

    def environ(self) -> dict[str, str]:
        """The variables a worker process needs besides the configuration: none (the
        engine travels as ``engine``, a value, never through the environment)."""
        return {}


@dataclass
class GameResult:
    """One finished game: who sat where, who won, how long it took, what happened.

    ``counts`` holds the game's event counts (its ``EventTally``'s ``kinds``);
    ``ending`` is ``win`` or one of ENDINGS (or ``ranked``); ``condition`` the win
    condition of the winner when the game names one, else None.
    """

    index: int
    seats: list[str]
    winner: int | None
    turns: int
    counts: dict[str, int] = field(default_factory=dict)
    ending: str = "win"
    condition: str | None = None
    seat_counts: list[dict[str, int]] | None = None
    """Per seat, the game's ``SeatTally`` counts (None when it has none)."""


def option_flag(name: str) -> str:
    """The command-line spelling of rules option ``name``: ``--fire-die/--no-fire-die``."""
    flag = "--" + name.replace("_", "-")
    spec = _spec(name)
    if spec is not None and spec.kind == "bool":
        return f"{flag}/--no-{flag[2:]}"
    return flag


def _spec(name: str) -> OptionSpec | None:
    for desc in descriptors():
        for spec in desc.options:
            if spec.name == name:
                return spec
    return None


def foreign_options(desc: GameDescriptor, given: Mapping[str, Any]) -> str | None:
    """Why options of other games in ``given`` are refused for ``desc``'s game (None: none)."""
    own = {spec.name for spec in desc.options}
    foreign = [name for name in given if name not in own]
    if not foreign:
        return None
    owners = [
        d.title()
        for d in descriptors()
        if d is not desc and any(s.name in foreign for s in d.options)
    ]
    whose = " or ".join(owners) or "no game's"
    what = f"a {whose} option" if len(foreign) == 1 else f"{whose} options"
    spelled = ", ".join(option_flag(name) for name in foreign)
    return f"{spelled}: {what}, not for --game {desc.name}"


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
    if config.game not in GAMES:
        raise ValueError(f"unknown game {config.game!r} (known: {', '.join(names())})")
    if config.games < 1:
        raise ValueError("--games must be at least 1")
    if config.jobs < (0 if config.cluster is not None else 1):
        raise ValueError("--jobs must be at least 1")
    why = foreign_options(descriptor(config.game), config.options)
    if why is not None:
        raise ValueError(why)
    game = config.make_game()
    seat_bots(config.bots, config.players, 0)
    for name in set(config.bots):
        make_bot(name, engine=config.engine)
    return game


def play_one(config: SimConfig, index: int, game: Game | None = None) -> GameResult:
    """Play game ``index`` of ``config`` (seed ``config.seed + index``) and count its events."""
    game = game or config.make_game()
    tally = tally_of(game.info.short_name)
    names = seat_bots(config.bots, config.players, index)
    made = {name: make_bot(name, engine=config.engine) for name in set(names)}
    counts = dict.fromkeys(tally.kinds, 0)
    turns = 0
    ending: str | None = None
    condition: str | None = None
    key, won = tally.key, tally.condition
    seats = seat_tally_for(game)
    counter = seats.start(game) if seats is not None else None

    def on_step(state: State, _text: str) -> None:
        nonlocal turns, ending, condition
        events = state.events()
        if counter is not None:
            counter.step(state, events)
        turns += tally.turns(events)
        for event in events:
            counted = key(event)
            if counted is not None:
                counts[counted] += 1
            kind = event.kind
            if kind == "win":
                condition = won(event) or condition
            elif kind in ENDINGS:
                ending = kind

    final, _record = play_game(game, [made[n] for n in names], config.seed + index, on_step=on_step)
    outcome = final.outcome()
    if outcome.winner is not None:
        ending = "win"
    return GameResult(
        index=index,
        seats=names,
        winner=outcome.winner,
        turns=turns,
        counts=counts,
        ending=ending or "ranked",
        condition=condition if outcome.winner is not None else None,
        seat_counts=None if counter is None else counter.finish(final),
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
        environ=config.environ(),
        cluster=config.cluster,
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
    tally = tally_of(game.info.short_name)
    n = len(results)
    wins_by_seat = [0] * config.players
    names = sorted(set(config.bots))
    wins_by_bot = dict.fromkeys(names, 0)
    seat_games = dict.fromkeys(names, 0)
    counts = dict.fromkeys(tally.kinds, 0)
    endings: dict[str, int] = {}
    conditions = dict.fromkeys(tally.conditions, 0)
    for r in results:
        for name in r.seats:
            seat_games[name] += 1
        endings[r.ending] = endings.get(r.ending, 0) + 1
        if r.winner is not None:
            wins_by_seat[r.winner] += 1
            wins_by_bot[r.seats[r.winner]] += 1
            if r.condition in conditions:
                conditions[r.condition] += 1
        for kind, count in r.counts.items():
            counts[kind] += count
    turns = [r.turns for r in results]
    per_game = {kind: round(count / n, 4) if n else 0.0 for kind, count in counts.items()}
    summary: dict[str, Any] = {
        "game": game.info.short_name,
        "rules_version": game.info.rules_version,
        "engine": engine_for(descriptor(config.game), config.engine),
        "options": dict(game.options),
        "players": config.players,
        "bots": list(config.bots),
        "seed": config.seed,
        "games": n,
        "jobs": config.jobs,
        **({} if config.cluster is None else {"cluster": config.cluster}),
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
    summary[tally.section] = counts
    summary[f"{tally.section}_per_game"] = per_game
    if tally.conditions:
        summary["wins_by_condition"] = conditions
    for kind, label in tally.endings.items():
        summary[label] = endings.get(kind, 0)
    seats = seat_tally_for(game)
    if seats is not None:
        per_seat = [
            (r.seats[j], counts) for r in results for j, counts in enumerate(r.seat_counts or [])
        ]
        summary[seats.section] = sum_seat_counts(seats, per_seat, names)
    return summary


def simulate(config: SimConfig, on_progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play the games of ``config`` and return the summary dict."""
    start = time.perf_counter()
    results = play_games(config, on_progress)
    return summarize(config, results, time.perf_counter() - start)


def default_jobs() -> int:
    """One process per CPU."""
    return os.cpu_count() or 1
