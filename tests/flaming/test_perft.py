"""Perft counts (python-chess style) for fixed Flaming Pyramids positions.

Each file in ``perft/`` holds a header (how the depth-1 and depth-2 counts are made up,
verified by hand), one position JSON line, and ``depth N count C`` lines: the number of
action sequences of length N from the position (fall sides, die faces and, in call-out
mode, ``ok`` and the calls of a check count as actions; a finished game has none).
Regenerate with ``scripts/regen_perft.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pyramids.flaming import position_from_json
from tests.flaming.perft_count import perft, reference_perft
from tests.flaming.reference import Reference

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass(frozen=True)
class PerftCase:
    """One perft file: the position and its counts by depth."""

    name: str
    position: dict[str, Any]
    counts: dict[int, int]


def load(path: Path) -> PerftCase:
    """Parse a perft file."""
    position: dict[str, Any] | None = None
    counts: dict[int, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("{"):
            position = json.loads(line)
            continue
        word, depth, word2, count = line.split()
        assert (word, word2) == ("depth", "count"), f"{path.name}: bad line {line!r}"
        counts[int(depth)] = int(count)
    assert position is not None, f"{path.name} has no position line"
    return PerftCase(path.stem, position, counts)


CASES = [load(p) for p in sorted(PERFT_DIR.glob("*.txt"))]


def test_perft_files_cover_depths_one_to_three() -> None:
    """Every perft file has counts for depths 1, 2 and 3; at least five positions."""
    assert len(CASES) >= 5
    for case in CASES:
        assert sorted(case.counts) == [1, 2, 3], case.name


def test_perft_files_cover_callout_mode() -> None:
    """FP-CALL: call-out positions of both variants, a pending check, overlooked mayhem and a
    die roll in the resolution of overlooked mayhem are counted."""
    callout = [c for c in CASES if c.position["rules"].get("callout", "off") != "off"]
    assert {c.position["rules"]["callout"] for c in callout} == {"family", "competitive"}
    assert any(c.position.get("pending", {}).get("kind") == "check" for c in callout)
    assert any(c.position.get("overlooked") for c in callout)
    assert any(
        c.position.get("overlooked") and c.position.get("pending", {}).get("kind") == "die"
        for c in callout
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_perft_counts(case: PerftCase) -> None:
    """FP-PLACE-4 "the legal placements are all (hand tile, spot of F) pairs", FP-AIR, FP-DIE."""
    state = position_from_json(case.position)
    for depth, count in sorted(case.counts.items()):
        assert perft(state, depth) == count, f"{case.name}: depth {depth}"
    assert state.to_json() == position_from_json(case.position).to_json(), "perft changed the root"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_perft_counts_agree_with_the_naive_reference(case: PerftCase) -> None:
    """FP-MAYHEM-1: the naive full-rescan transcription of the contract counts the same."""
    for depth, count in sorted(case.counts.items()):
        assert reference_perft(Reference(case.position), depth) == count, f"{case.name}: {depth}"
