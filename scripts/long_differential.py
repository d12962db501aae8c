"""The differential test at length: the engine against tests/flaming/reference.py over many games.

``tests/flaming/test_differential.py`` plays a few seeded games per case in CI; this
plays as many as you ask, for every case: the engine resolving mayhem (every preset,
fire die on and off) and call-out mode (family and competitive, curse and fire die on
and off), 2 to 6 players, with every policy of the test (random, and for call-out the
checking, lax and mayhem-seeking checkers). After every action the legal actions,
position, events, views and returns must be equal; the first difference is printed
with the seed and the actions that reach it, and the script exits with status 1.
Run from the repository root:

    .venv/bin/python scripts/long_differential.py --seeds 50
    .venv/bin/python scripts/long_differential.py --seeds 200 --callout-only
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.flaming.test_differential import (  # noqa: E402
    CALLOUT_CASES,
    CALLOUT_POLICIES,
    CASES,
    POLICIES,
    MismatchError,
    _callout_game,
    play_both,
)

from pyramids.flaming import FlamingGame, FlamingOptions  # noqa: E402

FIRST_SEED = 1000
"""Seeds from here on: the CI test uses the small ones."""


def main() -> int:
    """Play the games; 0 when the engine and the reference agree throughout, 1 otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="games per case and policy")
    parser.add_argument("--callout-only", action="store_true", help="only call-out mode")
    parser.add_argument("--max-turns", type=int, default=200)
    args = parser.parse_args()
    runs: list[tuple[str, FlamingGame, tuple[str, ...]]] = []
    if not args.callout_only:
        for players, preset, fire_die in CASES:
            options = FlamingOptions(preset=preset, fire_die=fire_die, max_turns=args.max_turns)
            runs.append(
                (f"{players}p {preset} die={fire_die}", FlamingGame(players, options), ("random",))
            )
    for variant, players, curse, fire_die in CALLOUT_CASES:
        game = _callout_game(variant, players, curse, fire_die, max_turns=args.max_turns)
        name = f"{players}p callout={variant} curse={curse} die={fire_die}"
        runs.append((name, game, ("random", *CALLOUT_POLICIES)))
    start = time.monotonic()
    games = actions = 0
    for name, game, policies in runs:
        for policy in policies:
            for seed in range(FIRST_SEED, FIRST_SEED + args.seeds):
                try:
                    actions += len(play_both(game, seed, POLICIES[policy]))
                except MismatchError as exc:
                    print(f"MISMATCH in {name}, policy {policy}, seed {seed}:\n{exc}")
                    return 1
                games += 1
        print(f"{name}: agreed ({games} games, {actions} actions so far)", flush=True)
    print(f"all agreed: {games} games, {actions} actions in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
