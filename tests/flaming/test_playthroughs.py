"""Golden playthroughs (OpenSpiel style): seeded games must replay to the same text.

``scripts/regen_playthroughs.py`` wrote ``playthroughs/*.txt``: for each step of a seeded
game played by random bots through ``core.play_game``, the decision, legal actions,
view, action, event texts (said by the message catalogue, ``pyramids.texts.describe``)
and position. Any change to rules, notation, views, event facts or catalogue sentences,
bots or seeding shows up here as a line-by-line difference.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "regen_playthroughs.py"
HOW_TO_FIX = (
    "if the rules, texts or views changed on purpose, bump the rules version when behaviour "
    "changed, run `.venv/bin/python scripts/regen_playthroughs.py` and review the diff"
)


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_playthroughs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regen_playthroughs", module)
    spec.loader.exec_module(module)
    return module


REGEN = _load_script()


def test_every_spec_has_a_golden_file_and_no_file_is_orphaned() -> None:
    """Each golden game of the script has its file, and each file has its game."""
    expected = {REGEN.path_of(spec).name for spec in REGEN.SPECS}
    present = {p.name for p in REGEN.PLAYTHROUGH_DIR.glob("*.txt")}
    assert expected == present, (
        f"missing {sorted(expected - present)}, extra {sorted(present - expected)}"
    )


@pytest.mark.parametrize("spec", REGEN.SPECS, ids=[s.name for s in REGEN.SPECS])
def test_playthrough_matches_golden_file(spec: object) -> None:
    """Same seed, bots and rules: the same game, step by step (core: same seed, same game)."""
    path = REGEN.path_of(spec)
    assert path.exists(), f"{path.name} is missing: {HOW_TO_FIX}"
    golden = path.read_text(encoding="utf-8").splitlines()
    actual = REGEN.render(spec).splitlines()
    for number, (want, got) in enumerate(zip(golden, actual, strict=False), start=1):
        if want != got:
            pytest.fail(
                f"{path.name} line {number} differs:\n  golden: {want[:400]}\n  now:    {got[:400]}\n"
                f"{HOW_TO_FIX}"
            )
    assert len(golden) == len(actual), (
        f"{path.name}: {len(golden)} golden lines, {len(actual)} now; {HOW_TO_FIX}"
    )
