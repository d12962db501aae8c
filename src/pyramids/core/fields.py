"""Reading the fields of a position's JSON, with errors that say what is wrong.

Shared by every game's position notation (``PositionError`` names the field and the
value it refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyramids.core.errors import PositionError


def int_field(data: Mapping[str, Any], name: str, default: int | None = None) -> int:
    """``data[name]`` as an integer (``default`` when absent); PositionError otherwise."""
    value = data.get(name, default)
    if value is None:
        raise PositionError(f"the position has no '{name}'")
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"'{name}' must be an integer, not {value!r}")
    return value
