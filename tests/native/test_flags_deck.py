"""The native engine's card table is generated from the Python package's deck (one source
of truth): ``native/flags/src/deck.rs`` must be what ``native/flags/scripts/gen_deck.py``
writes from ``pyramids.flags.cards`` today."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_rust_deck_is_generated_from_the_python_deck() -> None:
    """PF-CARD: regenerate with ``python native/flags/scripts/gen_deck.py`` when this fails."""
    script = ROOT / "native" / "flags" / "scripts" / "gen_deck.py"
    done = subprocess.run([sys.executable, str(script), "--check"], check=False)
    assert done.returncode == 0, "native/flags/src/deck.rs is stale: run gen_deck.py"
