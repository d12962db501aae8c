"""scripts/strength.py (writes docs/STRENGTH.md) runs end to end in a tiny mode.

Only the page's structure is checked: every figure in it depends on the clock.
"""

from __future__ import annotations

import importlib
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
    "--nvp-games",
    "1",
    "--nvp-budget",
    "0.005",
    "--nvp-positions",
    "1",
]


def native_built() -> bool:
    """Whether the native search can run (else the page has the Python search only)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        return bool(importlib.import_module("strength_native").native_built())
    finally:
        sys.path.pop(0)


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
    search = "native" if native_built() else "python"
    for spec in ("random", "greedy", "ismcts:0.005s+python", f"oracle:0.005s+{search}"):
        assert f"| {spec} |" in page, spec
    if search == "native":
        for heading in (
            "## Native search against the Python search",
            "### Iterations per second at the `normal` settings",
            "### Head-to-head: `normal` on the native search against the Python search",
            "### Gain of the native search per level (ladder against greedy)",
        ):
            assert heading in page, heading
        assert "| ismcts:0.005s+native |" in page
        assert "native / Python ≥ 30×" in page
        assert "scripts/strength.py --native-run --jobs 2" in page
    assert "not measured at the required budget and game count" in page
    assert "failed:" not in page
