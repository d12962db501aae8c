"""A short sample of ``scripts/bot_ratings.py`` (the full run measures every band with 60
games by default: docs/PLAYERS.md): one band of two games is played, the others are filled from the
nearest measured band, and the file the server reads comes out whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from openskill.models import PlackettLuce

ROOT = Path(__file__).resolve().parents[1]


def test_bot_ratings_plays_a_band_and_fills_the_others(tmp_path: Path) -> None:
    out = tmp_path / "bot_ratings.json"
    done = subprocess.run(
        [
            sys.executable,
            "scripts/bot_ratings.py",
            *("--games", "3", "--only", "flaming:5"),
            *("--reports", str(tmp_path / "reports"), "--out", str(out)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    five = data["games"]["flaming"]["5-6"]
    assert five["measured"] is True and five["games"] == 3 and five["players"] == 5
    assert five["command"].startswith("pyramids tournament --game flaming --players 5")
    assert set(five["ratings"]) == {"random", "beginner", "greedy", "normal", "hard"}
    for band in ("2", "3-4"):
        assert data["games"]["flaming"][band] == {
            "measured": False,
            "from_band": "5-6",
            "note": "not measured: the ratings of band 5-6",
            "ratings": five["ratings"],
        }
    assert "flags" not in data["games"]  # no band of it measured: left out, with a warning
    assert "no band of flags is measured" in done.stderr
    default = PlackettLuce().rating()
    assert (data["model"]["mu"], data["model"]["sigma"]) == (default.mu, default.sigma)
