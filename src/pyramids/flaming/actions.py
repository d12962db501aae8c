"""Actions as ints and as text (FP-NOTE-1, FP-NOTE-2).

Two fall sides, six die faces, then placements: one int per (tile, spot); above every
placement, the check actions of call-out mode (FP-CALL-3): ``ok``, then one call per
position. The placement encoding lives only in ``place_action`` and ``decode_place``,
the call encoding in ``call_action`` and ``decode_call``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pyramids.core.errors import ActionParseError, PositionError
from pyramids.core.fields import json_fact
from pyramids.core.game import Action
from pyramids.flaming.tiles import HALF, MAX_ROW, NAMES, ROW, check_spot, col_of, parse_tile, row_of

LEFT: Action = 0
RIGHT: Action = 1
DIE_BASE: Action = 2
"""``die:1`` is DIE_BASE ... ``die:6`` is DIE_BASE + 5."""
PLACE_BASE: Action = 8
"""Every placement action is at least PLACE_BASE."""

_KEY_OFFSET = MAX_ROW * ROW + HALF
CHECK_OK: Action = 1 << 40
"""``ok``: the checker finds nothing wrong (FP-CALL-3). Above every placement action."""
CALL_BASE: Action = CHECK_OK + 1
"""``call:r,c`` is CALL_BASE + key + _KEY_OFFSET (FP-CALL-3)."""
# The notation's digits are ASCII (FP-NOTE-1): ``[0-9]``, not ``\d`` (which takes any
# Unicode digit, e.g. Arabic-Indic ``٤``).
_CALL_RE = re.compile(r"^\s*call\s*:\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*$", re.IGNORECASE)
_PLACE_RE = re.compile(r"^\s*([A-Za-z][0-9]+)\s*@\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*$")
_DIE_RE = re.compile(r"^\s*die\s*:\s*([0-9]+)\s*$", re.IGNORECASE)


def place_action(tile: int, key: int) -> Action:
    """The action that plays ``tile`` at position ``key`` (FP-PLACE-1)."""
    return PLACE_BASE + ((key + _KEY_OFFSET) << 6) + tile


def place_actions(tiles: Sequence[int], keys: Iterable[int]) -> list[Action]:
    """``place_action(t, k)`` for each key, then each tile (the legal list's order), in one pass.

    The tile is the low part of a placement action, so each spot's actions are its
    tile-0 action plus the tile.
    """
    return [base + t for base in [place_action(0, k) for k in keys] for t in tiles]


def decode_place(action: Action) -> tuple[int, int]:
    """(tile, key) of a placement action."""
    a = action - PLACE_BASE
    return a & 63, (a >> 6) - _KEY_OFFSET


def is_place(action: Action) -> bool:
    """Whether ``action`` is a placement (FP-PLACE-1), not a fall, die face or check."""
    return PLACE_BASE <= action < CHECK_OK


def is_check(action: Action) -> bool:
    """Whether ``action`` answers a check: ``ok`` or a call (FP-CALL-3)."""
    return action >= CHECK_OK


def call_action(key: int) -> Action:
    """The check action ``call:r,c`` naming position ``key`` (FP-CALL-3)."""
    return CALL_BASE + key + _KEY_OFFSET


def decode_call(action: Action) -> int:
    """The position key a call action names."""
    return action - CALL_BASE - _KEY_OFFSET


def die_action(roll: int) -> Action:
    """The chance outcome ``die:roll`` (FP-DIE-1)."""
    return DIE_BASE + roll - 1


def tile_at(tile: int, key: int) -> str:
    """FP-NOTE-1: a tile on the pyramid (or a placement) as ``TILE@row,col``."""
    return f"{NAMES[tile]}@{row_of(key)},{col_of(key)}"


def parse_tile_at(text: object, field: str = "tile") -> tuple[int, int]:
    """(tile, key) from ``TILE@row,col`` (FP-NOTE-1); PositionError when malformed.

    ``flaming.not_tile_at`` names the ``field`` read and the refused ``value``; a bad tile
    code or spot raises its own code (``flaming.unknown_tile``, ``flaming.row_out_of_range``...).
    """
    m = _PLACE_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise PositionError("flaming.not_tile_at", field=field, value=json_fact(text))
    tile = parse_tile(m.group(1), field)
    key = check_spot(int(m.group(2)), int(m.group(3)))
    return tile, key


def action_to_text(action: Action) -> str:
    """An action in the notation: ``TILE@row,col``, ``left``/``right``, ``die:N``, ``ok`` or ``call:r,c`` (FP-NOTE-2, FP-CALL-3)."""
    if action >= CHECK_OK:
        if action == CHECK_OK:
            return "ok"
        key = decode_call(action)
        return f"call:{row_of(key)},{col_of(key)}"
    if action == LEFT:
        return "left"
    if action == RIGHT:
        return "right"
    if DIE_BASE <= action < PLACE_BASE:
        return f"die:{action - DIE_BASE + 1}"
    tile, key = decode_place(action)
    return tile_at(tile, key)


def parse_action(text: str) -> Action:
    """An action from text; ActionParseError when it is not an action at all (FP-NOTE-2)."""
    if not isinstance(text, str):
        raise ActionParseError("flaming.action_not_text", value=json_fact(text))
    word = text.strip().lower()
    if word == "left":
        return LEFT
    if word == "right":
        return RIGHT
    if word == "ok":
        return CHECK_OK
    m = _CALL_RE.match(text)
    if m:
        try:
            key = check_spot(int(m.group(1)), int(m.group(2)))
        except PositionError as exc:
            raise ActionParseError(exc.code, **exc.data) from None
        return call_action(key)
    m = _DIE_RE.match(text)
    if m:
        face = int(m.group(1))
        if not 1 <= face <= 6:
            raise ActionParseError("flaming.bad_die_face", value=text)
        return die_action(face)
    try:
        tile, key = parse_tile_at(text, "action")
    except PositionError as exc:
        if exc.code == "flaming.not_tile_at":
            raise ActionParseError("flaming.unreadable_action", value=text) from None
        raise ActionParseError(exc.code, **exc.data) from None
    return place_action(tile, key)
