"""The native search against the Python search: the part of docs/STRENGTH.md for issue 11.

Used by ``scripts/strength.py`` (``--nvp-*`` options); kept apart because that script already
holds the OpenSpiel comparison. Three measurements:

1. **Iterations per second at the ``normal`` settings** (1000 iterations, random rollouts):
   mid-game positions of both games, 2 and 4 players (seeded greedy self-play on the Python
   engine stopped after 20 and after 30 actions, then on to a real decision); on each the
   Python search (``ismcts:1000+python``: the Python search on the Python engine) and the
   native one (``+native``) search the seat's view from ``random.Random(seed + k)``. Rate =
   iterations / seconds summed. Both are timed on one core, one after the other; the
   statistics and the generator state after are compared too (identical: they must be).
2. **Head-to-head** (Flaming Pyramids, 2 players): ``ismcts:Ts+native`` against
   ``ismcts:Ts+python``, the ``normal`` level's settings (random rollouts, c = 0.7, cap 200)
   with the same time T per decision, seats alternating, game i dealt by seed S + i
   (``pyramids.analysis.tournament``, schedule ``rotations``). Target: native ≥ 75%.
3. **Gain per level**: from the ladder lines of both searches at the same time budgets
   against greedy, native rate minus Python rate per game, players and budget.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pyramids.analysis.ratings import wilson_interval
from pyramids.analysis.tournament import TournamentConfig, run_tournament
from pyramids.bots import BOT_LEVELS, ISMCTSBot, make_bot
from pyramids.core import CHANCE, State
from pyramids.games import descriptor, make_game

TITLES = {"flaming": "Flaming Pyramids", "flags": "Pyramids and Flags"}
SEARCHES = ("python", "native")
NVP_FULL_GAMES = 200
NVP_FULL_POSITIONS = 10
NVP_BUDGET = 0.03
"""Seconds per decision of the native-vs-Python head-to-head (sized for the 45-minute run)."""
TARGET_SPEEDUP = 30.0
TARGET_NVP = 0.75
PLIES = (20, 30)


def native_built() -> bool:
    """Whether the native core and both games' native engines can run the native search."""
    try:
        core = importlib.import_module("pyramids._native")
    except ImportError:
        return False
    return hasattr(core, "search") and all(descriptor(g).native for g in TITLES)


def mid_game(game: str, players: int, seed: int, plies: int) -> State | None:
    """Greedy self-play (Python engine) from ``seed`` for ``plies`` actions, then on to a
    decision with two or more legal actions; None if the game ends first."""
    state = make_game(game, players, engine="python").new_initial_state(seed)
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    done = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            done += 1
            continue
        legal = state.legal_actions()
        if done >= plies and len(legal) > 1:
            return state
        state.apply(greedy.act(state.view(seat), legal, rng))
        done += 1
    return None


def positions(game: str, players: int, seed: int, count: int) -> list[State]:
    """``count`` mid-game positions: seeds from ``seed``, 20 then 30 plies each."""
    found: list[State] = []
    s = seed
    while len(found) < count:
        for plies in PLIES:
            state = mid_game(game, players, s, plies)
            if state is not None and len(found) < count:
                found.append(state)
        s += 1
    return found


@dataclass
class SpeedRow:
    """Both searches at the ``normal`` settings on one game and player count."""

    game: str
    players: int
    positions: int
    iterations: int
    python_seconds: float
    native_seconds: float
    identical: int
    """Positions where both searches gave the same statistics and generator state."""
    threads_seconds: float = 0.0
    """The native search with ``threads=2`` (root-parallel, the same 1000 iterations split)."""

    @property
    def threads_rate(self) -> float:
        """Root-parallel (2 threads) native iterations per second."""
        return self.iterations / self.threads_seconds if self.threads_seconds else 0.0

    @property
    def python_rate(self) -> float:
        """Python search iterations per second."""
        return self.iterations / self.python_seconds if self.python_seconds else 0.0

    @property
    def native_rate(self) -> float:
        """Native search iterations per second."""
        return self.iterations / self.native_seconds if self.native_seconds else 0.0

    @property
    def speedup(self) -> float:
        """Native rate / Python rate."""
        return self.native_rate / self.python_rate if self.python_rate else 0.0


def measure_speed(game: str, players: int, seed: int, *, count: int) -> SpeedRow:
    """Python and native ``normal`` searches on ``count`` positions (one process, one core)."""
    normal = BOT_LEVELS["normal"].settings
    row = SpeedRow(game, players, 0, 0, 0.0, 0.0, 0)
    for k, state in enumerate(positions(game, players, seed, count)):
        seat = state.current_player()
        view = state.view(seat)
        legal = state.legal_actions()
        seen = []
        for search in SEARCHES:
            rng = random.Random(seed + k)
            result = ISMCTSBot(replace(normal, search=search)).search(view, legal, rng)
            stats = [(s.action, s.visits, s.win) for s in result.stats]
            seen.append((stats, rng.getstate()))
            if search == "python":
                row.python_seconds += result.seconds
                row.iterations += result.iterations
            else:
                row.native_seconds += result.seconds
        parallel = replace(normal, search="native", threads=2)
        result = ISMCTSBot(parallel).search(view, legal, random.Random(seed + k))
        row.threads_seconds += result.seconds
        row.positions += 1
        row.identical += seen[0] == seen[1]
    return row


@dataclass
class H2H:
    """The native search against the Python search, Flaming Pyramids 2 players."""

    games: int
    budget: float
    native_wins: float
    native_seat0: tuple[float, int]
    native_seat1: tuple[float, int]
    ms_native: float | None
    ms_python: float | None
    seconds: float
    jobs: int

    @property
    def rate(self) -> float:
        """The native search's win rate."""
        return self.native_wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """Wilson 95% interval of the rate."""
        return wilson_interval(self.native_wins, self.games)


def h2h_specs(budget: float) -> tuple[str, str]:
    """The two contestants: the ``normal`` settings with ``budget`` seconds per decision."""
    return f"ismcts:{budget:g}s+random+native", f"ismcts:{budget:g}s+random+python"


def run_h2h(seed: int, games: int, budget: float, jobs: int) -> H2H:
    """``games`` games native against Python, seats alternating (tournament runner)."""
    native, python = h2h_specs(budget)
    config = TournamentConfig(
        bots=(native, python),
        game="flaming",
        players=2,
        games=games,
        seed=seed,
        jobs=jobs,
        schedule="rotations",
    )
    report = run_tournament(config)
    first = next(c for c in report["contestants"] if c["name"] == native)
    by_seat = _seat_scores(report, native)
    timing = report["timing"]
    return H2H(
        games=int(first["seat_games"]),
        budget=budget,
        native_wins=float(first["wins"]),
        native_seat0=by_seat[0],
        native_seat1=by_seat[1],
        ms_native=timing["ms_per_decision"].get(native),
        ms_python=timing["ms_per_decision"].get(python),
        seconds=float(timing["seconds"]),
        jobs=jobs,
    )


def _seat_scores(report: dict[str, Any], name: str) -> list[tuple[float, int]]:
    """(wins, games) of contestant ``name`` by seat, when the report has them."""
    out = [(0.0, 0), (0.0, 0)]
    for c in report["contestants"]:
        if c["name"] != name:
            continue
        for seat, data in enumerate(c.get("by_seat", [])[:2]):
            out[seat] = (float(data.get("wins", 0.0)), int(data.get("games", 0)))
    return out


# --- the page -----------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: Sequence[float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def gains(ladder: Sequence[Any]) -> list[tuple[Any, Any]]:
    """(python row, native row) pairs of the ladder at the same game, players and budget."""
    rows = {(r.game, r.players, r.spec): r for r in ladder}
    pairs = []
    for r in ladder:
        if r.spec.endswith("+python"):
            other = rows.get((r.game, r.players, r.spec[: -len("+python")] + "+native"))
            if other is not None:
                pairs.append((r, other))
    return pairs


def render(
    speed: Sequence[SpeedRow], h2h: H2H | None, ladder: Sequence[Any], seed: int
) -> list[str]:
    """The section "Native search against the Python search" of docs/STRENGTH.md."""
    out = ["## Native search against the Python search", ""]
    out += [
        "The native search (`+native`: `pyramids.bots.native_search`, Rust crate "
        "`native/search`, on the native engine) is the same algorithm as the Python search "
        "(`+python`: `pyramids.bots.ismcts.run_search` on the Python engine), drawing the same "
        "numbers from the same generator: for an iteration budget both give identical "
        'statistics (docs/BOTS.md, "The native search"). With a time budget the native one '
        "simply runs more iterations.",
        "",
        "### Iterations per second at the `normal` settings",
        "",
    ]
    if speed:
        n = speed[0].positions
        out += [
            f"1000 iterations, random rollouts (`BOT_LEVELS['normal']`), on {n} positions per "
            "line (seeded greedy self-play on the Python engine stopped after 20 and 30 "
            f"actions, then on to a real decision; seeds from {seed}), each search timed on one "
            "core, one after the other. *Identical*: positions where both searches gave the same "
            "visits, win means and generator state afterwards. *2 threads*: the native "
            "root-parallel search (`threads=2`, issue 11.7: two independent trees, the 1000 "
            "iterations split, statistics summed; not identical to one thread) on this 2-core "
            "machine.",
            "",
            "| game | players | positions | iterations | Python s | Python it/s | native s "
            "| native it/s | native / Python | identical | 2 threads it/s |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in speed:
            out.append(
                f"| {TITLES[r.game]} | {r.players} | {r.positions} | {r.iterations} "
                f"| {r.python_seconds:.2f} | {r.python_rate:.0f} | {r.native_seconds:.3f} "
                f"| {r.native_rate:.0f} | {r.speedup:.1f}× | {r.identical}/{r.positions} "
                f"| {r.threads_rate:.0f} |"
            )
        out.append("")
    else:
        out += ["Not run (`--nvp-positions 0`, or the native core is not built).", ""]
    out += ["### Head-to-head: `normal` on the native search against the Python search", ""]
    if h2h is not None:
        native, python = h2h_specs(h2h.budget)
        ms_n = "-" if h2h.ms_native is None else f"{h2h.ms_native:.1f}"
        ms_p = "-" if h2h.ms_python is None else f"{h2h.ms_python:.1f}"
        out += [
            f"Flaming Pyramids, 2 players, {h2h.games} games, `{native}` against `{python}`: "
            f"the `normal` level's settings with the same {h2h.budget:g} s per decision for "
            f"both, seats alternating, game i dealt by seed {seed} + i, played by "
            f"`pyramids.analysis.tournament` (schedule `rotations`) in {h2h.jobs} processes.",
            "",
            "| games | native won | native score | 95% CI | native seat 0 | native seat 1 "
            "| ms/decision native | ms/decision Python |",
            "| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
            f"| {h2h.games} | {h2h.native_wins:g} | {_pct(h2h.rate)} | {_ci(h2h.ci)} "
            f"| {h2h.native_seat0[0]:g}/{h2h.native_seat0[1]} "
            f"| {h2h.native_seat1[0]:g}/{h2h.native_seat1[1]} | {ms_n} | {ms_p} |",
            "",
        ]
    else:
        out += ["Not run (`--nvp-games 0`, or the native core is not built).", ""]
    pairs = gains(ladder)
    out += ["### Gain of the native search per level (ladder against greedy)", ""]
    if pairs:
        out += [
            "From the ladder below: the same time budget per decision, the bot against greedy.",
            "",
            "| game | players | budget | Python | 95% CI | native | 95% CI | gain |",
            "| --- | ---: | --- | ---: | --- | ---: | --- | ---: |",
        ]
        for py, nat in pairs:
            budget = py.spec.split(":", 1)[1].split("+", 1)[0]
            gain = 100 * (nat.rate - py.rate)
            out.append(
                f"| {TITLES[py.game]} | {py.players} | {budget} | {_pct(py.rate)} | {_ci(py.ci)} "
                f"| {_pct(nat.rate)} | {_ci(nat.ci)} | {gain:+.1f} pp |"
            )
        out.append("")
    else:
        out += ["No ladder lines of both searches (`--searches python,native`).", ""]
    return out


def targets(
    speed: Sequence[SpeedRow], h2h: H2H | None, ladder: Sequence[Any], games_required: int
) -> list[str]:
    """The issue 11 target lines: met, not met, or not measured at the required size."""
    lines = []
    if speed:
        ok = all(r.speedup >= TARGET_SPEEDUP for r in speed)
        figs = "; ".join(f"{TITLES[r.game]} {r.players}p {r.speedup:.1f}×" for r in speed)
        same = sum(r.identical for r in speed)
        total = sum(r.positions for r in speed)
        lines.append(
            f"- ISMCTS iterations/s at the `normal` settings, native / Python ≥ 30×: "
            f"**{'met' if ok else 'not met'}** ({figs}); identical statistics on {same}/{total} "
            "positions."
        )
    else:
        lines.append("- ISMCTS iterations/s native / Python ≥ 30×: **not measured**.")
    if h2h is not None:
        met = h2h.rate >= TARGET_NVP
        lo, hi = h2h.ci
        sure = lo >= TARGET_NVP if met else hi < TARGET_NVP
        status = "met" if met else "not met"
        if h2h.games < games_required:
            status += f" in this reduced run ({h2h.games} games)"
        lines.append(
            f"- `normal` on the native search wins ≥ 75% of 2-player Flaming games against the "
            f"Python search at the same time ({h2h.budget:g} s a decision): **{status}** "
            f"({h2h.native_wins:g}/{h2h.games} = {_pct(h2h.rate)}, 95% CI {_ci(h2h.ci)}"
            + ("" if sure else "; the interval straddles the target")
            + ")."
        )
    else:
        lines.append("- Native against Python head-to-head: **not measured**.")
    pairs = gains(ladder)
    if pairs:
        worse = [(p, n) for p, n in pairs if n.rate < p.rate]
        small = any(p.games < games_required for p, _ in pairs)
        status = "met" if not worse else "not met"
        if small:
            status += " in this reduced run"
        detail = (
            "native at least as strong at every budget"
            if not worse
            else "weaker at "
            + ", ".join(f"{TITLES[p.game]} {p.players}p {p.spec}" for p, _ in worse)
        )
        lines.append(
            f"- Each level at least as strong with the native search (same time budgets): "
            f"**{status}** ({detail})."
        )
    else:
        lines.append("- Each level at least as strong with the native search: **not measured**.")
    return lines
