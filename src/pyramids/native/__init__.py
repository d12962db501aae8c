"""The native core's Python face: each game's native engine behind the ``pyramids.core`` protocol.

``pyramids._native`` (Rust, PyO3, built from ``native/`` by maturin) holds both games'
rules and the search loop. The modules here wrap it so that every host plays on it
without knowing (``pyramids.core.engine`` picks the engine; docs/NATIVE.md). Importing a
game's module needs the built extension.
"""

from __future__ import annotations

import importlib
from typing import Any


def binding(name: str) -> Any:
    """The function ``name`` of the extension module (e.g. ``flaming_self_play``, which
    ``pyramids bench`` times), or None when the native core is not built or has none."""
    try:
        module = importlib.import_module("pyramids._native")
    except ImportError:
        return None
    return getattr(module, name, None)
