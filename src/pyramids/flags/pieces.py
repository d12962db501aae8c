"""The 30 pyramids of Pyramids and Flags (PF-PIECE-1, PF-PIECE-2): names, colours, sizes.

A piece is an int ``colour * 3 + size - 1``. Colours are numbered in the contract's
order: the six flag colours ``K W Y B G R`` (pieces 0..17, on the table) and the four
scoring colours ``O P C X`` (pieces 18..29, in the bank). ``B3`` is the large blue.
"""

from __future__ import annotations

from pyramids.core.errors import PositionError
from pyramids.core.fields import json_fact

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
