"""Tournaments: bot specs (contestants) seated by a fair schedule, seeded games in parallel.

Game ``i`` of a tournament is played by ``core.play_game`` with seed ``seed + i`` and the
seating ``Schedule.seats(i)``; every seat gets a freshly made bot, so no bot carries
anything from one game to the next and the results depend only on the arguments, never
on how many processes played the games (bots with a time budget excepted: how far they
search depends on the machine's load). The report gives each contestant its games,
wins (returns summed: FP-END-5, PF-WIN-4), win rate with a 95% Wilson interval, mean
placement and OpenSkill Plackett–Luce rating (``ratings``), plus win rates by seat and
head-to-head scores; in call-out games (Flaming Pyramids' ``callout`` option) each
contestant's checks too: how often it overlooked mayhem and what that cost (the game's
``SeatTally``, ``simulate.seat_tally_for``); ``to_markdown`` renders it as tables. See
docs/TOURNAMENTS.md.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pyramids.analysis import simulate as sim
from pyramids.analysis.parallel import play_chunks
from pyramids.analysis.ratings import SkillRatings, placements, wilson_interval
from pyramids.bots import make_bot
from pyramids.core.game import Action, Bot, Game, OracleBot, State, View, WatchingBot
from pyramids.core.record import play_game
from pyramids.games import descriptor, engine_for, names

TOURNAMENT_FORMAT = 1
"""Version of the report's JSON layout."""
SCHEDULES = ("permutations", "rotations")
"""Seating schedules: every ordered seating (the default), or every set of P contestants in
its P rotations (shorter, but with 3+ seats who sits after whom is never balanced)."""
MAX_BLOCK = 100_000
"""Largest schedule block accepted (``permutations`` grows as K!/(K-P)!)."""
ENDINGS = ("win", "max_turns", "deck_out")
"""How a game ended: a winner, or a safeguard ranking (FP-END-4, PF-WIN-5, PF-WIN-6)."""
HEAD_TO_HEAD_MAX = 8
"""The Markdown report shows the head-to-head matrix for at most this many contestants."""
HISTOGRAM_MS = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0)
"""Upper edges (ms) of the decision-time histogram's bins; a last bin holds the slower ones."""


# --- the schedule ---------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule:
    """Which contestant sits in which seat of game ``i``: ``block[i % len(block)]``.

    With K contestants and P seats:

    - K < P (``cyclic``, whatever the kind): game i gives seat j contestant (i + j) mod K, so
      a contestant holds several seats of one game (each seat-instance counted as that
      contestant); over any K consecutive games every contestant holds every seat once.
    - K >= P, ``permutations`` (the default): every ordered seating of P distinct
      contestants, K!/(K-P)! games per block, ordering-major (each ordering of the seats
      applied to every set of P contestants in turn); per block every contestant plays
      P * (K-1)!/(K-P)! games, (K-1)!/(K-P)! in each seat, every set of P contestants
      meets P! times and every contestant sits directly after every other equally often.
    - K >= P, ``rotations``: every set of P contestants (combinations in list order), each in
      its P cyclic rotations, rotation-major: C(K, P) * P games per block, every contestant
      C(K-1, P-1) times in each seat. With 3 or more seats the cyclic order of a set (who
      plays after whom) is always its list order, which biases results (docs/TOURNAMENTS.md).

    A tournament whose number of games is a multiple of the block is exactly balanced.
    """

    kind: str
    contestants: int
    players: int
    block: tuple[tuple[int, ...], ...]

    @classmethod
    def build(cls, contestants: int, players: int, kind: str = "permutations") -> Schedule:
        """The schedule of ``contestants`` over ``players`` seats; ValueError if impossible."""
        if kind not in SCHEDULES:
            raise ValueError(f"unknown schedule {kind!r} (known: {', '.join(SCHEDULES)})")
        if contestants < 1:
            raise ValueError("give at least one bot")
        if players < 1:
            raise ValueError("a game needs at least one seat")
        k, p = contestants, players
        if k < p:
            block = tuple(tuple((i + j) % k for j in range(p)) for i in range(k))
            return cls("cyclic", k, p, block)
        size = math.comb(k, p) * (p if kind == "rotations" else math.factorial(p))
        if size > MAX_BLOCK:
            raise ValueError(
                f"the {kind} schedule of {k} bots over {p} seats has {size} games per block "
                f"(at most {MAX_BLOCK}): use fewer bots or --schedule rotations"
            )
        combos = list(itertools.combinations(range(k), p))
        if kind == "rotations":
            orders = [tuple((j + r) % p for j in range(p)) for r in range(p)]
        else:
            orders = list(itertools.permutations(range(p)))
        block = tuple(tuple(c[o[j]] for j in range(p)) for o in orders for c in combos)
        return cls(kind, k, p, block)

    def seats(self, index: int) -> tuple[int, ...]:
        """The contestant index in each seat of game ``index``."""
        return self.block[index % len(self.block)]

    def describe(self) -> str:
        """One sentence saying how games are seated."""
        k, p, n = self.contestants, self.players, len(self.block)
        if self.kind == "cyclic":
            return (
                f"cyclic: game i gives seat j contestant (i + j) mod {k}; with {k} contestants "
                f"for {p} seats a contestant holds several seats of a game, each counted; "
                f"every contestant holds every seat once per {k} games"
            )
        if self.kind == "rotations" and k == p:
            return (
                f"rotations: all {k} contestants, seat j of game i holding contestant "
                f"(i + j) mod {k}; every contestant holds every seat once per {k} games"
            )
        if self.kind == "rotations":
            return (
                f"rotations: every set of {p} of the {k} contestants, each in its {p} "
                f"rotations ({n} games per block, game i plays entry i mod {n}); per block "
                f"every contestant plays {p * math.comb(k - 1, p - 1)} games, "
                f"{math.comb(k - 1, p - 1)} in each seat"
            )
        return (
            f"permutations: every ordered seating of {p} distinct contestants out of {k} "
            f"({n} games per block, game i plays entry i mod {n}); per block every "
            f"contestant plays {n * p // k} games, {n // k} in each seat"
        )

    def to_json(self, games: int) -> dict[str, Any]:
        """The schedule as JSON-ready data, with how well ``games`` games fill it."""
        n = len(self.block)
        return {
            "kind": self.kind,
            "description": self.describe(),
            "block": n,
            "complete_blocks": games // n,
            "balanced": games % n == 0,
        }


# --- configuration ----------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament: the contestants' bot specs, the game and its rules, seeds, parallelism.

    ``options`` are the rules options given (by ``OptionSpec`` name; the others take the
    game's defaults), as in ``simulate.SimConfig``.
    """

    bots: tuple[str, ...] = ("greedy", "random")
    game: str = field(default_factory=lambda: names()[0])
    players: int = 2
    games: int = 100
    seed: int = 0
    jobs: int = 1
    schedule: str = "permutations"
    options: Mapping[str, Any] = field(default_factory=dict)
    engine: str | None = None
    """``auto``, ``native`` or ``python`` (None: auto), carried to the workers as a value."""
    cluster: str | None = None
    """``ray://HOST:PORT`` or ``auto``: the games as Ray tasks (docs/RAY.md; ``jobs`` 0 there is
    one per CPU of the cluster); None: local processes."""

    def rules(self) -> sim.SimConfig:
        """The game, rules options and engine as a simulate configuration (its bots unused)."""
        return sim.SimConfig(
            game=self.game,
            players=self.players,
            options=self.options,
            bots=("random",),
            engine=self.engine,
        )

    def make_game(self) -> Game:
        """The game of this tournament."""
        return self.rules().make_game()

    def make_schedule(self) -> Schedule:
        """The seating schedule of this tournament."""
        return Schedule.build(len(self.bots), self.players, self.schedule)

    def contestant_names(self) -> list[str]:
        """A unique label per contestant: its spec, with ``#2``, ``#3`` ... on repeats."""
        seen: dict[str, int] = {}
        names = []
        for spec in self.bots:
            seen[spec] = seen.get(spec, 0) + 1
            names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
        return names


def check_tournament(config: TournamentConfig) -> tuple[Game, Schedule]:
    """The game and schedule of ``config`` after checking every argument (ValueError if bad)."""
    if not config.bots:
        raise ValueError("give at least one bot spec")
    if config.games < 1:
        raise ValueError("--games must be at least 1")
    if config.jobs < (0 if config.cluster is not None else 1):
        raise ValueError("--jobs must be at least 1")
    game = sim.check_config(config.rules())
    schedule = config.make_schedule()
    for spec in dict.fromkeys(config.bots):
        make_bot(spec, engine=config.engine)
    return game, schedule


def contestant_info(config: TournamentConfig) -> list[dict[str, Any]]:
    """Each contestant's label, spec, bot name, budget and settings (None when it has none).

    ``budget`` is the bot's ``budget`` (repr) or its search settings' ``budget_text``;
    ``settings`` the repr of its ``settings`` (search bots: iterations, seconds, rollout ...).
    """
    info = []
    for name, spec in zip(config.contestant_names(), config.bots, strict=True):
        bot = make_bot(spec, engine=config.engine)
        settings = getattr(bot, "settings", None)
        budget = getattr(bot, "budget", None)
        if budget is not None:
            budget = repr(budget)
        elif settings is not None and hasattr(settings, "budget_text"):
            budget = str(settings.budget_text)
        info.append(
            {
                "name": name,
                "spec": spec,
                "bot": bot.name,
                "budget": budget,
                "settings": None if settings is None else repr(settings),
                "reads_true_state": bool(getattr(bot, "reads_true_state", False)),
            }
        )
    return info


# --- playing ------------------------------------------------------------------------------


class TimedBot:
    """A seat's bot, counting and timing its decisions (the clock never affects its play)."""

    def __init__(self, bot: Bot | OracleBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.reads_true_state = bool(getattr(bot, "reads_true_state", False))
        self.decisions = 0
        self.seconds = 0.0
        self.times: list[float] = []
        """Seconds of each decision, in order."""

    def _count(self, seconds: float) -> None:
        self.seconds += seconds
        self.times.append(seconds)
        self.decisions += 1

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The wrapped honest bot's action."""
        start = time.perf_counter()
        action = cast(Bot, self.bot).act(view, legal, rng)
        self._count(time.perf_counter() - start)
        return action

    def observe(self, view: View) -> None:
        """Show the wrapped bot ``view`` if it watches the game (untimed: not a decision)."""
        if isinstance(self.bot, WatchingBot):
            self.bot.observe(view)

    def act_on_state(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        """The wrapped oracle's action (drivers call this only when ``reads_true_state``)."""
        start = time.perf_counter()
        action = cast(OracleBot, self.bot).act_on_state(state, legal, rng)
        self._count(time.perf_counter() - start)
        return action


@dataclass
class GameOutcome:
    """One finished game of a tournament: the seating, each seat's result, and its cost.

    ``seats[j]`` is the contestant index in seat j; ``places`` and ``returns`` are per
    seat; ``think_seconds`` and ``decision_seconds`` (per seat: the total, and each
    decision's) are the only fields that depend on the clock.
    """

    index: int
    seats: list[int]
    places: list[int]
    returns: list[float]
    ending: str
    turns: int
    decisions: list[int] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)
    decision_seconds: list[list[float]] = field(default_factory=list)
    seat_counts: list[dict[str, int]] | None = None
    """Per seat, the game's ``SeatTally`` counts (None when it has none)."""


def game_ending(state: State) -> str:
    """How the finished game ``state`` ended: one of ENDINGS, from its last events."""
    kinds = {event.kind for event in state.events()}
    return next((kind for kind in ENDINGS if kind in kinds), "win")


def play_one(
    config: TournamentConfig, index: int, game: Game | None = None, schedule: Schedule | None = None
) -> GameOutcome:
    """Play game ``index`` of ``config``: seed ``config.seed + index``, seats by the schedule."""
    game = game or config.make_game()
    schedule = schedule or config.make_schedule()
    seats = list(schedule.seats(index))
    bots = [TimedBot(make_bot(config.bots[c], engine=config.engine)) for c in seats]
    tally = sim.seat_tally_for(game)
    counter = tally.start(game) if tally is not None else None
    on_step = None
    if counter is not None:
        step = counter.step

        def on_step(state: State, _text: str) -> None:
            step(state, state.events())

    final, _record = play_game(game, bots, config.seed + index, on_step=on_step)
    return GameOutcome(
        index=index,
        seats=seats,
        places=placements(final),
        returns=[float(r) for r in final.returns()],
        ending=game_ending(final),
        turns=int(getattr(final, "turn", 0)),
        decisions=[b.decisions for b in bots],
        think_seconds=[b.seconds for b in bots],
        decision_seconds=[b.times for b in bots],
        seat_counts=None if counter is None else counter.finish(final),
    )


def _play_chunk(config: TournamentConfig, indices: Sequence[int]) -> list[GameOutcome]:
    """Play the games ``indices`` in this process (the unit of work of a worker)."""
    game = config.make_game()
    schedule = config.make_schedule()
    return [play_one(config, i, game, schedule) for i in indices]


def play_games(
    config: TournamentConfig, on_progress: Callable[[int], None] | None = None
) -> list[GameOutcome]:
    """Play every game of ``config`` in ``config.jobs`` processes; outcomes in game order."""
    check_tournament(config)
    # Smaller chunks than simulate's: tournament bots may think for seconds a move, so small
    # chunks keep the progress bar moving and the processes evenly loaded to the end.
    return play_chunks(
        _play_chunk,
        config,
        config.games,
        config.jobs,
        per_job=16,
        at_most=20,
        on_progress=on_progress,
        environ=config.rules().environ(),
        cluster=config.cluster,
    )


# --- the report -----------------------------------------------------------------------------


def _rate(wins: float, n: int) -> dict[str, Any]:
    """Wins out of n as JSON: the rate and its 95% Wilson interval, rounded to 4 decimals."""
    lo, hi = wilson_interval(wins, n)
    return {
        "games": n,
        "wins": round(wins, 4),
        "win_rate": round(wins / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile: the smallest value with at least ``share`` of ``values``
    at or below it (``share`` in (0, 1]); None for no values."""
    if not 0 < share <= 1:
        raise ValueError(f"a percentile's share is in (0, 1], not {share}")
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def histogram_ms(seconds: Sequence[float]) -> list[int]:
    """How many decisions took at most each ``HISTOGRAM_MS`` edge (and above the last one),
    each counted in its first bin."""
    counts = [0] * (len(HISTOGRAM_MS) + 1)
    for s in seconds:
        counts[bisect.bisect_left(HISTOGRAM_MS, 1000 * s)] += 1
    return counts


def head_to_head(outcomes: Sequence[GameOutcome], contestants: int) -> list[list[float | None]]:
    """score[a][b]: in games where a and b met, the share of seat pairs a finished ahead of b.

    Every (a seat, b seat) pair of a game counts once; a tie in placement counts one half.
    None where they never met (and on the diagonal).
    """
    ahead = [[0.0] * contestants for _ in range(contestants)]
    met = [[0] * contestants for _ in range(contestants)]
    for o in outcomes:
        for (ca, pa), (cb, pb) in itertools.permutations(zip(o.seats, o.places, strict=True), 2):
            if ca == cb:
                continue
            met[ca][cb] += 1
            ahead[ca][cb] += 1.0 if pa < pb else 0.5 if pa == pb else 0.0
    return [
        [round(ahead[a][b] / met[a][b], 4) if met[a][b] else None for b in range(contestants)]
        for a in range(contestants)
    ]


def _ms(seconds: float | None) -> float | None:
    """Seconds as milliseconds rounded to 4 decimals (None stays None)."""
    return None if seconds is None else round(1000 * seconds, 4)


def summarize(
    config: TournamentConfig, outcomes: Sequence[GameOutcome], seconds: float
) -> dict[str, Any]:
    """The JSON-ready tournament report (fields in docs/TOURNAMENTS.md).

    Everything but ``timing`` depends only on the configuration; ratings are updated in
    game order.
    """
    game = config.make_game()
    schedule = config.make_schedule()
    k, p, n = len(config.bots), config.players, len(outcomes)
    names = config.contestant_names()
    ratings = SkillRatings(k)
    seat_counts = [[0] * p for _ in range(k)]
    seat_wins = [[0.0] * p for _ in range(k)]
    places: list[list[int]] = [[] for _ in range(k)]
    games_played = [0] * k
    decisions = [0] * k
    think = [0.0] * k
    times: list[list[float]] = [[] for _ in range(k)]
    seat_total_wins = [0.0] * p
    endings = dict.fromkeys(ENDINGS, 0)
    for o in outcomes:
        ratings.update(o.seats, o.places)
        endings[o.ending] = endings.get(o.ending, 0) + 1
        for c in set(o.seats):
            games_played[c] += 1
        for j, c in enumerate(o.seats):
            seat_counts[c][j] += 1
            seat_wins[c][j] += o.returns[j]
            places[c].append(o.places[j])
            seat_total_wins[j] += o.returns[j]
            decisions[c] += o.decisions[j] if o.decisions else 0
            think[c] += o.think_seconds[j] if o.think_seconds else 0.0
            times[c] += o.decision_seconds[j] if o.decision_seconds else []
    final = ratings.ratings
    order = sorted(
        range(k),
        key=lambda c: (-final[c].ordinal, -sum(seat_wins[c]) / max(1, len(places[c])), c),
    )
    contestants = []
    for c, info in enumerate(contestant_info(config)):
        seat_games = len(places[c])
        wins = sum(seat_wins[c])
        contestants.append(
            {
                **info,
                "rank": order.index(c) + 1,
                "games": games_played[c],
                "seat_games": seat_games,
                **{key: v for key, v in _rate(wins, seat_games).items() if key != "games"},
                "mean_placement": round(statistics.fmean(places[c]), 4) if places[c] else None,
                "placements": {
                    str(place): places[c].count(place) for place in sorted(set(places[c]))
                },
                "by_seat": [_rate(seat_wins[c][j], seat_counts[c][j]) for j in range(p)],
                "rating": final[c].to_json(),
                "decisions": decisions[c],
            }
        )
    turns = [o.turns for o in outcomes]
    checks = sim.seat_tally_for(game)
    extra: dict[str, Any] = {}
    if checks is not None:
        per_seat = [
            (names[o.seats[j]], counts)
            for o in outcomes
            for j, counts in enumerate(o.seat_counts or [])
        ]
        summed = sim.sum_seat_counts(checks, per_seat, names)
        for entry in contestants:
            entry[checks.section] = summed["by_bot"][entry["name"]]
        extra[checks.section] = {"total": summed["total"]}
    return {
        "format": TOURNAMENT_FORMAT,
        "game": game.info.short_name,
        "rules_version": game.info.rules_version,
        "engine": engine_for(descriptor(config.game), config.engine),
        "options": dict(game.options),
        "players": p,
        "contestants": contestants,
        "standings": [names[c] for c in order],
        "seed": config.seed,
        "seeds": {"first": config.seed, "last": config.seed + n - 1},
        "games": n,
        "schedule": schedule.to_json(n),
        "rating_model": ratings.describe_model(),
        "seat_win_rates": [_rate(seat_total_wins[j], n) for j in range(p)],
        "head_to_head": {
            "contestants": names,
            "score": head_to_head(outcomes, k),
        },
        "endings": endings,
        "turns_per_game": {
            "mean": round(statistics.fmean(turns), 2) if turns else 0.0,
            "median": statistics.median(turns) if turns else 0,
            "max": max(turns, default=0),
        },
        "timing": {
            "jobs": config.jobs,
            **({} if config.cluster is None else {"cluster": config.cluster}),
            "seconds": round(seconds, 3),
            "games_per_s": round(n / seconds, 2) if seconds > 0 else None,
            "think_seconds": {names[c]: round(think[c], 3) for c in range(k)},
            "ms_per_decision": {
                names[c]: round(1000 * think[c] / decisions[c], 4) if decisions[c] else None
                for c in range(k)
            },
            "ms_p95": {names[c]: _ms(percentile(times[c], 0.95)) for c in range(k)},
            "ms_max": {names[c]: _ms(max(times[c], default=None)) for c in range(k)},
            "ms_histogram": {
                "edges_ms": list(HISTOGRAM_MS),
                "counts": {names[c]: histogram_ms(times[c]) for c in range(k)},
            },
        },
        **extra,
    }


def run_tournament(
    config: TournamentConfig, on_progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Play the tournament ``config`` and return its report."""
    start = time.perf_counter()
    outcomes = play_games(config, on_progress)
    return summarize(config, outcomes, time.perf_counter() - start)


# --- Markdown -------------------------------------------------------------------------------


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _ci(ci: Sequence[float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def to_markdown(report: dict[str, Any]) -> str:
    """The report as Markdown: a header, the standings table, seat win rates, head-to-head."""
    contestants = sorted(report["contestants"], key=lambda c: c["rank"])
    options = ", ".join(f"{k}={v}" for k, v in report["options"].items())
    schedule = report["schedule"]
    timing = report["timing"]
    lines = [
        f"# Tournament: {report['game']}, {report['players']} players, {report['games']} games",
        "",
        f"- rules: {report['rules_version']} ({options})",
        f"- seeds: {report['seeds']['first']}–{report['seeds']['last']} (game i uses seed "
        f"{report['seed']} + i)",
        f"- schedule: {schedule['description']}"
        + ("" if schedule["balanced"] else " (**games not a multiple of the block: unbalanced**)"),
        "- endings: " + ", ".join(f"{k} {v}" for k, v in report["endings"].items()),
        f"- turns per game: mean {report['turns_per_game']['mean']}, "
        f"max {report['turns_per_game']['max']}",
        f"- time: {timing['seconds']} s " + _where(timing),
        "",
        "| rank | contestant | bot (budget) | games | seats | wins | win rate | 95% CI "
        "| mean place | mu | sigma | ordinal | ms/decision |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for c in contestants:
        bot = c["bot"] + (f" ({c['budget']})" if c["budget"] is not None else "")
        ms = timing["ms_per_decision"].get(c["name"])
        rating = c["rating"]
        lines.append(
            f"| {c['rank']} | {c['name']} | {bot} | {c['games']} | {c['seat_games']} "
            f"| {c['wins']:g} | {_pct(c['win_rate'])} | {_ci(c['ci95'])} "
            f"| {c['mean_placement']:.3f} | {rating['mu']:.2f} | {rating['sigma']:.2f} "
            f"| {rating['ordinal']:.2f} | {'-' if ms is None else f'{ms:.3f}'} |"
        )
    lines += [
        "",
        "Seat win rates (all contestants):",
        "",
        "| seat | games | wins | win rate | 95% CI |",
        "| ---: | ---: | ---: | ---: | --- |",
    ]
    for j, s in enumerate(report["seat_win_rates"]):
        lines.append(
            f"| {j} | {s['games']} | {s['wins']:g} | {_pct(s['win_rate'])} | {_ci(s['ci95'])} |"
        )
    h2h = report["head_to_head"]
    if 2 < len(h2h["contestants"]) <= HEAD_TO_HEAD_MAX:
        names = h2h["contestants"]
        lines += [
            "",
            "Head-to-head (row finished ahead of column, ties half):",
            "",
            "| | " + " | ".join(names) + " |",
            "| --- |" + " ---: |" * len(names),
        ]
        for name, row in zip(names, h2h["score"], strict=True):
            cells = ["-" if x is None else _pct(x) for x in row]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if "checks" in report:
        lines += _checks_markdown(contestants, report["checks"]["total"])
    return "\n".join(lines) + "\n"


def _where(timing: Mapping[str, Any]) -> str:
    """Where the games ran: ``with J process(es)`` or ``on the Ray cluster …``."""
    jobs = timing["jobs"]
    if "cluster" not in timing:
        return f"with {jobs} process(es)"
    at_once = "one task per CPU" if jobs == 0 else f"at most {jobs} tasks at once"
    return f"on the Ray cluster {timing['cluster']} ({at_once})"


def _maybe_pct(rate: float | None) -> str:
    return "-" if rate is None else _pct(rate)


def _checks_markdown(
    contestants: Sequence[Mapping[str, Any]], total: Mapping[str, Any]
) -> list[str]:
    """The call-out tables: each contestant's checks, then what its overlooks cost."""
    rows = [(c["name"], c["checks"]) for c in contestants] + [("all", total)]
    lines = [
        "",
        "Checks (call-out mode; overlooked = ok or a wrong call while mayhem stood):",
        "",
        "| contestant | checks | mayhem standing | right calls | overlooked | overlook rate "
        "| false alarms (clean) | false alarm rate | found overlooked |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, c in rows:
        lines.append(
            f"| {name} | {c['checks']} | {c['mayhem_standing']} | {c['right_calls']} "
            f"| {c['overlooked']} | {_maybe_pct(c['overlook_rate'])} | {c['false_alarms_clean']} "
            f"| {_maybe_pct(c['false_alarm_rate'])} | {c['found_overlooked']} |"
        )
    lines += [
        "",
        "Cost of overlooked mayhem (per overlook episode the contestant took part in; "
        "tiles of the resolution when it was found later):",
        "",
        "| contestant | found later | not found | tiles out of the game "
        "| tiles to the active player's pile | tiles its opponents avoided |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, c in rows[:-1]:
        lines.append(
            f"| {name} | {c['overlooks_found_later']} | {c['overlooks_not_found']} "
            f"| {c['tiles_out']} | {c['tiles_to_active_pile']} "
            f"| {c['tiles_avoided_by_opponents']} |"
        )
    lines.append(
        f"| all (each resolution once) | {total['found_overlooked']} | - "
        f"| {total['found_tiles_out']} | {total['found_tiles_to_active_pile']} | - |"
    )
    return lines
