"""What crossing the Python/Rust boundary costs (issue 32): microseconds per call.

For each game on the native engine, from a fixed mid-game state (seeded deal, seeded
random actions), times: ``clone``, ``view(seat)``, the position export (``to_json()``,
a dict), loading a position (``load_position`` of that dict), and one native search call
of a fixed iteration budget: the oracle's search from the native state, from the Python
engine's state of the same position, and the ISMCTS search from the seat's view. Each
figure is the median over ``--repeats`` rounds of the per-call time of a round of
``--calls`` calls (search: ``--search-calls``), in processor time of this process
(``time.process_time_ns``: other load on the machine changes it little). Only APIs that exist before and after
issue 32 are used, so the same script measures both (docs/NATIVE.md, "The boundary's cost").

    .venv/bin/python bench/boundary.py
    .venv/bin/python bench/boundary.py --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from pyramids.bots.ismcts import ISMCTSBot, SearchSettings
from pyramids.bots.oracle import OracleMCTSBot
from pyramids.core.game import State
from pyramids.games import descriptor, load_position, make_game

GAMES = ("flaming", "flags")
PLAYERS = 3
SEED = 7
MID_GAME = 24
"""Random actions played from the deal to reach the measured state."""


def mid_game(name: str, engine: str) -> State:
    """The fixed mid-game state of ``name`` on ``engine`` (a seat to decide, not the end)."""
    state = make_game(name, PLAYERS, engine=engine).new_initial_state(SEED)
    rng = random.Random(SEED)
    played = 0
    while not state.is_terminal() and (played < MID_GAME or state.current_player() < 0):
        state.apply(rng.choice(state.legal_actions()))
        played += 1
    if state.is_terminal():
        raise RuntimeError(f"{name}: the game ended before the measured state")
    return state


def per_call(fn: Callable[[], object], calls: int, repeats: int) -> float:
    """Median over ``repeats`` rounds of the microseconds per call of ``calls`` calls."""
    fn()  # warm up
    rounds = []
    for _ in range(repeats):
        start = time.process_time_ns()
        for _ in range(calls):
            fn()
        rounds.append((time.process_time_ns() - start) / calls / 1000)
    return statistics.median(rounds)


def measure(
    name: str, calls: int, search_calls: int, repeats: int, budget: int
) -> dict[str, float]:
    """Every figure for game ``name`` (microseconds per call)."""
    state = mid_game(name, "native")
    seat = state.current_player()
    legal = state.legal_actions()
    data = state.to_json()
    desc = descriptor(name)
    python_state = load_position(desc, data, engine="python")
    settings = SearchSettings(iterations=budget, search="native")
    oracle = OracleMCTSBot(settings)
    ismcts = ISMCTSBot(settings)
    view = state.view(seat)

    def oracle_native() -> None:
        oracle.search_state(state, legal, random.Random(1))

    def oracle_python() -> None:
        oracle.search_state(python_state, legal, random.Random(1))

    def ismcts_view() -> None:
        ismcts.search(view, legal, random.Random(1))

    return {
        "clone": per_call(state.clone, calls, repeats),
        "view(seat)": per_call(lambda: state.view(seat), calls, repeats),
        "to_json()": per_call(state.to_json, calls, repeats),
        "load_position": per_call(
            lambda: load_position(desc, data, engine="native"), calls, repeats
        ),
        f"search native state ({budget} it)": per_call(oracle_native, search_calls, repeats),
        f"search Python state ({budget} it)": per_call(oracle_python, search_calls, repeats),
        f"search from view ({budget} it)": per_call(ismcts_view, search_calls, repeats),
    }


def main() -> None:
    """Measure every game and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round")
    parser.add_argument("--search-calls", type=int, default=50, help="search calls per round")
    parser.add_argument("--repeats", type=int, default=7, help="rounds (the median is kept)")
    parser.add_argument("--iterations", type=int, default=1, help="the search's budget")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    table: dict[str, dict[str, float]] = {}
    for name in GAMES:
        table[name] = measure(name, args.calls, args.search_calls, args.repeats, args.iterations)
    if args.json:
        print(json.dumps(table, indent=2))
        return
    rows = list(next(iter(table.values())))
    width = max(len(r) for r in rows)
    print(f"{'µs per call':<{width}}  " + "  ".join(f"{g:>9}" for g in GAMES))
    for row in rows:
        print(f"{row:<{width}}  " + "  ".join(f"{table[g][row]:9.2f}" for g in GAMES))


if __name__ == "__main__":
    main()
