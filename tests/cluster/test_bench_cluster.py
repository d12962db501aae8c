"""A short sample of ``bench/cluster.py``, so that it keeps working between its long runs.

Tiny options (3 s per instance count, 2 timed kills, a 3-table chaos run with 2 kills):
the script starts its own clusters, and its JSON must hold every figure of
bench/README.md's "Cluster" section. The figures themselves are the bench's business;
here only that it measures something and that the chaos part lost and doubled nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cluster.conftest import require_services

ROOT = Path(__file__).resolve().parents[2]
TINY = [
    *("--seconds", "3", "--warmup", "1", "--tables", "4"),
    *("--kills", "2", "--takeover-tables", "4", "--per-kill", "1"),
    *("--chaos-tables", "3", "--chaos-kills", "2", "--chaos-think", "0.2"),
]
THROUGHPUT_KEYS = {"actions_per_s", "actions", "p50_ms", "p90_ms", "p99_ms", "max_ms"}
TAKEOVER_KEYS = {"takeover_p50_s", "takeover_p99_s", "takeover_max_s", "all_resumed_max_s"}


def test_bench_cluster_reports_every_figure(tmp_path: Path) -> None:
    """Throughput for 1, 2 and 3 instances, takeover p50/p99/max over the kills, and the
    chaos run's lost and duplicated counts (0), in the JSON written by ``--out``."""
    require_services()
    out = tmp_path / "cluster.json"
    done = subprocess.run(
        [sys.executable, "bench/cluster.py", *TINY, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=420,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "(a) throughput" in done.stdout and "(c) chaos" in done.stdout
    fig = json.loads(out.read_text())

    rows = fig["throughput"]
    assert [r["instances"] for r in rows] == [1, 2, 3]
    for r in rows:
        assert set(r) >= THROUGHPUT_KEYS, r
        assert r["actions"] > 0 and r["p50_ms"] > 0, r
        assert r["error_count"] == 0, r["errors"]

    takeover = fig["takeover"]
    assert set(takeover) >= TAKEOVER_KEYS, takeover
    assert takeover["kills"] == 2 == len(takeover["samples"])
    assert takeover["not_resumed"] == 0, takeover["samples"]
    # a lease outlives its holder by about 3 s: a takeover takes at least a second or so
    assert 0.5 < takeover["takeover_p50_s"] <= takeover["takeover_max_s"] < 20

    chaos = fig["chaos"]
    assert len(chaos["kills"]) == 2
    assert chaos["tables_finished"] == chaos["tables"] == 3
    assert fig["lost"] == chaos["lost"] == 0, chaos["problems"]
    assert fig["duplicated"] == chaos["duplicated"] == 0, chaos["problems"]
    assert chaos["clients_complete"] == chaos["clients"]
