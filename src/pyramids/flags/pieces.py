"""The 30 pyramids of Pyramids and Flags (PF-PIECE-1, PF-PIECE-2): names, colours, sizes.

A piece is an int ``colour * 3 + size - 1``. Colours are numbered in the contract's
order: the six flag colours ``K W Y B G R`` (pieces 0..17, on the table) and the four
scoring colours ``O P C X`` (pieces 18..29, in the bank). ``B3`` is the large blue.
"""

from __future__ import annotations

from typing import Any

from pyramids.core.errors import PositionError

COLOURS = "KWYBGROPCX"
"""Colour letters, in piece order: black, white, yellow, blue, green, red (flag colours),
then orange, purple, cyan, clear (scoring colours)."""

FLAG_COLOURS = COLOURS[:6]
SCORING_COLOURS = COLOURS[6:]
NUM_PIECES = 30
NUM_FLAG_PIECES = 18
FIRST_SCORING = 18
"""Pieces below this are flag pieces; pieces from it on are scoring pieces."""

COLOUR_NAMES_EN = {
    "K": "black",
    "W": "white",
    "Y": "yellow",
    "B": "blue",
    "G": "green",
    "R": "red",
    "O": "orange",
    "P": "purple",
    "C": "cyan",
    "X": "clear",
}
COLOUR_NAMES_FR = {
    "K": "noir",
    "W": "blanc",
    "Y": "jaune",
    "B": "bleu",
    "G": "vert",
    "R": "rouge",
    "O": "orange",
    "P": "violet",
    "C": "cyan",
    "X": "transparent",
}

NAMES: tuple[str, ...] = tuple(f"{c}{s}" for c in COLOURS for s in (1, 2, 3))
"""Piece -> code, e.g. NAMES[0] == "K1"."""
BY_NAME: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
COLOUR_OF: tuple[int, ...] = tuple(i // 3 for i in range(NUM_PIECES))
"""Piece -> colour index (into COLOURS)."""
SIZE: tuple[int, ...] = tuple(i % 3 + 1 for i in range(NUM_PIECES))
"""Piece -> size: 1 small, 2 medium, 3 large."""

TREES: tuple[tuple[int, int, int], ...] = tuple((c * 3 + 2, c * 3 + 1, c * 3) for c in range(6))
"""Flag colour index -> its tree, bottom to top: ``C3 C2 C1`` (PF-TREE-1)."""

FLAG_PIECES_MASK = (1 << NUM_FLAG_PIECES) - 1
SCORING_PIECES_MASK = ((1 << NUM_PIECES) - 1) & ~FLAG_PIECES_MASK


def piece(colour: str, size: int) -> int:
    """The piece of colour letter ``colour`` and ``size`` (1..3)."""
    return COLOURS.index(colour) * 3 + size - 1


def is_flag_piece(p: int) -> bool:
    """Whether ``p`` is one of the 18 flag pieces (K W Y B G R)."""
    return 0 <= p < NUM_FLAG_PIECES


def is_scoring_piece(p: int) -> bool:
    """Whether ``p`` is one of the 12 scoring pieces (O P C X)."""
    return FIRST_SCORING <= p < NUM_PIECES


def json_fact(value: Any) -> Any:
    """``value`` as a refusal's fact: JSON values stay as they are (a tuple becomes a list),
    anything else is named by its type (``<bytes>``), never by its Python repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [json_fact(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_fact(v) for k, v in value.items()}
    return f"<{type(value).__name__}>"


INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
"""The integers both engines hold: a number of the notation beyond them is refused."""


def read_int(value: Any, field: str, low: int, high: int | None = None) -> int:
    """``value`` (read at ``field``) as an integer from ``low`` to ``high`` (None: no bound).

    The shared ``position.*`` refusals of ``core.fields``, in its order:
    ``position.not_an_integer`` (a JSON ``true`` is no integer), ``position.integer_too_large``
    (beyond signed 64 bits: no engine holds it, so no value), ``position.out_of_range``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError("position.not_an_integer", field=field, value=json_fact(value))
    if not INT64_MIN <= value <= INT64_MAX:
        raise PositionError("position.integer_too_large", field=field)
    if value < low or (high is not None and value > high):
        raise PositionError("position.out_of_range", field=field, value=value, low=low, high=high)
    return value


def parse_piece(text: object, field: str = "piece") -> int:
    """A piece from its code (``B3``, case-insensitive); PositionError when unknown
    (``field`` names where the code was read, e.g. ``towers[0]``)."""
    if not isinstance(text, str):
        raise PositionError("flags.piece_not_text", field=field, value=json_fact(text))
    p = BY_NAME.get(text.strip().upper())
    if p is None:
        raise PositionError("flags.unknown_piece", field=field, value=text)
    return p


def mask_of(pieces: list[int] | tuple[int, ...]) -> int:
    """The bit mask of some pieces."""
    m = 0
    for p in pieces:
        m |= 1 << p
    return m
