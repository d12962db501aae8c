"""The 45 Flaming Pyramids tiles (FP-TILE), the geometry of spots (FP-GEOM) and fit (FP-FIT).

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
    """What a tile is made of (FP-TILE-2, FP-TILE-3, FP-TILE-4, FP-TILE-5, FP-TILE-6): straw, wood, stone; embers start fires."""

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
    """FP-TILE-2, FP-TILE-3, FP-TILE-4, FP-TILE-5, FP-TILE-6: straw 2-6, wood 10-40, stone 60 and up, embers 1 and 7."""
    if weight in (1, 7):
        return Material.EMBER
    if weight <= 6:
        return Material.STRAW
    if weight <= 40:
        return Material.WOOD
    return Material.STONE


def _build() -> list[tuple[str, int]]:
    """FP-TILE-1: 45 distinct tiles, a colour letter and a weight each (FP-TILE-5: W200)."""
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
"""FP-TILE-6: per ember, the materials it sets on fire (coal: straw; blowtorch: straw and wood)."""

BY_NAME: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

MILLSTONE = BY_NAME["W200"]
EMBERS: tuple[int, ...] = tuple(i for i in range(NUM_TILES) if IS_EMBER[i])
ALL_TILES: frozenset[int] = frozenset(range(NUM_TILES))
BASIC_TILES: frozenset[int] = ALL_TILES - set(EMBERS) - {MILLSTONE}
"""FP-TILE-7: the 40 tiles of the basic game (no embers, no millstone)."""

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
"""FP-GEOM-3: offsets of the six touching positions (beside, below, above)."""
NEIGHBOUR_SET = frozenset(NEIGHBOURS)


def key_of(row: int, col: int) -> int:
    """The int key of position (row, col); ascending keys are the scan order (FP-GEOM-4).

    Columns are never renumbered, so they may be negative (FP-GEOM-5).
    """
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


def parse_tile(text: str, field: str = "tile") -> int:
    """A tile from its code (``R40``); PositionError ``flaming.unknown_tile`` for an unknown code.

    ``field`` names where the code was read (``hands[0]``, ``out``, ``pyramid``...).
    """
    tile = BY_NAME.get(text.strip().upper())
    if tile is None:
        raise PositionError("flaming.unknown_tile", field=field, value=text)
    return tile


def check_spot(row: int, col: int) -> int:
    """The key of (row, col) after checking range and parity (FP-GEOM-1); PositionError otherwise.

    The facts name the spot as the notation writes it (``"1001,1"``), so a row or column of
    any size reads the same in both engines.
    """
    spot = f"{row},{col}"
    if not 0 <= row <= MAX_ROW:
        raise PositionError("flaming.row_out_of_range", spot=spot, max_row=MAX_ROW)
    if not -MAX_COL < col < MAX_COL:
        raise PositionError("flaming.column_out_of_range", spot=spot)
    if (col - row) % 2:
        raise PositionError("flaming.wrong_parity", spot=spot, row=row, even=row % 2 == 0)
    return key_of(row, col)


def supports_of(key: int) -> tuple[int, int]:
    """FP-GEOM-2: the keys of the left and right supports of ``key``."""
    return key + SUPPORT_LEFT, key + SUPPORT_RIGHT


def completes_curse(tile: int, left: int, right: int) -> bool:
    """FP-CURSE-2: ``tile`` on the two supports ``left`` and ``right``, all three of one number
    (colours do not matter)."""
    return WEIGHT[tile] == WEIGHT[left] == WEIGHT[right]


def fits(tile: int, left: int | None, right: int | None) -> bool:
    """FP-FIT-1, FP-FIT-2, FP-FIT-3: weight within the present supports' sum and a colour or number match.

    ``left``/``right`` are the support tiles (None when absent). The millstone's colour
    bits are all four colours (FP-FIT-2); with one support only that one counts
    (FP-FIT-3); with none the tile fits (it is free air, not a misfit). Base tiles are
    never checked (FP-FIT-4).
    """
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


def fit_parts(tile: int, supports: list[int]) -> tuple[bool, bool]:
    """Why ``tile`` would not fit on ``supports`` (FP-FIT-1): (too heavy, no colour or number match).

    ``fits`` is the rule; this splits a misfit into its two reasons for hints and texts.
    """
    w = WEIGHT[tile]
    heavy = w > sum(WEIGHT[s] for s in supports)
    colours = 0
    for s in supports:
        colours |= COLOUR[s]
    mismatch = (
        bool(supports) and COLOUR[tile] & colours == 0 and all(w != WEIGHT[s] for s in supports)
    )
    return heavy, mismatch
