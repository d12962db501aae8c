"""The long proof that the native core plays the Python engines' games (docs/NATIVE.md).

Runs the differential tests' ``long_run(seeds, first_seed)`` (tests/native/
test_flaming_differential.py and test_flags_differential.py: seeded games through both
engines, everything compared after every action) in batches of seeds until each game has
compared at least ``--actions`` actions (1,000,000 by default, the issue's figure), printing
games, compared actions and seconds per game as it goes; then fuzzes the native position
parsers (``cargo +nightly fuzz``, native/fuzz) for ``--fuzz-seconds`` per target.

Exits 1 at the first mismatch (the seed and what differed are printed) or when a fuzz target
finds a crash; 2 when it cannot run (the native core not built, cargo-fuzz missing).

    .venv/bin/python scripts/native_differential.py -j 2                # 1M actions a game
    .venv/bin/python scripts/native_differential.py --actions 20000 --fuzz-seconds 10
    .venv/bin/python scripts/native_differential.py --game flags --fuzz-seconds 0
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NATIVE_DIR = ROOT / "native"
FUZZ_DIR = NATIVE_DIR / "fuzz"
GAMES = ("flaming", "flags")
DIFFERENTIAL = {game: f"tests.native.test_{game}_differential" for game in GAMES}
"""The module of each game's differential test (its ``long_run``)."""
FUZZ_TARGETS = {
    "flaming": ("flaming_position", "flaming_position_json"),
    "flags": ("flags_position", "flags_position_json"),
}
"""native/fuzz's targets by game (bytes, and JSON shaped like positions)."""
SEED_POSITIONS = 40
"""Positions of seeded random games written as the starting corpus of the bytes targets."""


@dataclass
class Tally:
    """One game's running totals."""

    games: int = 0
    actions: int = 0
    seconds: float = 0.0

    def line(self, game: str) -> str:
        """The progress line."""
        per_game = self.seconds / self.games if self.games else 0.0
        rate = self.actions / self.seconds if self.seconds else 0.0
        return (
            f"{game}: {self.games:,} games, {self.actions:,} compared actions, "
            f"{per_game:.3f} s a game, {rate:,.0f} actions/s, {self.seconds:,.0f} s"
        )


def counted(result: Any, seeds: int) -> tuple[int, int]:
    """(games, compared actions) from what ``long_run`` returned: a number of actions, a
    mapping or an object with ``games`` and ``actions`` (or ``compared_actions``), or a
    (games, actions) pair."""
    if isinstance(result, bool) or result is None:
        raise TypeError(f"long_run returned {result!r}: expected its compared actions")
    if isinstance(result, int):
        return seeds, result
    if isinstance(result, Mapping):
        compared = result["compared_actions"] if "compared_actions" in result else result["actions"]
        return int(result.get("games", seeds)), int(compared)
    if isinstance(result, tuple) and len(result) >= 2:
        return int(result[0]), int(result[1])
    return int(getattr(result, "games", seeds)), int(result.actions)


def long_run_of(game: str) -> Callable[..., Any]:
    """The ``long_run`` of ``game``'s differential test."""
    sys.path.insert(0, str(ROOT))
    module = importlib.import_module(DIFFERENTIAL[game])
    run: Callable[..., Any] = module.long_run
    return run


def run_batch(
    game: str, batch: int, seed: int, fault: str | None
) -> tuple[int, int, float, str | None]:
    """One ``long_run(batch, seed)`` of ``game``: (games, compared actions, seconds, the
    failure or None), with the test-only ``fault`` of the native core switched on. Runs in
    a worker process."""
    start = time.perf_counter()
    core = importlib.import_module("pyramids._native")
    getattr(core, f"{game}_set_fault")(fault)
    try:
        result = long_run_of(game)(batch, seed)
    except Exception as exc:  # a mismatch (the tests' MismatchError), or a crash: both fail
        return 0, 0, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    games, compared = counted(result, batch)
    return games, compared, time.perf_counter() - start, None


def differential(
    game: str,
    actions: int,
    *,
    first_seed: int = 0,
    batch: int = 20,
    max_seconds: float = float("inf"),
    jobs: int = 1,
    fault: str | None = None,
) -> bool:
    """Batches of seeds through ``long_run`` (in ``jobs`` processes) until ``actions``
    compared; False on a mismatch. ``seconds`` in the lines is the work's (summed over jobs)."""
    tally = Tally()
    next_seed = first_seed
    last = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        running: dict[Future[tuple[int, int, float, str | None]], int] = {}
        while True:
            while len(running) < jobs and tally.actions < actions and tally.seconds < max_seconds:
                running[pool.submit(run_batch, game, batch, next_seed, fault)] = next_seed
                next_seed += batch
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                seed = running.pop(future)
                games, compared, spent, failure = future.result()
                if failure is not None:
                    print(f"{game}: seeds {seed}..{seed + batch - 1}: {failure}", flush=True)
                    for other in running:
                        other.cancel()
                    return False
                tally.games += games
                tally.actions += compared
                tally.seconds += spent
            if time.monotonic() - last >= 10:
                print(tally.line(game), flush=True)
                last = time.monotonic()
    print(f"{tally.line(game)}; seeds {first_seed}..{next_seed - 1}: no difference", flush=True)
    return True


def seed_positions(game: str, count: int) -> Iterator[str]:
    """Position JSON of seeded random games at random points (the Python engine's)."""
    from pyramids.games import descriptor, make

    desc = descriptor(game)
    low, high = desc.info.min_players, desc.info.max_players
    for i in range(count):
        state = make(desc, low + i % (high - low + 1), engine="python").new_initial_state(i)
        rng = random.Random(i)
        stop = rng.randrange(1, 400)
        for _ in range(stop):
            if state.is_terminal():
                break
            if state.current_player() < 0:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        yield json.dumps(state.to_json())


def fuzz(game: str, seconds: int) -> bool:
    """Each fuzz target of ``game`` for ``seconds``; False when one finds a crash."""
    for target in FUZZ_TARGETS[game]:
        corpus = FUZZ_DIR / "corpus" / target
        corpus.mkdir(parents=True, exist_ok=True)
        if not target.endswith("_json") and not any(corpus.iterdir()):
            for i, text in enumerate(seed_positions(game, SEED_POSITIONS)):
                (corpus / f"seed-{i:03d}.json").write_text(text, encoding="utf-8")
        command = [
            *("cargo", "+nightly", "fuzz", "run", "--fuzz-dir", "fuzz", "-O", target),
            str(corpus),
            "--",
            f"-max_total_time={seconds}",
            "-rss_limit_mb=2048",
            "-print_final_stats=1",
        ]
        print(f"fuzz {target}: {seconds} s ({' '.join(command)})", flush=True)
        done = subprocess.run(command, cwd=NATIVE_DIR, capture_output=True, text=True, check=False)
        stats = [line for line in done.stderr.splitlines() if line.startswith("stat::")]
        runs = next(
            (line.split(":")[-1].strip() for line in stats if "number_of_executed_units" in line),
            "?",
        )
        if done.returncode != 0:
            print(done.stderr[-4000:], file=sys.stderr)
            print(f"fuzz {target}: FAILED (artifacts in native/fuzz/artifacts/{target})")
            return False
        print(f"fuzz {target}: {runs} inputs, no panic, every parsed position round-trips")
    return True


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the differential and the fuzzing; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--actions", type=int, default=1_000_000, help="compared actions per game")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=20, help="seeds per long_run call")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--fault",
        default=None,
        help="switch on a test-only fault of the native core (e.g. flaming no_curse): the "
        "run must then fail, proving it can (docs/NATIVE.md)",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=float("inf"), help="stop a game's run after this"
    )
    parser.add_argument(
        "--fuzz-seconds", type=int, default=30, help="seconds per fuzz target (0: no fuzzing)"
    )
    args = parser.parse_args(argv)
    games = GAMES if args.game == "all" else (args.game,)
    try:
        importlib.import_module("pyramids._native")
    except ImportError as exc:
        print(f"error: the native core is not built ({exc}); run ./run first", file=sys.stderr)
        return 2
    if args.fuzz_seconds > 0 and shutil.which("cargo") is None:
        print("error: --fuzz-seconds needs cargo (and cargo-fuzz, nightly)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    for game in games:
        if args.actions > 0 and not differential(
            game,
            args.actions,
            first_seed=args.first_seed,
            batch=args.batch,
            max_seconds=args.max_seconds,
            jobs=args.jobs,
            fault=args.fault,
        ):
            return 1
    for game in games:
        if args.fuzz_seconds > 0 and not fuzz(game, args.fuzz_seconds):
            return 1
    print(f"done in {time.perf_counter() - started:,.0f} s: no difference, no crash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
