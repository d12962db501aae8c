"""The 45 Flaming Pyramids tiles (rule FP-TILE) and the geometry of spots (FP-GEOM).

Tiles are ints 0..44, ordered by colour (Y, R, G, B, then the millstone W200) and
weight. Per-tile facts live in flat tuples indexed by tile so the rules' inner loops
read them with one subscript.

Positions are int keys: ``key = -row * ROW + col``. Ascending keys are the contract's
scan order (rows from the top down, then columns from the left), and each neighbour
is a constant offset away.
"""

from __future__ import annotations

from enum import IntEnum

from pyramids.core.errors import PositionError


class Material(IntEnum):
    """What a tile is made of; embers are the fire starters."""

    STRAW = 1
    WOOD = 2
    STONE = 4
    EMBER = 8


COLOUR_BITS = {"Y": 1, "R": 2, "G": 4, "B": 8, "W": 15}
"""Colour letters as bit masks; the millstone W200 carries every colour."""

COLOURS = ("Y", "R", "G", "B")
COLOUR_NAMES_EN = {"Y": "yellow", "R": "red", "G": "green", "B": "blue", "W": "white"}
COLOUR_NAMES_FR = {"Y": "jaune", "R": "rouge", "G": "vert", "B": "bleu", "W": "blanc"}

_EMBER_WEIGHTS = {"Y": 1, "G": 1, "R": 7, "B": 7}


def _material(weight: int) -> Material:
    if weight in (1, 7):
        return Material.EMBER
    if weight <= 6:
        return Material.STRAW
    if weight <= 40:
        return Material.WOOD
    return Material.STONE


def _build() -> list[tuple[str, int]]:
    tiles: list[tuple[str, int]] = []
    for colour in COLOURS:
        weights = sorted([_EMBER_WEIGHTS[colour], 2, 4, 6, 10, 20, 30, 40, 60, 100, 120])
        tiles.extend((colour, w) for w in weights)
    tiles.append(("W", 200))
    return tiles


_TILES = _build()

NUM_TILES = len(_TILES)
"""45."""

NAMES: tuple[str, ...] = tuple(f"{c}{w}" for c, w in _TILES)
WEIGHT: tuple[int, ...] = tuple(w for _, w in _TILES)
COLOUR: tuple[int, ...] = tuple(COLOUR_BITS[c] for c, _ in _TILES)
COLOUR_LETTER: tuple[str, ...] = tuple(c for c, _ in _TILES)
MATERIAL: tuple[Material, ...] = tuple(_material(w) for _, w in _TILES)
IS_EMBER: tuple[bool, ...] = tuple(m is Material.EMBER for m in MATERIAL)
IGNITES: tuple[int, ...] = tuple(
    (Material.STRAW if w == 1 else Material.STRAW | Material.WOOD) if m is Material.EMBER else 0
    for (_, w), m in zip(_TILES, MATERIAL, strict=True)
)
"""Per ember, the materials it sets on fire (coal: straw; blowtorch: straw and wood)."""

BY_NAME: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

MILLSTONE = BY_NAME["W200"]
EMBERS: tuple[int, ...] = tuple(i for i in range(NUM_TILES) if IS_EMBER[i])
ALL_TILES: frozenset[int] = frozenset(range(NUM_TILES))
BASIC_TILES: frozenset[int] = ALL_TILES - set(EMBERS) - {MILLSTONE}
"""The 40 tiles of the basic game (no embers, no millstone)."""

# --- geometry -------------------------------------------------------------------

ROW = 1 << 20
HALF = ROW >> 1
MAX_COL = HALF // 2
"""Columns are limited to |col| < MAX_COL so neighbour offsets never wrap into another row."""
MAX_ROW = 1000

SUPPORT_LEFT = ROW - 1  # (r-1, c-1)
SUPPORT_RIGHT = ROW + 1  # (r-1, c+1)
ABOVE_LEFT = -ROW - 1  # (r+1, c-1)
ABOVE_RIGHT = -ROW + 1  # (r+1, c+1)
LEFT = -2
RIGHT = 2
NEIGHBOURS = (LEFT, RIGHT, SUPPORT_LEFT, SUPPORT_RIGHT, ABOVE_LEFT, ABOVE_RIGHT)
"""Offsets of the six touching positions."""
NEIGHBOUR_SET = frozenset(NEIGHBOURS)


def key_of(row: int, col: int) -> int:
    """The int key of position (row, col)."""
    return -row * ROW + col


def row_of(key: int) -> int:
    """The row of a key."""
    return -((key + HALF) // ROW)


def col_of(key: int) -> int:
    """The column of a key."""
    return key + row_of(key) * ROW


def is_base(key: int) -> bool:
    """Whether the key is in row 0."""
    return -HALF < key < HALF


def spot_name(key: int) -> str:
    """``row,col`` as in the notation."""
    return f"{row_of(key)},{col_of(key)}"


def parse_tile(text: str) -> int:
    """A tile from its code (``R40``); PositionError for an unknown code."""
    tile = BY_NAME.get(text.strip().upper())
    if tile is None:
        raise PositionError(
            f"unknown tile {text!r} (tiles are a colour Y/R/G/B/W and a weight, e.g. R40)"
        )
    return tile


def check_spot(row: int, col: int) -> int:
    """The key of (row, col) after checking range and parity; PositionError otherwise."""
    if not 0 <= row <= MAX_ROW:
        raise PositionError(f"row {row} is out of range (0 to {MAX_ROW})")
    if not -MAX_COL < col < MAX_COL:
        raise PositionError(f"column {col} is out of range")
    if (col - row) % 2:
        raise PositionError(
            f"spot {row},{col} has the wrong parity: a tile in row {row} sits on "
            f"{'even' if row % 2 == 0 else 'odd'} columns"
        )
    return key_of(row, col)


def fits(tile: int, left: int | None, right: int | None) -> bool:
    """FP-FIT: weight within the present supports' sum and a colour or number match."""
    w = WEIGHT[tile]
    c = COLOUR[tile]
    if left is None:
        if right is None:
            return True
        return w <= WEIGHT[right] and (c & COLOUR[right] != 0 or w == WEIGHT[right])
    if right is None:
        return w <= WEIGHT[left] and (c & COLOUR[left] != 0 or w == WEIGHT[left])
    return w <= WEIGHT[left] + WEIGHT[right] and (
        c & (COLOUR[left] | COLOUR[right]) != 0 or w in (WEIGHT[left], WEIGHT[right])
    )
