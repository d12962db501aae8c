"""A short sample of the benchmark scripts, so that they keep working between their long runs.

``bench/server_load.py`` with a few tables, seconds and spectators, and the quick attacks
of ``bench/attacks.py``, each against the real ``pyramids serve`` processes they start.
The figures themselves are the scripts' business (bench/README.md); here only that they
run, measure something and give the expected verdicts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_script(*args: str, timeout: float = 240) -> dict[str, object]:
    """Run a bench script with ``--json``; its JSON object."""
    done = subprocess.run(
        [sys.executable, *args, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data: dict[str, object] = json.loads(done.stdout)
    return data


def test_server_load_measures_players_and_spectators() -> None:
    """Two tables for two seconds, with four spectators: actions acknowledged, every
    spectator connected, nothing dropped, no error."""
    fig = run_script(
        "bench/server_load.py",
        *("--tables", "2", "--seconds", "2", "--warmup", "1", "--spectators", "4"),
        *("--rate", "40", "--pin", "off"),
    )
    assert isinstance(fig["actions"], int) and fig["actions"] > 0
    assert fig["error_count"] == 0, fig["errors"]
    assert isinstance(fig["spectator_connects"], int) and fig["spectator_connects"] >= 4
    assert fig["spectator_dropped"] == 0
    assert (
        isinstance(fig["spectator_messages_per_s"], float) and fig["spectator_messages_per_s"] > 0
    )
    assert fig["server_cores"] == [] and fig["target_fanout_met"] is False


def test_the_quick_attacks_are_refused() -> None:
    """The attacks that take no time replay against a real server with today's answers."""
    results = run_script(
        "bench/attacks.py", "--only", "seed", "private", "nesting", "chunked", "origin", "headers"
    )
    text = json.dumps(results, ensure_ascii=False)
    assert "seed_not_allowed" in text
    assert "403 private_table" in text
    assert "malformed" in text and "socket still open" in text
    assert "413" in text
    assert "bad_origin" in text
    assert "all present" in text and "inline script: no" in text
    assert "attack failed" not in text


def test_the_name_and_invisible_text_attacks_are_refused() -> None:
    """Issue 29, items 5 and 11 against a real server: every look-alike name refused, every
    invisible-only chat line and the seat named "\\u3164" refused, smuggled tags removed."""
    results = run_script("bench/attacks.py", "--only", "look-alike-names", "invisible-text")
    names, text = str(results["look-alike-names"]), str(results["invisible-text"])
    assert "8 of 8 refused" in names and "ACCEPTED" not in names
    assert "seat named \\u3164: 422 malformed" in text
    assert "stored ['gg'] (tags removed)" in text
    assert text.count("malformed") == 8 and "attack failed" not in text


ISSUE_29_QUICK = (
    "invite-kept",
    "deal-shopping",
    "cross-site-binding",
    "private-rematch",
    "changed-die",
    "head-one-write",
    "ws-malformed",
)
"""Issue 29's attacks that take a few seconds, each ending with its verdict."""


def test_the_quick_attacks_of_issue_29_are_held() -> None:
    """Issue 29, items 1, 2, 3, 6, 7, 8 and 9 against a real server: each attack's line ends
    "held" (the kept invite, deal shopping, cross-site binding, the private rematch, the
    head in one write, the malformed socket messages) or "not verified" (the changed die)."""
    results = run_script("bench/attacks.py", "--only", *ISSUE_29_QUICK)
    assert set(results) == set(ISSUE_29_QUICK)
    for name in ISSUE_29_QUICK:
        line = str(results[name])
        assert "attack failed" not in line and "BROKEN" not in line, line
    held = [name for name in ISSUE_29_QUICK if name != "changed-die"]
    assert all(str(results[name]).endswith("held") for name in held), results
    assert "says not verified" in str(results["changed-die"])


def test_hint_and_analysis_floods_are_held() -> None:
    """Issue 30 against a real server: hints limited per address and per table, one
    search per decision, the queue capped (503 busy); analyses capped at once, limited per
    address, computed once and served unchanged. Each line ends "held"."""
    results = run_script("bench/attacks.py", "--only", "hint-flood", "analysis-flood")
    for name in ("hint-flood", "analysis-flood"):
        line = str(results[name])
        assert "attack failed" not in line and line.endswith("held"), line
