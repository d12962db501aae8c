"""scripts/strength.py writes issue 28's figures (docs/STRENGTH.md, strength.json).

A tiny run checks the page's structure and the files' formats (every figure in it depends
on a game or two, or on the clock); the verdicts are checked on made-up results.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pyramids.bots import BOT_LEVELS, LADDER, make_bot

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "strength.py"
ISSUE_ROWS = (
    "Flaming 2p: `normal` vs `greedy`",
    "Flaming 4p: `normal` vs three `greedy`",
    "Flags 2p: `normal` vs `greedy`",
    "Flags 4p: `normal` vs three `greedy`",
    "each level vs the level below, 2p, both games",
    "vs OpenSpiel's ISMCTS at equal time",
    "learned against hand-made evaluation at equal time",
    "inference on against off at equal time",
    "oracle vs honest search at equal budget",
    "time a decision of `normal` on this machine, native",
    "time a decision of the strongest level",
    "mean game length with a search seat",
)


@pytest.fixture(scope="module")
def strength() -> Iterator[SimpleNamespace]:
    """The script's lines and page modules (scripts/strength_lines.py, strength_page.py)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        lines = importlib.import_module("strength_lines")
        page = importlib.import_module("strength_page")
        yield SimpleNamespace(
            **vars(lines), **{k: v for k, v in vars(page).items() if k not in vars(lines)}
        )
    finally:
        sys.path.remove(str(SCRIPT.parent))


def run(tmp_path: Path, *args: str) -> str:
    """Run the script into ``tmp_path`` in a tiny mode; its progress lines (stderr)."""
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            *("--quick", "--games", "1", "--jobs", "1"),
            *("--out", str(tmp_path / "STRENGTH.md")),
            *("--results", str(tmp_path / "lines.json")),
            *("--levels-json", str(tmp_path / "strength.json")),
            *args,
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    return done.stderr


def test_a_tiny_run_writes_the_issue_figures_and_merges_reruns(tmp_path: Path) -> None:
    """A PRELIMINARY page with the issue's twelve figures, each line printed as it finishes;
    ``--only`` merges a rerun line into the page, keeping the others."""
    log = run(tmp_path, "--only", "flaming-2p-normal,flaming-2p-greedy,flaming-beginner-random")
    assert "flaming-2p-normal: 1/1 = " in log and "estimated full run" in log
    log = run(tmp_path, "--only", "flags-2p-normal")
    assert "flags-2p-normal: " in log and "flaming-2p-normal" not in log
    page = (tmp_path / "STRENGTH.md").read_text(encoding="utf-8")
    for heading in ("## How this was generated", "## Figures", "## Lines", "## Targets"):
        assert heading in page, heading
    assert "PRELIMINARY" in page and "## Full run" in page
    for row in ISSUE_ROWS:
        assert f"| {row}" in page, row
    assert "| flaming-2p-normal | Flaming 2p: normal vs greedy |" in page
    assert "| flags-2p-normal | Flags 2p: normal vs greedy |" in page
    assert "| flags-hard-normal | Flags 2p: hard vs normal |" in page  # listed, not run
    assert "not measured: not run yet" in page
    data = json.loads((tmp_path / "lines.json").read_text(encoding="utf-8"))
    assert [r["run"] for r in data["lines"].values()] == [0, 0, 0, 1]
    assert len(data["runs"]) == 2 and "load_after" in data["runs"][1]


def test_strength_json_has_every_level_in_the_lobby_format(tmp_path: Path) -> None:
    """strength.json: each LADDER level's p95 and score against the level below, per game;
    null where the line was not run."""
    run(tmp_path, "--only", "flaming-beginner-random")
    data = json.loads((tmp_path / "strength.json").read_text(encoding="utf-8"))
    assert set(data) == {"measured", "machine", "levels"}
    assert list(data["levels"]) == list(LADDER)
    beginner = data["levels"][LADDER[0]]
    assert beginner["vs_below"]["flaming"]["games"] == 1
    assert set(beginner["vs_below"]["flaming"]) == {"rate", "games", "ci"}
    assert beginner["ms_p95"]["flaming"] > 0
    assert beginner["vs_below"]["flags"] is None and beginner["ms_p95"]["flags"] is None


def test_equal_time_spec_keeps_normal_settings_with_a_seconds_budget(
    strength: SimpleNamespace,
) -> None:
    """Our side at equal time is ``normal`` with seconds instead of iterations."""
    for game in ("flaming", "flags"):
        spec, lost = strength.timed_spec("normal", "0.05", game)
        normal = BOT_LEVELS["normal"].settings_for(game, 2)
        timed = make_bot(spec).settings  # type: ignore[attr-defined]
        assert timed.seconds == 0.05 and timed.iterations is None
        assert timed.rollout == normal.rollout and timed.guided == normal.guided
        assert (timed.inference, timed.evaluation) == (normal.inference, normal.evaluation)
        assert timed.rollout_cap == normal.rollout_cap
        assert lost == []


def test_oracle_line_plays_the_oracle_at_the_honest_search_budget(
    strength: SimpleNamespace,
) -> None:
    """The oracle line's first bot reads the true state with ``normal``'s settings."""
    line = next(x for x in strength.lines() if x.id == "flags-oracle")
    oracle, honest = (make_bot(spec) for spec in line.bots)
    assert getattr(oracle, "reads_true_state", False)
    assert oracle.settings == honest.settings  # type: ignore[attr-defined]


def fake(lid: str, rate: float, *, games: int = 100, turns: float = 50.0) -> dict[str, Any]:
    """A made-up line result."""
    return {
        "id": lid,
        "game": lid.split("-", maxsplit=1)[0],
        "players": 4 if "-4p-" in lid else 2,
        "bots": ["s", "o"],
        "games": games,
        "full_games": 100,
        "wins": rate * games,
        "rate": rate,
        "ci": [max(0.0, rate - 0.03), min(1.0, rate + 0.03)],
        "turns": turns,
        "ms_mean": {"s": 100.0},
        "ms_p95": {"s": 200.0},
        "engine": "native",
        "skipped": None,
    }


def verdicts(strength: SimpleNamespace, results: dict[str, dict[str, Any]]) -> dict[str, str]:
    """The Targets words by the issue's row."""
    return {what: strength.verdict_word(v) for what, _goal, v in strength.targets(results)}


def test_targets_are_met_only_when_every_line_reaches_them(strength: SimpleNamespace) -> None:
    """Flaming 2p needs 90%: 95% is met, 85% not; a line not run is not measured; a level
    that loses to the level below fails the ladder; the oracle must be ahead."""
    results = {line.id: fake(line.id, 0.95) for line in strength.lines()}
    assert set(verdicts(strength, results).values()) <= {"**met**", "measured"}
    results["flaming-2p-normal"] = fake("flaming-2p-normal", 0.85)
    results["flags-hard-normal"] = fake("flags-hard-normal", 0.4)
    results["flags-oracle"] = fake("flags-oracle", 0.5)
    del results["flags-inference"]
    words = verdicts(strength, results)
    assert words["Flaming 2p: `normal` vs `greedy`"].startswith("**not met**")
    assert words["each level vs the level below, 2p, both games"] == "**not met**"
    assert words["oracle vs honest search at equal budget"].startswith("**not met**")
    assert words["inference on against off at equal time"] == "not measured"


def test_game_length_target_compares_with_greedy_against_greedy(strength: SimpleNamespace) -> None:
    """A search seat's games may last at most 1.5 times greedy against greedy's."""
    results = {line.id: fake(line.id, 0.95) for line in strength.lines()}
    what = "mean game length with a search seat (`normal` against greedy)"
    results["flags-4p-normal"] = fake("flags-4p-normal", 0.95, turns=74.0)
    assert verdicts(strength, results)[what] == "**met**"
    results["flags-4p-normal"] = fake("flags-4p-normal", 0.95, turns=76.0)
    assert verdicts(strength, results)[what] == "**not met**"


def test_decision_times_count_only_on_the_native_engine(strength: SimpleNamespace) -> None:
    """The time targets are the native search's: p95 200 ms on the Python engine fails."""
    results = {line.id: fake(line.id, 0.95) for line in strength.lines()}
    what = "time a decision of `normal` on this machine, native"
    assert verdicts(strength, results)[what] == "**met**"
    results["flags-4p-normal"]["engine"] = "python"
    assert verdicts(strength, results)[what] == "**not met**"


def test_a_reduced_line_says_so_in_its_verdict(strength: SimpleNamespace) -> None:
    """A line with fewer games than the issue asks is marked, met or not."""
    results = {line.id: fake(line.id, 0.95) for line in strength.lines()}
    results["flags-2p-normal"] = fake("flags-2p-normal", 0.95, games=4)
    words = verdicts(strength, results)
    assert words["Flags 2p: `normal` vs `greedy`"] == "**met** (reduced size)"


def test_unknown_line_ids_are_refused(tmp_path: Path) -> None:
    """``--only`` names lines; a wrong one is refused with the known ones."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--only", "flaming-9p", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert "unknown line 'flaming-9p'" in done.stderr and "flags-inference" in done.stderr
