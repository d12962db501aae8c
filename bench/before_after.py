"""`pyramids bench` on two checkouts in one run, alternating, with the figures side by side.

A change that should not slow anything down (issue 32's boundary work, a refactor) is
measured against the commit before it on the same machine in the same minutes: the
rounds alternate (before, after, before, after ...) so a background load drifting during
the run weighs on both sides alike, and each figure is the median of its rounds.

    git clone -q . /tmp/before && git -C /tmp/before checkout -q <commit>
    cp <that commit's built src/pyramids/_native*.so> /tmp/before/src/pyramids/
    .venv/bin/python bench/before_after.py --before /tmp/before --rounds 3 --seconds 5

Each side runs ``python -m pyramids.cli.main bench --json`` with its own ``src`` first on
``PYTHONPATH`` (this interpreter and its installed libraries for both). Higher is better
for rates, lower for the per-call costs in microseconds; ``after/before`` is printed so
that above 1 is faster for rates and cheaper for costs alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RATES = (
    "turns_per_s_random",
    "turns_per_s_greedy",
    "native_turns_per_s_random",
    "native_turns_per_s_greedy",
    "ismcts_iterations_per_s",
    "native_ismcts_iterations_per_s",
)
"""Figures where more is better."""

COSTS = ("clone_us", "view_us", "native_clone_us", "native_view_us")
"""Figures where less is better (microseconds per call)."""


def bench(tree: Path, game: str, seconds: float) -> dict[str, float]:
    """One ``pyramids bench --json`` of ``game`` on the checkout ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    env.pop("PYRAMIDS_ENGINE", None)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pyramids.cli.main",
            "bench",
            "--json",
            "-g",
            game,
            "-s",
            str(seconds),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        check=True,
        timeout=60 + 40 * seconds,
    ).stdout
    data = json.loads(out)
    figures: dict[str, float] = {}
    for key in (*RATES, *COSTS):
        value = data.get(key, data.get(f"{key}_{game}"))  # one game's keys may carry its name
        if isinstance(value, int | float):
            figures[key] = float(value)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="checkout of the earlier commit")
    parser.add_argument("--after", type=Path, default=ROOT, help="checkout of the later commit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0, help="pyramids bench -s")
    parser.add_argument("--game", action="append", help="flaming, flags (default both)")
    args = parser.parse_args()
    for game in args.game or ["flaming", "flags"]:
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            for side in ("before", "after"):
                runs[side].append(bench(getattr(args, side), game, args.seconds))
        print(
            f"\n{game}: median of {args.rounds} alternating rounds, pyramids bench -s {args.seconds}"
        )
        print(f"{'figure':34} {'before':>12} {'after':>12} {'after/before':>13}")
        for key in (*RATES, *COSTS):
            values = {s: [r[key] for r in runs[s] if key in r] for s in runs}
            if not values["before"] or not values["after"]:
                continue
            before = statistics.median(values["before"])
            after = statistics.median(values["after"])
            better = after / before if key in RATES else before / after
            print(f"{key:34} {before:12.2f} {after:12.2f} {better:12.2f}x")


if __name__ == "__main__":
    main()
