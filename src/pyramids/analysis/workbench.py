"""The workbench behind ``pyramids analyse``: design questions answered from many bot games.

A run is a list of *cells*, each ``games`` seeded games of one player count, one set of
rules options and one seating of bots:

- ``baseline``, per player count: the first bot in every seat (mirror games, so that a
  seat's results are the seat's, not a bot's), with the base options. It answers the seat
  advantage, the game length, how often each event and win condition happens and what it
  costs, and each tile's or card's effect on its holder.
- one cell per option *variant* (the game's analysis part's ``workbench.variants``: fire
  die on, curse off, another preset, call-out, no tree actions...), per player count, the
  same mirror games with that one option changed.
- ``skill``, per player count, when two different bots or more are given: the first (the stronger)
  in one seat against the last in the others, rotated so that it sits in every seat
  equally often.

Game ``i`` of every cell uses seed ``seed + i`` (common random numbers: a variant is
compared with the baseline on the same seeds, and its differences are paired), and every
game's result depends only on its cell and index, so results are the same for any number
of processes or a Ray cluster (``pyramids.analysis.parallel``). Intervals are 95%: Wilson
for proportions, the normal approximation for means and paired differences.
"""

from __future__ import annotations

import functools
import math
import platform
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import pyramids
from pyramids.analysis.parallel import play_chunks
from pyramids.analysis.simulate import ENDINGS, seat_bots, tally_of, wilson_interval
from pyramids.bots import make_bot
from pyramids.core.game import CHANCE, Event, Game, State
from pyramids.core.record import play_game
from pyramids.games import GAMES, descriptor, engine_for, make, names
from pyramids.texts import LANGS, message

SCHEMA = 1
Z = 1.96
Label = Mapping[str, str]
"""A text in English and French: ``{"en": ..., "fr": ...}``."""


def catalogue_label(key: str, **facts: object) -> dict[str, str]:
    """The catalogue entry ``key`` (``pyramids.texts``) in every language, filled with
    ``facts``: the ``Label`` of a word the analysis writes into ``analysis.json``.

    A game's workbench words are the entries ``workbench.<game>.<key>`` of
    ``messages/<lang>/workbench.json``."""
    return {lang: message(key, lang, **facts) for lang in LANGS}


class Facts(Protocol):
    """One game's per-seat facts, fed each state after an apply with its events."""

    def step(self, state: State, events: Sequence[Event]) -> None:
        """Count what the last action did; ``state`` is the state after it."""
        ...

    def finish(self, state: State) -> list[dict[str, Any]]:
        """Per seat: ``triggered`` (kind -> count), ``cost`` (kind -> amount), ``held`` and
        ``done`` (items)."""
        ...


class WorkbenchPart(Protocol):
    """What ``analyse`` measures in a game (its analysis part's ``workbench``).

    Its words are ``Label``s; this repository's games build them from their catalogue
    entries ``workbench.<game>.*`` with ``catalogue_label``."""

    @property
    def turn_unit(self) -> Label:
        """What a turn is (``placement``)."""
        ...

    @property
    def kinds(self) -> Sequence[tuple[str, Label]]:
        """The event kinds counted per seat, with their names."""
        ...

    @property
    def conditions(self) -> Sequence[tuple[str, Label]]:
        """The win conditions (empty: one way to win)."""
        ...

    @property
    def cost_label(self) -> Label | None:
        """The unit of an event's direct cost to its trigger (None: no direct cost)."""
        ...

    @property
    def holding(self) -> Label:
        """What a seat holds (``tile``, ``goal card``)."""
        ...

    @property
    def holding_explain(self) -> Label:
        """How the holdings are measured, in a sentence."""
        ...

    @property
    def done_label(self) -> Label | None:
        """What a holder does with an item (``scored``), or None."""
        ...

    def variants(
        self, options: Mapping[str, object]
    ) -> list[tuple[str, dict[str, str], dict[str, object]]]:
        """The option changes to compare with ``options``: (name, label, changed options)."""
        ...

    def facts(self, game: Game) -> Facts:
        """The per-seat fact counter of one new game."""
        ...


@functools.cache
def part_of(game: str) -> WorkbenchPart | None:
    """The ``WorkbenchPart`` of the game called ``game`` (None: it has none)."""
    part = descriptor(game).analysis
    return None if part is None else getattr(part.get(), "workbench", None)


@dataclass(frozen=True)
class Cell:
    """``games`` games of one player count, options and seating (see the module doc)."""

    study: str
    """``baseline``, ``skill`` or a variant's name."""
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    """Passed to ``seat_bots``: repeated to fill the seats, rotated by the game index."""


@dataclass(frozen=True)
class Plan:
    """A whole analysis: the game, its cells, the seeds and where the games are played."""

    game: str
    cells: tuple[Cell, ...]
    seed: int = 0
    games: int = 200
    engine: str | None = None

    @property
    def total(self) -> int:
        """Every game of the plan."""
        return self.games * len(self.cells)

    def environ(self) -> dict[str, str]:
        """The variables a worker process needs besides the plan: none (the engine
        travels as ``engine``, a value, never through the environment)."""
        return {}


@dataclass
class GameFacts:
    """One finished game of a plan: who sat where, who won, how long, what each seat did."""

    cell: int
    index: int
    seats: list[str]
    winner: int | None
    turns: int
    actions: int
    """The players' decisions (chance draws not counted)."""
    ending: str
    condition: str | None
    per_seat: list[dict[str, Any]]


def parse_players(text: str, low: int, high: int) -> list[int]:
    """``2-6``, ``2,3,4`` or ``4`` as a sorted list; ValueError says what is wrong."""
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo_text, dash, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if dash else lo
        except ValueError:
            raise ValueError(f"--players {text!r}: give counts like 2-6 or 2,3,4") from None
        if lo > hi:
            raise ValueError(f"--players {part!r}: the range is empty")
        out.update(range(lo, hi + 1))
    if not out:
        raise ValueError("--players: give at least one player count")
    bad = sorted(p for p in out if not low <= p <= high)
    if bad:
        raise ValueError(
            f"--players: {', '.join(map(str, bad))} is not a player count of this game "
            f"({low} to {high})"
        )
    return sorted(out)


def make_plan(
    game: str,
    players: Sequence[int],
    bots: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    engine: str | None = None,
    variants: bool = True,
    skill: bool = True,
) -> Plan:
    """The plan of an analysis (see the module doc); ValueError says what is wrong."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(names())})")
    if games < 1:
        raise ValueError("--games must be at least 1")
    if not bots:
        raise ValueError("--bots: give at least one bot")
    for name in set(bots):
        make_bot(name)  # ValueError for an unknown bot
    part = part_of(game)
    base = dict(options or {})
    cells: list[Cell] = []
    for p in players:
        make(descriptor(game), p, base, engine=engine)  # PositionError for bad options
        cells.append(Cell("baseline", p, base, (bots[0],)))
        if variants and part is not None:
            for name, _label, changed in part.variants(base):
                cells.append(Cell(name, p, {**base, **changed}, (bots[0],)))
        if skill and len(bots) > 1 and bots[0] != bots[-1]:
            cells.append(Cell("skill", p, base, (bots[0],) + (bots[-1],) * (p - 1)))
    return Plan(game=game, cells=tuple(cells), seed=seed, games=games, engine=engine)


def play_one(plan: Plan, g: int, cache: dict[int, Game] | None = None) -> GameFacts:
    """Game ``g`` of the plan: cell ``g // games``, index ``g % games``, seed ``seed + index``."""
    c, i = divmod(g, plan.games)
    cell = plan.cells[c]
    cache = {} if cache is None else cache
    if c not in cache:
        cache[c] = make(descriptor(plan.game), cell.players, dict(cell.options), engine=plan.engine)
    game = cache[c]
    tally = tally_of(game.info.short_name)
    part = part_of(plan.game)
    seated = seat_bots(cell.bots, cell.players, i)
    made = {name: make_bot(name, engine=plan.engine) for name in set(seated)}
    facts = part.facts(game) if part is not None else None
    seed = plan.seed + i
    to_move = game.new_initial_state(seed).current_player()
    turns = actions = 0
    ending: str | None = None
    condition: str | None = None

    def on_step(state: State, _text: str) -> None:
        nonlocal turns, actions, ending, condition, to_move
        if to_move != CHANCE:
            actions += 1
        events = state.events()
        turns += tally.turns(events)
        if facts is not None:
            facts.step(state, events)
        for event in events:
            if event.kind == "win":
                condition = tally.condition(event) or condition
            elif event.kind in ENDINGS:
                ending = event.kind
        to_move = CHANCE if state.is_terminal() else state.current_player()

    final, _record = play_game(game, [made[n] for n in seated], seed, on_step=on_step)
    outcome = final.outcome()
    per_seat = facts.finish(final) if facts is not None else [{} for _ in seated]
    return GameFacts(
        cell=c,
        index=i,
        seats=seated,
        winner=outcome.winner,
        turns=turns,
        actions=actions,
        ending="win" if outcome.winner is not None else (ending or "ranked"),
        condition=condition if outcome.winner is not None else None,
        per_seat=per_seat,
    )


def _play_chunk(plan: Plan, indices: Sequence[int]) -> list[GameFacts]:
    """Play the games ``indices`` of ``plan`` here (the unit of work of a worker)."""
    cache: dict[int, Game] = {}
    return [play_one(plan, g, cache) for g in indices]


def play_plan(
    plan: Plan,
    jobs: int,
    on_progress: Callable[[int], None] | None = None,
    cluster: str | None = None,
) -> list[GameFacts]:
    """Every game of the plan, in ``jobs`` processes (or on a Ray cluster); in plan order."""
    return play_chunks(
        _play_chunk,
        plan,
        plan.total,
        jobs,
        per_job=8,
        at_most=25,
        on_progress=on_progress,
        environ=plan.environ(),
        cluster=cluster,
    )


# --- statistics --------------------------------------------------------------------------


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or math.isnan(x) else round(x, digits)


def _pair(lo: float, hi: float, digits: int = 4) -> list[float]:
    return [round(lo, digits), round(hi, digits)]


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the 95% normal interval of the mean of ``values``."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = statistics.fmean(values)
    if n == 1:
        return m, m, m
    half = Z * statistics.stdev(values) / math.sqrt(n)
    return m, m - half, m + half


def chisquare(counts: Sequence[int]) -> tuple[float, float]:
    """Pearson's χ² of ``counts`` against equal shares, and its p-value (``scipy.stats``).

    ImportError saying what to install without scipy (the ``analysis`` extra)."""
    try:
        from scipy.stats import chisquare as scipy_chisquare
    except ImportError as exc:
        raise ImportError(
            "the workbench's statistics need scipy: pip install 'pyramids[analysis]'"
        ) from exc
    result = scipy_chisquare(counts)
    return float(result.statistic), float(result.pvalue)


def _quantile(sorted_values: Sequence[int], q: float) -> float:
    """The ``q`` quantile (nearest rank) of non-empty ``sorted_values``."""
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


def distribution(values: Sequence[int], bins: int = 24) -> dict[str, Any]:
    """Mean with interval, median, p10, p90, min, max and a histogram of whole numbers."""
    ordered = sorted(values)
    m, lo, hi = mean_ci(values)
    low, high = ordered[0], ordered[-1]
    width = max(1, math.ceil((high - low + 1) / bins))
    edges = list(range(low, high + width + 1, width))
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[min(len(counts) - 1, (v - low) // width)] += 1
    return {
        "mean": _r(m, 2),
        "ci95": _pair(lo, hi, 2),
        "median": statistics.median(ordered),
        "p10": _quantile(ordered, 0.1),
        "p90": _quantile(ordered, 0.9),
        "min": low,
        "max": high,
        "hist": {"edges": edges, "counts": counts},
    }


def _label(text: Mapping[str, str]) -> dict[str, str]:
    return {"en": text["en"], "fr": text.get("fr", text["en"])}


def _seat_advantage(p: int, rows: Sequence[GameFacts]) -> dict[str, Any]:
    n = len(rows)
    wins = [0] * p
    for r in rows:
        if r.winner is not None:
            wins[r.winner] += 1
    decided = sum(wins)
    chi2, p_value = chisquare(wins) if decided else (0.0, None)
    return {
        "players": p,
        "games": n,
        "decided": decided,
        "wins": wins,
        "rate": [round(w / n, 4) for w in wins],
        "ci95": [_pair(*wilson_interval(w, n)) for w in wins],
        "fair": round(decided / n / p, 4) if n else None,
        "chi2": round(chi2, 3),
        "p_value": None if p_value is None else _r(p_value, 6),
    }


def _paired(base: Sequence[float], other: Sequence[float]) -> tuple[float, float, float]:
    return mean_ci([b - a for a, b in zip(base, other, strict=True)])


def _variant_row(
    name: str, rows: Sequence[GameFacts], base: Sequence[GameFacts], kinds: Sequence[str]
) -> dict[str, Any]:
    n = len(rows)
    turns = [float(r.turns) for r in rows]
    m, lo, hi = mean_ci(turns)
    d, dlo, dhi = _paired([float(r.turns) for r in base], turns)
    first = [1.0 if r.winner == 0 else 0.0 for r in rows]
    s0 = sum(first)
    sd, sdlo, sdhi = _paired([1.0 if r.winner == 0 else 0.0 for r in base], first)
    per_game = {
        k: round(sum(s["triggered"].get(k, 0) for r in rows for s in r.per_seat) / n, 4)
        for k in kinds
    }
    return {
        "variant": name,
        "games": n,
        "turns_mean": _r(m, 2),
        "turns_ci95": _pair(lo, hi, 2),
        "delta_turns": _r(d, 2),
        "delta_turns_ci95": _pair(dlo, dhi, 2),
        "seat0_rate": round(s0 / n, 4),
        "seat0_ci95": _pair(*wilson_interval(s0, n)),
        "delta_seat0": _r(sd),
        "delta_seat0_ci95": _pair(sdlo, sdhi),
        "no_winner_rate": round(sum(1 for r in rows if r.winner is None) / n, 4),
        "events_per_game": per_game,
    }


def _event_rows(
    p: int, rows: Sequence[GameFacts], kinds: Sequence[str], costed: bool
) -> list[dict[str, Any]]:
    n = len(rows)
    out = []
    for k in kinds:
        per_game = [float(sum(s["triggered"].get(k, 0) for s in r.per_seat)) for r in rows]
        m, lo, hi = mean_ci(per_game)
        with_it = sum(1 for x in per_game if x > 0)
        tw = tn = ow = on = 0
        costs: list[float] = []
        for r in rows:
            for seat, s in enumerate(r.per_seat):
                count = s["triggered"].get(k, 0)
                won = r.winner == seat
                if count:
                    tn += 1
                    tw += won
                    if costed:
                        costs.append(s["cost"].get(k, 0.0) / count)
                else:
                    on += 1
                    ow += won
        cm, clo, chi = mean_ci(costs) if costs else (math.nan, math.nan, math.nan)
        out.append(
            {
                "kind": k,
                "per_game": _r(m),
                "per_game_ci95": _pair(lo, hi),
                "games_with": round(with_it / n, 4),
                "seats_with": tn,
                "trigger_win_rate": _r(tw / tn) if tn else None,
                "trigger_win_ci95": _pair(*wilson_interval(tw, tn)) if tn else None,
                "other_win_rate": _r(ow / on) if on else None,
                "other_win_ci95": _pair(*wilson_interval(ow, on)) if on else None,
                "cost_mean": _r(cm, 3) if costs else None,
                "cost_ci95": _pair(clo, chi, 3) if costs else None,
            }
        )
    return out


def _conditions(p: int, rows: Sequence[GameFacts], conditions: Sequence[str]) -> dict[str, Any]:
    n = len(rows)
    counts = dict.fromkeys(conditions, 0)
    counts["no_winner"] = 0
    for r in rows:
        if r.winner is None:
            counts["no_winner"] += 1
        elif r.condition in counts:
            counts[r.condition] += 1
    return {
        "players": p,
        "games": n,
        "counts": counts,
        "rates": {k: round(v / n, 4) for k, v in counts.items()},
        "ci95": {k: _pair(*wilson_interval(v, n)) for k, v in counts.items()},
    }


def _skill(p: int, strong: str, rows: Sequence[GameFacts]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(1 for r in rows if r.winner is not None and r.seats[r.winner] == strong)
    lo, hi = wilson_interval(wins, n)
    chance = 1 / p

    def index(x: float) -> float:
        return (x - chance) / (1 - chance)

    return {
        "players": p,
        "games": n,
        "wins": wins,
        "rate": round(wins / n, 4),
        "ci95": _pair(lo, hi),
        "chance": round(chance, 4),
        "skill": round(index(wins / n), 4),
        "skill_ci95": _pair(index(lo), index(hi)),
    }


def _holding_rates(held: int, wins: int, expected: float, done: int | None) -> dict[str, Any]:
    """The figures of ``held`` holdings: win rate and lift (``wins / expected``) with their
    intervals, and the share ``done`` when the game counts it (None: it does not)."""
    lo, hi = wilson_interval(wins, held)
    scale = held / expected if expected else math.nan  # lift = rate * held / expected
    out: dict[str, Any] = {
        "held": held,
        "wins": wins,
        "rate": round(wins / held, 4),
        "ci95": _pair(lo, hi),
        "expected": round(expected, 2),
        "lift": _r(wins / expected, 3) if expected else None,
        "lift_ci95": _pair(lo * scale, hi * scale, 3) if expected else None,
    }
    if done is not None:
        out.update(
            done=done,
            done_rate=round(done / held, 4),
            done_ci95=_pair(*wilson_interval(done, held)),
        )
    return out


def _holdings(
    part: WorkbenchPart, rows: Sequence[GameFacts], players_of: Callable[[GameFacts], int]
) -> dict[str, Any]:
    # per item: [held, wins, expected wins, done]
    sums: dict[str, list[float]] = {}
    for r in rows:
        chance = 1 / players_of(r)
        for seat, s in enumerate(r.per_seat):
            scored = set(s.get("done", ()))
            for item in s.get("held", ()):
                t = sums.setdefault(item, [0, 0, 0.0, 0])
                t[0] += 1
                t[1] += r.winner == seat
                t[2] += chance
                t[3] += item in scored
    counted = part.done_label is not None

    def rates(t: Sequence[float]) -> dict[str, Any]:
        return _holding_rates(int(t[0]), int(t[1]), t[2], int(t[3]) if counted else None)

    out_rows = [{"item": item, "label": item, **rates(t)} for item, t in sums.items()]
    if counted:
        out_rows.sort(key=lambda row: (row["done_rate"], row["item"]))
    else:
        out_rows.sort(key=lambda row: (-(row["lift"] or 0.0), row["item"]))
    kinds: list[dict[str, Any]] = []
    kind_of = getattr(part, "kind_of", None)
    if kind_of is not None:  # the same sums by the item's kind (a tile's material, a card's height)
        by_kind: dict[str, tuple[dict[str, str], list[float], list[str]]] = {}
        for item, t in sums.items():
            kind = kind_of(item)
            if kind is not None:
                entry = by_kind.setdefault(kind[0], (_label(kind[1]), [0, 0, 0.0, 0], []))
                entry[2].append(item)
                for i, value in enumerate(t):
                    entry[1][i] += value
        kinds = sorted(
            (
                {"kind": name, "label": label, "items": len(items), **rates(t)}
                for name, (label, t, items) in by_kind.items()
            ),
            key=lambda k: -(k["lift"] or 0.0),
        )
    return {
        "kinds": kinds,
        "what": _label(part.holding),
        "explain": _label(part.holding_explain),
        "done_label": None if part.done_label is None else _label(part.done_label),
        "rows": out_rows,
    }


def summarize(
    plan: Plan,
    results: Sequence[GameFacts],
    *,
    bots: Sequence[str],
    command: str,
    seconds: float,
    jobs: int,
    cluster: str | None = None,
) -> dict[str, Any]:
    """The analysis as a JSON-ready dict (the report's schema: docs/WORKBENCH.md)."""
    part = part_of(plan.game)
    desc = descriptor(plan.game)
    by_cell: dict[int, list[GameFacts]] = {}
    for r in results:
        by_cell.setdefault(r.cell, []).append(r)
    players = sorted({c.players for c in plan.cells})

    def cell_rows(study: str, p: int) -> list[GameFacts] | None:
        for c, cell in enumerate(plan.cells):
            if cell.study == study and cell.players == p:
                return by_cell.get(c, [])
        return None

    base_options = dict(plan.cells[0].options) if plan.cells else {}
    game0 = make(desc, players[0], base_options, engine=plan.engine)
    kinds = [k for k, _ in part.kinds] if part is not None else []
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "kind": "pyramids-analysis",
        "game": plan.game,
        "title": dict(desc.titles),
        "rules_version": game0.info.rules_version,
        "engine": engine_for(desc, plan.engine),
        "pyramids_version": pyramids.__version__,
        "python": platform.python_version(),
        "command": command,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seconds": round(seconds, 1),
        "total_games": len(results),
        "jobs": jobs,
        "cluster": cluster,
        "seed": plan.seed,
        "games": plan.games,
        "players": players,
        "bots": list(bots),
        "base_options": dict(game0.options),
        "turn_unit": _label(part.turn_unit)
        if part is not None
        else catalogue_label("workbench.turn_unit"),
    }
    baseline = {p: cell_rows("baseline", p) or [] for p in players}
    data["seat_advantage"] = {
        "bot": bots[0],
        "by_players": [_seat_advantage(p, baseline[p]) for p in players],
    }
    data["length"] = {
        "by_players": [
            {
                "players": p,
                "turns": distribution([r.turns for r in baseline[p]]),
                "actions": distribution([r.actions for r in baseline[p]]),
            }
            for p in players
        ]
    }
    if part is not None:
        variants = part.variants(base_options)
        present = [v for v in variants if any(c.study == v[0] for c in plan.cells)]
        if present:
            data["options"] = {
                "variants": [
                    {"name": name, "label": _label(label), "options": dict(changed)}
                    for name, label, changed in present
                ],
                "by_players": [
                    {
                        "players": p,
                        "rows": [_variant_row("baseline", baseline[p], baseline[p], kinds)]
                        + [
                            _variant_row(name, cell_rows(name, p) or [], baseline[p], kinds)
                            for name, _label_, _changed in present
                        ],
                    }
                    for p in players
                ],
            }
        data["events"] = {
            "kinds": [{"name": k, "label": _label(label)} for k, label in part.kinds],
            "cost_label": None if part.cost_label is None else _label(part.cost_label),
            "by_players": [
                {
                    "players": p,
                    "rows": _event_rows(p, baseline[p], kinds, part.cost_label is not None),
                }
                for p in players
            ],
        }
        if part.conditions:
            data["conditions"] = {
                "names": [{"name": k, "label": _label(label)} for k, label in part.conditions],
                "by_players": [
                    _conditions(p, baseline[p], [k for k, _ in part.conditions]) for p in players
                ],
            }
        every = [r for p in players for r in baseline[p]]
        data["holdings"] = _holdings(part, every, lambda r: plan.cells[r.cell].players)
    skill_rows = {p: cell_rows("skill", p) for p in players}
    if all(rows is not None for rows in skill_rows.values()) and any(
        c.study == "skill" for c in plan.cells
    ):
        data["skill"] = {
            "strong": bots[0],
            "weak": bots[-1],
            "by_players": [_skill(p, bots[0], skill_rows[p] or []) for p in players],
        }
    else:
        data["skill"] = None
    data["endings"] = {
        "by_players": [{"players": p, "counts": _count_endings(baseline[p])} for p in players]
    }
    return data


def _count_endings(rows: Sequence[GameFacts]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        out[r.ending] = out.get(r.ending, 0) + 1
    return out


@dataclass
class Analysis:
    """A finished analysis: the plan, every game's facts and the summary."""

    plan: Plan
    results: list[GameFacts] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def analyse(
    plan: Plan,
    *,
    bots: Sequence[str],
    jobs: int,
    command: str,
    on_progress: Callable[[int], None] | None = None,
    cluster: str | None = None,
) -> Analysis:
    """Play the plan and sum it up."""
    start = time.perf_counter()
    results = play_plan(plan, jobs, on_progress, cluster)
    data = summarize(
        plan,
        results,
        bots=bots,
        command=command,
        seconds=time.perf_counter() - start,
        jobs=jobs,
        cluster=cluster,
    )
    return Analysis(plan, results, data)


def game_lines(plan: Plan, results: Sequence[GameFacts]) -> list[dict[str, Any]]:
    """One JSON-ready line per game (``games.jsonl``): its cell, seed, seats and facts."""
    out = []
    for r in results:
        cell = plan.cells[r.cell]
        out.append(
            {
                "study": cell.study,
                "players": cell.players,
                "options": dict(cell.options),
                "index": r.index,
                "seed": plan.seed + r.index,
                "seats": r.seats,
                "winner": r.winner,
                "turns": r.turns,
                "actions": r.actions,
                "ending": r.ending,
                "condition": r.condition,
                "per_seat": r.per_seat,
            }
        )
    return out
