"""Run the whole test suite under load, several times, and say which tests failed or slowed.

``./run stress`` (docs/TESTING.md, "Under load"). Each run is the README's test command
(``./run test``: lint, types, the Rust checks and every test, with Chromium and a
throwaway PostgreSQL) while CPU hogs keep every core busy: ``stress-ng --cpu N`` when it is
installed (Debian's ``stress-ng``; installed here when this user is root), otherwise N
busy Python processes. ``--random`` runs the tests in a random order (pytest-randomly,
a new seed each run, printed). At the end it prints, for every test that failed in any
run, how many runs it failed in; and, given ``--baseline`` (a JUnit XML file of a run on
an idle machine, e.g. ``./run test --junitxml=idle.xml``), every test that took more than
twice its usual time (and at least ``--slow-floor`` seconds more). The exit status is 1
when any run failed.

    ./run stress                     # 3 runs, 2 hogs (one per core), the suite's own order
    ./run stress -n 1 --random       # one run in a random order
    ./run stress --baseline idle.xml --out stress-runs/
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOG = "while True: pass"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", "--runs", type=int, default=3, help="how many runs (3)")
    p.add_argument("--hogs", type=int, default=os.cpu_count() or 2, help="CPU hogs (one per core)")
    p.add_argument("--random", action="store_true", help="a random test order in each run")
    p.add_argument("--seed", type=int, default=None, help="the first run's order seed")
    p.add_argument("--baseline", type=Path, help="JUnit XML of an idle run: report slow tests")
    p.add_argument("--slow-floor", type=float, default=1.0, help="seconds; see the docstring")
    p.add_argument("--out", type=Path, default=ROOT / "stress-runs", help="logs and XML here")
    p.add_argument("pytest_args", nargs="*", help="passed on to pytest (after --)")
    args = p.parse_args(argv)
    if args.runs < 1 or args.hogs < 0:
        p.error("--runs must be at least 1 and --hogs at least 0")
    return args


def ensure_stress_ng() -> str | None:
    """The path of stress-ng, installing Debian's package when missing and this is root."""
    found = shutil.which("stress-ng")
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "stress-ng"]):
        if subprocess.run(cmd, env=env, check=False, capture_output=True).returncode != 0:
            return None
    return shutil.which("stress-ng")


@contextlib.contextmanager
def load(hogs: int) -> Iterator[str]:
    """Keep ``hogs`` CPUs busy for the block; what the load is, in words."""
    if hogs == 0:
        yield "no load"
        return
    stress = ensure_stress_ng()
    if stress:
        cmds = [[stress, "--cpu", str(hogs), "--cpu-method", "all", "--quiet"]]
        what = f"stress-ng --cpu {hogs}"
    else:
        cmds = [[sys.executable, "-c", HOG] for _ in range(hogs)]
        what = f"{hogs} busy Python processes"
    procs = [subprocess.Popen(cmd, start_new_session=True) for cmd in cmds]
    try:
        yield what
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def results(xml: Path) -> dict[str, tuple[str, float]]:
    """Each test case of a JUnit XML file: its outcome (passed, failed, error, skipped)
    and its seconds."""
    out: dict[str, tuple[str, float]] = {}
    if not xml.exists():
        return out
    for case in ET.parse(xml).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome = "passed"
        for kind in ("failure", "error", "skipped"):
            if case.find(kind) is not None:
                outcome = {"failure": "failed"}.get(kind, kind)
        out[name] = (outcome, float(case.get("time") or 0.0))
    return out


def run_once(index: int, args: argparse.Namespace, seed: int | None) -> tuple[int, Path, float]:
    """One ``./run test`` under load; its exit status, JUnit file and seconds."""
    xml = args.out / f"run-{index}.xml"
    log = args.out / f"run-{index}.log"
    cmd = ["./run", "test", f"--junitxml={xml}"]
    if seed is not None:
        cmd += ["-p", "randomly", f"--randomly-seed={seed}"]
    cmd += args.pytest_args
    with load(args.hogs) as what, log.open("w") as out:
        order = f"random order (seed {seed})" if seed is not None else "the suite's order"
        print(f"run {index}: {' '.join(cmd)} — {what}, {order}", flush=True)
        started = time.monotonic()
        status = subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, check=False)
        took = time.monotonic() - started
    load_avg = os.getloadavg()[0]
    print(
        f"run {index}: exit {status.returncode} in {took / 60:.1f} min "
        f"(load average {load_avg:.1f} at the end); log {log}",
        flush=True,
    )
    return status.returncode, xml, took


def tally(
    runs: list[dict[str, tuple[str, float]]],
    usual: dict[str, float],
    floor: float,
) -> tuple[Counter[str], dict[str, list[float]]]:
    """Over the runs' results: how many runs each test failed in, and for each test that
    took more than twice its ``usual`` seconds (and ``floor`` seconds more), the ratios."""
    failed: Counter[str] = Counter()
    slow: dict[str, list[float]] = {}
    for got in runs:
        for name, (outcome, seconds) in got.items():
            if outcome in ("failed", "error"):
                failed[name] += 1
            before = usual.get(name)
            if before is not None and seconds > 2 * before and seconds - before >= floor:
                slow.setdefault(name, []).append(seconds / max(before, 1e-3))
    return failed, slow


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    seeds = random.Random(args.seed)
    usual = {k: t for k, (_, t) in results(args.baseline).items()} if args.baseline else {}
    statuses, runs = [], []
    unexplained = 0
    for i in range(1, args.runs + 1):
        seed = args.seed if i == 1 and args.seed is not None else seeds.randrange(2**32)
        status, xml, _ = run_once(i, args, seed if args.random else None)
        statuses.append(status)
        got = results(xml)
        runs.append(got)
        if status != 0 and not any(o in ("failed", "error") for o, _ in got.values()):
            unexplained += 1
    failed, slow = tally(runs, usual, args.slow_floor)
    if unexplained:
        failed["(the checks before pytest, or pytest itself: see the log)"] = unexplained
    print(f"\n{len(statuses)} runs: {sum(s == 0 for s in statuses)} green")
    if failed:
        print("failed (runs):")
        for name, n in failed.most_common():
            print(f"  {n}  {name}")
    else:
        print("no test failed")
    if args.baseline:
        if slow:
            print("more than twice their usual time (runs, worst ratio):")
            for name, ratios in sorted(slow.items(), key=lambda kv: -max(kv[1])):
                print(f"  {len(ratios)}  {max(ratios):.1f}x  {name}")
        else:
            print("no test took more than twice its usual time")
    return 0 if all(s == 0 for s in statuses) else 1


if __name__ == "__main__":
    sys.exit(main())
