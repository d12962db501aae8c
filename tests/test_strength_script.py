"""scripts/strength.py (writes docs/STRENGTH.md) runs end to end in a tiny mode.

Only the page's structure is checked: every figure in it depends on the clock.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "strength.py"

TINY = [
    "--games",
    "flaming",
    "--games-2p",
    "1",
    "--games-4p",
    "1",
    "--h2h-games",
    "1",
    "--h2h-budget",
    "0.005",
    "--speed-budget",
    "0.005",
    "--positions",
    "1",
    "--os-sims",
    "3",
    "--budgets",
    "0.005s",
    "--jobs",
    "1",
]


def test_strength_script_writes_every_section(tmp_path: Path) -> None:
    """A tiny run writes a PRELIMINARY page with the speed, head-to-head, ladder and targets."""
    out = tmp_path / "STRENGTH.md"
    subprocess.run(
        [sys.executable, str(SCRIPT), *TINY, "--out", str(out)],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    page = out.read_text(encoding="utf-8")
    for heading in (
        "# Strength and speed of the search bots",
        "## How this was generated",
        "## Speed: iterations per second",
        "## Head-to-head: our ISMCTS against OpenSpiel's ISMCTS",
        "## Strength ladder",
        "### Flaming Pyramids, 2 players (1 game per line)",
        "### Flaming Pyramids, 4 players (1 game per line)",
        "## Targets",
        "## Full run",
    ):
        assert heading in page, heading
    assert "PRELIMINARY" in page
    for spec in ("random", "greedy", "ismcts:0.005s", "oracle:0.005s"):
        assert f"| {spec} |" in page, spec
    assert "not measured at the required budget and game count" in page
    assert "failed:" not in page
