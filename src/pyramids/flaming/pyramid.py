"""The shared pyramid and the state's fields: tiles by position, forced spots, base ends.

``Pyramid`` holds every field of a Flaming Pyramids state and keeps the derived
structures current as tiles come and go: the forced spots F (FP-PLACE-3), the base
row's ends (FP-GEOM-6), the keys of embers, and ``_cands``, the places where mayhem
may now stand (see ``mayhem``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramids.core.game import Action
from pyramids.flaming.tiles import (
    ABOVE_LEFT,
    ABOVE_RIGHT,
    HALF,
    IS_EMBER,
    MAX_ROW,
    NEIGHBOUR_SET,
    ROW,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    col_of,
    is_base,
    key_of,
)

if TYPE_CHECKING:
    from pyramids.flaming.game import FlamingGame

# Actions: two fall directions, six die faces, then placements (tile + spot).
LEFT: Action = 0
RIGHT: Action = 1
DIE_BASE: Action = 2  # die:1 is 2 ... die:6 is 7
PLACE_BASE: Action = 8
_KEY_OFFSET = MAX_ROW * ROW + HALF
HAND_SIZE = 5

# Pending decisions in the middle of a turn.
NONE, FALL, DIE = 0, 1, 2


def place_action(tile: int, key: int) -> Action:
    """The action that plays ``tile`` at position ``key``."""
    return PLACE_BASE + ((key + _KEY_OFFSET) << 6) + tile


def decode_place(action: Action) -> tuple[int, int]:
    """(tile, key) of a placement action."""
    a = action - PLACE_BASE
    return a & 63, (a >> 6) - _KEY_OFFSET


class Pyramid:
    """The fields of a state and the pyramid's upkeep (no rules decisions here)."""

    __slots__ = (
        "_base_hi",
        "_base_lo",
        "_base_n",
        "_board",
        "_cands",
        "_embers",
        "_events",
        "_hands",
        "_hidden",
        "_in_play",
        "_known",
        "_out",
        "_pending",
        "_pending_key",
        "_piles",
        "_quenched",
        "_ranking",
        "_resp",
        "_spots",
        "_to_move",
        "_turn",
        "_winner",
        "game",
    )

    game: FlamingGame
    _board: dict[int, int]
    _hands: list[list[int]]
    _piles: list[list[int]]
    _hidden: list[int]
    _known: list[int]
    _in_play: int
    _out: list[int]
    _spots: set[int]
    _embers: set[int]
    _cands: set[int]
    _quenched: dict[int, int]
    _events: list[tuple[Any, ...]]
    _ranking: list[int] | None

    def __init__(self, game: FlamingGame) -> None:
        self.game = game
        n = game.num_players
        self._board = {}
        self._hands = [[] for _ in range(n)]
        self._piles = [[] for _ in range(n)]
        self._hidden = [0] * n
        self._known = [0] * n
        self._in_play = 0
        self._out = []
        self._spots = set()
        self._embers = set()
        self._cands = set()
        self._quenched = {}
        self._events = []
        self._base_lo = 0
        self._base_hi = 0
        self._base_n = 0
        self._to_move = 0
        self._turn = 1
        self._resp = 0
        self._pending = NONE
        self._pending_key = 0
        self._winner = -1
        self._ranking = None

    # --- derived structures ---------------------------------------------------------

    def _rebuild(self) -> None:
        """Recompute spots, base bounds and ember keys from the board (after loading)."""
        board = self._board
        in_play = 0
        for t in board.values():
            in_play |= 1 << t
        for tiles in (*self._hands, *self._piles):
            for t in tiles:
                in_play |= 1 << t
        self._in_play = in_play
        base = [col_of(k) for k in board if is_base(k)]
        self._base_n = len(base)
        self._base_lo = min(base) if base else 0
        self._base_hi = max(base) if base else 0
        self._embers = {k for k, t in board.items() if IS_EMBER[t]}
        self._spots = set()
        for k in board:
            self._spot_update(k + ABOVE_LEFT)
            self._spot_update(k + ABOVE_RIGHT)
        self._rescan_base(self._base_lo, self._base_hi)
        self._cands = set(board)

    def _spot_update(self, k: int) -> None:
        """Recompute whether the empty position ``k`` is a forced spot (FP-PLACE-3)."""
        board = self._board
        if k in board:
            self._spots.discard(k)
            return
        if -HALF < k < HALF:
            is_spot = self._base_n >= 2 and self._base_lo < k < self._base_hi
        else:
            is_spot = (k + SUPPORT_LEFT) in board and (k + SUPPORT_RIGHT) in board
        if is_spot:
            self._spots.add(k)
        else:
            self._spots.discard(k)

    def _rescan_base(self, lo: int, hi: int) -> None:
        """Recompute base gaps for columns lo..hi (base keys equal their column)."""
        for c in range(lo - (lo % 2), hi + 1, 2):
            self._spot_update(c)

    # --- board mutations ------------------------------------------------------------

    def _add(self, k: int, t: int) -> None:
        """Put tile ``t`` at ``k`` and mark what may now have an event."""
        board = self._board
        board[k] = t
        spots = self._spots
        spots.discard(k)
        cands = self._cands
        cands.add(k)
        above = k + ABOVE_LEFT
        if above in board:
            cands.add(above)
        elif (above + SUPPORT_LEFT) in board:
            spots.add(above)
        above = k + ABOVE_RIGHT
        if above in board:
            cands.add(above)
        elif (above + SUPPORT_RIGHT) in board:
            spots.add(above)
        if -HALF < k < HALF:
            if self._base_n == 0:
                self._base_lo = self._base_hi = k
                self._base_n = 1
            else:
                self._base_n += 1
                lo, hi = self._base_lo, self._base_hi
                if k < lo:
                    self._base_lo = k
                    if k < lo - 2:
                        self._rescan_base(k + 2, lo - 2)
                elif k > hi:
                    self._base_hi = k
                    if k > hi + 2:
                        self._rescan_base(hi + 2, k - 2)
        embers = self._embers
        if embers:
            for e in embers:
                if (e - k) in NEIGHBOUR_SET:
                    cands.add(e)
        if IS_EMBER[t]:
            embers.add(k)

    def _remove(self, k: int) -> int:
        """Take the tile at ``k`` off the pyramid and return it."""
        board = self._board
        t = board.pop(k)
        cands = self._cands
        cands.discard(k)
        above = k + ABOVE_LEFT
        if above in board:
            cands.add(above)
        else:
            self._spots.discard(above)
        above = k + ABOVE_RIGHT
        if above in board:
            cands.add(above)
        else:
            self._spots.discard(above)
        if -HALF < k < HALF:
            self._base_n -= 1
            lo, hi = self._base_lo, self._base_hi
            if self._base_n == 0:
                self._rescan_base(lo, hi)
            elif k in (lo, hi):
                while lo not in board:
                    lo += 2
                while hi not in board:
                    hi -= 2
                old_lo, old_hi = self._base_lo, self._base_hi
                self._base_lo, self._base_hi = lo, hi
                self._rescan_base(old_lo, old_hi)
            else:
                self._spots.add(k)
        else:
            self._spot_update(k)
        if IS_EMBER[t]:
            self._embers.discard(k)
            self._quenched.pop(t, None)
        return t

    def placement_spots(self) -> list[int]:
        """The spots the active player may play on, in scan order (FP-PLACE)."""
        if self._spots:
            return sorted(self._spots)
        if not self._base_n:
            return [key_of(0, 0)]
        return [self._base_lo - 2, self._base_hi + 2]
